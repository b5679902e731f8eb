"""The 変換メモ sheet of a converted workbook: the account as rows a GM reads in Excel (every
source and target field with its kind, how, the anchors and the authority), then the GM's list
for the direction and what the conversion and the target's engine found.

Plain rows only: ``files.py`` hands them to the sheet writer as an appendix, so the template and
the reader never change for it. Standard library only.
"""
from __future__ import annotations

import json
from typing import Any

from ..core.findings import Finding
from ..core.texts import texts
from .conversion import Conversion

TITLE = "変換メモ"
WIDTHS = (8, 34, 16, 8, 60, 40, 22, 40)


def _cell(value: Any) -> Any:
    """A leaf as a cell: numbers and text as they are, an empty list or object as JSON."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return json.dumps(value, ensure_ascii=False)


def _finding(f: Finding, lang: str) -> list[Any]:
    return [f.level.value, f.pointer or None, None, f.code, f.message(lang)]


def memo_rows(conversion: Conversion, lang: str = "ja") -> tuple[list[list[Any]], frozenset[int]]:
    """(the rows, the indexes of the heading rows) of the 変換メモ sheet."""
    t = texts(lang)
    acc = conversion.account
    rows: list[list[Any]] = [[t["convert_heading"].format(source=acc.source_system, target=acc.target_system)],
                             t["convert_memo_columns"].split("|")]
    headings = {0, 1}
    for side, entries in (("source", acc.source), ("target", acc.target)):
        for e in entries:
            anchors = "; ".join(f"{a.system} {a.field} " + "/".join(f"{v:g}" for v in a.values)
                                for a in acc.anchors_for(e))
            how = e.row.how(lang) if e.row is not None else t["convert_unlisted"]
            rows.append([t[f"convert_side_{side}"], e.pointer, _cell(e.value), t["convert_kind_" + e.kind],
                         how, anchors or None, e.row.source if e.row is not None else None,
                         ", ".join(e.row.targets if side == "source" else e.row.sources) or None if e.row else None])
    rows.append([])
    headings.add(len(rows))
    rows.append([t["convert_decisions"]])
    rows.extend([k, d["en" if lang == "en" else "ja"]] for k, d in enumerate(acc.decisions, 1))
    for title, found in ((t["convert_findings"], conversion.findings),
                         (t["convert_checked"].format(system=acc.target_system,
                                                      total="—" if conversion.total is None else conversion.total,
                                                      count=len(conversion.to_decide)), conversion.to_decide)):
        if found:
            rows.append([])
            headings.add(len(rows))
            rows.append([title])
            rows.extend(_finding(f, lang) for f in found)
    return rows, frozenset(headings)

"""What an annotated copy shows, whichever way it is made (``package_annotate`` editing the
package, ``annotate``'s openpyxl copy): each finding's cells, their fill by severity and their
note in the report's language, and the rows of the first sheet 監査 / Audit (counts by severity,
one row per finding linked to its cell). The words are ``annotate.toml``'s."""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Sequence

from ..core.findings import Finding, Severity
from ..io.xlsx_package import EXCEL_COLUMNS, EXCEL_ROWS, column_index, column_letters

#: a cell's fill per severity (ARGB): Excel's own red and amber of "bad" and "neutral"
FILLS = {Severity.ERROR: "FFFFC7CE", Severity.WARNING: "FFFFEB9C", Severity.INFO: "FFDDEBF7"}
_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
_CELL = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$")
MAX_RANGE_CELLS = 400  # a finding placed on a range marks at most this many of its cells
#: the audit sheet's column widths (A to E: severity, code, cell, pointer, message)
AUDIT_WIDTHS = (10, 30, 22, 28, 100)

Place = tuple[str, int, int]  # (sheet, row, column), 1-based

@lru_cache(maxsize=1)
def annotate_toml() -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath("annotate.toml").read_text("utf-8"))


def word(key: str, lang: str) -> str:
    entry = annotate_toml()["words"][key]
    return entry["en"] if lang == "en" else entry["ja"]

def sheet_title(name: str, taken: Iterable[str]) -> str:
    """``name`` as a sheet title openpyxl accepts (31 characters, none of []:*?/\\), unique."""
    title = re.sub(r"[\[\]:*?/\\]", "_", name)[:31] or "Sheet"
    used = {t.casefold() for t in taken}  # Excel's sheet names ignore case
    n = 2
    base = title
    while title.casefold() in used:
        suffix = f" ({n})"
        title = base[:31 - len(suffix)] + suffix
        n += 1
    return title


def cell_place(cell: str) -> tuple[str, list[tuple[int, int]]] | None:
    """``Sheet!C12`` (or ``'Sheet'!C12:D13``) → (sheet, its cells as 1-based (row, column)); None
    for anything else (a finding about the whole file)."""
    sheet, bang, ref = cell.rpartition("!")
    if not bang or not sheet:
        return None
    if sheet.startswith("'") and sheet.endswith("'") and len(sheet) > 1:
        sheet = sheet[1:-1].replace("''", "'")
    m = _CELL.match(ref.strip())
    if m is None:
        return None
    c1, r1 = column_index(m.group(1).upper()) + 1, int(m.group(2))
    c2, r2 = (column_index(m.group(3).upper()) + 1, int(m.group(4))) if m.group(3) else (c1, r1)
    top, bottom, left, right = min(r1, r2), max(r1, r2), min(c1, c2), max(c1, c2)
    cells = [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)][:MAX_RANGE_CELLS]
    return sheet, cells


def _note(finding: Finding, lang: str) -> str:
    """The cell note of one finding: severity and code, the message, the fix, the expected value."""
    lines = [f"[{word(finding.level.value, lang)}] {finding.code}", finding.message(lang),
             f"{word('hint', lang)}: {finding.hint(lang)}"]
    expected = finding.params.get("expected")
    if expected is not None and expected != "":
        lines.append(f"{word('expected', lang)}: {expected}")
    return "\n".join(lines)


def placements(findings: Sequence[Finding], sheets: Iterable[str]
               ) -> tuple[dict[Place, list[Finding]], dict[int, Place]]:
    """Where findings go in a workbook of these sheets: each cell's findings, and finding index →
    its first cell, for the findings whose cell is in the workbook (and inside Excel's grid)."""
    names = set(sheets)
    by_cell: dict[Place, list[Finding]] = {}
    marked: dict[int, Place] = {}
    for i, finding in enumerate(findings):
        place = cell_place(finding.cell) if finding.cell else None
        if place is None or place[0] not in names:
            continue
        sheet, cells = place
        cells = [(r, c) for r, c in cells if r <= EXCEL_ROWS and c <= EXCEL_COLUMNS]
        if not cells:
            continue
        marked[i] = (sheet, *cells[0])
        for r, c in cells:
            by_cell.setdefault((sheet, r, c), []).append(finding)
    return by_cell, marked


def worst(findings: Iterable[Finding]) -> Severity:
    return min((f.level for f in findings), key=_ORDER.__getitem__)


def note_text(findings: Sequence[Finding], lang: str) -> str:
    """A cell's note: each of its findings' notes, one after another."""
    return "\n\n".join(_note(f, lang) for f in findings)


#: a note's box, in pixels: wide enough for a hint, as tall as its lines (capped)
NOTE_WIDTH = 420


def note_height(text: str) -> int:
    return min(600, 20 * (text.count("\n") + 2) + len(text) // 3)

@dataclass(frozen=True)
class AuditLine:
    """One row of the audit sheet, from column A; how it looks, and the cell its third cell
    links to. Both copies (package and openpyxl) write these same rows."""

    values: tuple[Any, ...] = ()
    look: str = ""  # "title", "bold" or ""
    fill: Severity | None = None  # the first cell's fill
    link: Place | None = None


def audit_lines(name: str, findings: Sequence[Finding], marked: dict[int, Place], lang: str,
                legacy: bool) -> list[AuditLine]:
    """The audit sheet: a title, the file, counts by severity, then one row per finding (errors
    first) linked to its cell."""
    lines = [AuditLine((word("heading", lang),), "title"), AuditLine((word("file", lang), name))]
    if legacy:
        lines.append(AuditLine((word("legacy", lang),)))
    lines += [AuditLine(), AuditLine((word("counts", lang),), "bold")]
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        lines.append(AuditLine((word(severity.value, lang), sum(1 for f in findings if f.level is severity)),
                               fill=severity))
    lines += [AuditLine(), AuditLine(tuple(word(k, lang) for k in ("severity", "code", "cell", "pointer", "message")),
                                     "bold")]
    for i in sorted(range(len(findings)), key=lambda i: (_ORDER[findings[i].level], i)):
        f = findings[i]
        lines.append(AuditLine((word(f.level.value, lang), f.code, f.cell, f.pointer, f.message(lang)),
                               fill=f.level, link=marked.get(i)))
    return lines


def link_location(place: Place) -> str:
    """A hyperlink's location inside the workbook: ``'Sheet'!C12``."""
    sheet, r, c = place
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{_a1(r, c)}"


def audit_title(taken: Iterable[str], lang: str) -> str:
    return sheet_title(word("sheet", lang), taken)

def _a1(row: int, col: int) -> str:
    return f"{column_letters(col - 1)}{row}"

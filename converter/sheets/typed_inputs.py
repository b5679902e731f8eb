"""Typed values the formulas cannot count, shown on the sheet as ``check`` reports them.

The rule (docs/templates.md, 入力の読み方): a number cell counts only a number, a ○ cell only
○ (× and blank are "no"), a list cell only a label of its list. Text in a number cell -- ``５``
or ``'12`` stored as text, ``1,000``, a lone space -- anything but ○/× in a ○ cell (``〇``,
``はい``) and a list value misspelt (``実弾``) turns red, is counted in the
入力エラー cell near the totals, and the totals it would feed show 「入力エラー」 instead of a
figure: LibreOffice refuses ``"５"+1`` where Gnumeric computes 6, so no figure computed from such a
cell is the same in every spreadsheet. ``sheets/cells.py`` reads the same cells as findings at
the same cells (SHEET_NUMBER_AS_TEXT, SHEET_NOT_INTEGER, SHEET_NOT_BOOL, SHEET_ENUM_UNKNOWN).
Only ``ISNUMBER``,
``LEN``, ``COUNTA``, ``COUNT`` and ``COUNTIF`` of a literal are used: every engine computes
them alike.
"""
from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from .layout import a1, sheet_prefix
from .system_sheet import FALSE, TRUE

NUMBER_KINDS = ("int", "number", "enum_int")  # cells whose formulas read a number
SHOWN = "入力エラー"  # what a gated total shows while an input error stands


def is_input_error(value: Any, kind: str, labels: Sequence[str] = ()) -> bool:
    """Whether ``value`` written into a cell of ``kind`` is what the formulas cannot count
    (``labels``: a list cell's choices, which it must name as MATCH compares them)."""
    if value is None:
        return False
    if kind == "enum":
        return not isinstance(value, str) or value.lower() not in {str(x).lower() for x in labels}
    if kind in NUMBER_KINDS:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return True
        return kind == "enum_int" and str(int(value)) not in labels
    if kind == "bool":
        return not isinstance(value, bool) and value not in (TRUE, FALSE)
    return False


def _criterion(label: str) -> str:
    """A COUNTIF criterion matching ``label`` exactly (as MATCH does, case aside): a number as a
    number, a text after ``=`` so that no label reads as a comparison."""
    if re.fullmatch(r"-?\d+", label):
        return label
    return '"=' + label.replace('"', '""') + '"'


class TypedCells:
    """The number and ○ input cells of each worksheet as the writer writes them, and how many
    of them hold what the formulas cannot count."""

    def __init__(self) -> None:
        # (sheet, "number" | "bool" | a list's labels joined by a tab) → cells
        self.cells: dict[tuple[str, str], list[tuple[int, int]]] = {}
        self.errors = 0

    def add(self, sheet: str, r: int, c: int, kind: str, value: Any, labels: Sequence[str] = ()) -> None:
        """A number, ○ or list cell and the value written into it (``labels``: a list cell's)."""
        if kind in ("enum", "enum_int") and labels:
            group = "\t".join(labels)
        else:
            group = "number" if kind in NUMBER_KINDS else "bool" if kind == "bool" else ""
        if group:
            self.cells.setdefault((sheet, group), []).append((r, c))
            self.errors += is_input_error(value, kind, labels)

    def red_rules(self, worksheets: Mapping[str, Any], runs, bad_format: Any) -> None:
        """A red rule on every run of cells: text in a number cell, anything but ○/× in a ○ cell
        (a list cell's value not in its list is red by the writer's ``not_in_list``)."""
        for (sheet, group), cells in self.cells.items():
            if group not in ("number", "bool"):
                continue
            ws = worksheets[sheet]
            for r0, c0, r1, c1 in runs(cells):
                ref = a1(r0, c0)
                criteria = (f"=AND(LEN({ref})>0,NOT(ISNUMBER({ref})))" if group == "number"
                            else f'=AND({ref}<>"",{ref}<>"{TRUE}",{ref}<>"{FALSE}")')
                ws.conditional_format(r0, c0, r1, c1, {"type": "formula", "format": bad_format,
                                                       "criteria": criteria})

    def count_formula(self, runs) -> str:
        """The 入力エラー cell's formula: how many number cells hold anything but a number
        (``COUNTA - COUNT``), ○ cells anything but ○ or ×, list cells anything but a label of
        their list (a ``COUNTIF`` per label: no array formula, which engines evaluate apart)."""
        terms: list[str] = []
        for (sheet, group), cells in self.cells.items():
            for r0, c0, r1, c1 in runs(cells):
                rng = sheet_prefix(sheet) + a1(r0, c0, True) + (f":{a1(r1, c1, True)}" if r1 != r0 else "")
                if group == "number":
                    terms.append(f"COUNTA({rng})-COUNT({rng})")
                elif group == "bool":
                    terms.append(f'COUNTA({rng})-COUNTIF({rng},"{TRUE}")-COUNTIF({rng},"{FALSE}")')
                else:  # a list cell: filled, and none of its list's labels
                    terms.append(f"COUNTA({rng})-" + "-".join(f"COUNTIF({rng},{_criterion(label)})"
                                                          for label in group.split("\t")))
        return "=" + ("+".join(terms) if terms else "0")


def gated(formula: str, errors_ref: str) -> str:
    """A total's formula showing 「入力エラー」 while the 入力エラー cell counts any."""
    return f'=IF({errors_ref}>0,"{SHOWN}",{formula.removeprefix("=")})'

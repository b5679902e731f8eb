"""XlsxWriter's worksheet writing a column's repeated formula once, and skipping the
substitutions none of our formulas needs.

A formula that a column repeats row after row, each reference moved down with its row (a table's
computed column, the name-key stages of a catalog), is written as Excel writes it: a shared formula,
the text once in the run's first cell (``<f t="shared" ref="Q2:Q245" si="0">``) and the others
pointing to it (``<f t="shared" si="0"/>``). A cell shares only when moving the first cell's
formula down (:func:`~converter.io.formula_text.translate`, the audit's reading of a shared
formula) gives its own text exactly, so every spreadsheet reads the formula that was written.
Readers then skip one copy instead of hundreds: mailgear's catalog sheet was 0.8 MB of XML.

XlsxWriter prefixes Excel's newer functions with ``_xlfn.`` by running some 150 regular
expressions over every formula: most of the time spent writing a sheet (bench/write_sheets.py).
Each of them ends with a function's name and its opening parenthesis, and none matches a call of
:data:`CLASSIC` (a test asks XlsxWriter of each), so a formula calling only those needs no more
than XlsxWriter's trimming of ``{ = }``; any other formula goes to XlsxWriter's own method.

Three private methods of XlsxWriter's worksheet are overridden (``_prepare_formula``,
``_write_sheet_data``, ``_xml_formula_element``): pyproject.toml pins the XlsxWriter versions
they were read in, and tests/sheets/test_xlsx_worksheet.py fails on any other.
"""
from __future__ import annotations

import re
from functools import partial
from typing import Any, Callable

from xlsxwriter.worksheet import CellFormulaTuple, Worksheet

from ..io.formula_text import row_mover, translate
from ..io.xlsx_package import column_letters

# The functions our formulas call (all Excel 2007's): XlsxWriter prefixes none of them.
CLASSIC = frozenset({
    "AND", "CHAR", "CHOOSE", "COUNT", "COUNTA", "COUNTIF", "COUNTIFS", "IF", "IFERROR", "INDEX", "INT",
    "ISNA", "ISNUMBER", "LEN", "MATCH", "MAX", "MIN", "MOD", "NA", "NOT", "OR", "RIGHT", "ROUNDUP", "ROW",
    "ROWS", "SUBSTITUTE", "SUM", "SUMIF", "SUMIFS", "SUMPRODUCT", "UPPER", "VLOOKUP"})
# A call of any other name, searched for in the reversed formula: "(" then a name that is not one
# of CLASSIC's backwards (a pattern beginning with a literal is found four times as fast).
_OTHER_CALL = re.compile(r"\((?!(?:%s)(?![A-Za-z0-9._]))[A-Za-z0-9._]"
                         % "|".join(name[::-1] for name in sorted(CLASSIC)))
_DIGITS = re.compile(r"[0-9]+")  # a formula moved down differs from its first only in these


def shared_runs(table: dict[int, dict[int, Any]]) -> dict[str, tuple[int, str | None]]:
    """The formula cells of a worksheet's ``table`` (row → column → XlsxWriter's cell) that go
    in a shared formula, by reference (``Q114``): its index and, for a run's first cell, the
    run's range. A run is two or more cells down one column, each the first one's formula moved
    down to it."""
    columns: dict[int, list[tuple[int, str]]] = {}
    for row in sorted(table):
        for col, cell in table[row].items():
            if type(cell) is CellFormulaTuple and isinstance(cell.formula, str):
                columns.setdefault(col, []).append((row, cell.formula))
    out: dict[str, tuple[int, str | None]] = {}
    runs = [(col, run) for col in sorted(columns) for run in _column_runs(columns[col])]
    for index, (col, run) in enumerate(runs):
        letters = column_letters(col)
        out[f"{letters}{run[0] + 1}"] = (index, f"{letters}{run[0] + 1}:{letters}{run[-1] + 1}")
        out.update({f"{letters}{row + 1}": (index, None) for row in run[1:]})
    return out


def _column_runs(cells: list[tuple[int, str]]) -> list[list[int]]:
    """The rows of one column's (row, formula) cells, top down, that form runs of two or more."""
    runs: list[list[int]] = []
    run: list[int] = []
    first, shape = "", ""
    mover: Callable[[int], str] | None = None
    for row, formula in cells:
        if run and row == run[-1] + 1 and _DIGITS.sub("", formula) == shape:  # only row numbers differ
            if mover is None:
                mover = row_mover(first) or partial(translate, first, columns=0)
            if mover(row - run[0]) == formula:
                run.append(row)
                continue
        runs.append(run)
        run, first, shape, mover = [row], formula, _DIGITS.sub("", formula), None
    runs.append(run)
    return [run for run in runs if len(run) > 1]


class SharedFormulaWorksheet(Worksheet):
    """A worksheet that writes a column's repeated formula once (a shared formula); its formulas
    prepared by XlsxWriter's own method (the baseline of bench/write_sheets.py)."""

    _shared: dict[str, tuple[int, str | None]] = {}

    def _write_sheet_data(self) -> None:
        self._shared = shared_runs(self.table)
        super()._write_sheet_data()

    def _xml_formula_element(self, formula: str, result: Any, attributes: list = []) -> None:  # noqa: B006 (the original's signature)
        shared = self._shared.get(attributes[0][1]) if attributes and attributes[0][0] == "r" else None
        if shared is None:
            return super()._xml_formula_element(formula, result, attributes)
        index, ref = shared
        attr = "".join(f' {key}="{self._escape_attributes(value)}"' for key, value in attributes)
        result = self._escape_data(result)
        if ref is None:
            self.fh.write(f'<c{attr}><f t="shared" si="{index}"/><v>{result}</v></c>')
        else:
            formula = self._escape_data(formula)
            self.fh.write(f'<c{attr}><f t="shared" ref="{ref}" si="{index}">{formula}</f><v>{result}</v></c>')


class FastFormulaWorksheet(SharedFormulaWorksheet):
    """The worksheet our workbooks use: shared formulas, and a formula calling only
    :data:`CLASSIC` functions prepared by XlsxWriter's trimming alone."""

    def _prepare_formula(self, formula: str, expand_future_functions: bool = False) -> str:
        if _OTHER_CALL.search(formula[::-1]):
            return super()._prepare_formula(formula, expand_future_functions)
        if formula.startswith("{"):  # XlsxWriter's trimming of { = }
            formula = formula[1:]
        if formula.startswith("="):
            formula = formula[1:]
        return formula[:-1] if formula.endswith("}") else formula

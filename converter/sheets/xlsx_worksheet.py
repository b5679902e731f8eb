"""XlsxWriter's worksheet with a faster formula preparation, and a column's repeated formula
written once.

XlsxWriter prefixes Excel's newer functions with ``_xlfn.`` by running some 150 regular
expressions over every formula, and a data validation's or a conditional format's formula again
for every range it covers: most of the time spent writing a sheet. Every one of those patterns
ends with a function name's last letters and an opening parenthesis, so a formula none of whose
calls ends with such letters has nothing to substitute and only the original's trimming of
``{ = }`` applies; any other formula goes to the original method. The names are read from the
installed XlsxWriter's source, so the result is the original method's for whatever version is
installed; where that source cannot be read the same way, only the sharing below applies.

A formula that a column repeats row after row, each reference moved down with its row (a table's
computed column, the name-key stages of a catalog), is written as Excel writes it: a shared formula,
the text once in the run's first cell (``<f t="shared" ref="Q2:Q245" si="0">``) and the others
pointing to it (``<f t="shared" si="0"/>``). A cell shares only when moving the first cell's
formula down (:func:`~converter.io.formula_text.translate`, the audit's reading of a shared
formula) gives its own text exactly, so every spreadsheet reads the formula that was written.
Readers then skip one copy instead of hundreds: mailgear's catalog sheet was 0.8 MB of XML.
"""
from __future__ import annotations

import inspect
import re
from functools import lru_cache
from typing import Any

_PATTERN = re.compile(r"(?:\\b|\\S)?([A-Z0-9.]+)\\\($")  # \bNAME\( or \SNAME\(, NAME with . wildcards
_CALLED = re.compile(r"([A-Z0-9]*)\(")  # each call's maximal run of capitals and digits
_DIGITS = re.compile(r"[0-9]+")  # a formula moved down differs from its first only in these


Patterns = dict[str, tuple[tuple[re.Pattern[str], int], ...]]


@lru_cache(maxsize=1)
def _name_endings() -> Patterns | None:
    """XlsxWriter's patterns, each with the width of text it matches, by the literal last letters
    of their names; None when the source cannot be read that way."""
    try:
        from xlsxwriter.worksheet import Worksheet

        source = inspect.getsource(Worksheet._prepare_formula)
    except (ImportError, OSError, TypeError, AttributeError):
        return None
    patterns = re.findall(r're\.sub\(\s*r"([^"]+)"', source)
    if not patterns or len(patterns) != source.count("re.sub("):
        return None
    endings: dict[str, list[tuple[re.Pattern[str], int]]] = {}
    for pattern in patterns:
        shape = _PATTERN.fullmatch(pattern)
        ending = shape.group(1).rsplit(".", 1)[-1] if shape else ""
        if not shape or not ending:  # a pattern of another shape: step aside
            return None
        width = len(shape.group(1)) + (1 if pattern.startswith("\\S") else 0)
        endings.setdefault(ending, []).append((re.compile(pattern), width))
    return {ending: tuple(found) for ending, found in endings.items()}


@lru_cache(maxsize=4096)
def _may_substitute(formula: str) -> bool:
    """Whether any of XlsxWriter's patterns matches ``formula``. A match ends with one of the
    formula's calls, so only the patterns whose name's ending closes a call are tried, there."""
    endings = _name_endings() or {}
    for call in _CALLED.finditer(formula):
        run, paren = call.group(1), call.end() - 1
        for start in range(len(run)):
            for pattern, width in endings.get(run[start:], ()):
                if paren - width >= 0 and pattern.match(formula, paren - width):
                    return True
    return False


def shared_runs(table: dict[int, dict[int, Any]]) -> dict[str, tuple[int, str | None]]:
    """The formula cells of a worksheet's ``table`` (row → column → XlsxWriter's cell) that go
    in a shared formula, by reference (``Q114``): its index and, for a run's first cell, the
    run's range. A run is two or more cells down one column, each the first one's formula moved
    down to it."""
    from xlsxwriter.worksheet import CellFormulaTuple

    from functools import partial

    from ..io.formula_text import row_mover, translate
    from ..io.xlsx_package import column_letters

    columns: dict[int, list[tuple[int, str]]] = {}
    for row in sorted(table):
        for col, cell in table[row].items():
            if type(cell) is CellFormulaTuple and isinstance(cell.formula, str):
                columns.setdefault(col, []).append((row, cell.formula))
    out: dict[str, tuple[int, str | None]] = {}
    index = 0

    def close(col: int, run: list[int]) -> None:
        nonlocal index
        if len(run) < 2:
            return
        letters = column_letters(col)
        out[f"{letters}{run[0] + 1}"] = (index, f"{letters}{run[0] + 1}:{letters}{run[-1] + 1}")
        for row in run[1:]:
            out[f"{letters}{row + 1}"] = (index, None)
        index += 1

    for col in sorted(columns):
        run: list[int] = []
        first, shape, mover = "", "", None
        for row, formula in columns[col]:
            if run and row == run[-1] + 1 and _DIGITS.sub("", formula) == shape:  # only row numbers differ
                if mover is None:
                    mover = row_mover(first) or partial(translate, first, columns=0)
                if mover(row - run[0]) == formula:
                    run.append(row)
                    continue
            close(col, run)
            run, first, shape, mover = [row], formula, _DIGITS.sub("", formula), None
        close(col, run)
    return out


@lru_cache(maxsize=1)
def shared_worksheet_class() -> type:
    """XlsxWriter's worksheet writing a column's repeated formula once (its formulas prepared
    by XlsxWriter's own method: the baseline of bench/write_sheets.py)."""
    from xlsxwriter.worksheet import Worksheet

    class SharedFormulaWorksheet(Worksheet):
        """A worksheet that writes a column's repeated formula once (a shared formula)."""

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

    return SharedFormulaWorksheet


@lru_cache(maxsize=1)
def worksheet_class() -> type:
    """The worksheet class to give a workbook: shared formulas, and the faster preparation of
    formulas where the installed XlsxWriter's patterns could be read."""
    shared = shared_worksheet_class()
    if _name_endings() is None:
        return shared

    class FastFormulaWorksheet(shared):
        """A worksheet whose formulas skip the substitutions none of their calls can match."""

        def _prepare_formula(self, formula: str, expand_future_functions: bool = False) -> Any:
            trimmed = formula  # the original's trimming of { = }
            if trimmed.startswith("{"):
                trimmed = trimmed[1:]
            if trimmed.startswith("="):
                trimmed = trimmed[1:]
            if trimmed.endswith("}"):
                trimmed = trimmed[:-1]
            if not _may_substitute(trimmed):
                return trimmed
            return super()._prepare_formula(formula, expand_future_functions)

    return FastFormulaWorksheet

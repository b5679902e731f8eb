"""XlsxWriter's worksheet with a faster formula preparation, the same bytes.

XlsxWriter prefixes Excel's newer functions with ``_xlfn.`` by running some 150 regular
expressions over every formula, and a data validation's or a conditional format's formula again
for every range it covers: most of the time spent writing a sheet. Every one of those patterns
ends with a function name's last letters and an opening parenthesis, so a formula none of whose
calls ends with such letters has nothing to substitute and only the original's trimming of
``{ = }`` applies; any other formula goes to the original method. The names are read from the
installed XlsxWriter's source, so the result is the original method's for whatever version is
installed; where that source cannot be read the same way, the plain worksheet is used.
"""
from __future__ import annotations

import inspect
import re
from functools import lru_cache
from typing import Any

_PATTERN = re.compile(r"(?:\\b|\\S)?([A-Z0-9.]+)\\\($")  # \bNAME\( or \SNAME\(, NAME with . wildcards
_CALLED = re.compile(r"([A-Z0-9]*)\(")  # each call's maximal run of capitals and digits


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


@lru_cache(maxsize=1)
def worksheet_class() -> type | None:
    """The worksheet class to give a workbook; None for XlsxWriter's own."""
    endings = _name_endings()
    if endings is None:
        return None
    from xlsxwriter.worksheet import Worksheet

    class FastFormulaWorksheet(Worksheet):
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

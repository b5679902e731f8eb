"""Excel formula text: references moved as a copied formula moves them, and a normal form that
ignores how a spreadsheet re-saves a formula.

Two operations, both on the text only (no parse tree): :func:`translate` shifts the relative
references of a formula by rows and columns, as Excel does when it copies a formula or expands a
shared one (``<f t="shared">``); :func:`normal` drops what a re-save may change without changing
the formula (``_xlfn.``/``_xlws.`` prefixes, letter case, whitespace, sheet-name quotes, ``$``),
so a sheet saved again by LibreOffice or Excel compares equal to the template it came from.
String literals (``"..."``) are never touched.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable

from .xlsx_package import EXCEL_COLUMNS, EXCEL_ROWS, column_index, column_letters

# A cell reference (A1, $A$1) or a whole column (A:A) or row (1:1) range's end; not part of a
# longer name (up.weapons.cost, LOG10( ) nor a sheet name before "!".
_REF = re.compile(r"(?<![A-Za-z0-9_.\\])(\$?)([A-Za-z]{1,3})(\$?)([0-9]{1,7})(?![A-Za-z0-9_.(!\\])")
_COLUMN_RANGE = re.compile(r"(?<![A-Za-z0-9_.\\])(\$?)([A-Za-z]{1,3}):(\$?)([A-Za-z]{1,3})(?![A-Za-z0-9_.(!\\])")
_ROW_RANGE = re.compile(r"(?<![A-Za-z0-9_.:\\])(\$?)([0-9]{1,7}):(\$?)([0-9]{1,7})(?![A-Za-z0-9_.(!:\\])")
_STRING = re.compile(r'"(?:[^"]|"")*"')
_QUOTED_SHEET = re.compile(r"'((?:[^']|'')+)'!")
_PREFIX = re.compile(r"_xlfn\.|_xlws\.", re.I)
_SPACE = re.compile(r"\s+")
_LOGICAL_CALL = re.compile(r"(?<![A-Z0-9_.])(TRUE|FALSE)\(\)")  # LibreOffice writes TRUE() for TRUE


def _apart(text: str, kept: re.Pattern[str], mark: str, edit) -> str:
    """``edit`` applied to each stretch of ``text`` between the matches of ``kept``, which stay
    as they are (``mark``: a character every match holds, for a fast path without any)."""
    if mark not in text:
        return edit(text)
    out, at = [], 0
    for m in kept.finditer(text):
        out.append(edit(text[at:m.start()]))
        out.append(m.group(0))
        at = m.end()
    out.append(edit(text[at:]))
    return "".join(out)


def _outside_strings(formula: str, edit) -> str:
    """``edit`` applied to each stretch of ``formula`` outside its string literals."""
    return _apart(formula, _STRING, '"', edit)


def _quoted_sheets_apart(text: str, edit) -> str:
    """``edit`` applied outside quoted sheet names (a sheet named 'A1' stays a name)."""
    return _apart(text, _QUOTED_SHEET, "'", edit)


def translate(formula: str, rows: int, columns: int) -> str:
    """``formula`` as it reads copied ``rows`` down and ``columns`` right: relative references
    move, absolute ones (``$``) stay; a reference moved off the grid becomes ``#REF!`` as in
    Excel."""
    if not rows and not columns:
        return formula

    def cell(m: re.Match[str]) -> str:
        col_abs, col, row_abs, row = m.groups()
        c = column_index(col.upper()) + (0 if col_abs else columns)
        r = int(row) + (0 if row_abs else rows)
        if not (0 <= c < EXCEL_COLUMNS and 1 <= r <= EXCEL_ROWS):
            return "#REF!"
        return f"{col_abs}{column_letters(c)}{row_abs}{r}"

    def whole_columns(m: re.Match[str]) -> str:
        a_abs, a, b_abs, b = m.groups()
        ca = column_index(a.upper()) + (0 if a_abs else columns)
        cb = column_index(b.upper()) + (0 if b_abs else columns)
        if not (0 <= ca < EXCEL_COLUMNS and 0 <= cb < EXCEL_COLUMNS):
            return "#REF!"
        return f"{a_abs}{column_letters(ca)}:{b_abs}{column_letters(cb)}"

    def whole_rows(m: re.Match[str]) -> str:
        a_abs, a, b_abs, b = m.groups()
        ra, rb = int(a) + (0 if a_abs else rows), int(b) + (0 if b_abs else rows)
        if not (1 <= ra <= EXCEL_ROWS and 1 <= rb <= EXCEL_ROWS):
            return "#REF!"
        return f"{a_abs}{ra}:{b_abs}{rb}"

    def edit(text: str) -> str:
        text = _COLUMN_RANGE.sub(whole_columns, text) if ":" in text else text
        text = _ROW_RANGE.sub(whole_rows, text) if ":" in text else text
        return _REF.sub(cell, text)

    return _outside_strings(formula, lambda part: _quoted_sheets_apart(part, edit))


def row_mover(formula: str) -> Callable[[int], str] | None:
    """``formula`` parsed once into a function giving it moved ``rows`` down, as
    :func:`translate` (formula, rows, 0) gives it, for comparing a column of formulas with its
    first one (a long formula's translation is slow, a join is not). None for a formula with a
    whole-row or whole-column range (translate those)."""
    refs: list[tuple[str, str, str, int]] = []
    ranges = False

    def mark(m: re.Match[str]) -> str:
        col_abs, col, row_abs, row = m.groups()
        refs.append((col_abs, column_letters(column_index(col.upper())), row_abs, int(row)))
        return "\0"

    def edit(text: str) -> str:
        nonlocal ranges
        if ":" in text and (_COLUMN_RANGE.search(text) or _ROW_RANGE.search(text)):
            ranges = True
        return _REF.sub(mark, text)

    pieces = _outside_strings(formula, lambda part: _quoted_sheets_apart(part, edit)).split("\0")
    if ranges or len(pieces) != len(refs) + 1:
        return None

    def moved(rows: int) -> str:
        out = [pieces[0]]
        for (col_abs, col, row_abs, row), after in zip(refs, pieces[1:], strict=True):
            r = row if row_abs else row + rows
            out.append(f"{col_abs}{col}{row_abs}{r}" if 1 <= r <= EXCEL_ROWS else "#REF!")
            out.append(after)
        return "".join(out)

    return moved


@lru_cache(maxsize=8192)  # a template's formulas recur in every sheet of a folder
def normal(formula: str) -> str:
    """The formula as any spreadsheet means it: no leading ``=``, no ``_xlfn.``/``_xlws.``,
    upper case, no whitespace, sheet names unquoted, no ``$``, ``TRUE()`` as ``TRUE`` (outside
    string literals)."""
    text = formula[1:] if formula.startswith("=") else formula

    def edit(part: str) -> str:
        part = _PREFIX.sub("", part)
        part = _QUOTED_SHEET.sub(lambda m: m.group(1).replace("''", "'") + "!", part)
        part = _SPACE.sub("", part).replace("$", "").upper()
        return _LOGICAL_CALL.sub(r"\1", part) if "()" in part else part

    return _outside_strings(text, edit)


def masked(formula: str) -> str:
    """:func:`normal` with every cell reference replaced by one mark: the formula's functions,
    names, operators and constants, for a cell whose neighbours moved (rows inserted around it
    rewrite its references in ways a plain shift does not)."""
    return _outside_strings(normal(formula), lambda part: _REF.sub("@", part))


def _refs(formula: str) -> list[tuple[int, int]] | None:
    """(row, column) of each cell reference outside string literals and quoted sheet names;
    None when the formula has a whole-row range (a row pattern does not cover those)."""
    found: list[tuple[int, int]] = []

    def collect(part: str) -> str:
        if _ROW_RANGE.search(part):
            found.append((-1, -1))
        found.extend((int(m.group(4)), column_index(m.group(2).upper())) for m in _REF.finditer(part))
        return part

    _outside_strings(formula, lambda part: _quoted_sheets_apart(part, collect))
    return None if (-1, -1) in found else found


def row_pattern(first: str, second: str) -> str | None:
    """The formula of a row that the next row repeats, written so that :func:`translate` by
    ``i`` rows gives the ``i``-th row's formula up to :func:`normal`: each reference whose row
    moves one with the row is relative, every other row absolute. None when ``second`` is not
    ``first`` one row down (other functions or constants, a reference moving otherwise)."""
    a, b = _refs(first), _refs(second)
    if a is None or b is None or len(a) != len(b):
        return None
    moves = []
    for (ra, ca), (rb, cb) in zip(a, b, strict=True):
        if ca != cb or rb - ra not in (0, 1):
            return None
        moves.append(rb - ra == 1)
    it = iter(moves)

    def cell(m: re.Match[str]) -> str:
        col_abs, col, _, row = m.groups()
        return f"{col_abs}{col}{'' if next(it) else '$'}{row}"

    pattern = _outside_strings(first, lambda part: _quoted_sheets_apart(part, lambda t: _REF.sub(cell, t)))
    return pattern if normal(translate(pattern, 1, 0)) == normal(second) else None

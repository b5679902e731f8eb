"""What an Excel runtime passes, read the same way from every one of them.

Classic xlwings sends an empty cell as None and every number as a float (3 arrives as 3.0);
xlwings Lite sends an empty cell as None, "" or 0; a range arrives as a scalar (one cell), a
list (one row or column) or a list of rows. Each function reads its arguments through these, so
the same cells give the same answer in both.
"""
from __future__ import annotations

from typing import Any


def blank(value: Any) -> bool:
    """None, "" or only spaces: a cell with nothing in it."""
    return value is None or (isinstance(value, str) and not value.strip())


def number(value: Any) -> Any:
    """A whole float as an int (3.0 → 3); anything else as it came."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def scalar(value: Any) -> Any:
    """One cell's value: the first cell of a range, whole floats as ints, blank as None."""
    while isinstance(value, (list, tuple)):
        value = value[0] if value else None
    return None if blank(value) else number(value)


def text(value: Any, zero_blank: bool = True) -> str:
    """One cell as text ("" when blank; a 0 from an empty cell in Lite too, when ``zero_blank``)."""
    value = scalar(value)
    if value is None or (zero_blank and value == 0 and not isinstance(value, bool)):
        return ""
    return str(value).strip()


def grid(value: Any) -> list[list[Any]]:
    """A range as rows of cells: one cell → [[v]], one row or column (a flat list) → one row.
    A row with no text and no number but 0 is blank (Lite's empty cells): all None."""
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        value = [[value]]
    elif value and not any(isinstance(v, (list, tuple)) for v in value):
        value = [list(value)]
    rows = []
    for row in value:
        cells = [None if blank(v) else number(v) for v in (row if isinstance(row, (list, tuple)) else [row])]
        if all(v is None or (v == 0 and not isinstance(v, bool)) for v in cells):
            cells = [None] * len(cells)
        rows.append(cells)
    return rows


def cells(value: Any) -> list[Any]:
    """A range's cells in reading order (a row or a column alike), blanks as None."""
    return [v for row in grid_cells(value) for v in row]


def grid_cells(value: Any) -> list[list[Any]]:
    """A range as rows, each cell normalised, without blanking rows of zeros (a column of
    numbers where 0 means 0)."""
    if value is None:
        return []
    if not isinstance(value, (list, tuple)):
        value = [[value]]
    return [[None if blank(v) else number(v) for v in (row if isinstance(row, (list, tuple)) else [row])]
            for row in value]

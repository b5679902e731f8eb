"""A worksheet as a grid of its non-empty cells, read from any spreadsheet format.

Legacy sheets come as .xlsx, .xlsm, .xls, .xlsb and .ods; python-calamine reads all of them
(values, and a formula's cached result), and the merged ranges where the format carries them
(.xlsx, .xls). The importer sees only :class:`Grid`, never the file's format.
"""
from __future__ import annotations

import datetime as _dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

from ..core.errors import InputError
from ..io.xlsx_package import column_letters

#: the formats python-calamine reads
SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods")


@dataclass
class Grid:
    """One sheet: non-empty cells by (row, column), zero-based, and its merged ranges."""

    sheet: str
    cells: dict[tuple[int, int], Any] = field(default_factory=dict)
    merged: list[tuple[int, int, int, int]] = field(default_factory=list)  # (top, left, bottom, right)

    def __bool__(self) -> bool:
        return bool(self.cells)

    def get(self, row: int, col: int) -> Any:
        return self.cells.get((row, col))

    def rows(self) -> Iterator[int]:
        """The rows that hold a cell, in order."""
        return iter(sorted({r for r, _ in self.cells}))

    def merge_end(self, row: int, col: int) -> int:
        """The last column of the merged range starting at (row, col), or col itself."""
        for top, left, _bottom, right in self.merged:
            if top == row and left == col:
                return right
        return col

    def merge_bottom(self, row: int, col: int) -> int:
        for top, left, bottom, _right in self.merged:
            if top == row and left == col:
                return bottom
        return row


def address(row: int, col: int) -> str:
    """Zero-based (row, col) as A1."""
    return f"{column_letters(col)}{row + 1}"


def cell_value(value: Any) -> Any:
    """A cell's value as the document keeps it: integral floats as int (spreadsheets store every
    number as a float), dates as ISO text, text exactly as written."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (_dt.datetime, _dt.date, _dt.time)):
        return value.isoformat()
    if isinstance(value, _dt.timedelta):
        return str(value)
    return value


def read_grids(path: str | Path) -> list[Grid]:
    """Every sheet of the workbook at ``path`` with at least one non-empty cell.

    Raises InputError (the file named) when python-calamine cannot open it: not a spreadsheet,
    encrypted, damaged."""
    from ..io.xlsx_package import native_workbook

    p = Path(path)
    try:
        wb = native_workbook(p)  # a name not in UTF-8 too (issue 33)
    except Exception as exc:  # calamine's errors have no common base worth naming
        raise InputError(f"{p}: not a readable spreadsheet ({_reason(exc)})", "LEGACY_UNREADABLE",
                         path=str(p), reason=_reason(exc)) from exc
    grids: list[Grid] = []
    try:
        for name in wb.sheet_names:
            try:
                sheet = wb.get_sheet_by_name(name)
                rows = sheet.to_python()
            except Exception as exc:
                raise InputError(f"{p}: sheet {name!r} cannot be read ({_reason(exc)})",
                                 "LEGACY_UNREADABLE", path=str(p), reason=_reason(exc)) from exc
            top, left = sheet.start or (0, 0)
            grid = Grid(name)
            for r, row in enumerate(rows):
                for c, value in enumerate(row):
                    if value is None or value == "" or (isinstance(value, str) and not value.strip()):
                        continue
                    grid.cells[(top + r, left + c)] = cell_value(value)
            for (r1, c1), (r2, c2) in getattr(sheet, "merged_cell_ranges", None) or ():
                grid.merged.append((r1, c1, r2, c2))
            if grid:
                grids.append(grid)
    finally:
        wb.close()
    return grids


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]

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
    # Cells in hidden rows or columns (a helper 基本値 column): read only when nothing shown holds
    # the field; never among ``cells``.
    hidden: dict[tuple[int, int], Any] = field(default_factory=dict)
    hidden_rows: set[int] = field(default_factory=set)
    # row → the row that stands under it when not the next one (a roster's header over one
    # character's row)
    below: dict[int, int] = field(default_factory=dict)
    # rows of a roster no character was read from (values under the header, no name): said, not dropped
    unread_rows: list[int] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.cells)

    def get(self, row: int, col: int) -> Any:
        return self.cells.get((row, col))

    def rows(self) -> Iterator[int]:
        """The rows that hold a cell, in order."""
        return iter(sorted({r for r, _ in self.cells}))

    def merge_end(self, row: int, col: int) -> int:
        """The last column of the merged range starting at (row, col), or col itself."""
        return next((right for top, left, _, right in self.merged if (top, left) == (row, col)), col)

    def next_row(self, row: int) -> int:
        """The row under ``row`` as the sheet shows it: hidden rows passed over."""
        if row in self.below:
            return self.below[row]
        nxt = row + 1
        while nxt in self.hidden_rows:
            nxt += 1
        return nxt

    def merge_bottom(self, row: int, col: int) -> int:
        return next((bottom for top, left, bottom, _ in self.merged if (top, left) == (row, col)), row)


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
    hidden = hidden_rows_cols(p)
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
            rows_hidden, cols_hidden = hidden.get(name, (set(), set()))
            if rows_hidden or cols_hidden:
                grid.hidden_rows = set(rows_hidden)
                for rc in [rc for rc in grid.cells if rc[0] in rows_hidden or rc[1] in cols_hidden]:
                    grid.hidden[rc] = grid.cells.pop(rc)
            if grid or grid.hidden:
                grids.append(grid)
    finally:
        wb.close()
    return grids


def hidden_rows_cols(path: Path) -> dict[str, tuple[set[int], set[int]]]:
    """Each sheet's hidden rows and columns (zero-based) of an .xlsx/.xlsm, which python-calamine
    does not say; {} for other formats, or when the package cannot be read (calamine then says
    why)."""
    if path.suffix.lower() == ".ods":
        return _hidden_ods(path)
    if path.suffix.lower() not in (".xlsx", ".xlsm"):
        return {}
    from ..io.xlsx_package import open_package, parse_xml

    out: dict[str, tuple[set[int], set[int]]] = {}
    try:
        package = open_package(path)
    except InputError:
        return {}
    try:
        for name, part in package.sheets.items():
            rows: set[int] = set()
            cols: set[int] = set()

            def start(tag: str, attrs: dict[str, str], rows: set[int] = rows, cols: set[int] = cols) -> None:
                if attrs.get("hidden") not in ("1", "true"):
                    return
                if tag == "row" and attrs.get("r", "").isdigit():
                    rows.add(int(attrs["r"]) - 1)
                elif tag == "col" and attrs.get("min", "").isdigit() and attrs.get("max", "").isdigit():
                    low, high = int(attrs["min"]), min(int(attrs["max"]), int(attrs["min"]) + 16384)
                    cols.update(range(low - 1, high))

            if part in package.zip.NameToInfo:
                parse_xml(package.read_part(part), path, part, start)
            if rows or cols:
                out[name] = (rows, cols)
    except InputError:
        return {}
    finally:
        package.close()
    return out


#: rows or columns of one repeated hidden run recorded (a hidden run to the sheet's end is empty)
_REPEAT_CAP = 4096


def _hidden_ods(path: Path) -> dict[str, tuple[set[int], set[int]]]:
    """An .ods's hidden (collapsed or filtered) rows and columns, sheet by sheet, from
    content.xml, counting repeated rows and columns as LibreOffice writes them."""
    import zipfile

    from ..io.xlsx_package import parse_xml, read_capped

    out: dict[str, tuple[set[int], set[int]]] = {}
    state: dict[str, Any] = {"sheet": None, "row": 0, "col": 0, "depth": 0}

    def start(tag: str, attrs: dict[str, str]) -> None:
        plain = {k.rsplit("}", 1)[-1]: v for k, v in attrs.items()}
        if tag == "table":
            state["depth"] += 1
            if state["depth"] == 1:
                state.update(sheet=plain.get("name", ""), row=0, col=0)
                out.setdefault(state["sheet"], (set(), set()))
            return
        if state["depth"] != 1 or tag not in ("table-row", "table-column"):
            return
        repeat = plain.get("number-rows-repeated" if tag == "table-row" else "number-columns-repeated", "1")
        count = int(repeat) if repeat.isdigit() else 1
        key = "row" if tag == "table-row" else "col"
        if plain.get("visibility") in ("collapse", "filter"):
            out[state["sheet"]][0 if key == "row" else 1].update(
                range(state[key], state[key] + min(count, _REPEAT_CAP)))
        state[key] += count

    def end(tag: str) -> None:
        if tag == "table":
            state["depth"] -= 1

    try:
        with zipfile.ZipFile(path) as zf:
            content = read_capped(zf, "content.xml", path)
        if b':visibility="collapse"' in content or b':visibility="filter"' in content:
            parse_xml(content, path, "content.xml", start, end)
    except (InputError, zipfile.BadZipFile, OSError, ValueError):
        return {}
    return {k: v for k, v in out.items() if v[0] or v[1]}


def _reason(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text[:200]

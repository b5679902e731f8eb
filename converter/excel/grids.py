"""Value grids (what an Excel function receives for a range) read as our workbooks are read.

A grid is matched to a sheet of a template by its first row (the title each sheet starts
with), then read through the template's defined names (``template_names``) by the one sheet
reader (``converter.sheets.reader``): the same lenient conversion, the same findings, each at
its cell. A table's rows given alone (a weapon's row of fields) are read the same way.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from ..io.xlsx_package import Area
from ..sheets.cells import CellReader, NamedCells
from ..sheets.layout import defined_name
from ..sheets.reader import SheetRead, read_named, read_table
from ..sheets.system_sheet import system_sheet
from . import values
from .errors import excel_error
from .template_names import template_names

# Cell kinds where a 0 is an empty cell as xlwings Lite sends it, never a value.
_NOT_NUMBERS = {"text", "suggest", "enum", "bool", "stat_list", "enum_list", "effect_flag",
                "effect_bool", "effect_text", "effect_level", "json"}  # an effect at level 0 is none


@dataclass(frozen=True)
class _GridPackage:
    """What NamedCells reads of a workbook's package, for value grids: the names, no damaged
    ones, the sheets given."""

    names: dict[str, Area]
    broken_names: dict[str, str]
    sheets: tuple[str, ...]


class GridCells(NamedCells):
    """Defined names over value grids instead of a workbook's sheets."""

    def __init__(self, names: dict[str, Area], grids: dict[str, list[list[Any]]],
                 zero_blank: frozenset[str] = frozenset()) -> None:
        # the base class's own set-up, so that whatever it comes to expect is there
        super().__init__(Path("Excel"), _GridPackage(names, {}, tuple(grids)), None)
        self._grids = grids
        self.zero_blank = zero_blank

    def close(self) -> None:
        pass

    def has_sheet(self, sheet: str) -> bool:
        return sheet in self._grids

    def grid(self, sheet: str) -> list[list[Any]]:
        return self._grids.get(sheet, [])

    def raw(self, name: str, index: int | None = None) -> Any:
        value = super().raw(name, index)
        if value == 0 and not isinstance(value, bool) and name in self.zero_blank:
            return None
        return value


def _zero_blank(kind: str, low: int | None) -> bool:
    """Whether a 0 in a cell of this kind can only be an empty cell: not a number, or a number
    whose least value is above 0."""
    return kind in _NOT_NUMBERS or (kind == "int" and low is not None and low > 0)


@lru_cache(maxsize=None)
def _text_names(system: str) -> frozenset[str]:
    """The names whose cells read a 0 as empty (xlwings Lite's empty cells)."""
    layout = system_sheet(system).layout
    names = {defined_name(f.pointer, system) for f in layout.fields if _zero_blank(f.kind, f.min)}
    names |= {t.column_name(c.key) for t in layout.tables for c in t.columns
              if not c.computed and _zero_blank(c.kind, c.min)}
    return frozenset(names)


def identify(grids: list[Any]) -> tuple[str, dict[str, list[list[Any]]]]:
    """(system, sheet → grid) of ranges each copied from a sheet of one of our templates (from
    its cell A1); a range no template sheet starts like is an error naming its place."""
    from ..sheets.system_sheet import sheet_systems

    found: dict[str, dict[str, list[list[Any]]]] = {}
    for n, value in enumerate(grids, 1):
        rows = values.grid_cells(value)
        if not rows:
            continue
        first = rows[0]
        match = None
        for system in sheet_systems():
            for sheet, (col, mark) in template_names(system).marks.items():
                if mark and col < len(first) and first[col] == mark:
                    match = (system, sheet)
                    break
            if match:
                break
        if match is None:
            raise excel_error("excel_grid_unknown", n=n)
        found.setdefault(match[0], {})[match[1]] = [list(r) for r in rows]
    if not found:
        raise excel_error("excel_grid_none")
    if len(found) > 1:
        raise excel_error("excel_grid_systems", systems=", ".join(found))
    system, sheets = next(iter(found.items()))
    return system, sheets


@lru_cache(maxsize=None)
def optional_sheets(system: str) -> frozenset[str]:
    """The sheets no function needs, which a user never passes: the GM's approvals (the
    audit's, no value depends on them) and the hidden data sheet (the template's version,
    what no cell holds). Not given, they read as blank, never as a deleted sheet."""
    names = template_names(system).names
    kept = ("mechasheet.template", f"{system}.extra")
    sheets = {a.sheet for a in names.values()}
    return frozenset(s for s in sheets
                     if all(n in kept or n.startswith(f"{system}.approvals.")
                            for n, a in names.items() if a.sheet == s))


def read_grids(*grids: Any) -> SheetRead:
    """The sheet the grids are (its input sheet at least), read as the workbook would be; a
    sheet of the template left out reads as a deleted sheet (SHEET_MISSING), except the
    optional ones, which read as blank."""
    system, sheets = identify(list(grids))
    names = template_names(system)
    sheet = system_sheet(system)
    if sheet.layout.input_sheet not in sheets:
        raise excel_error("excel_grid_input", sheet=sheet.layout.input_sheet)
    sheets = {**{s: [] for s in optional_sheets(system)}, **sheets}
    named = GridCells(names.names, sheets, _text_names(system))
    version = int(names.template.split("/")[1])
    return read_named(sheet, named, version, names.template)


CATALOG_NAME = "catalog.name"  # the cell whose presence says a workbook has a catalog sheet


def read_parts(system: str, parts: dict[str, Any]) -> tuple[SheetRead, dict[str, Area]]:
    """The sheet that ranges of its input cells make by themselves (the rest blank), read as the
    workbook would be, and the names re-anchored onto the ranges. Each range is a part of
    ``system_sheet(system).input_parts()``: the template's names inside it keep their place
    relative to the range's first cell, and a column (a table's, a catalog table's) runs down
    as many rows as the range has. A part not given (None) reads as absent."""
    names = template_names(system)
    sheet = system_sheet(system)
    spec = sheet.input_parts()
    areas: dict[str, Area] = {}
    grids: dict[str, list[list[Any]]] = {}
    for part, value in parts.items():
        if value is None:
            continue
        inside = [(n, names.names[n]) for n in spec[part] if n in names.names]
        top, left = min(a.top for _, a in inside), min(a.left for _, a in inside)
        columns = any(a.rows > 1 for _, a in inside)
        # a table's row of zeros is Lite's empty row; a block of single cells keeps its zeros
        grids[part] = values.grid(value) if columns else values.grid_cells(value)
        height = len(grids[part])
        for n, a in inside:
            bottom = max(height - 1, a.top - top) if a.rows > 1 else a.bottom - top
            areas[n] = Area(part, a.top - top, a.left - left, bottom, a.right - left)
    if any(n.startswith("catalog.") for n in areas):
        areas[CATALOG_NAME] = Area(CATALOG_NAME, 0, 0, 0, 0)  # blank: a catalog with its tables only
        grids[CATALOG_NAME] = []
    named = GridCells(areas, grids, _text_names(system))
    return read_named(sheet, named, int(names.template.split("/")[1]), names.template), areas


def table_rows(system: str, table_id: str, value: Any) -> list[Any]:
    """The rows of table ``table_id`` given as a range of its input columns in the template's
    order (a weapon's row of fields; several rows for a whole table), as document items; blank
    rows keep their place (an empty item), so row n is item n − 1."""
    table = system_sheet(system).layout.table(table_id)
    rows = values.grid(value)
    inputs = [c for c in table.columns if not c.computed]
    sheet = "Excel"
    names = {table.column_name(c.key): Area(sheet, 0, j, max(len(rows), 1) - 1, j)
             for j, c in enumerate(inputs)}
    named = GridCells(names, {sheet: rows}, _text_names(system))
    rd = CellReader(named, system_sheet(system).lists())
    return read_table(rd, replace(table, rows=len(rows)), keep_blank=True)  # the header's place plays no part

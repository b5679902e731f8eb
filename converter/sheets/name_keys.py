"""Typed names folded to their look-up keys on the sheet, a stage a cell (issue 18).

A system whose tables fold width with SUBSTITUTEs (``[name_key] excel_width = "fold"``,
``converter.core.names``) needs more functions than Excel nests in one formula, so a sheet folds
each typed name over a few cells on the name's row, from the layout's ``[name_keys] first_col``
right (headed 照合1, 照合2, ...): the first stage reads the name's cell, each next one the stage
before, and the look-ups read the last (:meth:`NameKeyCells.key`). ``helper = true`` makes them
helper columns, folded away and out of print with the tables' own.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any, Callable, Mapping

from ..core.names import NameKey
from ..rules.tables_file import load_tables
from .layout import Layout, Table, col_index, col_letter

#: A column of typed names: (its column letter, the first name's row (one-based), how many rows).
Place = tuple[str, int, int]


def esc(expr: str) -> str:
    """Excel: ``expr`` as a MATCH look-up value that means itself (no * ? ~ wildcards)."""
    return f'SUBSTITUTE(SUBSTITUTE(SUBSTITUTE({expr},"~","~~"),"*","~*"),"?","~?")'


@lru_cache(maxsize=None)
def system_names(system: str) -> NameKey:
    """How ``system``'s names compare (its tables' ``[name_key]``)."""
    return NameKey.from_table(load_tables(system)["name_key"])


def table_place(table: Table, key: str) -> Place:
    """The place of a table's column of typed names (column ``key``)."""
    return col_letter(table.col(key)), table.header_row + 1, table.rows


def stage_columns(layout: Layout) -> list[int]:
    """The zero-based columns of a layout's name-key stages ([] when it has none)."""
    spec = layout.raw.get("name_keys")
    if spec is None:
        return []
    first = col_index(spec["first_col"])
    return [first + k for k in range(system_names(layout.system).excel_stages())]


class NameKeyCells:
    """Where a sheet folds its typed names (``places``: place → :data:`Place`), and how."""

    def __init__(self, layout: Layout, places: Mapping[str, Place]) -> None:
        self.names = system_names(layout.system)
        self.columns = stage_columns(layout)
        self.helper = bool(layout.raw["name_keys"].get("helper"))
        self.places = dict(places)

    def cell(self, place: str, i: int, k: int) -> str:
        """The cell of stage ``k`` of the ``i``-th name of ``place`` (its row relative: a column's
        stages are one shared formula, ``converter.sheets.xlsx_worksheet``)."""
        return f"${col_letter(self.columns[k])}{self.places[place][1] + i}"

    def stage(self, place: str, i: int, k: int) -> str:
        """Excel: stage ``k`` of the key of the ``i``-th name of ``place``."""
        col, row, _ = self.places[place]
        ref = f"${col}{row + i}" if k == 0 else self.cell(place, i, k - 1)
        return "=" + self.names.excel_stage(k, ref)

    def key(self, place: str, i: int) -> str:
        """The cell holding the ``i``-th name of ``place`` as compared (its last stage)."""
        return self.cell(place, i, len(self.columns) - 1)

    def write(self, writer, ws, typed: Callable[[str, int], Any]) -> None:
        """Every stage cell of every place, with the stage's value of the name ``typed(place, i)``
        holds as its cached result, under a 照合 header."""
        if self.helper:
            for c in self.columns:
                writer.fold(ws, c)
        for place, (_, row, rows) in self.places.items():
            for k, c in enumerate(self.columns):
                ws.write(row - 2, c, f"照合{k + 1}", writer.fmt["h"])
                for i in range(rows):
                    writer.computed(ws, row - 1 + i, c, self.stage(place, i, k),
                                    self.names.excel_stage_values(typed(place, i))[k])

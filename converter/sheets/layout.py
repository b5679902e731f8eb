"""Sheet layouts: where each document field lives, read from ``<system>/layout.toml``.

One layout drives the template writer, the sheet writer and the sheet reader, so no field is
described twice. Cell references are A1 strings; helpers turn them into (row, col) pairs.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any

from ..core.errors import RuleTableError
from ..io.xlsx_package import column_index, column_letters

_A1 = re.compile(r"^\$?([A-Z]{1,3})\$?(\d+)$")


# Column letters ↔ indices: one implementation, the package reader's ('A' → 0, 'AA' → 26).
col_index = column_index
col_letter = column_letters


def parse_a1(ref: str) -> tuple[int, int]:
    """'C12' → (11, 2), zero-based (row, col)."""
    m = _A1.match(ref)
    if not m:
        raise RuleTableError(f"bad cell reference {ref!r} in a layout")
    return int(m.group(2)) - 1, col_index(m.group(1))


def a1(row: int, col: int, absolute: bool = False) -> str:
    d = "$" if absolute else ""
    return f"{d}{col_letter(col)}{d}{row + 1}"


def sheet_prefix(sheet: str) -> str:
    """``'Sheet'!``: the start of a reference into ``sheet`` (quoted for Japanese names)."""
    return f"'{sheet}'!"


def sheet_cell(sheet: str, row: int, col: int) -> str:
    """The absolute reference of one cell of ``sheet``, as a defined name points at it."""
    return sheet_prefix(sheet) + a1(row, col, True)


@dataclass(frozen=True)
class Field:
    """One scalar input cell."""

    pointer: str
    label: str
    cell: str
    kind: str
    list: str | None = None
    default: Any = None
    min: int | None = None
    max: int | None = None
    synonyms: tuple[str, ...] = ()
    sheet: str | None = None  # None: the layout's input sheet
    since: int = 1  # the template version that added it: an older sheet lacks it, rightly


@dataclass(frozen=True)
class Column:
    """One column of a repeating group: a key path inside each row object, or a computed value."""

    key: str
    header: str
    kind: str = "text"
    list: str | None = None
    default: Any = None
    min: int | None = None
    max: int | None = None
    group: str | None = None
    computed: str | None = None
    width: int | None = None
    since: int = 1  # the template version that added it: an older sheet lacks it, rightly
    helper: bool = False  # a working column a person need not read: hidden, not printed


@dataclass(frozen=True)
class Table:
    """A repeating group (weapons, abilities, ...) laid out as an Excel table."""

    id: str
    pointer: str
    label: str
    sheet: str
    header_row: int  # one-based, as in the TOML
    first_col: str
    rows: int
    columns: tuple[Column, ...]

    def col(self, key: str) -> int:
        for i, c in enumerate(self.columns):
            if c.key == key:
                return col_index(self.first_col) + i
        raise KeyError(key)

    def cell(self, key: str, index: int, absolute_col: bool = False) -> str:
        """A1 of column ``key`` in row ``index`` (zero-based data row)."""
        c = col_letter(self.col(key))
        return f"{'$' if absolute_col else ''}{c}{self.header_row + 1 + index}"

    def column_range(self, key: str) -> str:
        c = col_letter(self.col(key))
        return f"'{self.sheet}'!${c}${self.header_row + 1}:${c}${self.header_row + self.rows}"

    def column_name(self, key: str) -> str:
        return f"{self.system_prefix}.{self.id}.{key}"

    system_prefix: str = ""
    since: int = 1  # the template version that added the table: an older sheet lacks it, rightly


@dataclass(frozen=True)
class Layout:
    system: str
    template: str
    title: str
    input_sheet: str
    rules_sheet: str
    data_sheet: str
    fields: tuple[Field, ...]
    computed: tuple[dict[str, Any], ...]
    tables: tuple[Table, ...]
    raw: dict[str, Any] = field(repr=False, default_factory=dict)

    def table(self, table_id: str) -> Table:
        return next(t for t in self.tables if t.id == table_id)

    @property
    def template_version(self) -> int:
        return int(self.template.split("/")[1])

    def added_after(self, version: int) -> frozenset[str]:
        """Defined names of the cells added by later template versions than ``version``: a sheet
        made from that version lacks them without being damaged."""
        names = {defined_name(f.pointer, self.system) for f in self.fields
                 if f.since > version}
        names.update(t.column_name(c.key) for t in self.tables for c in t.columns
                     if max(t.since, c.since) > version)
        return frozenset(names)


def defined_name(pointer: str, system: str) -> str:
    """'/stats/hp' → 'up.stats.hp': the workbook name of a field."""
    return system + "." + ".".join(p for p in pointer.split("/") if p)


@lru_cache(maxsize=None)
def load_layout(system: str) -> Layout:
    """The parsed layout of ``system`` (cached)."""
    try:
        text = resources.files(__package__).joinpath(system, "layout.toml").read_text("utf-8")
    except OSError as exc:
        raise RuleTableError(f"no sheet layout for system {system!r}") from exc
    raw = tomllib.loads(text)

    fields = tuple(Field(f["pointer"], f["label"], f["cell"], f["kind"], f.get("list"), f.get("default"),
                         f.get("min"), f.get("max"), tuple(f.get("synonyms", ())), f.get("sheet"),
                         f.get("since", 1))
                   for f in raw.get("fields", []) + raw.get("transformation_fields", []))
    tables = tuple(Table(t["id"], t["pointer"], t["label"], t["sheet"], t["header_row"], t["first_col"],
                         t["rows"], tuple(Column(**c) for c in t["columns"]), system_prefix=system,
                         since=t.get("since", 1))
                   for t in raw.get("tables", []))
    return Layout(system, raw["template"], raw["title"], raw["input_sheet"], raw["rules_sheet"],
                  raw["data_sheet"], fields, tuple(raw.get("computed", [])), tables, raw)

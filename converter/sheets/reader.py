"""Reading a mechasheet workbook back into a document, field by defined name.

One reader for every system: it recognises the template by its ``mechasheet.template`` name,
then reads the layout's fields and tables; the system's sheet reads its own blocks. Cells are
found by their names, so a user may move cells or insert rows. Values are converted leniently
(numbers stored as text, full-width digits, ○/はい) and every problem becomes a finding with its
cell (``シート名!C12``). What the cells cannot say is put back from the data sheet by ``kept.py``.
"""
from __future__ import annotations

import tempfile
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterator

from ..core.errors import InputError
from ..core.findings import Finding
from ..core.pointers import put
from ..rules.options import option_declarations, reading_value
import converter.sheets.kept as kept  # not `from . import kept`: the package imports this module
from .cells import CellReader, NamedCells
from .layout import Table, defined_name
from .system_sheet import sheet_systems, system_sheet
from .typed_inputs import SHOWN

if TYPE_CHECKING:
    from .system_sheet import SystemSheet


@dataclass
class SheetRead:
    """A workbook read back: the document, reader findings, pointer → cell, and the engine's
    extra inputs the workbook itself holds (``context``, e.g. a catalog sheet)."""

    document: dict[str, Any]
    findings: list[Finding]
    cells: dict[str, str]
    context: dict[str, Any] = field(default_factory=dict)
    template: str = ""
    options: dict[str, str] = field(default_factory=dict)  # the rules readings on the ルール sheet
    option_cells: dict[str, str] = field(default_factory=dict)


def read_sheet(path: str | Path) -> tuple[dict[str, Any], list[Finding], dict[str, str]]:
    """(document, reader findings, pointer → cell) of a mechasheet workbook."""
    got = read_workbook(path)
    return got.document, got.findings, got.cells


def read_workbook(path: str | Path, *, scan_first: bool = True) -> SheetRead:
    """Everything a mechasheet workbook holds, read by defined names: the cells' document with
    the workbook's kept content applied (``kept.py``), the context and the rules readings.
    ``scan_first=False``: each sheet to calamine unscanned (:class:`NamedCells`; a worker only)."""
    p = Path(path)
    named = NamedCells.open(p, scan_first=scan_first)
    try:
        return _read(p, named)
    finally:
        named.close()


def _read(p: Path, named: NamedCells) -> SheetRead:
    # The template's identity from the package's properties, before any sheet is read; a
    # workbook whose properties were lost still names it on its data sheet.
    template = named.package.properties.get("mechasheet.template") or named.raw("mechasheet.template")
    if not template:
        raise InputError(f"{p}: not a mechasheet workbook (no mechasheet.template name); "
                         "import homemade sheets with `mechasheet import`", "SHEET_NOT_TEMPLATE")
    system, _, version = str(template).partition("/")
    if system not in sheet_systems():
        raise InputError(f"{p}: template {template!r} is not readable by this version")
    sheet = system_sheet(system)
    if not version.isdigit() or int(version) > sheet.layout.template_version:
        raise InputError(f"{p}: template {template!r} is newer than this version reads "
                         f"({sheet.layout.template})")
    return read_named(sheet, named, int(version), str(template))


def read_named(sheet: "SystemSheet", named: NamedCells, version: int, template: str = "") -> SheetRead:
    """Everything the named cells of a sheet of template ``version`` hold: the cells' document
    with the kept content applied, the context and the rules readings. ``named`` is a workbook's
    (:class:`NamedCells`) or value grids read through the template's names (the Excel functions)."""
    doc, rd = read_cells(sheet, named, version)
    kept.restore(sheet, doc, rd)
    context = sheet.read_context(rd)
    options, option_cells = _read_options(rd, sheet.system)
    return SheetRead(doc, rd.findings, rd.cells, context, template or f"{sheet.system}/{version}", options,
                     option_cells)


def read_cells(sheet: "SystemSheet", named: NamedCells, version: int | None = None
               ) -> tuple[dict[str, Any], CellReader]:
    """The document the workbook's cells give by themselves (fields, the system's blocks, tables,
    the declared total; no kept content), and the reader with its findings and pointer → cell.
    A sheet of an older template ``version`` lacks the cells later versions added, silently."""
    layout = sheet.layout
    system = sheet.system
    absent = layout.added_after(version) if version is not None else frozenset()
    rd = CellReader(named, sheet.lists(), absent)
    doc: dict[str, Any] = {"system": system, "format": 1}
    for fld in layout.fields:
        value = rd.value(defined_name(fld.pointer, system), fld.kind, fld.pointer,
                         list_id=fld.list)
        if value is not None:
            put(doc, fld.pointer, value)
    sheet.after_read(doc, rd)
    for table in layout.tables:
        rows = read_table(rd, table)
        if rows:
            put(doc, table.pointer, rows)
    declared_name = layout.raw.get("declared_total")
    if declared_name:
        rd.cells["/declared_total"] = rd.cell_of(declared_name)
        raw = rd.raw(declared_name)
        # 入力エラー: the formula's word while an input error stands (typed_inputs), no figure
        declared = None if raw == SHOWN else rd.to_int(raw, "/declared_total", rd.cells["/declared_total"])
        if declared is not None:
            doc["declared_total"] = declared
    sheet.after_tables(doc, rd)
    return doc, rd


def read_table(rd: CellReader, table: Table, keep_blank: bool = False) -> list[Any]:
    """The filled rows of ``table`` as document items (blank rows left out, or kept as None
    with ``keep_blank``, so that sheet row n stays item n)."""
    rows: list[Any] = []
    beyond = None  # the first filled row past the template's rows (rows inserted into the table)
    count = rd.rows(table)
    plan = _plan_row(table)
    for i in range(count) if keep_blank else rd.filled_rows(table, count):
        row = _read_row(rd, table, plan, i, i if keep_blank else len(rows))
        if row or keep_blank:
            rows.append(row)
            if row and i >= table.rows and beyond is None:
                beyond = i
    if beyond is not None:  # read, but a fresh sheet does not hold them
        rd.findings.append(Finding("SHEET_ROWS_OVER_CAPACITY", table.pointer,
                                   {"table": table.label, "capacity": table.rows},
                                   rd.cell_of(table.column_name(table.columns[0].key), beyond)))
    return rows


@contextmanager
def opened(data: bytes) -> Iterator[NamedCells]:
    """The named cells of a workbook given as bytes (one just built), read as any file is."""
    with tempfile.TemporaryDirectory(prefix="mechasheet-") as tmp:
        path = Path(tmp) / "written.xlsx"
        path.write_bytes(data)
        named = NamedCells.open(path)
        try:
            yield named
        finally:
            named.close()


def _read_options(rd: CellReader, system: str) -> tuple[dict[str, str], dict[str, str]]:
    """The rules readings the workbook's ルール sheet holds (``<system>.options.<name>``): the
    formulas compute with them, so the check does too. A value the option does not offer is a
    warning at its cell and the default is used."""
    options: dict[str, str] = {}
    cells: dict[str, str] = {}
    declared = option_declarations(system)
    for name, decl in declared.items():
        raw = rd.raw(f"{system}.options.{name}")
        cell = rd.cell_of(f"{system}.options.{name}")
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            continue
        cells[name] = cell
        value = reading_value(decl, raw)  # its name, or its label typed instead
        if value is not None:
            options[name] = value
            continue
        rd.findings.append(Finding("SHEET_OPTION_UNKNOWN", "", {
            "label_ja": decl["label"], "label_en": decl.get("label_en", decl["label"]), "value": raw,
            "choices": list(decl["values"]),
            "default": decl["default"]}, cell))
    return options, cells


_EFFECT_KINDS = {"effect_flag": "bool", "effect_bool": "bool", "effect_level": "int", "effect_text": "text"}


@dataclass(frozen=True, slots=True)
class _ColumnPlan:
    """How one input column of a table is read into its row object, worked out once per table read."""

    name: str  # its defined name
    kind: str  # the cell's kind as the reader converts it
    list_id: str | None
    place: str  # "effect", "bonus" or "row"
    suffix: str  # the pointer below the row: "/effects", or its key path
    key: tuple[str, ...]  # effect: (id, field?); bonus: (n, field); row: the key path's parts
    flag: bool = False  # an effect's tick box: unticked (False) means no such effect


def _plan_row(table: Table) -> tuple[_ColumnPlan, ...]:
    plan = []
    for col in table.columns:
        if col.computed:
            continue
        name = table.column_name(col.key)
        if col.kind.startswith("effect_"):
            _, eid, *rest = col.key.split(".")
            plan.append(_ColumnPlan(name, _EFFECT_KINDS[col.kind], None, "effect", "/effects",
                                    (eid, *rest[:1]), col.kind == "effect_flag"))
        elif col.key.startswith("bonuses."):
            _, n, fld = col.key.split(".")
            plan.append(_ColumnPlan(name, "stat_list" if fld == "stats" else "int", "pilot_stats",
                                    "bonus", "/" + col.key.replace(".", "/"), (n, fld)))
        else:
            plan.append(_ColumnPlan(name, col.kind, col.list, "row", "/" + col.key.replace(".", "/"),
                                    tuple(col.key.split("."))))
    return tuple(plan)


def _read_row(rd: CellReader, table: Table, plan: tuple[_ColumnPlan, ...], i: int, at: int
              ) -> dict[str, Any] | None:
    """Sheet row ``i`` as the object at index ``at`` of its list (blank rows above are left
    out, so later rows' pointers follow), or None when every input cell is blank."""
    if rd.blank_row(table, i):
        return None
    row: dict[str, Any] = {}
    effects: dict[str, dict[str, Any]] = {}
    bonuses: dict[int, dict[str, Any]] = {}
    base = f"{table.pointer}/{at}"
    mapped = len(rd.cells)
    value = rd.value
    for col in plan:
        v = value(col.name, col.kind, base + col.suffix, index=i, list_id=col.list_id)
        if v is None:
            continue
        if col.place == "effect":
            if v is False and col.flag:
                continue
            eff = effects.setdefault(col.key[0], {"id": col.key[0]})
            if len(col.key) > 1:
                eff[col.key[1]] = v
        elif col.place == "bonus":
            bonuses.setdefault(int(col.key[0]), {})[col.key[1]] = v
        else:
            obj = row
            for p in col.key[:-1]:
                obj = obj.setdefault(p, {})
            obj[col.key[-1]] = v
    if effects:
        row["effects"] = list(effects.values())
    if bonuses:
        row["bonuses"] = [bonuses[k] for k in sorted(bonuses)]
    _numbered_to_lists(row, base, rd.cells)
    if not row:
        for ptr in list(rd.cells)[mapped:]:  # a blank row names no place in the document
            del rd.cells[ptr]
        return None
    rd.cells[base] = rd.cell_of(table.column_name(table.columns[0].key), i)
    return row


def _numbered_to_lists(obj: dict[str, Any], at: str, cells: dict[str, str]) -> None:
    """Columns keyed ``specializations.0.name``, ``specializations.1.name``: the numbered slots
    become a list, blank slots left out; the pointer → cell map follows the renumbering."""
    for key, value in list(obj.items()):
        if not isinstance(value, dict):
            continue
        if value and all(k.isdigit() for k in value):
            items: list[Any] = []
            for old in sorted(value, key=int):
                new = len(items)
                if new != int(old):
                    prefix = f"{at}/{key}/{old}"
                    for ptr in [p for p in cells if p == prefix or p.startswith(prefix + "/")]:
                        cells[f"{at}/{key}/{new}" + ptr[len(prefix):]] = cells[ptr]
                items.append(value[old])
            obj[key] = items
            for n, item in enumerate(items):
                if isinstance(item, dict):
                    _numbered_to_lists(item, f"{at}/{key}/{n}", cells)
        else:
            _numbered_to_lists(value, f"{at}/{key}", cells)

"""Reading a filled `up` workbook back into a document, field by defined name.

Cells are found by their names, so a user may move cells or insert rows. Values are converted
leniently (numbers stored as text, full-width digits, ○/はい) and every problem becomes a finding
with its cell (``シート名!C12``); content with no field is kept under ``extra``.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..errors import InputError
from ..findings import Finding
from .layout import Table, load_layout
from .up_rules_sheet import up_lists
from .values import CellReader, NamedCells


def read_up(path: Path, named: NamedCells) -> tuple[dict[str, Any], list[Finding], dict[str, str]]:
    """(document, reader findings, pointer → cell) of a `up` workbook."""
    layout = load_layout("up")
    rd = CellReader(named, up_lists())
    doc: dict[str, Any] = {"system": "up", "format": 1}
    for fld in layout.fields:
        value = rd.value(f"up.{fld.pointer.strip('/').replace('/', '.')}", fld.kind, fld.pointer,
                         list_id=fld.list)
        if value is not None:
            _put(doc, fld.pointer, value)
    stats = {}
    for sid in layout.raw["stat_block"]["stats"]:
        v = rd.value(f"up.stats.{sid}", "int", f"/stats/{sid}")
        if v is not None:
            stats[sid] = v
    if stats:
        doc["stats"] = stats
    movement, terrain = [], {}
    for key in layout.raw["terrain_block"]["terrains"]:
        if rd.value(f"up.movement.{key}", "bool", "/movement"):
            movement.append(key)
        g = rd.value(f"up.terrain.{key}", "enum", f"/terrain/{key}", list_id="grades")
        if g is not None:
            terrain[key] = g
    doc["movement"] = movement
    if terrain:
        doc["terrain"] = terrain
    for table in layout.tables:
        rows = [r for r in (_read_row(rd, table, i) for i in range(rd.rows(table))) if r]
        if rows:
            _put(doc, table.pointer, rows)
    if "transformation" in doc:
        doc["transformation"].setdefault("forms", [])
    total = rd.raw("up.totals.computed")
    rd.cells["/declared_total"] = rd.cell_of("up.totals.computed")
    declared = rd.to_int(total, "/declared_total", rd.cells["/declared_total"])
    if declared is not None:
        doc["declared_total"] = declared
    extra_text = rd.raw("up.extra")
    if extra_text:
        try:
            extra = json.loads(extra_text)
        except (TypeError, ValueError):
            extra = {"_unparsed": str(extra_text)}
        unmapped = extra.pop("_unmapped", {}) if isinstance(extra, dict) else {}
        effects = extra.pop("_unmapped_effects", {}) if isinstance(extra, dict) else {}
        weapons = doc.get("weapons") or []
        for index, kept in effects.items():
            if index.isdigit() and int(index) < len(weapons):
                weapons[int(index)].setdefault("effects", []).extend(kept)
            else:
                doc.setdefault("extra", {}).setdefault("_unmapped_effects", {})[index] = kept
        if extra:
            doc["extra"] = extra
        for key, value in unmapped.items():
            doc.setdefault(key, value)
    return doc, rd.findings, rd.cells


def _put(doc: dict[str, Any], pointer: str, value: Any) -> None:
    parts = [p for p in pointer.split("/") if p]
    obj = doc
    for p in parts[:-1]:
        obj = obj.setdefault(p, {})
    obj[parts[-1]] = value


def _read_row(rd: "CellReader", table: Table, i: int) -> dict[str, Any] | None:
    """One table row as an object, or None when every input cell is blank."""
    row: dict[str, Any] = {}
    effects: dict[str, dict[str, Any]] = {}
    bonuses: dict[int, dict[str, Any]] = {}
    base = f"{table.pointer}/{i}"
    for col in table.columns:
        if col.computed:
            continue
        name = table.column_name(col.key)
        ptr = f"{base}/{col.key.replace('.', '/')}"
        if col.kind.startswith("effect_"):
            _, eid, *rest = col.key.split(".")
            kind = {"effect_flag": "bool", "effect_bool": "bool", "effect_level": "int",
                    "effect_text": "text"}[col.kind]
            v = rd.value(name, kind, f"{base}/effects", index=i)
            if v is None or v is False and col.kind == "effect_flag":
                continue
            eff = effects.setdefault(eid, {"id": eid})
            if rest:
                eff[rest[0]] = v
            continue
        if col.key.startswith("bonuses."):
            _, n, field = col.key.split(".")
            kind = "stat_list" if field == "stats" else "int"
            v = rd.value(name, kind, ptr, index=i, list_id="pilot_stats")
            if v is not None:
                bonuses.setdefault(int(n), {})[field] = v
            continue
        v = rd.value(name, col.kind, ptr, index=i, list_id=col.list)
        if v is None:
            continue
        obj = row
        parts = col.key.split(".")
        for p in parts[:-1]:
            obj = obj.setdefault(p, {})
        obj[parts[-1]] = v
    if effects:
        row["effects"] = list(effects.values())
    if bonuses:
        row["bonuses"] = [bonuses[k] for k in sorted(bonuses)]
    if not row:
        return None
    rd.cells[base] = rd.cell_of(table.column_name(table.columns[0].key), i)
    return row


def read_sheet(path: str | Path) -> tuple[dict[str, Any], list[Finding], dict[str, str]]:
    """Read any mechasheet workbook: recognise its template by the ``mechasheet.template`` name."""
    p = Path(path)
    named = NamedCells.open(p)
    template = named.raw("mechasheet.template")
    if not template:
        raise InputError(f"{p}: not a mechasheet workbook (no mechasheet.template name); "
                         "legacy sheets are imported with a legacy profile")
    system, _, version = str(template).partition("/")
    if system != "up":
        raise InputError(f"{p}: template {template!r} is not readable by this version")
    layout = load_layout(system)
    if not version.isdigit() or int(version) > layout.template_version:
        raise InputError(f"{p}: template {template!r} is newer than this version reads "
                         f"({layout.template})")
    return read_up(p, named)

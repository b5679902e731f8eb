"""Every Excel function called on every sample, with the cells a real workbook holds.

Each sample is written as our template filled with it (a real .xlsx), read back with
python-calamine as value grids (numbers as floats, blanks as "", as classic xlwings sends them),
and each function gets its arguments from those grids; the expected value is the engine's on
the whole document. The same cases run under CPython and under Pyodide (test_pyodide.py).
"""
from __future__ import annotations

import json
import tempfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"
SAMPLES = sorted(p for s in ("up", "mailgear", "pp") for p in (ROOT / "samples" / s).glob("*.json"))


@dataclass(frozen=True)
class Call:
    """One function call: its name, arguments (JSON values) and the engine's answer."""

    label: str
    function: str
    args: tuple[Any, ...]
    expected: Any


def context_for(doc: dict[str, Any]) -> dict[str, Any]:
    """The engine's extra inputs a sample is checked with (mailgear: the example catalog)."""
    if doc.get("system") != "mailgear":
        return {}
    from converter.rules.mailgear.catalog import Catalog

    return {"catalog": Catalog.from_data(json.loads(CATALOG.read_text("utf-8")))}


def sample_grids(path: Path) -> dict[str, list[list[Any]]]:
    """The sample's filled workbook, written and read back: sheet → value grid."""
    return _sample_book(path)[0]


@lru_cache(maxsize=None)
def _sample_book(path: Path) -> tuple[dict[str, list[list[Any]]], dict[str, Any]]:
    """(sheet → value grid, defined name → Area) of the sample's filled workbook (its catalog
    sheet's tables as long as its catalog needs)."""
    import python_calamine

    from converter.io.xlsx_package import open_package
    from converter.sheets import sheet_bytes

    doc = json.loads(path.read_text("utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        xlsx = Path(tmp) / "sheet.xlsx"
        xlsx.write_bytes(sheet_bytes(doc, None, context_for(doc)))
        book = python_calamine.CalamineWorkbook.from_path(str(xlsx))
        grids = {name: book.get_sheet_by_name(name).to_python(skip_empty_area=False)
                 for name in book.sheet_names}
        book.close()
        package = open_package(xlsx)
        names = dict(package.names)
        package.close()
    return grids, names


def part_range(path: Path, part: str) -> list[list[Any]]:
    """One input part of the sample's workbook (``SystemSheet.input_parts``): the rectangle its
    names cover, as the range a flavoured cell passes."""
    from converter.sheets.system_sheet import system_sheet

    grids, names = _sample_book(path)
    system = json.loads(path.read_text("utf-8"))["system"]
    areas = [names[n] for n in system_sheet(system).input_parts()[part]]
    grid = grids[areas[0].sheet]
    top, bottom = min(a.top for a in areas), max(a.bottom for a in areas)
    left, right = min(a.left for a in areas), max(a.right for a in areas)
    rows = [grid[r] if r < len(grid) else [] for r in range(top, bottom + 1)]
    return [(list(row[left:right + 1]) + [""] * (right - left + 1))[:right - left + 1] for row in rows]


def _cell(grids, system: str, name: str, index: int = 0) -> Any:
    from converter.excel.template_names import template_names

    area = template_names(system).names[name]
    grid = grids[area.sheet]
    r, c = area.top + index, area.left
    return grid[r][c] if r < len(grid) and c < len(grid[r]) else None


def _table_range(grids, system: str, table_id: str) -> list[list[Any]]:
    """The input columns of a table's rows, as the range a user selects."""
    from converter.sheets.system_sheet import system_sheet

    table = system_sheet(system).layout.table(table_id)
    n = sum(1 for c in table.columns if not c.computed)
    first = _area(system, table.column_name(table.columns[0].key))
    grid = grids[first.sheet]
    rows = [grid[r] if r < len(grid) else [] for r in range(first.top, first.bottom + 1)]
    return [(list(row[first.left:first.left + n]) + [""] * n)[:n] for row in rows]


def _area(system: str, name: str):
    from converter.excel.template_names import template_names

    return template_names(system).names[name]


def sheet_args(grids, system: str) -> list[list[list[Any]]]:
    """Every sheet of the workbook as a range from A1 (the rules sheet carries the readings and
    pp's skill list, the hidden data sheet what the cells cannot say)."""
    return list(grids.values())


def calls_for(path: Path) -> list[Call]:
    """Every function with arguments from the sample's grids, and the engine's values."""
    from converter import evaluate

    doc = json.loads(path.read_text("utf-8"))
    system = doc["system"]
    ev = evaluate(doc, None, context_for(doc))
    grids = sample_grids(path)
    sheets = sheet_args(grids, system)
    out: list[Call] = []
    if system == "up":
        size = _cell(grids, system, "up.size")
        for sid in ("hp", "en", "armor", "power", "mobility", "move"):
            label_cell = _area(system, f"up.stats.{sid}")
            stat_label = grids[label_cell.sheet][label_cell.top][label_cell.left - 1]
            out.append(Call(f"stat {sid}", "UP_STAT_COST", (size, stat_label, _cell(grids, system, f"up.stats.{sid}")),
                            ev.cost_at(f"/stats/{sid}", 0)))
        movement = [[_cell(grids, system, f"up.movement.{t}")] for t in ("air", "land", "sea", "space")]
        budget = _cell(grids, system, "up.budget")
        weapons = _table_range(grids, system, "weapons")
        for i, _ in enumerate(doc.get("weapons") or []):
            out.append(Call(f"weapon {i}", "UP_WEAPON_COST", (weapons, i + 1, movement, budget),
                            ev.cost_at(f"/weapons/{i}")))
        abilities = _table_range(grids, system, "abilities")
        for i, _ in enumerate(doc.get("abilities") or []):
            out.append(Call(f"ability {i}", "UP_ABILITY_COST", (abilities, i + 1, size),
                            ev.cost_at(f"/abilities/{i}")))
        out.append(Call("total", "UP_TOTAL", tuple(sheets), ev.total))
        if ev.remainder is not None:
            out.append(Call("remaining", "UP_REMAINING", tuple(sheets), ev.remainder))
    elif system == "pp":
        for aid in ("body", "reflex", "sense", "mind", "social"):
            if f"/attributes/{aid}" in {line.pointer for line in ev.lines}:
                label = ev.derived[f"/derived/attributes/{aid}/dice"].label.split("】")[0] + "】"
                out.append(Call(f"attribute {aid}", "PP_ATTRIBUTE_COST",
                                (label.strip("【】"), doc["attributes"][aid]), ev.cost_at(f"/attributes/{aid}")))
        for i, skill in enumerate(doc.get("skills") or []):
            out.append(Call(f"skill {i}", "PP_SKILL_COST", (skill["name"], float(skill["level"])),
                            ev.cost_at(f"/skills/{i}/level", 0)))
            for j, spec in enumerate(skill.get("specializations") or []):
                out.append(Call(f"specialization {i}.{j}", "PP_SPECIALIZATION_COST",
                                (skill["name"], skill["level"], spec["name"], spec["level"]),
                                ev.cost_at(f"/skills/{i}/specializations/{j}/level", 0)))
        out.append(Call("total", "PP_TOTAL", tuple(sheets), ev.total))
        out.append(Call("initiative", "PP_INITIATIVE", tuple(sheets), ev.value("/derived/initiative")))
        if "/derived/unit_initiative" in ev.derived:
            out.append(Call("unit initiative", "PP_UNIT_INITIATIVE", tuple(sheets),
                            ev.value("/derived/unit_initiative")))
    else:
        for d in ev.derived_under("/derived/skills"):
            out.append(Call(f"skill {d.label}", "MAILGEAR_SKILL_LEVEL", (d.label, *sheets), d.value))
        for d in ev.derived_under("/derived/stats"):
            out.append(Call(f"gear stat {d.pointer}", "MAILGEAR_STAT", (d.pointer.split("/")[-1], *sheets), d.value))
        for d in ev.derived_under("/derived"):
            key = d.pointer.split("/", 2)[2]
            if "/" not in key:
                out.append(Call(f"derived {key}", "MAILGEAR_DERIVED", (key, *sheets), ev.value(f"/derived/{key}")))
        out.append(Call("fortune", "MAILGEAR_FORTUNE", tuple(sheets), ev.value("/derived/fortune")))
        out.append(Call("slots", "MAILGEAR_SLOTS", tuple(sheets), ev.value("/derived/slots_used")))
        out += mailgear_input_calls(path, doc, ev)
    return out


def rules_block(path: Path) -> list[list[Any]]:
    """The ルール sheet's ルール選択 block (option and value columns) of the sample's workbook."""
    from converter.rules.options import option_declarations

    grids, names = _sample_book(path)
    system = json.loads(path.read_text("utf-8"))["system"]
    areas = [names[f"{system}.options.{o}"] for o in option_declarations(system)]
    grid = grids[areas[0].sheet]
    return [list(grid[r][areas[0].left - 1:areas[0].left + 1]) for r in range(min(a.top for a in areas),
                                                                          max(a.bottom for a in areas) + 1)]


def mailgear_input_calls(path: Path, doc: dict[str, Any], ev: Any) -> list[Call]:
    """The input-only functions (what the xlwings-flavoured sheet calls) on the sample's input
    ranges: every skill the engine derives and one it does not (""), every stat and derived
    value, each equipment row's damage and hits ("" where the engine gives none), the slots and
    both ladders (the catalog's look-up)."""
    from converter.rules.mailgear.tables import tables

    t = tables()
    p = {k: part_range(path, k) for k in ("gear", "stats", "boosts", "skills", "equipment", "effects")}
    cat = {k: part_range(path, f"catalog.{k}") for k in ("levels", "gear_ranks", "model_stats", "weapons", "options",
                                                          "option_effects")}
    rules = rules_block(path)
    skill_parts = (p["skills"], p["equipment"], p["effects"], cat["options"], cat["option_effects"])
    gear = (p["gear"], p["stats"], p["boosts"])
    out = []
    derived = [s for s in t.skills if f"/derived/skills/{s}" in ev.derived]
    for sid in derived + [next(s for s in t.skills if s not in derived)]:
        label = t.skills[sid].label
        out.append(Call(f"input skill {sid}", "MAILGEAR_PILOT_SKILL", (label, *skill_parts),
                        ev.value(f"/derived/skills/{sid}", "")))
        out.append(Call(f"input skill bonus {sid}", "MAILGEAR_PILOT_SKILL_BONUS", (sid, *skill_parts),
                        ev.value(f"/derived/skill_bonuses/{sid}", "")))
    for sid in t.stat_ids:
        out.append(Call(f"input stat {sid}", "MAILGEAR_GEAR_STAT",
                        (t.stat_labels[sid], *gear, p["equipment"], p["effects"], cat["model_stats"], cat["options"],
                         cat["option_effects"]), ev.value(f"/derived/stats/{sid}", "")))
    for did, d in t.derived.items():
        out.append(Call(f"input derived {did}", "MAILGEAR_PILOT_VALUE",
                        (d.label, *gear, p["skills"], p["equipment"], p["effects"], cat["model_stats"],
                         cat["options"], cat["option_effects"], rules), ev.value(f"/derived/{did}", "")))
    for i, _ in enumerate(doc.get("equipment") or []):
        for what, name in (("damage", "ダメージ"), *((b.hit, b.label) for b in t.bands.values())):
            out.append(Call(f"input weapon {i} {what}", "MAILGEAR_WEAPON_VALUE",
                            (p["equipment"], float(i + 1), name, *gear, p["skills"], p["effects"], cat["model_stats"],
                             cat["weapons"], cat["options"], cat["option_effects"], rules),
                            ev.value(f"/equipment/{i}/derived/{what}", "")))
    out.append(Call("input slots", "MAILGEAR_SLOTS_USED", (p["equipment"], cat["weapons"], cat["options"]),
                    ev.value("/derived/slots_used")))
    catalog = context_for(doc)["catalog"]
    pilot = doc.get("pilot") or {}
    for fn, table, key in (("MAILGEAR_LEVEL_FOR", "levels", "experience"),
                           ("MAILGEAR_RANK_FOR", "gear_ranks", "rank_points")):
        want = catalog.ladder_value(table, pilot[key])
        out.append(Call(f"input {table}", fn, (float(pilot[key]), cat[table]), "" if want is None else want))
    return out


def all_calls() -> list[tuple[str, Call]]:
    return [(p.relative_to(ROOT).as_posix(), c) for p in SAMPLES for c in calls_for(p)]

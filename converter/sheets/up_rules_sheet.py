"""The `up` rules sheet: dropdown lists and price tables written from the rule tables.

Formulas on the input sheets look these ranges up by defined name, so the workbook prices a
unit with the same figures the engine reads (one source: ``rules/up/tables.toml``).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from ..rules.up.engine import terrain_step_cost
from ..rules.up.tables import STAT_IDS, tables

TRUE, FALSE = "○", "×"


@lru_cache(maxsize=1)
def up_lists() -> dict[str, list[tuple[Any, str]]]:
    """Every enumeration of the `up` sheet: list id → [(document value, label shown)]."""
    t = tables()
    return {
        "sizes": [(k, k) for k in t.sizes],
        "stats": [(k, t.stat_labels[k]) for k in STAT_IDS],
        "morale": [(k, v["label"]) for k, v in t.morale.items()],
        "weapon_kinds": [(k, v["label"]) for k, v in t.weapon_kinds.items()],
        "attributes": [(k, v["label"]) for k, v in t.attributes.items()],
        "accuracy": [(k, str(k)) for k in sorted(t.accuracy)],
        "usage_types": list(t.usage_types.items()),
        "reductions": [("up", "UP"), ("percent", "%")],
        "weapon_grades": [(g, g) for g in t.weapon_terrain_grades],
        "grades": [(g, g) for g in t.terrain_grades],
        "map_types": [(k, v["label"]) for k, v in t.map_types.items()],
        "combo": [(k, v["label"]) for k, v in t.combo.items()],
        "abilities": [(k, v["label"]) for k, v in t.abilities.items()],
        "shield_uses": [(int(k), k) for k in t.abilities["shield"]["uses_prices"]],
        "regen_grades": [(k, v["label"]) for k, v in t.regen_grades.items()],
        "ability_en_costs": [(k, str(k)) for k in t.ability_en_costs],
        "combinations": list(t.combinations.items()),
        "pilot_stats": [(k, v["label"].strip("【】")) for k, v in t.pilot_stats.items()],
        "bool": [(True, TRUE), (False, FALSE)],
        "options.damage_dice": [(k, k) for k in t.raw["options"]["damage_dice"]["values"]],
        "options.ammo3": [(k, k) for k in t.raw["options"]["ammo3"]["values"]],
        "options.move_beyond_two": [(k, k) for k in t.raw["options"]["move_beyond_two"]["values"]],
        "options.terrain": [(k, k) for k in t.raw["options"]["terrain"]["values"]],
        "options.weapon_cap": [(k, k) for k in t.raw["options"]["weapon_cap"]["values"]],
    }


def label_of(list_id: str, value: Any) -> str:
    return dict(up_lists()[list_id])[value]


@dataclass
class RulesSheet:
    """Where each rules range was written: name → A1 range on the rules sheet."""

    names: dict[str, str]
    option_cells: dict[str, str]


def write_rules_sheet(wb, ws, sheet: str, options: dict[str, str], fmt: dict[str, Any]) -> RulesSheet:
    """Write lists and price tables to ``ws`` (an XlsxWriter worksheet) and define their names."""
    t = tables()
    names: dict[str, str] = {}
    q = f"'{sheet}'"

    def block(name: str, row: int, col: int, header: list[str], rows: list[list[Any]]) -> int:
        """Write a titled table; name the data area; return the next free row."""
        ws.write(row, col, name, fmt["h"])
        for j, h in enumerate(header):
            ws.write(row + 1, col + j, h, fmt["h"])
        for i, r in enumerate(rows):
            for j, v in enumerate(r):
                if v is None or v == "":
                    continue
                ws.write(row + 2 + i, col + j, v)
        first, last = row + 2, row + 1 + len(rows)
        from .layout import a1
        names[f"rules.{name}"] = f"{q}!{a1(first, col, True)}:{a1(last, col + len(header) - 1, True)}"
        for j in range(len(header)):
            names[f"rules.{name}.{j + 1}"] = f"{q}!{a1(first, col + j, True)}:{a1(last, col + j, True)}"
        return last + 2

    # Sizes: id, base UP, then for each stat base, step, max raise, price.
    header = ["サイズ", "基本ＵＰ"] + [f"{t.stat_labels[s]}{h}" for s in STAT_IDS
                                     for h in ("基本", "刻み", "上限", "価格")]
    rows = [[s.id, s.base_up] + [v for sid in STAT_IDS for v in
                                 (s.stats[sid].base, s.stats[sid].step, s.stats[sid].max_raise,
                                  s.stats[sid].price)]
            for s in t.sizes.values()]
    r = block("sizes", 0, 0, header, rows)
    r = block("accuracy", r, 0, ["命中修正", "ＵＰ"], [[k, v] for k, v in sorted(t.accuracy.items())])
    r = block("usage", r, 0, ["ＥＮ", "弾数", "−UP", "−%"],
              [[row.get("en"), row.get("ammo"), row.get("up"), row.get("percent")]
               for row in t.raw["usage"]["rows"]])
    r = block("melee_range", r, 0, ["格闘射程", "ＵＰ"],
              [[i + 1, p] for i, p in enumerate(t.raw["melee"]["range_prices"])])
    r = block("ranged_range", r, 0, ["射撃射程", "ＵＰ", "Ｐ"],
              [[i + 1, p, pp] for i, (p, pp) in enumerate(zip(t.raw["ranged"]["range_prices"],
                                                              t.raw["ranged"]["post_move_range_prices"]))])
    r = block("morale", r, 0, ["気力", "%"], [[m["label"], m["percent"]] for m in t.morale.values()])
    r = block("map_types", r, 0, ["ＭＡＰ兵器", "%", "着弾点"],
              [[m["label"], m["percent"], 1 if m.get("radius") else 0] for m in t.map_types.values()])
    r = block("combo", r, 0, ["合体攻撃", "%"], [[c["label"], c["percent"]] for c in t.combo.values()])
    grades = t.weapon_terrain_grades
    matrix = [[g] + [_weapon_terrain_pct(g, h) for h in grades] for g in grades]
    r = block("weapon_terrain", r, 0, ["基本＼最終"] + grades, matrix)
    names["rules.weapon_terrain.body"] = names["rules.weapon_terrain"].replace(
        "$A$", "$B$", 1)
    ugrades = t.terrain_grades
    r = block("unit_terrain", r, 0, ["基本＼最終"] + ugrades,
              [[g] + [terrain_step_cost(g, h, t) for h in ugrades] for g in ugrades])
    names["rules.unit_terrain.body"] = names["rules.unit_terrain"].replace("$A$", "$B$", 1)
    r = block("pilot_stats", r, 0, ["能力値", "ＵＰ／+1"],
              [[label, t.pilot_stats[k].get("price", t.raw["stat_bonus_attack_prices"]["one"])]
               for k, label in up_lists()["pilot_stats"]])
    r = block("shield_uses", r, 0, ["防御回数", "ＵＰ／装甲+1"],
              [[int(k), v] for k, v in t.abilities["shield"]["uses_prices"].items()])
    r = block("ability_en", r, 0, ["ＥＮ消費", "%"], [[k, v] for k, v in t.ability_en_costs.items()])
    r = block("regen", r, 0, ["回復", "倍率"], [[g["label"], g["factor"]] for g in t.regen_grades.values()])

    # Dropdown lists (labels as shown), right of the widest table (the sizes table).
    col = len(header) + 1
    for list_id, items in up_lists().items():
        if list_id.startswith("options."):
            continue
        ws.write(0, col, list_id, fmt["h"])
        for i, (value, label) in enumerate(items):
            numeric = isinstance(value, int) and not isinstance(value, bool)
            ws.write(1 + i, col, value if numeric else label)  # numbers stay numbers for lookups
        from .layout import a1
        names[f"list.{list_id}"] = f"{q}!{a1(1, col, True)}:{a1(len(items), col, True)}"
        col += 1

    # The group's rules readings (RULES-NOTES options), used by the formulas.
    option_cells: dict[str, str] = {}
    ws.write(0, col + 1, "ルール選択", fmt["h"])
    for i, (name, spec) in enumerate(t.raw["options"].items()):
        from .layout import a1
        ws.write(1 + i, col + 1, spec["label"])
        ws.write(1 + i, col + 2, options[name], fmt["input"])
        ref = f"{q}!{a1(1 + i, col + 2, True)}"
        option_cells[name] = ref
        names[f"up.options.{name}"] = ref
        ws.data_validation(1 + i, col + 2, 1 + i, col + 2,
                           {"validate": "list", "source": list(spec["values"])})
    ws.set_column(col + 1, col + 1, 34)
    for name, ref in names.items():
        wb.define_name(name, "=" + ref)
    return RulesSheet(names, option_cells)


def _weapon_terrain_pct(base: str, final: str) -> int:
    """Percent for a weapon's terrain moving from ``base`` to ``final`` (seed 000)."""
    t = tables()
    raw = t.raw["weapon_terrain"]
    order = t.weapon_terrain_grades
    if base == final:
        return 0
    if final == raw["unusable"]:
        return raw["unusable_percent"]
    if base == raw["unusable"]:
        return (order.index("C") - order.index(final) + 1) * raw["step_up_percent"]
    diff = order.index(base) - order.index(final)
    return diff * (raw["step_up_percent"] if diff > 0 else -raw["step_down_percent"])


def fraction_parts(value: float | str) -> tuple[int, int]:
    f = Fraction(str(value))
    return f.numerator, f.denominator

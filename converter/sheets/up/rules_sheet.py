"""The `up` rules sheet: dropdown lists and price tables written from the rule tables.

Formulas on the input sheets look these ranges up by defined name, so the workbook prices a
unit with the same figures the engine reads (one source: ``rules/up/tables.toml``).
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...rules.up.stats import terrain_step_cost
from ...rules.up.tables import STAT_IDS, TERRAINS, tables
from ...rules.up.weapons import weapon_terrain_step_percent
from ..rules_sheet import RulesSheetWriter
from ..system_sheet import FALSE, TRUE


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
        "terrains": [(k, t.movement_types[k]) for k in TERRAINS],
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


def write_rules_sheet(wb, ws, sheet: str, options: dict[str, str], fmt: dict[str, Any]) -> None:
    """Write the price tables and lists to ``ws`` (an XlsxWriter worksheet) and name them."""
    t = tables()
    rs = RulesSheetWriter(wb, ws, sheet, fmt)
    # Sizes: id, base UP, then for each stat base, step, max raise, price.
    header = ["サイズ", "基本ＵＰ"] + [f"{t.stat_labels[s]}{h}" for s in STAT_IDS
                                     for h in ("基本", "刻み", "上限", "価格")]
    rs.block("sizes", header, [[s.id, s.base_up] + [v for sid in STAT_IDS for v in
                                                   (s.stats[sid].base, s.stats[sid].step,
                                                    s.stats[sid].max_raise, s.stats[sid].price)]
                               for s in t.sizes.values()])
    rs.block("accuracy", ["命中修正", "ＵＰ"], [[k, v] for k, v in sorted(t.accuracy.items())])
    rs.block("usage", ["ＥＮ", "弾数", "−UP", "−%"],
             [[row.get("en"), row.get("ammo"), row.get("up"), row.get("percent")]
              for row in t.raw["usage"]["rows"]])
    rs.block("melee_range", ["格闘射程", "ＵＰ"],
             [[i + 1, p] for i, p in enumerate(t.raw["melee"]["range_prices"])])
    rs.block("ranged_range", ["射撃射程", "ＵＰ", "Ｐ"],
             [[i + 1, p, pp] for i, (p, pp) in enumerate(zip(t.raw["ranged"]["range_prices"],
                                                             t.raw["ranged"]["post_move_range_prices"],
                                                             strict=False))])
    rs.block("morale", ["気力", "%"], [[m["label"], m["percent"]] for m in t.morale.values()])
    rs.block("map_types", ["ＭＡＰ兵器", "%", "着弾点"],
             [[m["label"], m["percent"], 1 if m.get("radius") else 0] for m in t.map_types.values()])
    rs.block("combo", ["合体攻撃", "%"], [[c["label"], c["percent"]] for c in t.combo.values()])
    grades = t.weapon_terrain_grades
    rs.block("weapon_terrain", ["基本＼最終"] + grades,
             [[g] + [weapon_terrain_step_percent(g, h, t) for h in grades] for g in grades])
    ugrades = t.terrain_grades
    rs.block("unit_terrain", ["基本＼最終"] + ugrades,
             [[g] + [terrain_step_cost(g, h, t) for h in ugrades] for g in ugrades])
    rs.block("pilot_stats", ["能力値", "ＵＰ／+1"],
             [[label, t.pilot_stats[k].get("price", t.raw["stat_bonus_attack_prices"]["one"])]
              for k, label in up_lists()["pilot_stats"]])
    rs.block("shield_uses", ["防御回数", "ＵＰ／装甲+1"],
             [[int(k), v] for k, v in t.abilities["shield"]["uses_prices"].items()])
    rs.block("ability_en", ["ＥＮ消費", "%"], [[k, v] for k, v in t.ability_en_costs.items()])
    rs.block("regen", ["回復", "倍率"], [[g["label"], g["factor"]] for g in t.regen_grades.values()])
    col = rs.lists({k: v for k, v in up_lists().items() if not k.startswith("options.")})
    rs.options("up", options, col)
    rs.define()

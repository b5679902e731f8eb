"""The JSON Schema of a `up` unit document, generated from the rule tables.

Committed as ``schemas/up.schema.json``; a test regenerates it and compares. Rules a schema
cannot express (totals, budget, the 1/5 cap, variants) are the engine's.
"""
from __future__ import annotations

from typing import Any

from .tables import STAT_IDS, TERRAINS, tables
from ..schema_parts import enum_schema as _enum, identity_properties, schema_head

FORMAT = 1


def build_schema() -> dict[str, Any]:
    """The whole schema as a dict, deterministic (stable key order) for byte comparison."""
    t = tables()
    raw = t.raw
    morale = _enum(list(t.morale) + [None], {k: v["label"] for k, v in t.morale.items()},
                   description="気力制限")
    grade_w = _enum(t.weapon_terrain_grades)
    terrain_w = {"type": "object", "properties": {k: grade_w for k in TERRAINS},
                 "additionalProperties": False}

    stats_props = {sid: {"type": "integer", "minimum": 0, "title": t.stat_labels[sid]}
                   for sid in STAT_IDS}
    size_rules = []
    for size in t.sizes.values():
        props: dict[str, Any] = {}
        for sid in STAT_IDS:
            rule = size.stats[sid]
            p: dict[str, Any] = {"multipleOf": rule.step}
            if rule.max_raise is not None:
                p["maximum"] = rule.base + rule.max_raise
            props[sid] = p
        size_rules.append({"if": {"properties": {"size": {"const": size.id}}, "required": ["size"]},
                           "then": {"properties": {"stats": {"properties": props}}}})

    usage = {
        "type": ["object", "null"],
        "title": "使用回数",
        "properties": {
            "type": _enum(list(t.usage_types), dict(t.usage_types)),
            "amount": {"type": "integer"},
            "reduction": _enum(["up", "percent", None],
                               {"up": "−UP", "percent": "−%"},
                               description="「−N UP または −M %」の行でどちらを選んだか（null: 未記入）"),
        },
        "required": ["type", "amount"],
        "additionalProperties": False,
        "allOf": [{"if": {"properties": {"type": {"const": k}}},
                   "then": {"properties": {"amount": {"enum": t.usage_amounts(k)}}}}
                  for k in t.usage_types],
    }

    effect_ids = list(t.effects)
    level_rules = [{"if": {"properties": {"id": {"const": e["id"]}}},
                    "then": {"properties": {"level": {"maximum": e["max_level"]}}}}
                   for e in raw["effects"] if "max_level" in e]
    effect = {
        "type": "object",
        "properties": {
            "id": _enum(effect_ids, {k: v["label"] for k, v in t.effects.items()}),
            "level": {"type": "integer", "minimum": 1},
            "always": {"type": "boolean", "description": "ダメージの有無にかかわらず"},
            "target": {"type": ["string", "null"], "description": "低下させるステータス"},
        },
        "required": ["id"],
        "additionalProperties": False,
        "allOf": level_rules,
    }

    weapon = {
        "type": "object",
        "title": "武器",
        "properties": {
            "name": {"type": "string", "minLength": 1, "title": "武器名"},
            "kind": _enum(list(t.weapon_kinds), {k: v["label"] for k, v in t.weapon_kinds.items()}),
            "range": {"type": "integer", "minimum": 1, "title": "射程"},
            "min_range": {"type": "integer", "minimum": 1, "default": 1, "title": "最小射程"},
            "post_move": {"type": "boolean", "title": "移動後攻撃（Ｐ）"},
            "attribute": _enum(list(t.attributes), {k: v["label"] for k, v in t.attributes.items()},
                               default="solid"),
            "damage": {"type": "object", "title": "購入したダメージ（基本 1D10+10 を含む）",
                       "properties": {
                           "dice": {"type": "integer", "minimum": raw["damage"]["base_dice"]},
                           "fixed": {"type": "integer", "minimum": raw["damage"]["base_fixed"]}},
                       "required": ["dice", "fixed"], "additionalProperties": False},
            "accuracy": _enum(sorted(t.accuracy), default=0, title="命中修正（%）"),
            "guided": {"type": "boolean", "default": False, "title": "誘導"},
            "usage": usage,
            "terrain": {**terrain_w, "title": "武器の地形適応（null: 基本のまま）",
                        "type": ["object", "null"]},
            "terrain_b": _enum(list(TERRAINS) + [None], {k: t.movement_types[k] for k in TERRAINS},
                               title="実体の射撃武器で基本のＢを置いた地形（null: 最も安い置き方）"),
            "map": {
                "type": ["object", "null"], "title": "ＭＡＰ兵器",
                "properties": {
                    "type": _enum(list(t.map_types), {k: v["label"] for k, v in t.map_types.items()}),
                    "radius": {"type": ["integer", "null"], "minimum": 1,
                               "description": "着弾点からの射程（着弾点指定型）"},
                    "friend_foe": {"type": "boolean", "default": False, "title": "敵味方識別"}},
                "required": ["type"], "additionalProperties": False},
            "combo": _enum(list(t.combo), {k: v["label"] for k, v in t.combo.items()}, default="none"),
            "effects": {"type": "array", "items": effect},
            "morale": morale,
            "variant_of": {"type": ["string", "null"], "title": "撃ち分けの元の武器名"},
            "declared_cost": {"type": ["integer", "null"], "title": "記入されたコスト"},
            "notes": {"type": "string"},
        },
        "required": ["name", "kind", "range", "damage"],
        "additionalProperties": False,
    }

    ability_ids = list(t.abilities)
    ability = {
        "type": "object",
        "title": "特殊能力",
        "properties": {
            "id": _enum(ability_ids, {k: v["label"] for k, v in t.abilities.items()}),
            "name": {"type": "string", "title": "名称（例: ゼロシステム）"},
            "armor": {"type": "integer", "minimum": 1},
            "uses": _enum([int(u) for u in t.abilities["shield"]["uses_prices"]] + [None]),
            "narrowed": {"type": "boolean", "description": "ビームのみ／実弾のみ"},
            "level": {"type": "integer", "minimum": 1},
            "grade": _enum(list(t.regen_grades), {k: v["label"] for k, v in t.regen_grades.items()}),
            "bonuses": {"type": "array", "minItems": 1, "items": {
                "type": "object",
                "properties": {
                    "stats": {"type": "array", "minItems": 1, "uniqueItems": True,
                              "items": _enum(list(t.pilot_stats),
                                             {k: v["label"] for k, v in t.pilot_stats.items()})},
                    "amount": {"type": "integer", "minimum": 1}},
                "required": ["stats", "amount"], "additionalProperties": False}},
            "en_cost": _enum(list(t.ability_en_costs) + [None], description="ＥＮ消費"),
            "morale": morale,
            "declared_cost": {"type": ["integer", "null"]},
            "notes": {"type": "string"},
        },
        "required": ["id"],
        "additionalProperties": False,
        "allOf": [
            {"if": {"properties": {"id": {"enum": ["shield", "barrier1", "barrier2"]}}},
             "then": {"required": ["armor"]}},
            {"if": {"properties": {"id": {"const": "bunshin"}}},
             "then": {"required": ["level"],
                      "properties": {"level": {"maximum": t.abilities["bunshin"]["max_level"]}}}},
            {"if": {"properties": {"id": {"const": "multi_seat"}}}, "then": {"required": ["level"]}},
            {"if": {"properties": {"id": {"const": "stat_bonus"}}}, "then": {"required": ["bonuses"]}},
        ],
    }

    transformation = {
        "type": ["object", "null"],
        "title": "変形",
        "properties": {
            "group": {"type": "string", "title": "形態のまとまりの名前"},
            "forms": {"type": "array", "title": "他の形態（変形コストを除くＵＰ）", "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "up": {"type": "integer", "minimum": 0}},
                "required": ["name", "up"], "additionalProperties": False}},
            "changed_places": {"type": ["integer", "null"], "minimum": 1,
                               "maximum": raw["transformation"]["partial"][-1]["max_changes"],
                               "title": "部分変形の変更箇所（null: 完全変形）"},
            "one_way": {"type": "boolean", "default": False, "title": "回数制限（一度だけ）"},
            "drop_off": {"type": "boolean", "default": False, "title": "脱落型"},
            "combination": _enum(list(t.combinations), dict(t.combinations), default="none"),
        },
        "required": ["forms"],
        "additionalProperties": False,
    }

    return {
        **schema_head("up", "mechasheet: up unit (ユニット作成・ＵＰ)"),
        "properties": {
            **identity_properties("up", FORMAT),
            "name": {"type": "string", "minLength": 1, "title": "機体名"},
            "pilot": {"type": "string", "title": "パイロット"},
            "budget": {"type": "integer", "minimum": 1, "title": "総ＵＰ"},
            "size": _enum(list(t.sizes), {k: v.label for k, v in t.sizes.items()}, title="サイズ"),
            "stats": {"type": "object", "properties": stats_props,
                      "required": list(STAT_IDS), "additionalProperties": False,
                      "title": "機体性能（最終値）"},
            "movement": {"type": "array", "minItems": 1, "uniqueItems": True,
                         "items": _enum(list(t.movement_types), dict(t.movement_types)),
                         "title": "移動タイプ"},
            "terrain": {"type": ["object", "null"], "title": "地形適応（選択ルール）",
                        "properties": {k: _enum(t.terrain_grades) for k in TERRAINS},
                        "additionalProperties": False},
            "morale_boosts": {"type": "array", "title": "気力によるステータス上昇", "items": {
                "type": "object",
                "properties": {"name": {"type": "string"}, "stat": _enum(list(STAT_IDS)),
                               "raise": {"type": "integer", "minimum": 1}, "morale": morale},
                "required": ["stat", "raise", "morale"], "additionalProperties": False}},
            "weapons": {"type": "array", "items": weapon, "title": "武装"},
            "abilities": {"type": "array", "items": ability, "title": "特殊能力"},
            "transformation": transformation,
            "carrier": {"type": "boolean", "default": False, "title": "戦艦ユニット"},
            "declared_total": {"type": ["integer", "null"], "title": "記入された合計ＵＰ"},
            "notes": {"type": "string", "title": "メモ"},
            "extra": {"type": "object", "title": "取り込めなかった内容（そのまま保存）"},
        },
        "required": ["system", "format", "name", "budget", "size", "stats", "movement"],
        "additionalProperties": False,
        "allOf": size_rules,
    }

"""The JSON Schema of a `mailgear` document (pilot + mail gear), generated from the rule tables.

Committed as ``schemas/mailgear.schema.json``; a test regenerates it and compares. Rules a schema
cannot express (slots counted with sizes, arms, option copies, 専用機 boosts, caps counting
options, anything needing the group's catalog) are the engine's.
"""
from __future__ import annotations

from typing import Any

from .tables import MailgearTables, tables
from ..schema_parts import enum_schema as _enum, identity_properties, schema_head

FORMAT = 1

# A gear rank: letters, then "+" for a 専用機 (seed 001, 専用機について). The letters come from
# the group's catalog, so the schema only fixes their shape.
RANK_PATTERN = r"^[A-Z]+\+?$"
LEVEL_PATTERN = r"^[A-Z]+$"


def skill_enum(t: MailgearTables, **extra: Any) -> dict[str, Any]:
    """The 24 skill ids with their Japanese labels."""
    return _enum(list(t.skills), {k: s.label for k, s in t.skills.items()}, **extra)


def stat_enum(t: MailgearTables, ids: list[str] | None = None, **extra: Any) -> dict[str, Any]:
    ids = list(t.stat_ids) if ids is None else ids
    return _enum(ids, {k: t.stat_labels[k] for k in ids}, **extra)


def band_enum(t: MailgearTables, **extra: Any) -> dict[str, Any]:
    return _enum(list(t.bands), {k: f"{b.label}（距離{b.min}〜{b.max}）" if b.min != b.max
                                 else f"{b.label}（距離{b.min}）" for k, b in t.bands.items()}, **extra)


def stats_object(t: MailgearTables, title: str) -> dict[str, Any]:
    """All gear stats, each required: the sheet and the catalog both give every one."""
    return {"type": "object", "title": title,
            "properties": {sid: {"type": "integer", "title": t.stat_labels[sid]} for sid in t.stat_ids},
            "required": list(t.stat_ids), "additionalProperties": False}


def effect_schema(t: MailgearTables) -> dict[str, Any]:
    """An option's effect: skill levels, a stat bonus, or text the engine keeps but cannot apply."""
    return {
        "type": "object",
        "title": "オプションの効果",
        "properties": {
            "skill": skill_enum(t, title="上昇させるスキル"),
            "levels": {"type": "integer", "minimum": 1, "title": "スキルレベル上昇"},
            "stat": stat_enum(t, title="上昇させる性能"),
            "amount": {"type": "integer", "title": "性能の上昇値"},
            "text": {"type": "string", "title": "その他の効果（文章）"},
        },
        "additionalProperties": False,
        "anyOf": [{"required": ["skill"]}, {"required": ["stat"]}, {"required": ["text"]}],
        "allOf": [
            {"if": {"required": ["skill"]}, "then": {"required": ["levels"]}},
            {"if": {"required": ["stat"]}, "then": {"required": ["amount"]}},
        ],
    }


def _declared(t: MailgearTables, ids: list[str]) -> dict[str, Any]:
    """Declared (written) derived values: optional; the engine compares them with its own."""
    out: dict[str, Any] = {}
    for did in ids:
        d = t.derived[did]
        if d.kind == "value":
            out[did] = {"type": "integer", "title": d.label}
        else:
            out[did] = {"type": ["string", "integer"], "title": d.label,
                        "description": "判定ボーナス（例: +5、+1d+3）" if did != "fortune"
                        else "式（例: 2d6+2）"}
    return out


def build_schema() -> dict[str, Any]:
    """The whole schema as a dict, deterministic (stable key order) for byte comparison."""
    t = tables()
    eligible = list(t.custom_boosts)
    skill = {
        "type": "object",
        "title": "スキル",
        "properties": {
            "id": skill_enum(t),
            "name": {"type": "string", "minLength": 1,
                     "description": "シートに書かれた名前（id がないときは名前から読む）"},
            "level": {"type": "integer", "minimum": 1, "title": "習得レベル（オプション分を含まない）"},
        },
        "required": ["level"],
        "additionalProperties": False,
        "anyOf": [{"required": ["id"]}, {"required": ["name"]}],
        "allOf": [{"if": {"properties": {"id": {"const": s.id}}, "required": ["id"]},
                   "then": {"properties": {"level": {"maximum": s.max_level}}}}
                  for s in t.skills.values()],
    }
    weapon_declared = {"damage": {"type": ["string", "integer"], "title": "ダメージ"},
                       **{b.hit: {"type": ["string", "integer"], "title": t.derived[b.hit].label}
                          for b in t.bands.values()}}
    item = {
        "type": "object",
        "title": "装備（武器・オプション）",
        "properties": {
            "kind": _enum(list(t.kinds), dict(t.kinds)),
            "name": {"type": "string", "minLength": 1, "title": "名称"},
            "slots": {"type": "integer", "minimum": 1, "default": 1, "title": "使用スロット数"},
            "arm": _enum(list(t.hold_labels) + [None], t.hold_labels, title="手に持つ腕（null: スロットに収納）"),
            "bands": {"type": "array", "minItems": 1, "uniqueItems": True, "items": band_enum(t),
                      "title": "距離"},
            "extra_damage": {"type": "integer", "default": 0, "title": "追加ダメージ"},
            "energy": {"type": "integer", "minimum": 0, "default": 0, "title": "消費エネルギー"},
            "effects": {"type": "array", "items": effect_schema(t), "title": "効果"},
            "durability": {"type": "integer", "minimum": 0, "title": "耐久（シールドなど）"},
            "uses": {"type": ["integer", "null"], "minimum": 1, "title": "使用回数"},
            "derived": {"type": "object", "properties": weapon_declared, "additionalProperties": False,
                        "title": "シートに書かれた値（任意。計算値と比べます）"},
            "notes": {"type": "string"},
        },
        "required": ["kind", "name"],
        "additionalProperties": False,
        "allOf": [
            {"if": {"properties": {"kind": {"const": "weapon"}}, "required": ["kind"]},
             "then": {"required": ["bands"]}},
            {"if": {"properties": {"kind": {"const": "option"}}, "required": ["kind"]},
             "then": {"properties": {"bands": False, "extra_damage": False, "derived": False}}},
        ],
    }
    derived_ids = list(t.derived)
    declared = {
        "type": "object",
        "title": "シートに書かれた派生値（任意。計算値と比べます）",
        "properties": {
            **_declared(t, derived_ids),
            "slots_used": {"type": "integer", "minimum": 0, "title": "使用スロット"},
            "stats": {"type": "object", "title": "専用機・オプション適用後の性能",
                      "properties": {sid: {"type": "integer", "title": t.stat_labels[sid]}
                                     for sid in t.stat_ids},
                      "additionalProperties": False},
            "skills": {"type": "object", "title": "実効スキルレベル（オプション込み、最大で頭打ち）",
                       "properties": {k: {"type": "integer", "minimum": 0, "title": s.label}
                                      for k, s in t.skills.items()},
                       "additionalProperties": False},
            "skill_bonuses": {"type": "object", "title": "判定ボーナスとしてのスキル（レベル４は +1d）",
                              "properties": {k: {"type": "string", "title": s.label}
                                             for k, s in t.skills.items()},
                              "additionalProperties": False},
        },
        "additionalProperties": False,
    }
    return {
        **schema_head("mailgear", "mechasheet: mailgear pilot and mail gear (メイルギア)"),
        "properties": {
            **identity_properties("mailgear", FORMAT),
            "catalog": {"type": "string", "title": "作成に使ったカタログの名前"},
            "pilot": {
                "type": "object",
                "title": "パイロット",
                "properties": {
                    "name": {"type": "string", "minLength": 1, "title": "名前"},
                    "player": {"type": "string", "title": "プレイヤー"},
                    "experience": {"type": "integer", "minimum": 0, "title": "経験"},
                    "rank_points": {"type": "integer", "minimum": 0, "title": "階級"},
                    "level": {"type": "string", "pattern": LEVEL_PATTERN,
                              "title": "レベル（アルファベット。段階はカタログのレベル表）"},
                    "military_rank": {"type": "string", "title": "軍事階級（ロールプレイ上の目安）"},
                },
                "required": ["name", "experience", "rank_points", "level"],
                "additionalProperties": False,
            },
            "skills": {"type": "array", "items": skill, "title": "スキル"},
            "gear": {
                "type": "object",
                "title": "メイルギア",
                "properties": {
                    "model": {"type": "string", "minLength": 1, "title": "機体名"},
                    "rank": {"type": "string", "pattern": RANK_PATTERN, "title": "ランク（＋は専用機）"},
                    "custom": {"type": "boolean",
                               "title": "専用機（省略時はランクの＋から判断）"},
                    "stats": stats_object(t, "機体の基本性能（ランクの値。専用機の強化・スキルを含まない）"),
                    # No uniqueItems: the engine names the repeated item itself (MG_CUSTOM_BOOST_DUPLICATE).
                    "boosts": {"type": "array", "maxItems": t.custom_count,
                               "items": stat_enum(t, eligible),
                               "title": "専用機で強化した項目（異なる３項目）"},
                },
                "required": ["model", "rank", "stats"],
                "additionalProperties": False,
            },
            "equipment": {"type": "array", "maxItems": t.slots, "items": item,
                          "title": f"装備（スロット{t.slots}、腕{t.arm_count}本）"},
            "derived": declared,
            "notes": {"type": "string", "title": "メモ"},
            "extra": {"type": "object", "title": "取り込めなかった内容（そのまま保存）"},
        },
        "required": ["system", "format", "pilot", "skills", "gear", "equipment"],
        "additionalProperties": False,
    }

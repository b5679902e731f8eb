"""The JSON Schema of a `pp` character document, generated from the rule tables.

Committed as ``schemas/pp.schema.json``; a test regenerates it and compares. Rules a schema
cannot express (totals, budget, specializations above their skill, unknown skills) are the
engine's.
"""
from __future__ import annotations

from typing import Any

from .tables import ATTRIBUTE_IDS, Field, PpTables, tables
from ..schema_parts import enum_schema as _enum, identity_properties, schema_head

FORMAT = 1


def _field_schema(f: Field, t: PpTables) -> dict[str, Any]:
    """One machine or weapon field as the tables describe it."""
    if f.type == "pair":
        out: dict[str, Any] = {
            "type": "object",
            "properties": {pid: {"type": "integer", "title": plabel, "description": text}
                           for pid, plabel, text in f.parts},
            "required": [pid for pid, _, _ in f.parts], "additionalProperties": False}
    elif f.type == "enum":
        choices = t.choices(f.table or "")
        out = _enum(list(choices), choices)
    elif f.type == "enum_list":
        choices = t.choices(f.table or "")
        out = {"type": "array", "uniqueItems": True, "items": _enum(list(choices), choices)}
    else:
        out = {"type": [f.type, "null"] if f.nullable else f.type}
        if f.minimum is not None:
            out["minimum"] = f.minimum
    out["title"] = f.label
    if f.default is not None:
        out["default"] = f.default
    if f.unit:
        out["x-unit"] = f.unit
    if f.description:
        out["description"] = f.description
    return out


def _block(fields: list[Field], t: PpTables, title: str, **more: Any) -> dict[str, Any]:
    """A block of fields; one required unless another is given (回避修正, derived from
    メインシステムの回避修正) needs one of the two."""
    props = {f.id: _field_schema(f, t) for f in fields}
    props.update(more)
    props["notes"] = {"type": "string", "title": "メモ"}
    out: dict[str, Any] = {
        "type": "object", "title": title, "properties": props,
        "required": [f.id for f in fields if f.required and not f.required_unless],
        "additionalProperties": False}
    either = [{"anyOf": [{"required": [f.id]}, {"required": [f.required_unless]}]}
              for f in fields if f.required and f.required_unless]
    if either:
        out["allOf"] = either
    return out


def build_schema() -> dict[str, Any]:
    """The whole schema as a dict, deterministic (stable key order) for byte comparison."""
    t = tables()
    al, sl, spl = t.attribute_ladder, t.skill_ladder, t.specialization_ladder
    attr_ids = list(ATTRIBUTE_IDS)
    attr_labels = {a.id: a.label for a in t.attributes.values()}
    seed_names = [s["label"] for s in t.seed_skills]

    attributes = {
        "type": "object", "title": "能力値（１から。上昇は新たな値と同じＰＰ）",
        "properties": {a.id: {"type": "integer", "minimum": al.minimum, "maximum": al.maximum,
                              "title": a.label, "description": a.description}
                       for a in t.attributes.values()},
        "required": attr_ids, "additionalProperties": False,
    }
    specialization = {
        "type": "object", "title": "専門化（小分類）",
        "properties": {
            "name": {"type": "string", "minLength": 1, "title": "小分類（例: ビーム兵器）"},
            "level": {"type": "integer", "minimum": spl.minimum, "maximum": spl.maximum,
                      "title": "小分類のレベル（技能レベルより上）"},
            "notes": {"type": "string"}},
        "required": ["name", "level"], "additionalProperties": False,
    }
    skill = {
        "type": "object", "title": "技能",
        "properties": {
            "name": {"type": "string", "minLength": 1, "title": "技能名",
                     "description": "シートの表記のまま。本文の技能: " + "、".join(seed_names)
                                    + "。それ以外は卓の技能リスト（skill_list）か情報扱い"},
            "level": {"type": "integer", "minimum": sl.start, "maximum": sl.maximum,
                      "title": "技能レベル"},
            "attribute": _enum(attr_ids + [None], attr_labels,
                               description="判定に使う能力値（null: 技能リストの既定）"),
            "specializations": {"type": "array", "items": specialization, "title": "専門化"},
            "notes": {"type": "string"}},
        "required": ["name", "level"], "additionalProperties": False,
    }
    list_entry = {
        "title": "卓の技能リストの項目（名前だけでも可）",
        "anyOf": [
            {"type": "string", "minLength": 1},
            {"type": "object",
             "properties": {
                 "name": {"type": "string", "minLength": 1},
                 "synonyms": {"type": "array", "items": {"type": "string", "minLength": 1}},
                 "specializations": {"type": "array", "items": {"type": "string", "minLength": 1}},
                 "attribute": {"type": "string", "description": "能力値の id か名前"},
                 "notes": {"type": "string"}},
             "required": ["name"], "additionalProperties": False},
        ],
    }
    feat = {
        "type": "object", "title": "特技（選択ルール、１つ５ＰＰ）",
        "properties": {"name": {"type": "string", "minLength": 1, "title": "特技名"},
                       "notes": {"type": "string", "title": "効果など"}},
        "required": ["name"], "additionalProperties": False,
    }
    alt_speed = {
        "type": "object", "title": "条件付きのスピード（複数の移動手段など）",
        "properties": {"condition": {"type": "string", "minLength": 1, "title": "条件"},
                       "speed": _field_schema(t.machine_field("speed"), t)},
        "required": ["condition", "speed"], "additionalProperties": False,
    }
    weapon = _block(t.weapon_fields, t, "武器")
    machine = _block(t.machine_fields, t, "機体（コストなし。記述と型の確認のみ）",
                     weapons={"type": "array", "items": weapon, "title": "武装"},
                     alt_speeds={"type": "array", "items": alt_speed,
                                 "title": "条件付きのスピード"})
    machine["type"] = ["object", "null"]

    return {
        **schema_head("pp", "mechasheet: pp character (キャラクター作成・ＰＰ)"),
        "properties": {
            **identity_properties("pp", FORMAT),
            "name": {"type": "string", "minLength": 1, "title": "キャラクター名"},
            "player": {"type": "string", "title": "プレイヤー"},
            "budget": {"type": "integer", "minimum": 1, "default": t.default_budget,
                       "title": "総ＰＰ（一般的には50、一般人は40）"},
            "attributes": attributes,
            "skills": {"type": "array", "items": skill, "title": "技能"},
            "skill_list": {"type": "array", "items": list_entry,
                           "title": "卓の技能リスト（本文にない技能）"},
            "combat_boost": {"type": "integer", "minimum": t.combat_boost_start,
                             "default": t.combat_boost_start,
                             "title": "コンバット・ブースト（初期値3、+1ごとに5ＰＰ）"},
            "feats": {"type": "array", "items": feat, "title": "特技"},
            "machine": machine,
            "declared_total": {"type": ["integer", "null"], "title": "記入された合計ＰＰ"},
            "notes": {"type": "string", "title": "メモ"},
            "extra": {"type": "object", "title": "取り込めなかった内容（そのまま保存）"},
        },
        "required": ["system", "format", "name", "attributes"],
        "additionalProperties": False,
    }

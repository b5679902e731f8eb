"""Shared helpers for the `pp` engine tests: minimal documents and readers of a Evaluation.

Figures below are copied by hand from seed 003 (Ⅰ．キャラクター作成), not read from tables.toml,
so that the tests check the engine's data instead of echoing it.
"""
from __future__ import annotations

import copy
from typing import Any

from converter.core.findings import Finding, Severity
from converter.core.evaluation import Evaluation
from converter.rules.pp.engine import price_character
from ..pricing_helpers import cost_at, has_line  # noqa: F401  (shared by the tests here)

# 能力値の数字が示す大まかな意味 (0..12)
SEED_ATTRIBUTE_MEANINGS = ["日常生活に支障", "落ちこぼれ", "やや不得意", "平均", "やや得意",
                           "自慢できる", "学校のトップ", "街で一番", "傑出した才能",
                           "オリンピックレベル", "世界最高レベル", "１０年に一度の天才",
                           "１００年に一度の天才"]
# 技能レベルの数字が示す大体の意味 (1..8)
SEED_SKILL_MEANINGS = ["初心者ではない", "基礎訓練を修了", "腕に覚えアリ", "熟練者",
                       "その道のベテラン", "その世界では有名", "世界最高レベル", "伝説の達人"]
SEED_SKILLS = ["直接砲撃", "知識／戦術", "操縦", "機動格闘", "機動回避", "運動", "知覚", "隠密"]
DIRECT_FIRE_SUBCATEGORIES = ["実弾兵器", "大口径実弾兵器", "ビーム兵器", "投射兵器"]


def character(**overrides: Any) -> dict[str, Any]:
    """A minimal valid `pp` document: every attribute 1, no skills, CB 3, budget 50 (costs 0).

    ``attributes`` merges; the rest replaces.
    """
    attributes = overrides.pop("attributes", {})
    doc: dict[str, Any] = {"system": "pp", "format": 1, "name": "試験キャラクター",
                           "attributes": {"body": 1, "reflex": 1, "sense": 1, "mind": 1,
                                          "social": 1},
                           "skills": [], "combat_boost": 3}
    doc.update(overrides)
    doc["attributes"] = {**doc["attributes"], **attributes}
    return doc


def weapon(**overrides: Any) -> dict[str, Any]:
    """A valid ranged weapon of the machine block."""
    return {"name": "ライフル", "hit_target": 6, "evasion_target": 7, "penetration": 8,
            "damage": "M", **overrides}


def machine(**overrides: Any) -> dict[str, Any]:
    """A valid machine block (スピード4, メインシステム修正+1) with one weapon; its 回避修正 3 and
    2 are メインシステムの回避修正 1 ＋ 機動性 2 and ＋ 作業性 1."""
    return {"name": "試験機", "speed": 4, "mobility": 2, "workability": 1, "armor": 6,
            "durability": 5, "toughness": 4, "size_modifier": 0, "main_system_evasion": 1,
            "evasion_modifier": {"dodge": 3, "parry": 2}, "main_system_modifier": 1,
            "weapons": [weapon()], **overrides}


def skill(name: str, level: int, *specializations: tuple[str, int], **more: Any) -> dict[str, Any]:
    """A skill entry; ``specializations`` as (name, level) pairs."""
    out: dict[str, Any] = {"name": name, "level": level, **more}
    if specializations:
        out["specializations"] = [{"name": n, "level": lv} for n, lv in specializations]
    return out


def priced(doc: dict[str, Any], skills: Any = None, **options: str) -> Evaluation:
    """The engine's answer for ``doc`` under the given rule options (doc is not modified)."""
    before = copy.deepcopy(doc)
    out = price_character(doc, options, skills=skills)
    assert doc == before, "the engine must not modify the document"
    return out


# The remainder note: a minimal character (0 PP of 50) always has it, so the readers below
# leave it out; test_budget.py looks at it directly.
REMAINDER = "PP_UNDER_BUDGET"


def found(pricing: Evaluation) -> list[tuple[str, str]]:
    """(code, pointer) of every finding but the remainder note, sorted."""
    return sorted((f.code, f.pointer) for f in pricing.findings if f.code != REMAINDER)


def codes(pricing: Evaluation, level: Severity | None = None) -> set[str]:
    """The codes found but the remainder note, optionally only those of one severity."""
    return {f.code for f in pricing.findings
            if f.code != REMAINDER and (level is None or f.level is level)}


def finding(pricing: Evaluation, code: str) -> Finding:
    """The one finding with ``code``."""
    hits = [f for f in pricing.findings if f.code == code]
    assert len(hits) == 1, f"expected one {code}, got {pricing.findings}"
    return hits[0]

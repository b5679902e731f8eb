"""Issue 31, items 4 and 5 (in part): edits fold back exactly, and a round trip without the carried
original keeps a pilot's main role.

Boosts and option bonuses stay out of base stats; levels written into text (「タフガイ Lv3」) come
back; a pp skill says which mailgear skill it came from when the way back would not find it (鉄壁
on 〈機動格闘〉 is not 熱血), so a 鉄壁 pilot stays one, edited or retyped."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from converter.convert import convert
from converter.convert.carried import without_key
from converter.convert.mailgear import effective_stats
from converter.sheets.source import load_catalog

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog(ROOT / "samples/mailgear/.catalog/catalog-example.json")


def _mailgear(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "samples/mailgear" / f"{name}.json").read_text("utf-8"))


def _skills(doc: dict[str, Any]) -> dict[str, int]:
    return {s["id"]: s["level"] for s in doc["skills"]}


def _raise_skill(pp: dict[str, Any], name: str, by: int) -> None:
    for s in pp["skills"]:
        if s["name"] == name:
            s["level"] += by


def test_a_boost_is_not_folded_into_the_base_stat() -> None:
    """veteran-custom's 耐久 60 + 専用機 5 = 65 → up HP 215; HP + 20 = 235 folds back to the
    effective 60 + 35 × 60/200 = 70.5 → 71, so the base becomes 66 (not 71 + the boost 5 again)."""
    doc = _mailgear("veteran-custom")
    assert (doc["gear"]["stats"]["durability"], effective_stats(doc)["durability"]) == (60, 65)
    unit = convert(doc, "up", catalog=CATALOG).document
    unit["stats"]["hp"] += 20
    back = convert(unit, "mailgear", catalog=CATALOG)
    assert "CONVERT_FOLDED" in [f.code for f in back.findings]
    assert unit["stats"]["hp"] == 235 and effective_stats(back.document)["durability"] == 71
    assert back.document["gear"]["stats"]["durability"] == 66
    assert back.document["gear"]["boosts"] == doc["gear"]["boosts"]


def test_feat_levels_survive_an_unrelated_edit() -> None:
    """veteran-custom → pp writes タフガイ 3 and エリート・コース 2 as feats 「… Lv n」; raising
    〈機動格闘〉 6 → 7 and folding back keeps both levels."""
    doc = _mailgear("veteran-custom")
    pp = convert(doc, "pp", catalog=CATALOG).document
    assert {"name": "タフガイ Lv3"} in pp["feats"]
    _raise_skill(pp, "機動格闘", 1)
    back = _skills(convert(pp, "mailgear", catalog=CATALOG).document)
    assert (back["tough_guy"], back["elite_course"]) == (3, 2)


def test_a_guard_pilot_stays_one_edited_or_retyped() -> None:
    """veteran-fortune's 鉄壁 1 → 〈機動格闘〉 3 (said in the skill's notes): raised to 4 and folded
    back, 鉄壁 2; retyped without the carried original, 鉄壁 1. Never 熱血."""
    doc = _mailgear("veteran-fortune")
    assert _skills(doc)["iron_wall"] == 1 and "hot_blooded" not in _skills(doc)
    pp = convert(doc, "pp", catalog=CATALOG).document
    retyped = _skills(convert(without_key(pp), "mailgear", catalog=CATALOG).document)
    assert retyped.get("iron_wall") == 1 and "hot_blooded" not in retyped
    _raise_skill(pp, "機動格闘", 1)
    folded = _skills(convert(pp, "mailgear", catalog=CATALOG).document)
    assert folded.get("iron_wall") == 2 and "hot_blooded" not in folded

"""Conversions worked by hand from the anchor tables (docs/conversion.md), each figure's
arithmetic in the test's docstring. Anchors: up HP 90/200/400, EN 40/50/120, power 5/15/25, mean
damage 15.5/50.5/82; example catalog 耐久 30/60/120, エネルギー 20/30/45, 出力 1/4/7, CR 0/3/6,
mean damage 10/15.5/20; pp 耐久性 2/5/10, 頑丈さ 2/4/8, 装甲値 2/6/12, 貫通力 8/14/20."""
from __future__ import annotations

import json
from pathlib import Path

from converter.convert import convert

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _doc(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text("utf-8"))


def test_mobile_suit_into_mailgear() -> None:
    """m-mobile-suit (HP 240, EN 65, パワー 18, 運動性 25, 移動力 6) → mailgear:
    耐久: grade 1 + (240 − 200)/(400 − 200) = 1.2 → 60 + 0.2 × (120 − 60) = 72 (by the share: 240 × 60/200).
    エネルギー: grade 1 + 15/70 = 1.214 → 30 + 0.214 × 15 = 33.2 → 33.
    出力: grade 1 + 3/10 = 1.3 → 4 + 0.3 × 3 = 4.9 → 5.  機動力: 25 / 10 = 2.5 → 3.  移動力 6.
    ビームライフル 1D+40 beam: mean 5.5 + 40 + 5 = 50.5, share 50.5/200 = 0.2525,
    × 60 = 15.15 → 15; extra = 15 − 7 − 5 = 3.
    頭部バルカン 1D+10: mean 15.5, share 0.0775 × 60 = 4.65 → 5; 5 − 7 − 5 = −7 → 0 (clamped, said)."""
    result = convert(_doc("up/m-mobile-suit.json"), "mailgear")
    stats = result.document["gear"]["stats"]
    assert (stats["durability"], stats["energy"], stats["output"], stats["mobility"], stats["move"]) == (72, 33, 5, 3, 6)
    items = {i["name"]: i for i in result.document["equipment"]}
    assert items["ビームライフル"]["extra_damage"] == 3
    assert items["頭部バルカン"]["extra_damage"] == 0
    clamped = [f for f in result.findings if f.code == "CONVERT_CLAMPED"]
    assert {"pointer": clamped[0].pointer, **clamped[0].params} == {
        "pointer": "/equipment/2/extra_damage", "value": -7, "limit": 0}


def test_veteran_custom_into_pp() -> None:
    """veteran-custom → pp: 熱血 4 → 〈機動格闘〉 2 + 4 = 6; スピード・スター 2 → 〈機動回避〉 2 + 2 = 4
    and 〈知識／戦術〉 0 + 2 = 2; 〈直接砲撃〉 and 〈操縦〉 stay at the trained 2; ＣＢ 3 + ミラクル 2 = 5.
    耐久 60 + 専用機 5 = 65: grade 1 + 5/60 = 1.083 → 耐久性 5 + 0.083 × 5 = 5.4 → 5, 頑丈さ 4.3 → 4.
    パイルバンカー: mean 7 + 4 + 6 = 17, share 17/60 = 0.283 → M (0.14 ≤ share < 0.32); 貫通力: grade
    1 + (17 − 15.5)/4.5 = 1.333 → 14 + 0.333 × 6 = 16; CR 3 + 専用機 1 = 4 is one pip over the
    standard 3 → 命中目標値 6 − 1 = 5. A level-B pilot is in the veteran band ([[bands]]): attributes
    4. Priced by pp's engine: 155 PP (the budget, above the band's 150)."""
    result = convert(_doc("mailgear/veteran-custom.json"), "pp")
    doc = result.document
    assert {s["name"]: s["level"] for s in doc["skills"]} == {"機動格闘": 6, "機動回避": 4, "知識／戦術": 2,
                                                            "直接砲撃": 2, "操縦": 2}
    assert doc["combat_boost"] == 5
    assert (doc["machine"]["durability"], doc["machine"]["toughness"]) == (5, 4)
    pile = doc["machine"]["weapons"][0]
    assert (pile["damage"], pile["penetration"], pile["hit_target"], pile.get("melee")) == ("M", 16, 5, True)
    assert set(doc["attributes"].values()) == {4}
    assert result.total == 155 and doc["budget"] == 155


def test_pilot_with_machine_into_up() -> None:
    """pilot_with_machine (耐久性 5, 頑丈さ 4, 装甲値 6, 機動性 2, スピード 4, メインシステム修正 1) → up:
    both durabilities sit at grade 1 → HP 200, size M; 装甲値 6 → grade 1 → 装甲 20; 運動性 2 × 10 = 20;
    移動力 4 / (2/3) = 6. Weapons by their net share (damage_share_net): the expected gauges on the
    standard machine (装甲値 6, 耐久性 5 d10, two successes a class lower) over the standard weapon's
    (M, 貫通力 14: target 8, 3/10 a die: 9359/6250 = 1.497), times up's standard 50.5.
    ３０ｍｍアサルトライフル (M, 貫通力 8): target 2, 9/10 a die: 0.082 gauges → mean 2.8 → fixed 10 (the
    floor, said); 命中 10 × (6 − 6 + 1) = 10. 多目的ミサイル (S, 貫通力 10): target 4, 7/10 a die:
    1.564 gauges → mean 52.7 → fixed 47.2 → 47, guided. コンバットナイフ (L, 貫通力 6, melee): target 0,
    every die succeeds: no damage → fixed 10 (the floor)."""
    result = convert(_doc("pp/pilot_with_machine.json"), "up")
    doc = result.document
    assert doc["size"] == "M"
    assert doc["stats"] == {"hp": 200, "en": 50, "armor": 20, "power": 15, "mobility": 20, "move": 6}
    rifle, missile, knife = doc["weapons"]
    assert (rifle["damage"], rifle["accuracy"]) == ({"dice": 1, "fixed": 10}, 10)
    assert (missile["damage"]["fixed"], missile["guided"]) == (47, True)
    assert (knife["kind"], knife["damage"]["fixed"]) == ("melee", 10)
    assert any(f.code == "CONVERT_CLAMPED" and f.pointer == "/weapons/0/damage/fixed" for f in result.findings)
    # a 50-PP character is in the starting band, whose up class is 1200 ([[bands]]): the budget
    assert doc["declared_total"] == result.total == 1130 and doc["budget"] == 1200


def test_penetration_orders_pp_weapons_of_one_class() -> None:
    """Into up and mailgear, a pp weapon of one class hits harder with more 貫通力 (4 and 20 no
    longer give the same), and one beyond the target's weapons is flagged (CONVERT_OUT_OF_RANGE),
    never cut: an S at the standard 貫通力 14 keeps 3.55 gauges (2.37 standard weapons: mean 120 in
    up, past its peak 82), at 貫通力 20 all 5 (mean 168.6)."""
    doc = _doc("pp/pilot_with_machine.json")
    weapon = doc["machine"]["weapons"][1]
    means = {}
    for target in ("up", "mailgear"):
        for pen in (4, 10, 14, 20):
            doc["machine"]["weapons"] = [dict(weapon, damage="S", penetration=pen)]
            result = convert(doc, target, check=False)
            got = result.document["weapons"][0]["damage"]["fixed"] if target == "up" \
                else result.document["equipment"][0]["extra_damage"]
            means[(target, pen)] = got
            flagged = any(f.code == "CONVERT_OUT_OF_RANGE" and "/0/" in f.pointer + "/" for f in result.findings)
            assert flagged == (pen >= 14), (target, pen)
        row = [means[(target, p)] for p in (4, 10, 14, 20)]
        assert row == sorted(row) and row[0] < row[-1], (target, row)
    assert means[("up", 20)] == 163  # 168.6 − 5.5


def test_carrier_beyond_the_catalog_is_flagged_not_clamped() -> None:
    """lll-carrier's HP 1400: grade 1 + 1200/200 = 7 → 耐久 60 + 6 × 60 = 420 (28 standard hits in
    both), beyond the example catalog's peak 120: kept and flagged (CONVERT_OUT_OF_RANGE), never clamped."""
    result = convert(_doc("up/lll-carrier.json"), "mailgear")
    assert result.document["gear"]["stats"]["durability"] == 420
    assert any(f.code == "CONVERT_OUT_OF_RANGE" and f.pointer == "/gear/stats/durability" for f in result.findings)

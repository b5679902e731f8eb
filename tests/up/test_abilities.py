"""特殊能力: every ability of seed 000, ＥＮ消費 and 気力制限 discounts, and their floor.

The unit is M size (基本ＵＰ 400, 装甲 15 UP per point, パワー 15) unless a test says otherwise.
"""
from __future__ import annotations

import pytest

from converter.core.findings import Severity

from .conftest import ability_cost, cost_at, finding, found, melee, priced, ranged, unit


# --- シールド装備 ---------------------------------------------------------------------------------

@pytest.mark.parametrize(("shield", "cost"), [
    ({"armor": 10}, 50),                                  # 5 per point
    ({"armor": 5, "uses": 1}, 10),                        # 1回: 2 per point
    ({"armor": 5, "uses": 3}, 15),                        # 3回: 3
    ({"armor": 5, "uses": 5}, 20),                        # 5回: 4
    ({"armor": 10, "narrowed": True}, 30),                # ビームのみ／実弾のみ −40 %
    ({"armor": 10, "uses": 3, "narrowed": True}, 18),
])
def test_shield_price(shield: dict, cost: int) -> None:
    """シールド: 5 UP per armor point, 2/3/4 with 1/3/5 uses, −40 % if narrowed."""
    p = priced(unit(abilities=[{"id": "shield", **shield}]))
    assert cost_at(p, "/abilities/0") == cost
    assert found(p) == []


def test_shield_above_power_is_an_error() -> None:
    """Shield armor +16 on パワー 15 is UP_SHIELD_OVER_POWER (error); still priced."""
    p = priced(unit(abilities=[{"id": "shield", "armor": 16}]))
    assert found(p) == [("UP_SHIELD_OVER_POWER", "/abilities/0/armor")]
    assert finding(p, "UP_SHIELD_OVER_POWER").level is Severity.ERROR
    assert cost_at(p, "/abilities/0") == 80


def test_shield_up_to_raised_power_is_fine() -> None:
    """The limit is the unit's パワー as raised: パワー 20 carries +16."""
    p = priced(unit(stats={"power": 20}, abilities=[{"id": "shield", "armor": 16}]))
    assert found(p) == []


def test_shield_uses_not_in_table_is_an_error() -> None:
    """Uses other than 1/3/5 (or unlimited) is UP_SHIELD_USES; not priced."""
    p = priced(unit(abilities=[{"id": "shield", "armor": 5, "uses": 2}]))
    assert found(p) == [("UP_SHIELD_USES", "/abilities/0/uses")]
    assert not p.complete


def test_shield_without_armor_is_an_error() -> None:
    """A shield of armor 0 is UP_ABILITY_VALUE."""
    p = priced(unit(abilities=[{"id": "shield", "armor": 0}]))
    assert found(p) == [("UP_ABILITY_VALUE", "/abilities/0/armor")]


# --- 分身・複座 -----------------------------------------------------------------------------------

@pytest.mark.parametrize(("level", "cost"), [(1, 60), (3, 180), (7, 420)])
def test_bunshin_price(level: int, cost: int) -> None:
    """分身: 60 UP per level, at most 7."""
    assert ability_cost({"id": "bunshin", "level": level}) == cost


@pytest.mark.parametrize("level", [0, 8])
def test_bunshin_level_out_of_range_is_an_error(level: int) -> None:
    """分身 0 or 8 is UP_ABILITY_LEVEL."""
    p = priced(unit(abilities=[{"id": "bunshin", "level": level}]))
    assert found(p) == [("UP_ABILITY_LEVEL", "/abilities/0/level")]
    assert not p.complete


@pytest.mark.parametrize(("level", "cost"), [(1, 50), (3, 150), (10, 500)])
def test_multi_seat_price(level: int, cost: int) -> None:
    """複座: 50 UP per level, no maximum."""
    assert ability_cost({"id": "multi_seat", "level": level}) == cost


# --- 能力値ボーナス -------------------------------------------------------------------------------

@pytest.mark.parametrize(("bonuses", "cost"), [
    ([{"stats": ["skill"], "amount": 5}], 40),                          # one of 技量/格闘/射撃: 8
    ([{"stats": ["melee", "shooting"], "amount": 5}], 50),              # two: 10
    ([{"stats": ["skill", "melee", "shooting"], "amount": 5}], 60),     # three: 12
    ([{"stats": ["evasion"], "amount": 2}], 30),                        # 【回避】 15
    ([{"stats": ["defense"], "amount": 3}], 30),                        # 【防御】 10
    ([{"stats": ["other"], "amount": 4}], 20),                          # その他 5
    ([{"stats": ["shooting"], "amount": 1}, {"stats": ["evasion"], "amount": 1}], 23),
])
def test_stat_bonus_price(bonuses: list, cost: int) -> None:
    """能力値ボーナス per +1: 8/10/12 for one/two/three attack stats, 回避 15, 防御 10, other 5."""
    p = priced(unit(abilities=[{"id": "stat_bonus", "bonuses": bonuses}]))
    assert cost_at(p, "/abilities/0") == cost
    assert found(p) == []


def test_stat_bonus_mixing_groups_is_an_error() -> None:
    """【格闘】 with 【回避】 on one line is UP_STAT_BONUS_MIXED."""
    p = priced(unit(abilities=[{"id": "stat_bonus",
                                "bonuses": [{"stats": ["melee", "evasion"], "amount": 5}]}]))
    assert found(p) == [("UP_STAT_BONUS_MIXED", "/abilities/0/bonuses/0")]
    assert not p.complete


@pytest.mark.parametrize(("bonus", "where"), [
    ({"stats": ["melee"], "amount": 0}, "/abilities/0/bonuses/0/amount"),
    ({"stats": ["melee", "luck"], "amount": 5}, "/abilities/0/bonuses/0/stats/1"),
    ({"stats": [], "amount": 5}, "/abilities/0/bonuses/0/stats"),
])
def test_stat_bonus_malformed_is_an_error_at_the_field(bonus: dict, where: str) -> None:
    """A bad amount or stat is UP_STAT_BONUS_INVALID where the schema reports it too."""
    p = priced(unit(abilities=[{"id": "stat_bonus", "bonuses": [bonus]}]))
    assert found(p) == [("UP_STAT_BONUS_INVALID", where)]
    assert not p.complete


def test_stat_bonus_without_bonuses_is_an_error() -> None:
    """能力値ボーナス with no bonus lines is UP_ABILITY_VALUE."""
    p = priced(unit(abilities=[{"id": "stat_bonus", "bonuses": []}]))
    assert found(p) == [("UP_ABILITY_VALUE", "/abilities/0/bonuses")]


# --- バリア ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("ability", "size", "cost"), [
    ({"id": "barrier1", "armor": 10}, "M", 135),                     # 10 × 15 × 0.9
    ({"id": "barrier1", "armor": 10, "narrowed": True}, "M", 75),    # × 0.5
    ({"id": "barrier2", "armor": 10}, "M", 105),                     # × 0.7
    ({"id": "barrier2", "armor": 10, "narrowed": True}, "M", 45),    # × 0.3
    ({"id": "barrier1", "armor": 5}, "L", 54),                       # 5 × 12 × 0.9
    ({"id": "barrier1", "armor": 1}, "M", 14),                       # 13.5 → 14
])
def test_barrier_price(ability: dict, size: str, cost: int) -> None:
    """バリア１ at the size's armor price −10 % (−50 % narrowed); バリア２ −30 % (−70 %)."""
    assert ability_cost(ability, {"size": size}) == cost


# --- fixed-price and size-priced abilities --------------------------------------------------------

def test_mind_block_is_eighty() -> None:
    """マインドブロック: 80 UP."""
    assert ability_cost({"id": "mind_block"}) == 80


@pytest.mark.parametrize("aid", ["hp_regen", "en_regen"])
@pytest.mark.parametrize(("grade", "size", "cost"), [
    ("small", "M", 80), ("medium", "M", 160), ("large", "M", 240), ("large", "L", 300)])
def test_regen_price_and_info(aid: str, grade: str, size: str, cost: int) -> None:
    """ＨＰ／ＥＮ回復 (小/中/大): 基本ＵＰ/5 × 1/2/3, with an info for the GM (source work only)."""
    p = priced(unit(size=size, abilities=[{"id": aid, "grade": grade}]))
    assert cost_at(p, "/abilities/0") == cost
    assert found(p) == [("UP_SOURCE_WORK_ONLY", "/abilities/0")]
    assert finding(p, "UP_SOURCE_WORK_ONLY").level is Severity.INFO


def test_regen_grade_defaults_to_small() -> None:
    """ＨＰ回復 without a grade is (小)."""
    assert ability_cost({"id": "hp_regen"}) == 80


def test_unknown_regen_grade_is_an_error() -> None:
    """A grade other than 小/中/大 is UP_ABILITY_GRADE."""
    p = priced(unit(abilities=[{"id": "hp_regen", "grade": "huge"}]))
    assert found(p) == [("UP_ABILITY_GRADE", "/abilities/0/grade"),
                        ("UP_SOURCE_WORK_ONLY", "/abilities/0")]
    assert not p.complete


@pytest.mark.parametrize(("size", "refund"), [("M", -80), ("L", -100), ("SSS", -50)])
def test_no_manipulator_refunds_a_fifth_of_base_up(size: str, refund: int) -> None:
    """マニュピレータなし: −基本ＵＰ/5."""
    assert ability_cost({"id": "no_manipulator"}, {"size": size}) == refund


def test_no_manipulator_drops_power_from_melee_damage() -> None:
    """Without manipulators a melee weapon's damage gets no パワー; ranged is unchanged."""
    p = priced(unit(abilities=[{"id": "no_manipulator"}], weapons=[melee(), ranged()]))
    assert p.value("/weapons/0/effective_damage") == "1D10+10"
    assert p.value("/weapons/1/effective_damage") == "1D10+10"
    assert cost_at(p, "/weapons/0") == 40


# --- ＥＮ消費, 気力制限 and their floor ----------------------------------------------------------

@pytest.mark.parametrize(("en", "cost"), [(5, 64), (10, 56), (15, 48), (20, 40)])
def test_en_cost_discount(en: int, cost: int) -> None:
    """ＥＮ消費 5/10/15/20 per use: −20/−30/−40/−50 % (マインドブロック 80)."""
    assert ability_cost({"id": "mind_block", "en_cost": en}) == cost


def test_en_cost_not_in_table_is_an_error() -> None:
    """ＥＮ消費 7 is UP_ABILITY_EN_COST; the ability is priced without it."""
    p = priced(unit(abilities=[{"id": "mind_block", "en_cost": 7}]))
    assert found(p) == [("UP_ABILITY_EN_COST", "/abilities/0/en_cost")]
    assert cost_at(p, "/abilities/0") == 80


@pytest.mark.parametrize(("morale", "cost"), [("fulfilled", 72), ("elated", 64), ("confident", 56),
                                              ("super_confident", 40), ("limit_break", 24)])
def test_ability_morale_limit(morale: str, cost: int) -> None:
    """気力制限 on an ability: −10/−20/−30/−50/−70 % (マインドブロック 80)."""
    assert ability_cost({"id": "mind_block", "morale": morale}) == cost


def test_en_cost_and_morale_add_up() -> None:
    """ＥＮ消費5 (−20 %) and 強気 (−30 %) sum to −50 %: 80 → 40."""
    assert ability_cost({"id": "mind_block", "en_cost": 5, "morale": "confident"}) == 40


def test_ability_discounts_floor_at_seventy_percent() -> None:
    """ＥＮ消費20 (−50 %) and 強気 (−30 %) = −80 % is floored at −70 %: 80 → 24."""
    p = priced(unit(abilities=[{"id": "mind_block", "en_cost": 20, "morale": "confident"}]))
    assert cost_at(p, "/abilities/0") == 24


def test_ability_floor_as_weapons_by_option() -> None:
    """ability_floor=minus50: the same −80 % floored at −50 % as a weapon's (seed 000 floors weapons
    only 「その他の制限と組み合わせて−５０％未満にはならない」): 80 → 40; −50 % itself is not touched (ＥＮ消費20 alone: 40)."""
    doc = unit(abilities=[{"id": "mind_block", "en_cost": 20, "morale": "confident"},
                          {"id": "mind_block", "en_cost": 20}])
    p = priced(doc, ability_floor="minus50")
    assert cost_at(p, "/abilities/0") == 40 and cost_at(p, "/abilities/1") == 40
    assert cost_at(priced(doc), "/abilities/1") == 40


def test_barrier_with_en_cost() -> None:
    """バリア１ 装甲+10 (135) with ＥＮ消費10 (−30 %): 94.5 → 95."""
    assert ability_cost({"id": "barrier1", "armor": 10, "en_cost": 10}) == 95


# --- bookkeeping ---------------------------------------------------------------------------------

def test_declared_ability_cost_mismatch_warns() -> None:
    """A written cost that differs is UP_ABILITY_COST_MISMATCH (warning)."""
    p = priced(unit(abilities=[{"id": "mind_block", "declared_cost": 70}]))
    assert found(p) == [("UP_ABILITY_COST_MISMATCH", "/abilities/0/declared_cost")]
    assert finding(p, "UP_ABILITY_COST_MISMATCH").level is Severity.WARNING


def test_unknown_ability_is_an_error() -> None:
    """An unknown ability id is UP_ABILITY_UNKNOWN; not priced."""
    p = priced(unit(abilities=[{"id": "teleport"}]))
    assert found(p) == [("UP_ABILITY_UNKNOWN", "/abilities/0/id")]
    assert p.total == 400 and not p.complete

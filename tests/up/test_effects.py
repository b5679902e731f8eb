"""特殊効果 and 気力制限 on weapons, and the −50 % floor on a weapon's summed percentages.

The test weapon costs 100 UP before effects: 格闘 射程2 (80) + fixed +4 (20); the ranged one
射撃 射程5 (90) + fixed +2 (10).
"""
from __future__ import annotations

import pytest

from converter.core.findings import Severity

from .conftest import cost_at, finding, found, melee, priced, ranged, unit, weapon_cost


def hundred_melee(*effects: dict, **extra) -> dict:
    return melee(range=2, damage={"dice": 1, "fixed": 14}, effects=list(effects), **extra)


@pytest.mark.parametrize(("effect", "cost"), [
    ({"id": "barrier_pierce"}, 120),                          # +20 %
    ({"id": "snipe"}, 120),                                   # +20 %
    ({"id": "skill_based"}, 140),                             # +40 UP
    ({"id": "cross_stat"}, 170),                              # +70 UP
    ({"id": "capture"}, 150),                                 # 格闘 +50 %
    ({"id": "stat_down", "level": 1, "target": "armor"}, 110),  # +10 %/Lv
    ({"id": "stat_down", "level": 3, "target": "armor"}, 130),
    ({"id": "stat_down", "level": 2, "always": True, "target": "armor"}, 130),  # +10 % always
    ({"id": "move_down", "level": 1}, 120),                   # +20 %/Lv
    ({"id": "move_down", "level": 3}, 160),
    ({"id": "move_down", "level": 2, "always": True}, 150),
    ({"id": "capture_only"}, 70),                             # −30 %
])
def test_effect_price(effect: dict, cost: int) -> None:
    """Each 特殊効果 at the seed's figure."""
    p = priced(unit(weapons=[hundred_melee(effect)]))
    assert cost_at(p, "/weapons/0") == cost
    assert found(p) == []


def test_capture_on_a_ranged_weapon_is_seventy_percent() -> None:
    """捕縛効果 on a 射撃 weapon: +70 %."""
    weapon = ranged(range=5, damage={"dice": 1, "fixed": 12}, effects=[{"id": "capture"}])
    assert weapon_cost(weapon) == 170


def test_up_effects_add_before_percentages() -> None:
    """【技量】基準 +40 joins the sum before バリア貫通 +20 %: 140 × 1.2 = 168."""
    assert weapon_cost(hundred_melee({"id": "skill_based"}, {"id": "barrier_pierce"})) == 168


def test_stat_down_without_target_warns() -> None:
    """ステータス低下 must name the stat it lowers: UP_EFFECT_TARGET (warning)."""
    p = priced(unit(weapons=[hundred_melee({"id": "stat_down", "level": 1})]))
    assert found(p) == [("UP_EFFECT_TARGET", "/weapons/0/effects/0/target")]
    assert finding(p, "UP_EFFECT_TARGET").level is Severity.WARNING
    assert cost_at(p, "/weapons/0") == 110


@pytest.mark.parametrize("level", [0, 4])
def test_effect_level_out_of_range_is_an_error(level: int) -> None:
    """Levels outside 1..3 are UP_EFFECT_LEVEL; the weapon is not priced."""
    p = priced(unit(weapons=[hundred_melee({"id": "move_down", "level": level})]))
    assert found(p) == [("UP_EFFECT_LEVEL", "/weapons/0/effects/0/level")]
    assert not p.complete


def test_unknown_effect_is_an_error() -> None:
    """An unknown effect is UP_EFFECT_UNKNOWN at its id (where the schema reports it too)."""
    p = priced(unit(weapons=[hundred_melee({"id": "laser_focus"})]))
    assert found(p) == [("UP_EFFECT_UNKNOWN", "/weapons/0/effects/0/id")]
    assert not p.complete


def test_effect_written_as_a_bare_name_is_priced() -> None:
    """A legacy effect written as "snipe" instead of {"id": "snipe"} is priced the same."""
    assert weapon_cost(hundred_melee("snipe")) == 120
    p = priced(unit(weapons=[hundred_melee("stat_down")]))
    assert cost_at(p, "/weapons/0") == 110
    assert found(p) == [("UP_EFFECT_TARGET", "/weapons/0/effects/0/target")]


def test_duplicate_effect_is_priced_once() -> None:
    """An effect listed twice is UP_EFFECT_DUPLICATE; the second is not priced."""
    p = priced(unit(weapons=[hundred_melee({"id": "snipe"}, {"id": "snipe"})]))
    assert found(p) == [("UP_EFFECT_DUPLICATE", "/weapons/0/effects/1")]
    assert cost_at(p, "/weapons/0") == 120


# --- 気力制限 and the −50 % floor ----------------------------------------------------------------

@pytest.mark.parametrize(("morale", "cost"), [("fulfilled", 90), ("elated", 80), ("confident", 70),
                                              ("super_confident", 50)])
def test_weapon_morale_limit(morale: str, cost: int) -> None:
    """気力制限 充実 −10 %, 高揚 −20 %, 強気 −30 %, 超強気 −50 %."""
    p = priced(unit(weapons=[hundred_melee(morale=morale)]))
    assert cost_at(p, "/weapons/0") == cost
    assert found(p) == []


def test_limit_break_weapon_is_floored_at_fifty_percent() -> None:
    """限界突破 −70 % on a weapon is floored at −50 %, with the info UP_PERCENT_FLOOR."""
    p = priced(unit(weapons=[hundred_melee(morale="limit_break")]))
    assert cost_at(p, "/weapons/0") == 50
    assert found(p) == [("UP_PERCENT_FLOOR", "/weapons/0")]
    assert finding(p, "UP_PERCENT_FLOOR").level is Severity.INFO


def test_summed_discounts_are_floored_at_fifty_percent() -> None:
    """移動後攻撃不可 −30 % + 捕縛時のみ −30 % = −60 % → −50 %: 50 UP and UP_PERCENT_FLOOR."""
    p = priced(unit(weapons=[hundred_melee({"id": "capture_only"}, post_move=False)]))
    assert cost_at(p, "/weapons/0") == 50
    assert found(p) == [("UP_PERCENT_FLOOR", "/weapons/0")]


def test_exactly_fifty_percent_off_is_not_floored() -> None:
    """−30 % −20 % = −50 % exactly: no floor finding."""
    p = priced(unit(weapons=[hundred_melee(post_move=False, morale="elated")]))
    assert cost_at(p, "/weapons/0") == 50
    assert found(p) == []


def test_surcharges_offset_discounts_before_the_floor() -> None:
    """−30 % −30 % −30 % +20 % = −70 % → floored; +20 % +20 % brings it to −50 %: no floor."""
    floored = hundred_melee({"id": "capture_only"}, {"id": "barrier_pierce"}, post_move=False,
                            morale="confident")
    assert cost_at(priced(unit(weapons=[floored])), "/weapons/0") == 50
    balanced = hundred_melee({"id": "capture_only"}, {"id": "barrier_pierce"}, {"id": "snipe"},
                             post_move=False, morale="confident")
    p = priced(unit(weapons=[balanced]))
    assert cost_at(p, "/weapons/0") == 50
    assert found(p) == []


def test_weapon_cost_rounds_half_up() -> None:
    """射撃 射程1 + fixed +3 = 45, 充実 −10 % = 40.5 → 41."""
    assert weapon_cost(ranged(damage={"dice": 1, "fixed": 13}, morale="fulfilled")) == 41

"""ＭＡＰ兵器 (type, landing-point radius, Ｐ, 敵味方識別) and 合体攻撃 (usable / only).

The MAP test weapon is 射撃 射程3 (60) + fixed +8 (40) = 100 UP before MAP percentages.
"""
from __future__ import annotations

import pytest

from converter.core.findings import Severity

from .conftest import cost_at, finding, found, melee, priced, ranged, unit, weapon_cost

FIXED_18 = {"dice": 1, "fixed": 18}


def map_weapon(map_: dict, **extra) -> dict:
    return ranged(range=3, damage=FIXED_18, map=map_, **extra)


@pytest.mark.parametrize(("mtype", "cost"), [
    ("self_centered", 200),     # +100 %
    ("self_destruct", 100),     # +0 %
    ("directional", 150),       # +50 %
    ("spread", 200),            # +100 %
    ("jet", 200),               # +100 %
])
def test_map_type_percent(mtype: str, cost: int) -> None:
    """自機中心型 +100 %, 自爆 ±0, 方向指定型 +50 %, 拡散型・噴射型 +100 %."""
    p = priced(unit(weapons=[map_weapon({"type": mtype})]))
    assert cost_at(p, "/weapons/0") == cost
    assert found(p) == []


def test_pilot_inclusive_map_is_floored() -> None:
    """パイロットも巻き込む −100 % is floored at −50 % (UP_PERCENT_FLOOR)."""
    p = priced(unit(weapons=[map_weapon({"type": "pilot_inclusive"})]))
    assert cost_at(p, "/weapons/0") == 50
    assert found(p) == [("UP_PERCENT_FLOOR", "/weapons/0")]


@pytest.mark.parametrize(("mtype", "cost"), [("target_point", 300), ("target_point_safe", 330)])
def test_landing_point_pays_for_its_radius(mtype: str, cost: int) -> None:
    """着弾点指定型: 射程3 (60) + radius 2 (50) + 40 = 150, then +100 % (自分は巻き込まれない +120 %)."""
    p = priced(unit(weapons=[map_weapon({"type": mtype, "radius": 2})]))
    assert cost_at(p, "/weapons/0") == cost


def test_landing_point_without_radius_is_an_error() -> None:
    """着弾点指定型 needs radius: UP_MAP_RADIUS, not priced."""
    p = priced(unit(weapons=[map_weapon({"type": "target_point"})]))
    assert found(p) == [("UP_MAP_RADIUS", "/weapons/0/map/radius")]
    assert not p.complete


def test_post_move_map_adds_twenty_percent_and_an_info() -> None:
    """Ｐ MAP: P range price (射程3P 80 + 40 = 120), +100 % +20 % → 264; info for the GM."""
    p = priced(unit(weapons=[map_weapon({"type": "self_centered"}, post_move=True)]))
    assert cost_at(p, "/weapons/0") == 264
    assert found(p) == [("UP_SOURCE_WORK_ONLY", "/weapons/0/post_move")]
    assert finding(p, "UP_SOURCE_WORK_ONLY").level is Severity.INFO


def test_post_move_landing_point_prices_its_radius_as_p_too() -> None:
    """Ｐ 着弾点指定型: the radius is priced from the P table as well ((80 + 70 + 40) × 2.2 = 418)."""
    p = priced(unit(weapons=[map_weapon({"type": "target_point", "radius": 2}, post_move=True)]))
    assert cost_at(p, "/weapons/0") == 418


def test_friend_foe_adds_thirty_percent_and_an_info() -> None:
    """敵味方識別 +30 % (100 × 2.3 = 230); info UP_SOURCE_WORK_ONLY for the GM."""
    p = priced(unit(weapons=[map_weapon({"type": "self_centered", "friend_foe": True})]))
    assert cost_at(p, "/weapons/0") == 230
    assert found(p) == [("UP_SOURCE_WORK_ONLY", "/weapons/0/map/friend_foe")]
    assert finding(p, "UP_SOURCE_WORK_ONLY").level is Severity.INFO


def test_unknown_map_type_is_an_error() -> None:
    """An unknown MAP type is UP_MAP_TYPE."""
    p = priced(unit(weapons=[map_weapon({"type": "ring"})]))
    assert found(p) == [("UP_MAP_TYPE", "/weapons/0/map/type")]
    assert not p.complete


# --- 合体攻撃 ------------------------------------------------------------------------------------

@pytest.mark.parametrize(("combo", "cost"), [("none", 100), ("usable", 120), ("only", 50)])
def test_combo(combo: str, cost: int) -> None:
    """合体攻撃に使用可 +20 %, 合体攻撃専用 −50 % (格闘 射程2 + fixed +4 = 100)."""
    assert weapon_cost(melee(range=2, damage={"dice": 1, "fixed": 14}, combo=combo)) == cost


def test_unknown_combo_is_an_error() -> None:
    """An unknown combo choice is UP_WEAPON_COMBO."""
    p = priced(unit(weapons=[melee(combo="triple")]))
    assert found(p) == [("UP_WEAPON_COMBO", "/weapons/0/combo")]


def test_melee_map_weapon_not_p_takes_the_melee_reduction() -> None:
    """A MAP weapon is bought like a normal weapon, then modified 「通常の格闘・射撃武器と同じように
    取得し、その後…修正を加える」 (issue 16.4): a melee 自機中心型 that is not P pays
    40 × (100 − 30 + 100) % = 68; ranged weapons are untouched by the option."""
    doc = unit(weapons=[melee(map={"type": "self_centered"}), ranged(map={"type": "self_centered"})])
    default, withheld = priced(doc), priced(doc, melee_map_not_p="withhold")
    assert cost_at(default, "/weapons/0") == 68
    assert cost_at(withheld, "/weapons/0") == 80  # 40 × (100 + 100) %
    assert cost_at(default, "/weapons/1") == cost_at(withheld, "/weapons/1")


def test_withholding_leaves_a_normal_melee_weapon_alone() -> None:
    """melee_map_not_p=withhold concerns MAP weapons only: a plain melee weapon made non-P still
    takes −30 % (40 → 28)."""
    doc = unit(weapons=[melee(post_move=False)])
    assert cost_at(priced(doc, melee_map_not_p="withhold"), "/weapons/0") == 28

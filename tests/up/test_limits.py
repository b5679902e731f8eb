"""Every limit of seed 000 tested at it, on the side it allows and one step past it: the finding
comes exactly past the limit, never at it. An M unit (tests/up/conftest.py's seed table) unless
said: 基本ＵＰ 400, ＨＰ 200 (+200), ＥＮ 50 (+50), 装甲 20 (+15), パワー 15 (+25), 運動性 15 (+20),
移動力 6."""
from __future__ import annotations

from typing import Any

import pytest

from converter.rules.up import effective_accuracy, effective_damage

from ..pricing_helpers import Limit, check_limit
from .conftest import SEED_SIZES, cost_at, melee, priced, ranged, unit

AT_CAP = melee(name="上限", damage={"dice": 4, "fixed": 18})  # 40 + 120 + 40 = 200


def _stat_limits() -> list[Limit]:
    """Each stat of each size: its maximum raise (the seed's 「５〜２００」: steps of 5 up to +200)
    and its base."""
    out: list[Limit] = []
    for size, (_, stats) in SEED_SIZES.items():
        for stat, (base, step, max_raise, _) in stats.items():
            make = (lambda s, z: lambda v: unit(size=z, stats={s: v}))(stat, size)
            if max_raise is not None:
                top = base + max_raise
                out.append((f"{size} {stat} max", make, "UP_STAT_MAX", f"/stats/{stat}", [top - step, top],
                            [top + step], {}))
            out.append((f"{size} {stat} base", make, "UP_STAT_BELOW_BASE", f"/stats/{stat}", [base, base + step],
                        [base - 1], {}))
    return out


def _boost(stat: str, amount: Any, morale: str = "elated") -> list[dict]:
    return [{"stat": stat, "raise": amount, "morale": morale}]


LIMITS: list[Limit] = _stat_limits() + [
    # 移動力: the seed prices +1 and +2.
    ("move beyond two", lambda v: unit(stats={"move": v}), "UP_MOVE_BEYOND_TWO", "/stats/move", [7, 8], [9], {}),
    # 装甲 already +10: a boost may reach +15.
    ("boost over max", lambda v: unit(stats={"armor": 30}, morale_boosts=_boost("armor", v)), "UP_BOOST_OVER_MAX",
     "/morale_boosts/0", [4, 5], [6], {}),
    # From the base (装甲 20): a boost may reach +15.
    ("boost from base", lambda v: unit(morale_boosts=_boost("armor", v)), "UP_BOOST_OVER_MAX", "/morale_boosts/0",
     [14, 15], [16], {}),
    ("boost raise", lambda v: unit(morale_boosts=_boost("armor", v)), "UP_BOOST_INVALID", "/morale_boosts/0/raise",
     [1], [0, -1], {}),
    # 格闘: ranges 1-5; 射撃 from 1.
    ("melee range", lambda v: unit(weapons=[melee(range=v)]), "UP_WEAPON_RANGE", "/weapons/0/range", [1, 5],
     [0, 6], {}),
    ("ranged range", lambda v: unit(weapons=[ranged(range=v)]), "UP_WEAPON_RANGE", "/weapons/0/range", [1, 99],
     [0], {}),
    ("minimum range", lambda v: unit(weapons=[ranged(range=3, min_range=v)]), "UP_WEAPON_MIN_RANGE",
     "/weapons/0/min_range", [1, 3], [0, 4], {}),
    ("damage dice", lambda v: unit(weapons=[melee(damage={"dice": v, "fixed": 10})]), "UP_DAMAGE_BELOW_BASE",
     "/weapons/0/damage/dice", [1], [0], {}),
    ("damage fixed", lambda v: unit(weapons=[melee(damage={"dice": 1, "fixed": v})]), "UP_DAMAGE_BELOW_BASE",
     "/weapons/0/damage/fixed", [10], [9], {}),
    ("accuracy", lambda v: unit(weapons=[melee(accuracy=v)]), "UP_ACCURACY_STEP", "/weapons/0/accuracy",
     [-10, 50], [-15, 55], {}),
    ("ammo", lambda v: unit(weapons=[ranged(usage={"type": "ammo", "amount": v, "reduction": "up"})]),
     "UP_USAGE_AMOUNT", "/weapons/0/usage/amount", [1, 16], [0, 17], {}),
    ("effect level", lambda v: unit(weapons=[ranged(effects=[{"id": "move_down", "level": v}])]), "UP_EFFECT_LEVEL",
     "/weapons/0/effects/0/level", [1, 3], [0, 4], {}),
    # 気力制限 on a melee weapon that is not P (−30 %): −50 % in all is the floor itself.
    ("percent floor", lambda m: unit(weapons=[melee(post_move=False, morale=m)]), "UP_PERCENT_FLOOR", "/weapons/0",
     ["elated"], ["confident"], {}),
    # 「ひとつの武器について消費できるＵＰは総ＵＰの５分の１まで」: 200 UP on budgets around 1000.
    ("weapon cap", lambda b: unit(budget=b, weapons=[AT_CAP]), "UP_WEAPON_OVER_CAP", "/weapons/0", [1000, 1005],
     [999], {}),
    # ＥＮ消費 5, 10, 15 or 20 (−20 % … −50 %); 0 is none.
    ("ability EN cost", lambda v: unit(abilities=[{"id": "mind_block", "en_cost": v}]), "UP_ABILITY_EN_COST",
     "/abilities/0/en_cost", [0, 5, 20], [1, 25], {}),
    # 「分身値は最大で７」
    # 格闘 40 with 弾数8 −40 UP costs 0, not below it; 射撃 30 with the same, −10.
    ("weapon cost", lambda w: unit(weapons=[w(usage={"type": "ammo", "amount": 8, "reduction": "up"})]),
     "UP_WEAPON_NEGATIVE", "/weapons/0", [melee], [ranged], {}),
    # ＥＮ消費 5, 10, 15 or 20 (−20 % … −50 %); 0 is none.
    ("ability EN cost", lambda v: unit(abilities=[{"id": "mind_block", "en_cost": v}]), "UP_ABILITY_EN_COST",
     "/abilities/0/en_cost", [0, 5, 20], [1, 25], {}),
    # 「分身値は最大で７」
    ("bunshin level", lambda v: unit(abilities=[{"id": "bunshin", "level": v}]), "UP_ABILITY_LEVEL",
     "/abilities/0/level", [1, 7], [0, 8], {}),
    ("multi seat level", lambda v: unit(abilities=[{"id": "multi_seat", "level": v}]), "UP_ABILITY_LEVEL",
     "/abilities/0/level", [1, 9], [0], {}),
    # 「増加分の装甲値がユニットの「パワー」を超えてはならない」: M パワー 15.
    ("shield over power", lambda v: unit(abilities=[{"id": "shield", "armor": v}]), "UP_SHIELD_OVER_POWER",
     "/abilities/0/armor", [14, 15], [16], {}),
    # SSS: パワー 0, written or left at the base.
    ("shield on power 0", lambda v: unit(size="SSS", stats={"power": 0}, abilities=[{"id": "shield", "armor": v}]),
     "UP_SHIELD_OVER_POWER", "/abilities/0/armor", [], [1], {}),
    ("shield armor", lambda v: unit(abilities=[{"id": "shield", "armor": v}]), "UP_ABILITY_VALUE",
     "/abilities/0/armor", [1], [0], {}),
    ("barrier armor", lambda v: unit(abilities=[{"id": "barrier2", "armor": v}]), "UP_ABILITY_VALUE",
     "/abilities/0/armor", [1], [0], {}),
    ("stat bonus amount", lambda v: unit(abilities=[{"id": "stat_bonus", "bonuses": [{"stats": ["skill"],
                                                                                       "amount": v}]}]),
     "UP_STAT_BONUS_INVALID", "/abilities/0/bonuses/0/amount", [1], [0], {}),
    ("form up", lambda v: unit(transformation={"forms": [{"name": "B", "up": v}]}), "UP_TRANSFORM_INVALID",
     "/transformation/forms/0/up", [0], [-1], {}),
    ("budget", lambda b: unit(budget=b), "UP_OVER_BUDGET", "/budget", [400, 401], [399], {}),
]


def _codes(doc: dict, options: dict) -> list[tuple[str, str]]:
    return [(f.code, f.pointer) for f in priced(doc, **options).findings]


@pytest.mark.parametrize("limit", LIMITS, ids=[x[0] for x in LIMITS])
def test_limit(limit: Limit) -> None:
    """At an up limit and on its allowed side there is no finding; past it exactly one."""
    check_limit(limit, _codes)


# --- prices at the ends of the tables ------------------------------------------------------------

@pytest.mark.parametrize(("weapon", "cost"), [
    (melee(range=5), 230),                     # 格闘 射程5, the last column
    (ranged(range=10), 240),                   # 射撃 射程10, the last column
    (ranged(range=11), 280),                   # 「以後＋１ごとに＋４０（Ｐ＋１８０）ＵＰ」
    (ranged(range=10, post_move=True), 410),   # Ｐ 射程10
    (ranged(range=11, post_move=True), 590),   # the same, P: +180
])
def test_range_price_at_the_end_of_the_table(weapon: dict, cost: int) -> None:
    """A range at and past the table's last column costs the last price plus 40 (P: 180) a step."""
    assert cost_at(priced(unit(weapons=[weapon])), "/weapons/0") == cost


# --- derived values at zero ---------------------------------------------------------------------

def test_melee_damage_on_a_unit_of_power_0() -> None:
    """SSS: パワー 0 adds nothing: a base melee weapon deals 1D10+10."""
    p = priced(unit(size="SSS", weapons=[melee()]))
    assert p.value("/weapons/0/effective_damage") == "1D10+10"


def test_melee_damage_of_a_unit_without_size_counts_no_power() -> None:
    """effective_damage on a unit that gives neither パワー nor a size adds no power."""
    assert effective_damage(melee(), {"stats": {}}) == "1D10+10"
    assert effective_damage(melee(), {"size": "M", "stats": {}}) == "1D10+25"


@pytest.mark.parametrize(("weapon", "accuracy"), [
    (melee(), 0), (melee(accuracy=0), 0), (melee(accuracy=-10), -10), (melee(guided=True), 20),
    (melee(accuracy=10, guided=True), 30)])
def test_effective_accuracy_from_zero(weapon: dict, accuracy: int) -> None:
    """命中修正 as shown: the bought step, +20 for 誘導 (free), 0 when none is bought."""
    assert priced(unit(weapons=[weapon])).value("/weapons/0/effective_accuracy") == accuracy
    assert effective_accuracy(weapon) == accuracy


@pytest.mark.parametrize(("written", "shown"), [
    ("x" * 38, '"' + "x" * 38 + '"'),   # 40 characters as JSON: shown whole
    ("x" * 39, '"' + "x" * 39),         # 41: its first 40
])
def test_a_malformed_value_is_shown_up_to_40_characters(written: str, shown: str) -> None:
    """A malformed value is shown whole up to 40 characters as JSON, past that its first 40."""
    p = priced(unit(weapons=written))
    assert [f.params["value"] for f in p.findings if f.code == "UP_ITEM_MALFORMED"] == [shown]


def test_a_weapon_naming_itself_as_its_base() -> None:
    """Not a variant of anything: UP_VARIANT_BASE_MISSING, no changed places shown, priced whole."""
    p = priced(unit(weapons=[melee(variant_of="格闘")]))
    assert [(f.code, f.pointer) for f in p.findings] == [("UP_VARIANT_BASE_MISSING", "/weapons/0/variant_of")]
    assert "/weapons/0/variant_changes" not in p.derived and cost_at(p, "/weapons/0") == 40

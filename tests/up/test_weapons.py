"""武装: range, post-move ban, dead zones, damage, accuracy, attribute and the derived values."""
from __future__ import annotations

import pytest

from .conftest import cost_at, finding, found, melee, priced, ranged, unit, weapon_cost

MELEE_RANGES = [(1, 40), (2, 80), (3, 120), (4, 170), (5, 230)]
RANGED_RANGES = [(1, 30, 40), (2, 50, 70), (3, 60, 80), (4, 70, 90), (5, 90, 130), (6, 110, 180),
                 (7, 140, 230), (8, 170, 280), (9, 200, 340), (10, 240, 410),
                 (11, 280, 590), (12, 320, 770)]  # beyond 10: +40 (P +180) per square


@pytest.mark.parametrize(("rng", "cost"), MELEE_RANGES)
def test_melee_range_price(rng: int, cost: int) -> None:
    """格闘 射程1..5: 40, 80, 120, 170, 230 (P by default, no surcharge)."""
    assert weapon_cost(melee(range=rng)) == cost


@pytest.mark.parametrize(("rng", "cost", "p_cost"), RANGED_RANGES)
def test_ranged_range_price(rng: int, cost: int, p_cost: int) -> None:
    """射撃 射程1..10 from the table, beyond 10 +40 (P +180) per square; not P unless chosen."""
    assert weapon_cost(ranged(range=rng)) == cost
    assert weapon_cost(ranged(range=rng, post_move=False)) == cost
    assert weapon_cost(ranged(range=rng, post_move=True)) == p_cost


def test_melee_range_six_is_an_error() -> None:
    """格闘 射程6 is not in the table: UP_WEAPON_RANGE, not priced."""
    p = priced(unit(weapons=[melee(range=6)]))
    assert found(p) == [("UP_WEAPON_RANGE", "/weapons/0/range")]
    assert finding(p, "UP_WEAPON_RANGE").params["max"] == 5
    assert p.total == 400 and not p.complete


def test_melee_without_post_move_is_thirty_percent_off() -> None:
    """格闘 移動後攻撃不可: the final cost −30 % (射程2: 80 → 56)."""
    assert weapon_cost(melee(range=2, post_move=False)) == 56


@pytest.mark.parametrize(("weapon", "cost"), [
    (melee(range=3, min_range=2), 100),    # 120 − 20
    (melee(range=3, min_range=3), 80),     # 120 − 2 × 20
    (ranged(range=5, min_range=3), 60),    # 90 − 2 × 15
    (ranged(range=5, min_range=2, post_move=True), 115),  # 130 − 15
])
def test_dead_zone_refund_per_square(weapon: dict, cost: int) -> None:
    """Each near square it cannot hit: 格闘 −20, 射撃 −15 UP."""
    assert weapon_cost(weapon) == cost


@pytest.mark.parametrize("min_range", [0, 4])
def test_min_range_outside_one_to_range_is_an_error(min_range: int) -> None:
    """最小射程 0, or beyond the range, is UP_WEAPON_MIN_RANGE."""
    p = priced(unit(weapons=[melee(range=3, min_range=min_range)]))
    assert found(p) == [("UP_WEAPON_MIN_RANGE", "/weapons/0/min_range")]
    assert not p.complete


@pytest.mark.parametrize(("damage", "first_free", "every_die"), [
    ({"dice": 1, "fixed": 10}, 40, 80),
    ({"dice": 3, "fixed": 10}, 120, 160),
    ({"dice": 1, "fixed": 15}, 65, 105),
    ({"dice": 3, "fixed": 15}, 145, 185),
])
def test_damage_dice_and_fixed(damage: dict, first_free: int, every_die: int) -> None:
    """+1D 40, +1 fixed 5 over 1D10+10; every_die also charges the first die (melee 射程1 = 40)."""
    assert weapon_cost(melee(damage=damage)) == first_free
    assert weapon_cost(melee(damage=damage), damage_dice="every_die") == every_die


@pytest.mark.parametrize(("damage", "where"), [
    ({"dice": 0, "fixed": 10}, "/weapons/0/damage/dice"),
    ({"dice": 1, "fixed": 5}, "/weapons/0/damage/fixed"),
])
def test_damage_below_base_is_an_error(damage: dict, where: str) -> None:
    """Bought damage below 1D10+10 is UP_DAMAGE_BELOW_BASE at the field that is too low."""
    p = priced(unit(weapons=[melee(damage=damage)]))
    assert found(p) == [("UP_DAMAGE_BELOW_BASE", where)]
    assert not p.complete


ACCURACY = [(-10, -20), (0, 0), (5, 20), (10, 40), (15, 65), (20, 90), (25, 120), (30, 150),
            (40, 185), (45, 220), (50, 260)]


@pytest.mark.parametrize(("accuracy", "price"), ACCURACY)
def test_accuracy_step_price(accuracy: int, price: int) -> None:
    """命中修正 −10 … +50 at the table's prices (on a 40 UP melee weapon)."""
    assert weapon_cost(melee(accuracy=accuracy)) == 40 + price


@pytest.mark.parametrize(("accuracy", "hint"), [(35, [30, 40]), (60, [50]), (-20, [-10]), (12, [10, 15])])
def test_accuracy_off_the_table_is_an_error_with_neighbours(accuracy: int, hint: list[int]) -> None:
    """命中修正 not in the table (e.g. +35) is UP_ACCURACY_STEP with the neighbouring steps."""
    p = priced(unit(weapons=[melee(accuracy=accuracy)]))
    assert found(p) == [("UP_ACCURACY_STEP", "/weapons/0/accuracy")]
    assert finding(p, "UP_ACCURACY_STEP").params["hint"] == hint
    assert not p.complete


def test_guided_is_free_and_adds_twenty_percent_accuracy() -> None:
    """誘導: no UP; the effective 命中修正 is +20 over the bought one."""
    p = priced(unit(weapons=[ranged(accuracy=10, guided=True)]))
    assert cost_at(p, "/weapons/0") == 70
    assert p.value("/weapons/0/effective_accuracy") == 30


@pytest.mark.parametrize(("weapon", "stats", "shown"), [
    (melee(), {}, "1D10+25"),                                 # + M パワー 15
    (melee(attribute="beam"), {}, "1D10+30"),                 # + beam 5
    (melee(attribute="none"), {}, "1D10+20"),                 # 無属性 −5
    (melee(damage={"dice": 2, "fixed": 16}), {"power": 20}, "2D10+36"),
    (ranged(), {}, "1D10+10"),                                # 射撃: no パワー
    (ranged(attribute="beam", damage={"dice": 1, "fixed": 40}), {}, "1D10+45"),
])
def test_effective_damage_is_derived(weapon: dict, stats: dict, shown: str) -> None:
    """Effective damage = bought + attribute (+ パワー for melee); it costs nothing extra."""
    p = priced(unit(stats=stats, weapons=[weapon]))
    assert p.value("/weapons/0/effective_damage") == shown


@pytest.mark.parametrize("attribute", ["beam", "none", "solid"])
def test_attribute_costs_nothing(attribute: str) -> None:
    """実体・ビーム・無属性 are all 0 UP."""
    assert weapon_cost(melee(attribute=attribute)) == 40


def test_unknown_attribute_is_an_error() -> None:
    """An attribute outside 実体/ビーム/無属性 is UP_WEAPON_ATTRIBUTE."""
    p = priced(unit(weapons=[melee(attribute="plasma")]))
    assert found(p) == [("UP_WEAPON_ATTRIBUTE", "/weapons/0/attribute")]


def test_unknown_kind_is_an_error() -> None:
    """A kind other than 格闘/射撃 is UP_WEAPON_KIND and not priced."""
    p = priced(unit(weapons=[melee(kind="thrown")]))
    assert found(p) == [("UP_WEAPON_KIND", "/weapons/0/kind")]
    assert p.total == 400 and not p.complete


def test_duplicate_weapon_names_are_an_error() -> None:
    """Two weapons with one name are UP_WEAPON_NAME_DUPLICATE at the second; both are priced."""
    p = priced(unit(weapons=[melee(), melee()]))
    assert found(p) == [("UP_WEAPON_NAME_DUPLICATE", "/weapons/1/name")]
    assert p.total == 480


def test_weapons_total_is_derived() -> None:
    """The sum of the weapon lines is derived as /weapons_total."""
    p = priced(unit(weapons=[melee(), ranged(range=4)]))
    assert p.value("/weapons_total") == 40 + 70


def test_declared_weapon_cost_mismatch_warns() -> None:
    """A written cost that differs is UP_WEAPON_COST_MISMATCH (warning); the computed cost stands."""
    p = priced(unit(weapons=[melee(declared_cost=50)]))
    assert found(p) == [("UP_WEAPON_COST_MISMATCH", "/weapons/0/declared_cost")]
    assert cost_at(p, "/weapons/0") == 40

"""武器の地形適応: defaults per kind and attribute, +10 % per step up, −10 % per step down, "−" −20 %.

Both test weapons cost 100 UP before terrain: 格闘 射程2 (80) + fixed +4 (20); 射撃 射程5 (90) +
fixed +2 (10). The unit moves on 陸 and 宇宙 unless a test says otherwise.
"""
from __future__ import annotations

import pytest

from .conftest import found, melee, priced, ranged, unit, weapon_cost

FIXED_14 = {"dice": 1, "fixed": 14}
FIXED_12 = {"dice": 1, "fixed": 12}


def hundred_melee(**extra) -> dict:
    return melee(range=2, damage=FIXED_14, **extra)


def hundred_ranged(**extra) -> dict:
    return ranged(range=5, damage=FIXED_12, **extra)


@pytest.mark.parametrize(("terrain", "cost"), [
    (None, 100),
    ({"air": "-", "land": "A", "sea": "B", "space": "A"}, 100),  # the defaults written out
    ({"land": "S"}, 110),    # A→S
    ({"sea": "A"}, 110),     # B→A (格闘: 海 outside the unit's types is B)
    ({"air": "C"}, 110),     # −→C is one step up
    ({"air": "A"}, 130),     # −→C→B→A
    ({"land": "B"}, 90),     # A→B
    ({"land": "C"}, 80),     # A→B→C
    ({"land": "-"}, 80),     # "−" is −20 % whatever it replaces
    ({"sea": "-"}, 80),
    ({"land": "S", "space": "B"}, 100),
])
def test_melee_terrain(terrain: dict | None, cost: int) -> None:
    """格闘: A where the unit goes, 陸/海 B and 空/宇宙 − elsewhere; steps priced from there."""
    assert weapon_cost(hundred_melee(terrain=terrain)) == cost


def test_melee_terrain_follows_the_units_movement() -> None:
    """A unit on all four types has a melee weapon at A everywhere: 海B is −10 %."""
    doc = {"movement": ["air", "land", "sea", "space"]}
    assert weapon_cost(hundred_melee(terrain={"sea": "B"}), doc) == 90
    assert weapon_cost(hundred_melee(terrain={"air": "A"}), doc) == 100


def test_beam_melee_is_sea_b_even_for_a_sea_unit() -> None:
    """ビーム 格闘: 海 B whatever the movement; raising it to A costs +10 %."""
    doc = {"movement": ["sea", "space"]}
    assert weapon_cost(hundred_melee(attribute="beam"), doc) == 100
    assert weapon_cost(hundred_melee(attribute="beam", terrain={"sea": "A"}), doc) == 110
    assert weapon_cost(hundred_melee(terrain={"sea": "A"}), doc) == 100


@pytest.mark.parametrize(("terrain", "cost"), [
    (None, 100),
    ({"air": "A", "land": "A", "sea": "B", "space": "A"}, 100),  # three A, one B
    ({"air": "B", "land": "A", "sea": "A", "space": "A"}, 100),  # the B may go anywhere
    ({"air": "A", "land": "A", "sea": "A", "space": "A"}, 110),  # four A: one step up
    ({"air": "B", "land": "B", "sea": "A", "space": "A"}, 90),   # a second B: one step down
    ({"air": "S", "land": "S", "sea": "S", "space": "S"}, 150),  # 3 × 10 + 20
    ({"air": "A", "land": "A", "sea": "B", "space": "-"}, 80),
])
def test_ranged_solid_terrain(terrain: dict | None, cost: int) -> None:
    """射撃 実体: three A and one B placed freely, then +10 %/step up, −10 %/step down, − −20 %."""
    assert weapon_cost(hundred_ranged(terrain=terrain)) == cost


@pytest.mark.parametrize(("sea", "cost"), [("C", 100), ("B", 110), ("A", 120), ("-", 80)])
def test_ranged_beam_terrain(sea: str, cost: int) -> None:
    """射撃 ビーム: 海 C, the rest A."""
    terrain = {"air": "A", "land": "A", "sea": sea, "space": "A"}
    assert weapon_cost(hundred_ranged(attribute="beam", terrain=terrain)) == cost


@pytest.mark.parametrize(("terrain", "where"), [({"air": "X"}, "/weapons/0/terrain/air"),
                                                ({"underground": "A"}, "/weapons/0/terrain/underground")])
def test_unknown_weapon_terrain_is_an_error(terrain: dict, where: str) -> None:
    """A grade outside S/A/B/C/− or an unknown terrain is UP_TERRAIN_GRADE; the weapon is not priced."""
    p = priced(unit(weapons=[hundred_melee(terrain=terrain)]))
    assert found(p) == [("UP_TERRAIN_GRADE", where)]
    assert p.total == 400 and not p.complete

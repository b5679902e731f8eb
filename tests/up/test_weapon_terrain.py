"""武器の地形適応: defaults per kind and attribute, +10 % per step up, −10 % per step down, "−" −20 %.

Both test weapons cost 100 UP before terrain: 格闘 射程2 (80) + fixed +4 (20); 射撃 射程5 (90) +
fixed +2 (10). The unit moves on 陸 and 宇宙 unless a test says otherwise.
"""
from __future__ import annotations

import pytest

from .conftest import cost_at, found, melee, priced, ranged, unit, weapon_cost

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
    # Unplaced, the free B goes where the weapon costs least: under the −, so 海 A→B −10 % and
    # 宇宙 B→− −20 % (70), not under 海 with 宇宙 A→− (80).
    ({"air": "A", "land": "A", "sea": "B", "space": "-"}, 70),
])
def test_ranged_solid_terrain(terrain: dict | None, cost: int) -> None:
    """射撃 実体: three A and one B placed freely, then +10 %/step up, −10 %/step down, − −20 %."""
    assert weapon_cost(hundred_ranged(terrain=terrain)) == cost


# Seed 000, 射撃武器 ３．地形適応の決定: 「射撃武器の地形適応は「地形３つがＡ、残りひとつがＢ」が基本と
# なる。好きなように割り振った後、任意に上昇または低下させること。」 and 「「−」にする場合は、元の適応に
# かかわらずｰ２０％となる」. A 射程3 ranged weapon costs 60 UP before terrain.
AAA_DASH = {"air": "A", "land": "A", "sea": "A", "space": "-"}


def test_unplaced_free_b_is_priced_cheapest_and_said() -> None:
    """A/A/A/− with the B unplaced: under the − it is 60 × (1 − 20 %) = 48 UP (placed anywhere
    else, the B→A step adds 10 %: 60 × 90 % = 54); an info finding says where it went."""
    p = priced(unit(weapons=[ranged(range=3, terrain=AAA_DASH)]))
    assert cost_at(p, "/weapons/0") == 48
    [f] = [f for f in p.findings if f.code == "UP_TERRAIN_B_ASSUMED"]
    assert (f.pointer, f.level) == ("/weapons/0/terrain_b", "info")
    assert "宇宙" in f.message("ja") and "−20%" in f.message("ja") and "Space" in f.message("en")
    assert f.params == {"terrain_ja": "宇宙", "terrain_en": "Space", "percent": "−20%", "costliest": "−10%"}


@pytest.mark.parametrize(("placed", "cost"), [("space", 48), ("air", 54), ("land", 54), ("sea", 54)])
def test_placed_free_b_is_priced_where_the_sheet_says(placed: str, cost: int) -> None:
    """The document records where the B went (terrain_b): each placement prices as written, no info."""
    p = priced(unit(weapons=[ranged(range=3, terrain=AAA_DASH, terrain_b=placed)]))
    assert cost_at(p, "/weapons/0") == cost
    assert found(p) == []


@pytest.mark.parametrize("terrain", [None, {"air": "A", "land": "A", "sea": "B", "space": "A"},
                                     {"air": "S", "land": "S", "sea": "S", "space": "S"}])
def test_free_b_unsaid_where_it_does_not_matter_is_silent(terrain: dict | None) -> None:
    """Where every placement prices the same (nothing written; three A and one B; all raised to S),
    nothing is said."""
    p = priced(unit(weapons=[hundred_ranged(terrain=terrain)]))
    assert found(p) == []


def test_free_b_unsaid_with_one_grade_written_takes_the_cheaper_reading() -> None:
    """{sea: B} alone is 0 % with the B under 海, and −10 % with it under 空 (海 A→B, 空 left at its
    B): the cheaper, 90 UP, with 空 named."""
    p = priced(unit(weapons=[hundred_ranged(terrain={"sea": "B"})]))
    assert cost_at(p, "/weapons/0") == 90
    assert [(f.code, f.params["terrain_ja"]) for f in p.findings] == [("UP_TERRAIN_B_ASSUMED", "空")]


@pytest.mark.parametrize("weapon", [hundred_melee(terrain_b="sea"),
                                    hundred_ranged(attribute="beam", terrain_b="sea")])
def test_free_b_on_a_melee_or_beam_weapon_is_ignored_with_a_warning(weapon: dict) -> None:
    """Only a solid ranged weapon has a free B: on another it is a warning and changes nothing."""
    p = priced(unit(weapons=[weapon]))
    assert found(p) == [("UP_TERRAIN_B_NOT_RANGED", "/weapons/0/terrain_b")]
    assert p.findings[0].params == {"terrain_ja": "海", "terrain_en": "Sea"}
    assert cost_at(p, "/weapons/0") == 100 and p.complete


def test_free_b_on_an_unknown_terrain_is_malformed() -> None:
    """A free B on an unknown terrain is malformed and leaves the pricing incomplete."""
    p = priced(unit(weapons=[hundred_ranged(terrain_b="underground")]))
    assert found(p) == [("UP_ITEM_MALFORMED", "/weapons/0/terrain_b")]
    assert not p.complete


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

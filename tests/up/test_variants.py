"""撃ち分け: a variant costs 1/4, 1/3 or 1/2 of the larger of the two weapons' full costs.

The base 「本体」 costs 240: 格闘 射程1 (40) + 3D (80) + 命中+20 (90) + fixed +6 (30).
"""
from __future__ import annotations

import pytest

from converter.core.findings import Severity

from .conftest import cost_at, finding, found, melee, priced, ranged, unit

BASE = melee(name="本体", damage={"dice": 3, "fixed": 16}, accuracy=20)


def variant(**changes) -> dict:
    return {**BASE, "name": "派生", "variant_of": "本体", **changes}


def variant_cost(*weapons: dict) -> int:
    p = priced(unit(weapons=[BASE, *weapons]))
    assert cost_at(p, "/weapons/0") == 240
    return cost_at(p, "/weapons/1")


@pytest.mark.parametrize(("changes", "cost"), [
    ({"accuracy": 30}, 75),                                           # 1 place: 300 / 4
    ({"accuracy": 30, "range": 2}, 85),                               # 2 places: 340 / 4
    ({"accuracy": 30, "range": 2, "attribute": "beam"}, 113),         # 3 places: 340 / 3 = 113.3
    ({"accuracy": 30, "range": 2, "attribute": "beam", "guided": True}, 170),  # 4 places: 340 / 2
])
def test_fraction_by_changed_places(changes: dict, cost: int) -> None:
    """1–2 changed places 1/4, 3 places 1/3, 4 places 1/2 of the larger full cost."""
    p = priced(unit(weapons=[BASE, variant(**changes)]))
    assert cost_at(p, "/weapons/1") == cost
    assert found(p) == []


def test_the_larger_of_the_two_is_the_basis() -> None:
    """A cheaper variant (命中±0, full 150) still pays 1/4 of the base's 240 = 60."""
    assert variant_cost(variant(accuracy=0)) == 60


def test_toggling_morale_is_not_a_change() -> None:
    """Adding 気力制限 is not a changed place: 命中+30 and 強気 is one change, 1/4 of 240 = 60."""
    assert variant_cost(variant(accuracy=30, morale="confident")) == 60


def test_morale_toggle_alone_is_no_change() -> None:
    """A variant differing only in 気力制限 warns UP_VARIANT_NO_CHANGE."""
    p = priced(unit(weapons=[BASE, variant(morale="confident")]))
    assert found(p) == [("UP_VARIANT_NO_CHANGE", "/weapons/1/variant_of")]
    assert finding(p, "UP_VARIANT_NO_CHANGE").level is Severity.WARNING


def test_each_effect_added_is_a_change() -> None:
    """Two added effects and 命中+30: three places, 1/3 of max(300 × 1.4, 240) = 140."""
    p = priced(unit(weapons=[BASE, variant(accuracy=30, effects=[{"id": "snipe"},
                                                                  {"id": "barrier_pierce"}])]))
    assert cost_at(p, "/weapons/1") == 140


def test_all_map_changes_count_as_one() -> None:
    """MAP type, radius and 敵味方識別 all changed are one place (plus 命中: two, 1/4)."""
    base = ranged(name="砲", range=3, damage={"dice": 1, "fixed": 18}, map={"type": "self_centered"})
    var = {**base, "name": "砲・拡散", "variant_of": "砲", "accuracy": 10,
           "map": {"type": "target_point", "radius": 2, "friend_foe": True}}
    p = priced(unit(weapons=[base, var]))
    assert cost_at(p, "/weapons/0") == 200
    # variant full: (60 + 50 + 40 + 40) × (1 + 100 % + 30 %) = 190 × 2.3 = 437; 437 / 4 = 109.25
    assert cost_at(p, "/weapons/1") == 109


def test_fields_written_at_their_defaults_are_not_changes() -> None:
    """A variant spelling out defaults (P for 格闘, 命中 0, 誘導 no, 実体, 最小射程 1, 合体なし)
    only changes what it really changes: 命中+30 is one place, 1/4 of 300 = 75."""
    var = variant(accuracy=30, post_move=True, guided=False, attribute="solid", min_range=1,
                  combo="none", terrain=None, map=None, usage=None, effects=[])
    assert variant_cost(var) == 75
    assert priced(unit(weapons=[BASE, var])).value("/weapons/1/variant_changes") == 1


def test_usage_written_with_or_without_null_reduction_is_the_same() -> None:
    """A usage that differs only by an explicit null reduction is not a change: 命中 and 射程
    are two places, 1/4 of max(330, 230) = 82.5 → 83 (not 1/3)."""
    base = {**BASE, "usage": {"type": "ammo", "amount": 16}}
    var = {**base, "name": "派生", "variant_of": "本体", "accuracy": 30, "range": 2,
           "usage": {"type": "ammo", "amount": 16, "reduction": None}}
    p = priced(unit(weapons=[base, var]))
    assert cost_at(p, "/weapons/1") == 83


def test_effect_written_at_level_one_is_the_same() -> None:
    """An effect written as {"id", "level": 1} in one weapon and {"id"} in the other is unchanged."""
    base = {**BASE, "effects": [{"id": "move_down"}]}
    var = {**base, "name": "派生", "variant_of": "本体", "accuracy": 30, "range": 2,
           "effects": [{"id": "move_down", "level": 1, "always": False}]}
    p = priced(unit(weapons=[base, var]))
    assert cost_at(p, "/weapons/1") == 102  # 340 × 1.2 = 408; 408 / 4 = 102


def test_more_than_four_changes_is_priced_as_a_full_weapon() -> None:
    """Five changed places is UP_VARIANT_TOO_MANY_CHANGES (error); the variant pays its full cost."""
    var = variant(accuracy=30, range=2, attribute="beam", guided=True, combo="usable")
    p = priced(unit(weapons=[BASE, var]))
    assert found(p) == [("UP_VARIANT_TOO_MANY_CHANGES", "/weapons/1/variant_of")]
    assert cost_at(p, "/weapons/1") == 408  # 340 × 1.2


def test_missing_base_is_an_error() -> None:
    """variant_of naming no weapon is UP_VARIANT_BASE_MISSING; priced in full."""
    p = priced(unit(weapons=[variant(accuracy=30, variant_of="幻")]))
    assert found(p) == [("UP_VARIANT_BASE_MISSING", "/weapons/0/variant_of")]
    assert cost_at(p, "/weapons/0") == 300


def test_variant_of_itself_is_a_missing_base() -> None:
    """A weapon naming itself as its base is UP_VARIANT_BASE_MISSING."""
    p = priced(unit(weapons=[{**BASE, "variant_of": "本体"}]))
    assert found(p) == [("UP_VARIANT_BASE_MISSING", "/weapons/0/variant_of")]


def test_variant_of_a_variant_is_an_error() -> None:
    """Only the original and one derived weapon pair up: a chain is UP_VARIANT_CHAIN."""
    second = {**variant(accuracy=30, range=2), "name": "派生２", "variant_of": "派生"}
    p = priced(unit(weapons=[BASE, variant(accuracy=30), second]))
    assert found(p) == [("UP_VARIANT_CHAIN", "/weapons/2/variant_of")]
    assert cost_at(p, "/weapons/2") == 340


def test_a_second_variant_of_one_base_is_an_error() -> None:
    """「このルールを適用できるのは、元になった武器とそこから派生した武器の２つのみとなる」: a second
    variant of 本体 is UP_VARIANT_SECOND, an error naming the base and the first variant; each is
    still priced as a variant (300 × 1/4 = 75, 280 × 1/4 = 70) so the total stays comparable."""
    p = priced(unit(weapons=[BASE, variant(accuracy=30), {**variant(range=2), "name": "派生２"}]))
    assert cost_at(p, "/weapons/1") == 75
    assert cost_at(p, "/weapons/2") == 70  # 280 / 4
    assert found(p) == [("UP_VARIANT_SECOND", "/weapons/2/variant_of")]
    f = finding(p, "UP_VARIANT_SECOND")
    assert f.level is Severity.ERROR and f.params["base"] == "本体" and f.params["first"] == "派生"
    assert f.message() == ("「本体」の撃ち分けは「派生」に続いて２つ目です"
                         "（撃ち分けは元の武器とそこから派生した武器の２つのみ）")


def test_a_second_variant_may_be_relaxed_to_a_warning() -> None:
    """variants_per_base=warning: the GM allows it; the same finding, as a warning; a third too."""
    third = {**variant(range=3), "name": "派生３"}
    p = priced(unit(weapons=[BASE, variant(accuracy=30), {**variant(range=2), "name": "派生２"}, third]),
               variants_per_base="warning")
    assert found(p) == [("UP_VARIANT_SECOND", "/weapons/2/variant_of"),
                        ("UP_VARIANT_SECOND", "/weapons/3/variant_of")]
    assert {f.level for f in p.findings} == {Severity.WARNING}


def test_two_bases_each_with_one_variant_are_fine() -> None:
    """「あるユニットがこうした武器の組み合わせを複数持つことは可能」: two pairs, no finding."""
    other = {**BASE, "name": "別本体"}
    p = priced(unit(weapons=[BASE, variant(accuracy=30), other,
                             {**BASE, "name": "別派生", "variant_of": "別本体", "range": 2}]))
    assert found(p) == []
    assert cost_at(p, "/weapons/3") == 70


def test_dropping_post_move_is_a_change() -> None:
    """格闘 is P by default, so post_move false is a changed place: with 命中 and 射程 that makes
    three, 1/3 of max(340 × 0.7 = 238, 240) = 80."""
    p = priced(unit(weapons=[BASE, variant(accuracy=30, range=2, post_move=False)]))
    assert cost_at(p, "/weapons/1") == 80

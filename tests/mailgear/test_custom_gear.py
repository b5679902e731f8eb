"""専用機: a rank with ＋; exactly three different items of センサー〜キャパシティ, boosted +1 (センサー
〜カウンター), +5 (耐久, エネルギー) or +4 (キャパシティ) (seed 001, 専用機について)."""
from __future__ import annotations

import pytest

from converter.rules.mailgear import evaluate as price

from .conftest import BASE_STATS, codes, pilot

# Copied from the seed: 「センサー〜カウンターの場合は＋１。耐久力、エネルギーは＋５、キャパシティは＋４です」
SEED_BOOSTS = {"sensor": 1, "mobility": 1, "cr": 1, "sr": 1, "mr": 1, "lr": 1, "guard": 1,
               "counter": 1, "durability": 5, "energy": 5, "capacity": 4}


def custom(*boosts: str, **gear) -> dict:
    return pilot(gear={"rank": "B+", "boosts": list(boosts), **gear})


@pytest.mark.parametrize("stat", list(SEED_BOOSTS))
def test_each_eligible_item_gets_its_boost(stat: str) -> None:
    """Each of the eleven items is boosted by the seed's amount."""
    others = [s for s in SEED_BOOSTS if s != stat][:2]
    result = price(custom(stat, *others))
    assert codes(result) == set()
    assert result.value(f"/derived/stats/{stat}") == BASE_STATS[stat] + SEED_BOOSTS[stat]


@pytest.mark.parametrize("stat", ["output", "move", "speed"])
def test_items_outside_sensor_to_capacity_are_not_eligible(stat: str) -> None:
    """出力 and 移動力 lie outside センサー〜キャパシティ; unknown names are not items at all."""
    result = price(custom("sensor", "cr", stat))
    assert codes(result) == {("MG_CUSTOM_BOOST_INELIGIBLE", "/gear/boosts/2")}
    assert result.value("/derived/stats/move") == BASE_STATS["move"]


@pytest.mark.parametrize("count", [0, 1, 2, 4, 5])
def test_exactly_three_boosts(count: int) -> None:
    """Fewer or more than three boosts is MG_CUSTOM_BOOST_COUNT at the list."""
    boosts = list(SEED_BOOSTS)[:count]
    assert codes(price(custom(*boosts))) == {("MG_CUSTOM_BOOST_COUNT", "/gear/boosts")}


def test_four_boosts_apply_only_the_first_three() -> None:
    """With four listed, the fourth is not applied (the error stands)."""
    result = price(custom("sensor", "cr", "sr", "mr"))
    assert result.value("/derived/stats/mr") == BASE_STATS["mr"]
    assert result.value("/derived/stats/sr") == BASE_STATS["sr"] + 1


def test_the_same_item_twice() -> None:
    """「同じ項目を２度以上強化することはできません」: the repeat is named and counts once."""
    result = price(custom("energy", "energy", "sensor"))
    assert codes(result) == {("MG_CUSTOM_BOOST_DUPLICATE", "/gear/boosts/1")}
    assert result.value("/derived/stats/energy") == BASE_STATS["energy"] + 5


def test_boosts_on_a_gear_without_plus() -> None:
    """A rank without ＋ is not a 専用機: boosts there are an error and not applied."""
    result = price(pilot(gear={"rank": "B", "boosts": ["sensor", "cr", "sr"]}))
    assert codes(result) == {("MG_CUSTOM_BOOST_NOT_CUSTOM", "/gear/boosts")}
    assert result.value("/derived/stats/sensor") == BASE_STATS["sensor"]


def test_custom_flag_must_agree_with_the_rank() -> None:
    """custom: true with rank B (no ＋), or false with B+, is MG_CUSTOM_RANK_MISMATCH."""
    assert ("MG_CUSTOM_RANK_MISMATCH", "/gear/custom") in codes(
        price(pilot(gear={"rank": "B", "custom": True, "boosts": ["sensor", "cr", "sr"]})))
    assert codes(price(pilot(gear={"rank": "B+", "custom": False}))) == {
        ("MG_CUSTOM_RANK_MISMATCH", "/gear/custom")}


def test_the_custom_flag_reads_as_the_sheet_shows_it() -> None:
    """The mismatch says 専用機の指定（○）, never Python's True (issue 35.4); an empty rank (a legacy
    sheet's blank cell) is not compared: its missing rank is the error."""
    result = price(pilot(gear={"rank": "B", "custom": True, "boosts": ["sensor", "cr", "sr"]}))
    (f,) = [f for f in result.findings if f.code == "MG_CUSTOM_RANK_MISMATCH"]
    assert f.message("ja") == "専用機の指定（○）とランク「B」の＋が一致しません（専用機はランクに＋がつきます）"
    assert f.message("en").startswith("custom (yes) disagrees with rank 'B'")
    assert "True" not in f.message("ja") + f.message("en")
    blank = price(pilot(gear={"rank": "", "custom": True, "boosts": ["sensor", "cr", "sr"]}))
    assert "MG_CUSTOM_RANK_MISMATCH" not in {f.code for f in blank.findings}


def test_a_plus_rank_is_a_custom_gear_without_the_flag() -> None:
    """With no custom field, the ＋ decides: B+ with no boosts lacks its three."""
    assert codes(price(pilot(gear={"rank": "B+"}))) == {("MG_CUSTOM_BOOST_COUNT", "/gear/boosts")}

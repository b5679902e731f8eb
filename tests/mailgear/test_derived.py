"""The values the sheet shows, every skill applied, each from the seed's own formula."""
from __future__ import annotations

import pytest

from converter.rules.mailgear import evaluate as price

from .conftest import BASE_STATS, codes, pilot, skills, weapon

S = BASE_STATS


@pytest.mark.parametrize(("key", "skill", "level", "expected"), [
    # [移動力+韋駄天]
    ("move", "fleet_footed", 3, S["move"] + 3),
    # 自機の周囲[センサー＋第六感]へクス
    ("search_range", "sixth_sense", 2, S["sensor"] + 2),
    # タフガイ: レベル×10, 省エネ家: レベル×５, 限界突破: レベル×４
    ("durability", "tough_guy", 6, S["durability"] + 60),
    ("energy", "energy_saver", 5, S["energy"] + 25),
    ("capacity", "limit_breaker", 4, S["capacity"] + 16),
])
def test_values(key: str, skill: str, level: int, expected: int) -> None:
    """A value (not a roll): the gear stat plus level × the skill's amount."""
    assert price(pilot(skills=skills(**{skill: level}))).value(f"/derived/{key}") == expected


@pytest.mark.parametrize(("key", "skill", "stat"), [
    ("initiative", "speed_star", "mobility"),  # 「２ｄ＋機動力+スピード・スター」
    ("search", "sixth_sense", "sensor"),  # [２ｄ＋センサー＋第六感]
    ("hit_cr", "hot_blooded", "cr"),  # [２ｄ＋ＣＲ＋熱血]
    ("hit_sr", "infighter", "sr"),  # [２ｄ＋ＳＲ＋インファイター]
    ("hit_mr", "cool_and_cool", "mr"),  # [２ｄ＋ＭＲ＋クール＆クール]
    ("hit_lr", "one_shot_one_kill", "lr"),  # [２ｄ＋ＬＲ＋ワン・ショット・ワン・キル]
    ("damage", "wrecker", "output"),  # [２ｄ＋壊し屋＋出力＋武器の追加ダメージ]
    ("guard", "iron_wall", "guard"),  # [２ｄ＋受け＋鉄壁]
    ("counter", "glass_springer", "counter"),  # [２ｄ＋カウンター＋グラス・スプリンジャー]
])
def test_rolls(key: str, skill: str, stat: str) -> None:
    """A roll's bonus: the stat plus the skill (level 2 here), shown as text."""
    assert price(pilot()).value(f"/derived/{key}") == f"+{S[stat]}"
    assert price(pilot(skills=skills(**{skill: 2}))).value(f"/derived/{key}") == f"+{S[stat] + 2}"


def test_a_weapon_adds_its_extra_damage_and_shows_its_bands_hits() -> None:
    """Per weapon: damage = 出力 + 壊し屋 + 追加ダメージ; a hit bonus for each of its bands only."""
    result = price(pilot(skills=skills(wrecker=1, cool_and_cool=4),
                         equipment=[weapon("ライフル", ("sr", "mr"), extra_damage=3)]))
    assert result.value("/equipment/0/derived/damage") == f"+{S['output'] + 1 + 3}"
    assert result.value("/equipment/0/derived/hit_sr") == f"+{S['sr']}"
    assert result.value("/equipment/0/derived/hit_mr") == f"+1d+{S['mr']}"
    assert "/equipment/0/derived/hit_cr" not in result.derived


def test_gear_stats_are_shown_after_boosts() -> None:
    """The sheet's gear block shows the stats with 専用機 boosts, before skills."""
    result = price(pilot(gear={"rank": "C+", "boosts": ["sensor", "energy", "capacity"]},
                         skills=skills(sixth_sense=1)))
    assert result.value("/derived/stats/sensor") == S["sensor"] + 1
    assert result.value("/derived/stats/energy") == S["energy"] + 5
    assert result.value("/derived/stats/capacity") == S["capacity"] + 4
    assert result.value("/derived/search_range") == S["sensor"] + 1 + 1


def test_an_options_stat_effect_is_applied() -> None:
    """An option that raises a gear stat changes the values built on it."""
    result = price(pilot(equipment=[{"kind": "option", "name": "ブースター",
                                     "effects": [{"stat": "move", "amount": 1}]}]))
    assert result.value("/derived/move") == S["move"] + 1


def test_a_missing_stat_is_an_error_and_its_values_are_not_shown() -> None:
    """Without 出力, damage cannot be derived; the other values still are."""
    doc = pilot()
    del doc["gear"]["stats"]["output"]
    result = price(doc)
    assert codes(result) == {("MG_STAT_INVALID", "/gear/stats/output")}
    assert "/derived/damage" not in result.derived and "/derived/move" in result.derived
    assert result.complete is False


@pytest.mark.parametrize("written", ["+1d+2", "1D+2", "+１ｄ＋２", "3d6+2", "3D+2"])
def test_written_rolls_match_in_any_usual_notation(written: str) -> None:
    """A written roll matches as bonus or whole roll, in any width or case."""
    doc = pilot(skills=skills(hot_blooded=4), derived={"hit_cr": written})
    assert codes(price(doc)) == set()


def test_a_written_value_that_differs_is_warned() -> None:
    """移動 7 where the rules give 5 is MG_DERIVED_MISMATCH at its place; matching ones are not."""
    result = price(pilot(derived={"move": 7, "initiative": 3, "fortune": "2d6"},
                         equipment=[weapon(derived={"damage": "+9"})]))
    assert codes(result) == {("MG_DERIVED_MISMATCH", "/derived/move"),
                             ("MG_DERIVED_MISMATCH", "/equipment/0/derived/damage")}
    move = next(f for f in result.findings if f.pointer == "/derived/move")
    assert (move.params["declared"], move.params["computed"]) == (7, 5)


def test_written_skill_levels_are_compared_with_the_capped_ones() -> None:
    """A sheet that wrote 鉄壁 5 (4 + option) is told the rules give 4."""
    doc = pilot(skills=skills(iron_wall=4), derived={"skills": {"iron_wall": 5}},
                equipment=[{"kind": "option", "name": "Ａ．Ｇ．Ｓ",
                            "effects": [{"skill": "iron_wall", "levels": 1}]}])
    assert ("MG_DERIVED_MISMATCH", "/derived/skills/iron_wall") in codes(price(doc))

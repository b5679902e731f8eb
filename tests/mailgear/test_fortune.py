"""武運 (seed 001, ○武運の決定と使い方): 「武運の値は、[２ｄ＋ミラクル]によって決定し、ミッション開始時に
毎回決定し直します」. 武運決定 is a 判定: the seed excepts it by name where a rule is not for it
(トリック・スター 「判定（武運判定を除く）をやり直しさせる」, キャパシティ 「武運決定を除くあらゆる判定」),
so the roll rules apply to it:

- ミラクル 4 adds ＋１ｄ 「レベル４になると＋１ｄ（６面体ダイスをもう１つ加える）となります」: 3d6
  (option miracle_four=plus reads [２ｄ＋ミラクル] literally: 2d6+4);
- 天賦の才 「全ての判定にレベルの値を足すことができます」 adds its level to 武運 as to every roll
  (option natural_talent: rolls leaves 武運 out, separate leaves every roll).

Every figure is worked by hand from the test pilot (機動力 3, 出力 4; conftest.BASE_STATS)."""
from __future__ import annotations

import pytest

from converter.rules.mailgear import evaluate as price

from .conftest import pilot, skills


def fortune(options: dict | None = None, **levels: int) -> str:
    return price(pilot(skills=skills(**levels)), options).value("/derived/fortune")


def test_natural_talent_is_added_to_fortune() -> None:
    """天賦の才 2, ミラクル 1: 武運 = 2d6 + ミラクル 1 + 天賦の才 2 = 2d6+3; the other rolls as before:
    先行判定 機動力 3 + 2 = +5, ダメージ 出力 4 + 2 = +6; 検索範囲 is a value, not a roll: 4."""
    result = price(pilot(skills=skills(natural_talent=2, miracle=1)))
    assert result.value("/derived/fortune") == "2d6+3"
    assert result.value("/derived/initiative") == "+5"
    assert result.value("/derived/damage") == "+6"
    assert result.value("/derived/search_range") == 4


def test_natural_talent_alone_gives_fortune_a_bonus() -> None:
    """No ミラクル, 天賦の才 1: [２ｄ＋ミラクル] is 2d6, and 天賦の才 makes it 2d6+1."""
    assert fortune(natural_talent=1) == "2d6+1"


def test_miracle_4_is_a_die() -> None:
    """ミラクル 4: 2d6 + 1d = 3d6, the whole roll as a roller reads it."""
    result = price(pilot(skills=skills(miracle=4)))
    assert result.value("/derived/fortune") == "3d6"
    roll = result.derived["/derived/fortune"].roll
    assert (roll.dice, roll.sides, roll.fixed) == (3, 6, 0)


def test_miracle_4_and_natural_talent_3() -> None:
    """ミラクル 4 (＋１ｄ) and 天賦の才 3 (+3): 2d6 + 1d + 3 = 3d6+3."""
    result = price(pilot(skills=skills(miracle=4, natural_talent=3)))
    assert result.value("/derived/fortune") == "3d6+3"
    roll = result.derived["/derived/fortune"].roll
    assert (roll.dice, roll.fixed) == (3, 3)


@pytest.mark.parametrize(("options", "expected"), [
    ({}, "3d6+3"),                                                    # 2d6 + 1d + 3
    ({"miracle_four": "plus"}, "2d6+7"),                              # 2d6 + 4 + 3
    ({"natural_talent": "rolls"}, "3d6"),                             # 2d6 + 1d
    ({"natural_talent": "rolls", "miracle_four": "plus"}, "2d6+4"),   # 2d6 + 4
    ({"natural_talent": "separate"}, "3d6"),                          # 2d6 + 1d
    ({"natural_talent": "separate", "miracle_four": "plus"}, "2d6+4"),
    ({"natural_talent": "rolls_and_fortune"}, "3d6+3"),               # the default, named
])
def test_each_reading_of_fortune(options: dict, expected: str) -> None:
    """ミラクル 4, 天賦の才 3 under each reading of the two options."""
    assert fortune(options, miracle=4, natural_talent=3) == expected


@pytest.mark.parametrize(("reading", "initiative", "fortune_expr"), [
    ("rolls_and_fortune", "+5", "2d6+3"),  # 機動力 3 + 2; 2d6 + ミラクル 1 + 2
    ("rolls", "+5", "2d6+1"),              # 武運 without 天賦の才
    ("separate", "+3", "2d6+1"),           # no roll takes it
])
def test_natural_talent_readings_on_the_other_rolls(reading: str, initiative: str, fortune_expr: str) -> None:
    """天賦の才 2, ミラクル 1: only `separate` changes the rolls other than 武運."""
    result = price(pilot(skills=skills(natural_talent=2, miracle=1)), {"natural_talent": reading})
    assert result.value("/derived/initiative") == initiative
    assert result.value("/derived/fortune") == fortune_expr


def test_a_written_fortune_without_natural_talent_is_now_a_mismatch() -> None:
    """A sheet that wrote 武運 2d6+1 for ミラクル 1 and 天賦の才 2 (the old reading) is told 2d6+3."""
    doc = pilot(skills=skills(natural_talent=2, miracle=1), derived={"fortune": "2d6+1"})
    result = price(doc)
    found = [f for f in result.findings if f.code == "MG_DERIVED_MISMATCH"]
    assert [(f.pointer, f.params["computed"]) for f in found] == [("/derived/fortune", "2d6+3")]
    assert [f.code for f in price(doc, {"natural_talent": "rolls"}).findings
            if f.code == "MG_DERIVED_MISMATCH"] == []

"""Skill levels as roll bonuses: 1–3 add their value, level 4 adds ＋１ｄ (seed 001, スキルの説明:
「レベル４になると＋１ｄ（６面体ダイスをもう１つ加える）となります。注意してください」)."""
from __future__ import annotations

import pytest

from converter.rules.mailgear import evaluate as price, roll_bonus, roll_expression, skill_bonus

from .conftest import pilot, skills


@pytest.mark.parametrize(("level", "text"), [(1, "+1"), (2, "+2"), (3, "+3"), (4, "+1d")])
def test_a_skill_level_as_a_roll_bonus(level: int, text: str) -> None:
    """Levels 1–3 read +1..+3; level 4 reads +1d."""
    assert skill_bonus(level) == text


def test_each_skills_bonus_is_shown() -> None:
    """The sheet shows every skill's roll bonus beside its level."""
    result = price(pilot(skills=skills(support=4, trickster=3)))
    assert result.value("/derived/skill_bonuses/support") == "+1d"
    assert result.value("/derived/skill_bonuses/trickster") == "+3"


@pytest.mark.parametrize(("dice", "fixed", "bonus", "expression"), [
    (0, 5, "+5", "2d6+5"), (1, 3, "+1d+3", "3d6+3"), (1, 0, "+1d", "3d6"), (0, 0, "+0", "2d6"),
    (0, -2, "-2", "2d6-2"),
])
def test_bonus_and_whole_roll_text(dice: int, fixed: int, bonus: str, expression: str) -> None:
    """A bonus is what is added to 2d; the whole roll is the seed's 2d or 3d (「３ｄ（スキルによって）」)."""
    assert roll_bonus(dice, fixed) == bonus
    assert roll_expression(dice, fixed) == expression


def test_level_4_adds_a_die_to_a_roll() -> None:
    """熱血 4 on CR 2: the CR hit roll is +1d+2, not +6."""
    result = price(pilot(skills=skills(hot_blooded=4)))
    assert result.value("/derived/hit_cr") == "+1d+2"


def test_level_4_adds_4_to_a_value_that_is_not_a_roll() -> None:
    """第六感 4: 検索範囲 (hexes, not a roll) gains 4, the 検索 roll gains +1d."""
    result = price(pilot(skills=skills(sixth_sense=4)))
    assert result.value("/derived/search_range") == 4 + 4
    assert result.value("/derived/search") == "+1d+4"


def test_fortune_is_an_expression_with_miracle() -> None:
    """武運 is [２ｄ＋ミラクル], stored as the expression, rolled at each mission."""
    assert price(pilot()).value("/derived/fortune") == "2d6"
    assert price(pilot(skills=skills(miracle=3))).value("/derived/fortune") == "2d6+3"


def test_natural_talent_kept_separate_by_option() -> None:
    """Option natural_talent=separate leaves it out of the shown rolls (武運 too)."""
    result = price(pilot(skills=skills(natural_talent=2)), {"natural_talent": "separate"})
    assert result.value("/derived/initiative") == "+3"
    assert result.value("/derived/fortune") == "2d6"
    assert result.value("/derived/skill_bonuses/natural_talent") == "+2"

"""■技能: from 0, each level costs twice the new level; at most 8; names matched loosely;
names outside the seed's list accepted with an info finding."""
from __future__ import annotations

import pytest

from converter.core.findings import Severity
from converter.rules.pp.engine import skill_cost

from .conftest import (SEED_SKILL_MEANINGS, SEED_SKILLS, character, codes, cost_at, finding,
                       found, has_line, priced, skill)


@pytest.mark.parametrize("level", range(0, 9))
def test_cost_of_each_level(level: int) -> None:
    """A skill at level L costs 2+4+…+2L = L(L+1) PP."""
    pricing = priced(character(skills=[skill("操縦", level)], budget=200))
    assert pricing.total == level * (level + 1) == skill_cost(level)
    assert has_line(pricing, "/skills/0/level") == (level > 0)


def test_breakdown_names_the_rule() -> None:
    """The line shows 〈label〉 0→L with its meaning and the doubled terms."""
    line = priced(character(skills=[skill("知覚", 3)])).lines[0]
    assert line.item == "〈知覚〉0→3（腕に覚えアリ）"
    assert line.rule == "新しいレベル×2: 2+4+6"


@pytest.mark.parametrize("level", range(1, 9))
def test_meaning_shown(level: int) -> None:
    """The seed's meaning of each skill level is shown beside it."""
    pricing = priced(character(skills=[skill("隠密", level)], budget=200))
    assert pricing.value("/derived/skills/0/meaning") == SEED_SKILL_MEANINGS[level - 1]


def test_nine_is_an_error_but_still_priced() -> None:
    """Level 9 is above the table's 8: an error at the level; the total counts 90."""
    pricing = priced(character(skills=[skill("操縦", 9)], budget=200))
    f = finding(pricing, "PP_SKILL_MAX")
    assert f.level is Severity.ERROR and f.pointer == "/skills/0/level"
    assert pricing.total == 90


def test_negative_level_is_an_error() -> None:
    """A level below 0 is reported and not priced."""
    pricing = priced(character(skills=[skill("操縦", -1)]))
    assert found(pricing) == [("PP_SKILL_BELOW_ZERO", "/skills/0/level")]
    assert not pricing.complete


def test_level_not_a_whole_number() -> None:
    """A level that is not a whole number is reported at the level."""
    pricing = priced(character(skills=[{"name": "操縦", "level": "2"}]))
    assert finding(pricing, "PP_VALUE_NOT_INTEGER").pointer == "/skills/0/level"


@pytest.mark.parametrize("name", SEED_SKILLS)
def test_seed_skills_are_known(name: str) -> None:
    """The eight skills the seed names raise no finding."""
    assert found(priced(character(skills=[skill(name, 1)]))) == []


@pytest.mark.parametrize("spelling", ["知識/戦術", "〈知識／戦術〉", "＜知識/戦術＞", "知識・戦術",
                                      " 知識／戦術 "])
def test_spellings_of_one_skill(spelling: str) -> None:
    """Half-width slash, brackets and spaces name the same skill, id tactics."""
    pricing = priced(character(skills=[skill(spelling, 2)]))
    assert "PP_SKILL_UNKNOWN" not in codes(pricing)
    assert pricing.value("/derived/skills/0/id") == "tactics"
    assert pricing.value("/derived/skills/0/label") == "知識／戦術"


def test_unknown_skill_is_info_and_priced() -> None:
    """A name outside every list is accepted with an info finding and priced as usual."""
    pricing = priced(character(skills=[skill("料理", 2)]))
    f = finding(pricing, "PP_SKILL_UNKNOWN")
    assert f.level is Severity.INFO and f.pointer == "/skills/0/name"
    assert cost_at(pricing, "/skills/0/level") == 6
    assert pricing.value("/derived/skills/0/id") is None


def test_unknown_skill_rejected_by_option() -> None:
    """unknown_skills=reject turns the same finding into an error."""
    pricing = priced(character(skills=[skill("料理", 2)]), unknown_skills="reject")
    assert finding(pricing, "PP_SKILL_UNKNOWN").level is Severity.ERROR


def test_duplicate_skill_is_an_error() -> None:
    """The same skill twice (however spelled) is an error at the second."""
    pricing = priced(character(skills=[skill("知識／戦術", 1), skill("知識/戦術", 2)]))
    assert found(pricing) == [("PP_SKILL_DUPLICATE", "/skills/1/name")]


def test_pool_and_bonus_as_the_sheet_shows_them() -> None:
    """A skill's roll: its attribute's value in d10, the level added to each die."""
    pricing = priced(character(attributes={"sense": 4}, skills=[skill("知覚", 2)]))
    d = {k: x.value for k, x in pricing.derived.items()}
    assert (d["/derived/skills/0/attribute"], d["/derived/skills/0/dice"],
            d["/derived/skills/0/bonus"], d["/derived/skills/0/pool"]) == ("sense", 4, 2, "4D10（各+2）")


def test_seed_pairings() -> None:
    """The seed pairs 【感覚】＋〈知覚〉 and 【肉体】＋〈運動〉."""
    pricing = priced(character(skills=[skill("知覚", 1), skill("運動", 1)]))
    assert pricing.value("/derived/skills/0/attribute") == "sense"
    assert pricing.value("/derived/skills/1/attribute") == "body"


def test_sheet_chooses_the_attribute() -> None:
    """A skill entry may name the attribute its roll uses (id or Japanese label)."""
    pricing = priced(character(attributes={"mind": 5},
                               skills=[skill("操縦", 1, attribute="精神")]))
    assert pricing.value("/derived/skills/0/dice") == 5


def test_unknown_attribute_is_an_error() -> None:
    """An attribute that does not exist is an error at the skill's attribute."""
    pricing = priced(character(skills=[skill("操縦", 1, attribute="luck")]))
    assert finding(pricing, "PP_SKILL_ATTRIBUTE").pointer == "/skills/0/attribute"


def test_unknown_skill_has_no_dice() -> None:
    """A skill no list pairs with an attribute shows the bonus with unknown dice."""
    pricing = priced(character(skills=[skill("料理", 1)]))
    assert pricing.value("/derived/skills/0/pool") == "?D10（各+1）"


def test_level_zero_costs_nothing() -> None:
    """A skill written at level 0 is not taken: no line, bonus 0."""
    pricing = priced(character(skills=[skill("操縦", 0)]))
    assert pricing.total == 0 and pricing.value("/derived/skills/0/pool") == "1D10"

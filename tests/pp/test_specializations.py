"""＊技能の専門化: a sub-category raised above its skill's level, each new level at its own value
(half a whole skill's price)."""
from __future__ import annotations

import pytest

from converter.core.findings import Severity
from converter.rules.pp.engine import specialization_cost

from .conftest import (DIRECT_FIRE_SUBCATEGORIES, character, codes, cost_at, finding, found,
                       has_line, priced, skill)


@pytest.mark.parametrize("skill_level,spec_level,expected", [
    (0, 1, 1), (0, 3, 6), (2, 3, 3), (2, 4, 7), (3, 5, 9), (7, 8, 8), (0, 8, 36)])
def test_cost_counts_from_the_skill_level(skill_level: int, spec_level: int, expected: int) -> None:
    """A sub-category from the skill's level L to S costs (L+1)+…+S."""
    doc = character(skills=[skill("直接砲撃", skill_level, ("ビーム兵器", spec_level))], budget=200)
    pricing = priced(doc)
    assert cost_at(pricing, "/skills/0/specializations/0/level") == expected
    assert specialization_cost(spec_level, skill_level) == expected


def test_half_the_price_of_the_whole_skill() -> None:
    """Raising one sub-category 2→4 costs half of raising the whole skill 2→4."""
    whole = priced(character(skills=[skill("直接砲撃", 4)])).total - \
        priced(character(skills=[skill("直接砲撃", 2)])).total
    spec = cost_at(priced(character(skills=[skill("直接砲撃", 2, ("実弾兵器", 4))])),
                   "/skills/0/specializations/0/level")
    assert 2 * spec == whole == 14


def test_breakdown_names_skill_and_subcategory() -> None:
    """The line reads 〈skill〉（sub-category）L→S with the terms added."""
    pricing = priced(character(skills=[skill("直接砲撃", 3, ("ビーム兵器", 5))]))
    line = next(x for x in pricing.lines if x.pointer.endswith("specializations/0/level"))
    assert line.item == "〈直接砲撃〉（ビーム兵器）3→5"
    assert line.rule == "新しいレベルごと: 4+5"


@pytest.mark.parametrize("name", DIRECT_FIRE_SUBCATEGORIES)
def test_seed_subcategories_are_known(name: str) -> None:
    """The four sub-categories the seed gives for 〈直接砲撃〉 raise no finding."""
    assert found(priced(character(skills=[skill("直接砲撃", 1, (name, 2))]))) == []


def test_pool_uses_the_subcategory_level() -> None:
    """A specialized roll adds the sub-category's level to each die."""
    pricing = priced(character(attributes={"sense": 4},
                               skills=[skill("直接砲撃", 2, ("ビーム兵器", 4))]))
    assert pricing.value("/derived/skills/0/specializations/0/pool") == "4D10（各+4）"
    assert pricing.value("/derived/skills/0/specializations/0/id") == "beam"


def test_not_above_the_skill_is_a_warning_and_free() -> None:
    """A sub-category at or below its skill's level buys nothing: a warning, no line."""
    pricing = priced(character(skills=[skill("直接砲撃", 3, ("ビーム兵器", 3))]))
    f = finding(pricing, "PP_SPECIALIZATION_NOT_ABOVE")
    assert f.level is Severity.WARNING
    assert f.pointer == "/skills/0/specializations/0/level"
    assert not has_line(pricing, "/skills/0/specializations/0/level")


def test_above_eight_is_an_error() -> None:
    """A sub-category is a skill level: 9 is above the table."""
    pricing = priced(character(skills=[skill("直接砲撃", 8, ("ビーム兵器", 9))], budget=200))
    assert finding(pricing, "PP_SPECIALIZATION_MAX").pointer == "/skills/0/specializations/0/level"


def test_unknown_subcategory_is_info() -> None:
    """A sub-category the lists do not give is accepted with an info finding and priced."""
    pricing = priced(character(skills=[skill("操縦", 1, ("航空機", 3))]))
    f = finding(pricing, "PP_SPECIALIZATION_UNKNOWN")
    assert f.level is Severity.INFO and f.pointer == "/skills/0/specializations/0/name"
    assert cost_at(pricing, "/skills/0/specializations/0/level") == 5


def test_unknown_subcategory_rejected_by_option() -> None:
    """unknown_skills=reject applies to sub-categories too."""
    pricing = priced(character(skills=[skill("操縦", 1, ("航空機", 3))]), unknown_skills="reject")
    assert finding(pricing, "PP_SPECIALIZATION_UNKNOWN").level is Severity.ERROR


def test_unknown_skill_does_not_repeat_for_its_subcategories() -> None:
    """An unknown skill's sub-categories add no second info finding."""
    pricing = priced(character(skills=[skill("料理", 1, ("和食", 2), attribute="mind")]))
    assert codes(pricing) == {"PP_SKILL_UNKNOWN"}


def test_duplicate_subcategory_is_an_error() -> None:
    """The same sub-category twice in one skill is an error at the second."""
    pricing = priced(character(skills=[skill("直接砲撃", 1, ("ビーム兵器", 2), ("ビーム兵器", 3))]))
    assert found(pricing) == [("PP_SPECIALIZATION_DUPLICATE", "/skills/0/specializations/1/name")]


def test_several_subcategories_by_default() -> None:
    """Under the default reading each sub-category is bought on its own."""
    doc = character(skills=[skill("直接砲撃", 2, ("ビーム兵器", 4), ("実弾兵器", 3))])
    pricing = priced(doc)
    assert found(pricing) == []
    assert pricing.total == 6 + 7 + 3


def test_one_per_skill_by_option() -> None:
    """specializations_per_skill=one makes a second bought sub-category an error."""
    doc = character(skills=[skill("直接砲撃", 2, ("ビーム兵器", 4), ("実弾兵器", 3))])
    pricing = priced(doc, specializations_per_skill="one")
    assert found(pricing) == [("PP_SPECIALIZATION_SECOND", "/skills/0/specializations/1")]

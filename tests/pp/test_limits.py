"""Every limit of seed 003 tested at it, on the side it allows and one step past it: the finding
comes exactly past the limit, never at it; and the malformed entries a sheet may hold where a
skill's sub-categories go, skipped without a crash.

「能力値」 0 to 12 (「１２：１００年に一度の天才」), start 1 (「すべての能力値が１として扱われる」);
技能 0 to 8 (「８：伝説の達人」); a sub-category above its skill's level; コンバット・ブースト from 3
(「初期値は一律で３」); the 総ＰＰ.
"""
from __future__ import annotations

from typing import Any

import pytest

from converter.rules.pp.engine import price_character

from ..pricing_helpers import Limit, check_limit
from .conftest import character, cost_at, has_line, machine, skill, weapon

ATTRIBUTES = ("body", "reflex", "sense", "mind", "social")

LIMITS: list[Limit] = [
    ("attribute max", lambda v: character(attributes={"mind": v}), "PP_ATTRIBUTE_MAX", "/attributes/mind",
     [11, 12], [13], {}),
    ("attribute zero", lambda v: character(attributes={"mind": v}), "PP_ATTRIBUTE_ZERO", "/attributes/mind",
     [1, 2], [0], {}),
    ("attribute minimum", lambda v: character(attributes={"mind": v}), "PP_ATTRIBUTE_BELOW_MINIMUM",
     "/attributes/mind", [0, 1], [-1], {}),
    ("skill max", lambda v: character(skills=[skill("知覚", v)]), "PP_SKILL_MAX", "/skills/0/level", [7, 8], [9], {}),
    ("skill zero", lambda v: character(skills=[skill("知覚", v)]), "PP_SKILL_BELOW_ZERO", "/skills/0/level",
     [0, 1], [-1], {}),
    ("specialization max", lambda v: character(skills=[skill("直接砲撃", 1, ("ビーム兵器", v))]),
     "PP_SPECIALIZATION_MAX", "/skills/0/specializations/0/level", [7, 8], [9], {}),
    # A sub-category must go above the skill's own level (3): 4 is bought, 3 is not.
    ("specialization above", lambda v: character(skills=[skill("直接砲撃", 3, ("ビーム兵器", v))]),
     "PP_SPECIALIZATION_NOT_ABOVE", "/skills/0/specializations/0/level", [4, 5], [3, 2], {}),
    ("specializations per skill", lambda n: character(skills=[skill("直接砲撃", 1, *[(s, 2) for s in
                                                                                  ("ビーム兵器", "実弾兵器")[:n]])]),
     "PP_SPECIALIZATION_SECOND", "/skills/0/specializations/1", [1], [2], {"specializations_per_skill": "one"}),
    ("combat boost start", lambda v: character(combat_boost=v), "PP_COMBAT_BOOST_BELOW_START", "/combat_boost",
     [3, 4], [2], {}),
    ("combat boost growth", lambda v: character(combat_boost=v), "PP_COMBAT_BOOST_RAISED", "/combat_boost",
     [3], [4], {"combat_boost_raise": "gm_growth"}),
    # Every attribute 1, 知覚 2: 2 + 4 = 6 PP.
    ("over budget", lambda b: character(budget=b, skills=[skill("知覚", 2)]), "PP_OVER_BUDGET", "/budget",
     [6, 7], [5], {}),
    ("under budget", lambda b: character(budget=b, skills=[skill("知覚", 2)]), "PP_UNDER_BUDGET", "/budget",
     [5, 6], [7], {}),
    ("machine minimum", lambda v: character(machine=machine(speed=v)), "PP_MACHINE_MINIMUM", "/machine/speed",
     [0, 1], [-1], {}),
    ("weapon minimum", lambda v: character(machine=machine(weapons=[weapon(penetration=v)])), "PP_MACHINE_MINIMUM",
     "/machine/weapons/0/penetration", [0], [-1], {}),
]


def _codes(doc: dict, options: dict) -> list[tuple[str, str]]:
    return [(f.code, f.pointer) for f in price_character(doc, options).findings]


@pytest.mark.parametrize("limit", LIMITS, ids=[x[0] for x in LIMITS])
def test_limit(limit: Limit) -> None:
    """At a pp limit and on its allowed side there is no finding; past it exactly one."""
    check_limit(limit, _codes)


def test_the_budget_spent_exactly_has_no_note() -> None:
    """6 PP of 6: neither over nor under."""
    assert _codes(character(budget=6, skills=[skill("知覚", 2)]), {}) == []


@pytest.mark.parametrize(("value", "cost"), [(12, 77), (11, 65), (0, -1)])
def test_attribute_price_at_its_ends(value: int, cost: int) -> None:
    """2 + 3 + … + 12 = 77; 2 + … + 11 = 65; 1→0 refunds 1."""
    assert cost_at(price_character(character(attributes={"mind": value})), "/attributes/mind") == cost


def test_skill_at_eight_costs_every_level_twice() -> None:
    """2 × (1 + … + 8) = 72, with no finding."""
    p = price_character(character(skills=[skill("知覚", 8)], budget=72))
    assert cost_at(p, "/skills/0/level") == 72 and p.findings == []


def test_specialization_at_eight_over_a_skill_at_seven() -> None:
    """A sub-category 7→8 costs the new level, 8, with no finding."""
    p = price_character(character(skills=[skill("直接砲撃", 7, ("ビーム兵器", 8))], budget=64))
    assert cost_at(p, "/skills/0/specializations/0/level") == 8
    assert p.findings == []


# --- malformed sub-categories ----------------------------------------------------------------------

@pytest.mark.parametrize("entry", ["ビーム兵器", 5, None, ["ビーム兵器", 5], {"level": 5}, {"name": 5, "level": 5}])
def test_a_subcategory_that_is_not_a_named_entry_is_skipped(entry: Any) -> None:
    """Where {name, level} goes, anything else (a bare name, a number, a list, no name) is left to
    the schema: not priced, not derived, the total partial; the next entry still counts."""
    doc = character(skills=[{"name": "直接砲撃", "level": 3,
                             "specializations": [entry, {"name": "実弾兵器", "level": 4}]}])
    p = price_character(doc)
    assert p.unevaluated == ["/skills/0/specializations/0"]
    assert not has_line(p, "/skills/0/specializations/0/level")
    assert "/derived/skills/0/specializations/0/bonus" not in p.derived
    assert cost_at(p, "/skills/0/specializations/1/level") == 4
    assert [f.code for f in p.findings] == ["PP_UNDER_BUDGET"]


@pytest.mark.parametrize("level", ["高い", None, 2.5, [4]])
def test_a_subcategory_level_that_is_not_whole_is_an_error(level: Any) -> None:
    """PP_VALUE_NOT_INTEGER at the level; the sub-category is not priced, the total partial."""
    p = price_character(character(skills=[skill("直接砲撃", 3, ("ビーム兵器", level))]))
    assert [(f.code, f.pointer) for f in p.findings if f.code != "PP_UNDER_BUDGET"] == [
        ("PP_VALUE_NOT_INTEGER", "/skills/0/specializations/0/level")]
    assert p.unevaluated == ["/skills/0/specializations/0/level"]


def test_specializations_not_a_list_are_left_to_the_schema() -> None:
    """A sub-category list written as one text: nothing is priced for it and nothing crashes."""
    p = price_character(character(skills=[{"name": "直接砲撃", "level": 3, "specializations": "ビーム兵器"}]))
    assert [x.pointer for x in p.lines] == ["/skills/0/level"]


@pytest.mark.parametrize(("written", "shown"), [
    ("x" * 38, '"' + "x" * 38 + '"'),              # 40 characters as JSON: shown whole
    ("x" * 39, '"' + "x" * 36 + "..."),            # 41: cut to 37 and marked
])
def test_a_long_value_is_shown_whole_up_to_40_characters(written: str, shown: str) -> None:
    """A malformed value is shown whole up to 40 characters, past that cut and marked with ..."""
    p = price_character(character(machine=machine(speed=written)))
    assert [f.params["value"] for f in p.findings if f.code == "PP_MACHINE_TYPE"] == [shown]


@pytest.mark.parametrize(("weight", "shown"), [(0, "0+1D10"), (0.5, "1+1D10"), (-1, None)])
def test_explosion_penetration_from_weight_0(weight: float, shown: str | None) -> None:
    """「機体重量（トン数、端数切り上げ）＋１Ｄ１０」: from 0 t up, rounded up; a negative weight (an
    error of its own) shows nothing."""
    p = price_character(character(machine=machine(weight=weight)))
    assert p.value("/derived/machine/explosion_penetration") == shown


def test_a_group_spelling_of_a_seed_skill() -> None:
    """A group's list may add a spelling to a seed skill: ドライブ is then 〈操縦〉, known."""
    p = price_character(character(skill_list=[{"name": "操縦", "synonyms": ["ドライブ"]}],
                                  skills=[skill("ドライブ", 2)]))
    assert [f.code for f in p.findings] == ["PP_UNDER_BUDGET"]
    assert p.value("/derived/skills/0/id") == "piloting"

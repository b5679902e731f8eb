"""■コンバット・ブースト: everyone starts at 3; each point more costs 5 PP."""
from __future__ import annotations

import pytest

from converter.core.findings import Severity
from converter.rules.pp.engine import combat_boost_cost

from .conftest import character, cost_at, finding, found, has_line, priced


@pytest.mark.parametrize("value,expected", [(3, 0), (4, 5), (5, 10), (8, 25)])
def test_cost(value: int, expected: int) -> None:
    """CB v costs (v − 3) × 5 PP."""
    pricing = priced(character(combat_boost=value))
    assert pricing.total == expected == combat_boost_cost(value)
    assert pricing.value("/derived/combat_boost") == value


def test_breakdown_line() -> None:
    """The line shows 3→v and the points × 5."""
    pricing = priced(character(combat_boost=5))
    line = pricing.lines[0]
    assert (line.pointer, line.item, line.rule, line.cost) == (
        "/combat_boost", "コンバット・ブースト 3→5", "+2 × 5", 10)


def test_absent_means_three() -> None:
    """A sheet without a combat boost has the start value 3."""
    doc = character()
    del doc["combat_boost"]
    pricing = priced(doc)
    assert pricing.value("/derived/combat_boost") == 3 and pricing.total == 0


@pytest.mark.parametrize("value", [2, 0])
def test_below_three_is_an_error(value: int) -> None:
    """Below the start value is not in the rules: an error, and no PP come back."""
    pricing = priced(character(combat_boost=value))
    f = finding(pricing, "PP_COMBAT_BOOST_BELOW_START")
    assert f.level is Severity.ERROR and f.pointer == "/combat_boost"
    assert pricing.total == 0 and not has_line(pricing, "/combat_boost")


def test_not_a_whole_number() -> None:
    """A combat boost that is not a whole number is reported and not priced."""
    pricing = priced(character(combat_boost="4"))
    assert found(pricing) == [("PP_VALUE_NOT_INTEGER", "/combat_boost")]


def test_gm_growth_option_warns() -> None:
    """combat_boost_raise=gm_growth: raising it at creation warns (the GM must allow growth)."""
    pricing = priced(character(combat_boost=4), combat_boost_raise="gm_growth")
    assert finding(pricing, "PP_COMBAT_BOOST_RAISED").level is Severity.WARNING
    assert cost_at(pricing, "/combat_boost") == 5


def test_gm_growth_option_quiet_at_three() -> None:
    """The gm_growth reading says nothing about a combat boost left at 3."""
    assert found(priced(character(), combat_boost_raise="gm_growth")) == []

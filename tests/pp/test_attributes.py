"""■能力値: from 1, each point costs the new value; 1→0 refunds 1 with a warning; at most 12."""
from __future__ import annotations

import pytest

from converter.core.findings import Severity
from converter.rules.pp.engine import attribute_cost

from .conftest import (SEED_ATTRIBUTE_MEANINGS, character, codes, cost_at, finding, has_line,
                       priced)

# PP for one attribute at each value, worked by hand: 1 is free, v costs 2+3+…+v.
HAND_COSTS = {0: -1, 1: 0, 2: 2, 3: 5, 4: 9, 5: 14, 6: 20, 7: 27, 8: 35, 9: 44, 10: 54, 11: 65,
              12: 77}
ATTRIBUTES = ["body", "reflex", "sense", "mind", "social"]


@pytest.mark.parametrize("value", range(0, 13))
def test_cost_of_each_value(value: int) -> None:
    """An attribute at 0..12 costs 2+3+…+v PP (0 refunds 1); the breakdown line says so."""
    pricing = priced(character(attributes={"body": value}, budget=200))
    assert pricing.total == HAND_COSTS[value]
    assert attribute_cost(value) == HAND_COSTS[value]
    if value == 1:
        assert not has_line(pricing, "/attributes/body")
    else:
        assert cost_at(pricing, "/attributes/body") == HAND_COSTS[value]


@pytest.mark.parametrize("attribute", ATTRIBUTES)
def test_every_attribute_priced_alike(attribute: str) -> None:
    """All five attributes follow the same ladder (肉体 反応 感覚 精神 社会)."""
    pricing = priced(character(attributes={attribute: 4}))
    assert cost_at(pricing, f"/attributes/{attribute}") == 9


def test_breakdown_names_the_rule() -> None:
    """The line shows label, start→value with its meaning, and the terms added."""
    line = priced(character(attributes={"reflex": 4})).lines[0]
    assert line.item == "【反応】1→4（やや得意）"
    assert line.rule == "新しい値ごと: 2+3+4"


@pytest.mark.parametrize("value", range(0, 13))
def test_meaning_shown_beside_value(value: int) -> None:
    """The seed's meaning of each value is a derived value beside it."""
    pricing = priced(character(attributes={"sense": value}, budget=200))
    assert pricing.value("/derived/attributes/sense/meaning") == SEED_ATTRIBUTE_MEANINGS[value]


def test_dice_pool_equals_value() -> None:
    """An attribute's roll is as many d10 as its value (Ⅱ. 行為判定②)."""
    pricing = priced(character(attributes={"mind": 5}))
    assert pricing.value("/derived/attributes/mind/dice") == 5
    assert pricing.value("/derived/attributes/body/dice") == 1


def test_zero_refunds_one_with_warning() -> None:
    """1→0 refunds 1 PP and warns (日常生活に支障)."""
    pricing = priced(character(attributes={"social": 0}))
    assert cost_at(pricing, "/attributes/social") == -1
    f = finding(pricing, "PP_ATTRIBUTE_ZERO")
    assert f.level is Severity.WARNING and f.pointer == "/attributes/social"
    assert not codes(pricing, Severity.ERROR)


def test_zero_forbidden_by_option() -> None:
    """attribute_zero=forbid makes the same finding an error; the refund is still counted."""
    pricing = priced(character(attributes={"social": 0}), attribute_zero="forbid")
    assert finding(pricing, "PP_ATTRIBUTE_ZERO").level is Severity.ERROR
    assert pricing.total == -1


def test_thirteen_is_an_error_but_still_priced() -> None:
    """13 is above the table's 12: an error at the attribute; the total still counts 2+…+13."""
    pricing = priced(character(attributes={"body": 13}, budget=200))
    f = finding(pricing, "PP_ATTRIBUTE_MAX")
    assert f.level is Severity.ERROR and f.pointer == "/attributes/body"
    assert pricing.total == 90
    assert pricing.value("/derived/attributes/body/meaning") is None


def test_negative_is_an_error_and_not_priced() -> None:
    """Below 0 is no value at all: an error, no line, the total marked partial."""
    pricing = priced(character(attributes={"body": -1}))
    assert codes(pricing, Severity.ERROR) == {"PP_ATTRIBUTE_BELOW_MINIMUM"}
    assert not has_line(pricing, "/attributes/body")
    assert not pricing.complete


@pytest.mark.parametrize("bad", ["3", 2.5, True, None])
def test_not_a_whole_number(bad: object) -> None:
    """A value that is not a whole number is reported at its pointer and not priced."""
    pricing = priced(character(attributes={"reflex": bad}))
    assert finding(pricing, "PP_VALUE_NOT_INTEGER").pointer == "/attributes/reflex"
    assert not pricing.complete


def test_missing_attribute_counts_as_start() -> None:
    """An attribute the document leaves out is taken at its start value 1 (the schema reports it)."""
    doc = character()
    del doc["attributes"]["mind"]
    pricing = priced(doc)
    assert pricing.total == 0 and pricing.value("/derived/attributes/mind/dice") == 1

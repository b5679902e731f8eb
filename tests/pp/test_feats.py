"""■特技（選択ルール）: 5 PP each; the seed lists none, so any name goes."""
from __future__ import annotations

from converter.core.findings import Severity

from .conftest import character, cost_at, finding, found, priced


def test_each_feat_costs_five() -> None:
    """Every feat is a line of 5 PP at its own pointer."""
    pricing = priced(character(feats=[{"name": "精密射撃"}, {"name": "エース", "notes": "卓"}]))
    assert cost_at(pricing, "/feats/0") == cost_at(pricing, "/feats/1") == 5
    assert pricing.total == 10
    assert pricing.lines[0].item == "特技「精密射撃」"


def test_no_feats_cost_nothing() -> None:
    """An empty or absent feat list costs nothing."""
    assert priced(character(feats=[])).total == 0
    assert priced(character()).total == 0


def test_not_in_use_by_option() -> None:
    """feats=unused (「ＧＭやプレイヤーがゲームに慣れていない場合、使用しなくてもよい」): the feats
    listed are a warning at /feats, and cost nothing (issue 16.9)."""
    pricing = priced(character(feats=[{"name": "精密射撃"}, {"name": "エース"}]), feats="unused")
    f = finding(pricing, "PP_FEATS_NOT_IN_USE")
    assert f.level is Severity.WARNING and f.pointer == "/feats" and f.params["count"] == 2
    assert cost_at(pricing, "/feats/0") == cost_at(pricing, "/feats/1") == 0
    assert pricing.total == 0
    assert pricing.lines[0].rule == "選択ルール「特技」不使用 0"


def test_not_in_use_prices_the_rest_as_usual() -> None:
    """Only the feats go to 0 PP: a combat boost raised to 4 still costs 5 PP beside them."""
    doc = character(feats=[{"name": "精密射撃"}], combat_boost=4)
    assert priced(doc, feats="unused").total == 5
    assert priced(doc).total == 10


def test_unused_option_quiet_without_feats() -> None:
    """feats=unused says nothing about a sheet without feats."""
    assert found(priced(character(feats=[]), feats="unused")) == []


def test_duplicate_feat_warns() -> None:
    """The same feat twice is a warning; both are priced."""
    pricing = priced(character(feats=[{"name": "エース"}, {"name": "エース"}]))
    assert found(pricing) == [("PP_FEAT_DUPLICATE", "/feats/1/name")]
    assert pricing.total == 10


def test_feat_without_name_is_left_to_the_schema() -> None:
    """A feat without a name is not priced and marks the total partial."""
    pricing = priced(character(feats=[{"notes": "?"}]))
    assert pricing.total == 0 and not pricing.complete

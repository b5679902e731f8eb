"""Properties of the `pp` engine: the seed's ladders add up, a breakdown sums to the total and
points into the document, and no document — however malformed — makes the engine raise."""
from __future__ import annotations

from typing import Any

from hypothesis import given, settings, strategies as st

from converter.rules.pp.engine import attribute_cost, skill_cost, specialization_cost

from .conftest import priced

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-20, 20) | st.floats(allow_nan=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3),
    max_leaves=12)

KEYS = ["name", "budget", "attributes", "skills", "skill_list", "combat_boost", "feats", "machine",
        "declared_total"]

specializations = st.lists(st.fixed_dictionaries({
    "name": st.sampled_from(["ビーム兵器", "実弾兵器", "投射兵器", "航空機"]),
    "level": st.integers(0, 9)}), max_size=2)
skills = st.lists(st.fixed_dictionaries(
    {"name": st.sampled_from(["直接砲撃", "知識/戦術", "操縦", "機動回避", "料理", "運転"]),
     "level": st.integers(0, 9)},
    optional={"specializations": specializations}), max_size=5)
characters = st.fixed_dictionaries({
    "system": st.just("pp"), "format": st.just(1), "name": st.just("x"),
    "budget": st.integers(1, 300),
    "attributes": st.fixed_dictionaries({k: st.integers(0, 13) for k in
                                         ("body", "reflex", "sense", "mind", "social")}),
    "skills": skills,
    "combat_boost": st.integers(2, 8),
    "feats": st.lists(st.fixed_dictionaries({"name": st.sampled_from(["a", "b", "c"])}), max_size=3),
})


def _resolve(doc: Any, pointer: str) -> Any:
    node = doc
    for part in pointer.split("/")[1:]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


@given(st.integers(0, 12), st.integers(0, 12))
def test_attribute_ladder_adds_up(a: int, b: int) -> None:
    """Going from a to b costs the sum of the new values in between (the seed's 3→5 = 4+5)."""
    lo, hi = sorted((a, b))
    assert attribute_cost(hi) - attribute_cost(lo) == sum(range(lo + 1, hi + 1))


@given(st.integers(0, 8), st.integers(0, 8))
def test_specialization_is_half_a_skill(a: int, b: int) -> None:
    """A sub-category from a to b costs half of raising the whole skill from a to b."""
    lo, hi = sorted((a, b))
    assert 2 * specialization_cost(hi, lo) == skill_cost(hi) - skill_cost(lo)


@settings(max_examples=150, deadline=None)
@given(characters)
def test_breakdown_sums_and_points_into_the_document(doc: dict[str, Any]) -> None:
    """The lines sum to the total; each line's pointer names a value of the document."""
    pricing = priced(doc)
    assert sum(line.cost for line in pricing.lines) == pricing.total
    for line in pricing.lines:
        _resolve(doc, line.pointer)
    over = any(f.code == "PP_OVER_BUDGET" for f in pricing.findings)
    assert over == (pricing.total > doc["budget"])


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6))
def test_engine_never_raises(fields: dict[str, Any]) -> None:
    """Whatever the document holds, the engine answers with findings instead of raising."""
    priced({"system": "pp", "format": 1, **fields})

"""Properties: the engine never raises, whatever a hand-edited document holds."""
from __future__ import annotations

import copy
import json

from hypothesis import given, settings
from hypothesis import strategies as st

from converter import check_document
from converter.rules.mailgear import evaluate as price, party_unit_level

from .conftest import EXAMPLE_CATALOG, ROOT

SAMPLES = [json.loads(p.read_text(encoding="utf-8"))
           for p in sorted((ROOT / "samples" / "mailgear").glob("*.json"))]
CATALOG = json.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))

_json = st.recursive(st.none() | st.booleans() | st.integers(-5, 50) | st.floats(allow_nan=False)
                     | st.text(max_size=6),
                     lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=6), inner, max_size=3), max_leaves=6)


def _paths(node, prefix=()):
    yield prefix
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _paths(v, prefix + (i,))


@st.composite
def mangled(draw, originals: list[dict]) -> dict:
    """One of ``originals`` with one value (anywhere) replaced by arbitrary JSON."""
    data = copy.deepcopy(draw(st.sampled_from(originals)))
    path = draw(st.sampled_from([p for p in _paths(data) if p]))
    node = data
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = draw(_json)
    return data


@settings(max_examples=150, deadline=None)
@given(mangled(SAMPLES), st.booleans())
def test_engine_never_raises(doc: dict, with_catalog: bool) -> None:
    """price and check_document return findings for any value anywhere, with or without a catalog."""
    price(doc, catalog=CATALOG if with_catalog else None)
    check_document(doc)


@settings(max_examples=50, deadline=None)
@given(st.lists(_json, max_size=4))
def test_party_never_raises(docs: list) -> None:
    """The party view takes anything as sheets and reports what it could not use."""
    party_unit_level(docs, CATALOG)


@settings(max_examples=150, deadline=None)
@given(mangled([CATALOG]), st.sampled_from(SAMPLES))
def test_a_flawed_catalog_never_makes_the_engine_raise(catalog: dict, doc: dict) -> None:
    """A catalog with any value anywhere loads with findings and still serves the checks."""
    price(doc, catalog=catalog)
    party_unit_level([doc], catalog)

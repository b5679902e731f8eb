"""Any value anywhere: every sample and broken sample (checked with the example catalog), and the
example catalog itself (with a sample pilot), with each value in turn replaced by an odd one
(nothing, a text, a negative number, a list, an object, …) or dropped, is checked as far as it can
be, with findings that render whole, and counts in a party; nothing raises (tests/mangled.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from converter.core.evaluation import Evaluation
from converter.rules.mailgear import evaluate as price, party_unit_level
from converter.rules.mailgear.catalog import Catalog

from ..mangled import ROOT, assert_every_variant_answered, samples
from .conftest import EXAMPLE_CATALOG

CATALOG = json.loads(EXAMPLE_CATALOG.read_text("utf-8"))


def _answer(doc: Any, catalog: Any) -> Evaluation:
    """The pilot checked with ``catalog``, the catalog's own findings rendered, a party of two."""
    cat = Catalog.from_data(catalog)
    assert all(f.message("en") and f.hint("en") for f in cat.findings)
    party_unit_level([doc, doc], cat)
    return price(doc, catalog=cat)


@pytest.mark.parametrize("path", samples("mailgear"), ids=lambda p: p.name)
def test_any_value_anywhere_is_answered(path: Path) -> None:
    """Any value anywhere in a mailgear sample gets findings that render, never an exception."""
    assert_every_variant_answered(json.loads(path.read_text("utf-8")), lambda doc: _answer(doc, CATALOG))


def test_any_value_anywhere_in_the_catalog_is_answered() -> None:
    """Any value anywhere in the catalog gets findings that render, never an exception."""
    doc = json.loads((ROOT / "samples" / "mailgear" / "veteran-custom.json").read_text("utf-8"))
    assert_every_variant_answered(CATALOG, lambda catalog: _answer(doc, catalog))

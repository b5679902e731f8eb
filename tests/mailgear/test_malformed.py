"""Any value anywhere: every sample and broken sample (checked with the example catalog), and the
example catalog itself (with a sample pilot), with each value in turn replaced by an odd one
(nothing, a text, a negative number, a list, an object, …) or dropped, is checked as far as it can
be, with findings that render whole, and counts in a party; nothing raises (tests/mangled.py)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from converter.rules.mailgear import evaluate as price, party_unit_level
from converter.rules.mailgear.catalog import Catalog

from ..mangled import variants
from ..pricing_helpers import problems
from .conftest import EXAMPLE_CATALOG

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples" / "mailgear").glob("*.json")) + sorted(
    (ROOT / "samples" / "broken" / "mailgear").glob("*.json"))
CATALOG = json.loads(EXAMPLE_CATALOG.read_text("utf-8"))


def _answered(doc: Any, catalog: Any, where: tuple, value: Any) -> None:
    try:
        cat = Catalog.from_data(catalog)
        pricing = price(doc, catalog=cat)
        party_unit_level([doc, doc], cat)
    except Exception as exc:  # the finding a user would need instead
        pytest.fail(f"{'/'.join(map(str, where))} = {value!r}: {type(exc).__name__}: {exc}")
    assert not problems(pricing), (where, value)
    assert all(f.message("en") and f.hint("en") for f in cat.findings)


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_any_value_anywhere_is_answered(path: Path) -> None:
    doc = json.loads(path.read_text("utf-8"))
    for where, value, mangled in variants(doc):
        _answered(mangled, CATALOG, where, value)


def test_any_value_anywhere_in_the_catalog_is_answered() -> None:
    doc = json.loads((ROOT / "samples" / "mailgear" / "veteran-custom.json").read_text("utf-8"))
    for where, value, mangled in variants(CATALOG):
        _answered(doc, mangled, where, value)

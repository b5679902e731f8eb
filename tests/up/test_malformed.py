"""Any value anywhere: every up sample and broken sample with each value in turn replaced by an odd
one (nothing, a text, a negative number, a list, an object, …) or dropped is priced as far as it
can be, with findings that render whole, and checked as a transformation set with the sample as
written; the engine never raises (tests/mangled.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter.core.evaluation import Evaluation
from converter.rules.up import check_transformation_sets
from converter.rules.up.engine import price_unit

from ..mangled import assert_every_variant_answered, samples


@pytest.mark.parametrize("path", samples("up"), ids=lambda p: p.name)
def test_any_value_anywhere_is_answered(path: Path) -> None:
    """Any value anywhere in an up sample, priced and set-checked, gets findings that render, not an error."""
    doc = json.loads(path.read_text("utf-8"))
    unmangled = (doc, price_unit(doc))

    def answer(mangled: dict) -> Evaluation:
        pricing = price_unit(mangled)
        check_transformation_sets([(mangled, pricing), unmangled])
        return pricing
    assert_every_variant_answered(doc, answer)

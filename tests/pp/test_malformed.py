"""Any value anywhere: every sample and broken sample with each value in turn replaced by an odd
one (nothing, a text, a negative number, a list, an object, …) or dropped is priced as far as it
can be, with findings that render whole; the engine never raises (tests/mangled.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter.rules.pp.engine import price_character

from ..mangled import variants
from ..pricing_helpers import problems

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted((ROOT / "samples" / "pp").glob("*.json")) + sorted((ROOT / "samples" / "broken" / "pp").glob("*.json"))


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: p.name)
def test_any_value_anywhere_is_answered(path: Path) -> None:
    doc = json.loads(path.read_text("utf-8"))
    for where, value, mangled in variants(doc):
        try:
            pricing = price_character(mangled)
        except Exception as exc:  # the finding a user would need instead
            pytest.fail(f"{'/'.join(map(str, where))} = {value!r}: {type(exc).__name__}: {exc}")
        assert not problems(pricing), (where, value)

"""Every pp sample and broken sample, each value in turn replaced by an odd one or dropped: priced
as far as it can be, never an exception (tests/mangled.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter.rules.pp.engine import price_character

from ..mangled import assert_every_variant_answered, samples


@pytest.mark.parametrize("path", samples("pp"), ids=lambda p: p.name)
def test_any_value_anywhere_is_answered(path: Path) -> None:
    """Any value anywhere in a pp sample gets findings that render, never an exception."""
    assert_every_variant_answered(json.loads(path.read_text("utf-8")), price_character)

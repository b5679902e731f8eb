"""A machine weapon without a name is named by its place, from 1, in each language, wherever the
sheet shows a value of it (「武器1: ダメージゲージ」, 'weapon 1: damage gauges')."""
from __future__ import annotations

import pytest

from converter.rules.pp.engine import price_character

from .conftest import character, machine, weapon


@pytest.mark.parametrize("name", [None, ""])
def test_a_weapon_without_a_name_is_named_by_its_place(name) -> None:
    """A weapon with no name is labelled by its place (武器2, weapon 2) in its derived values."""
    w = weapon(damage="S")
    w.pop("name")
    if name is not None:
        w["name"] = name
    p = price_character(character(machine=machine(weapons=[weapon(), w])))
    d = p.derived["/derived/machine/weapons/1/gauges"]
    assert (d.label, d.label_en, d.value) == ("武器2: ダメージゲージ", "weapon 2: damage gauges", 5)
    named = p.derived["/derived/machine/weapons/0/gauges"]
    assert (named.label, named.label_en) == ("ライフル: ダメージゲージ", "ライフル: damage gauges")

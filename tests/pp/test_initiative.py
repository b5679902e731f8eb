"""■イニシアティブ値: 肉体+反応+感覚+〈知識／戦術〉; in a unit 反応+感覚+スピード+メインシステム修正
+〈知識／戦術〉, once per alternative speed."""
from __future__ import annotations

from .conftest import character, machine, priced, skill

ATTRS = {"body": 3, "reflex": 4, "sense": 5, "mind": 2, "social": 2}


def test_personal_initiative() -> None:
    """肉体3 + 反応4 + 感覚5 + 〈知識／戦術〉2 = 14."""
    pricing = priced(character(attributes=ATTRS, skills=[skill("知識／戦術", 2)], budget=100))
    assert pricing.value("/derived/initiative") == 14


def test_personal_initiative_without_tactics() -> None:
    """A character without 〈知識／戦術〉 counts it as 0."""
    pricing = priced(character(attributes=ATTRS, budget=100))
    assert pricing.value("/derived/initiative") == 12


def test_tactics_specialization_does_not_count() -> None:
    """Only the skill's own level counts, not a sub-category's."""
    doc = character(attributes=ATTRS, budget=100,
                    skills=[skill("知識／戦術", 1, ("戦史", 3))])
    assert priced(doc).value("/derived/initiative") == 13


def test_no_unit_initiative_without_machine() -> None:
    """Without a machine (absent or null) there is no unit initiative."""
    assert "/derived/unit_initiative" not in priced(character(attributes=ATTRS)).derived
    assert "/derived/unit_initiative" not in priced(character(attributes=ATTRS, machine=None)).derived


def test_unit_initiative() -> None:
    """反応4 + 感覚5 + スピード4 + メインシステム修正1 + 〈知識／戦術〉2 = 16."""
    doc = character(attributes=ATTRS, skills=[skill("知識/戦術", 2)], machine=machine(),
                    budget=100)
    assert priced(doc).value("/derived/unit_initiative") == 16


def test_unit_initiative_main_system_defaults_to_zero() -> None:
    """A machine that gives no メインシステム修正 adds 0."""
    m = machine()
    del m["main_system_modifier"]
    doc = character(attributes=ATTRS, machine=m, budget=100)
    assert priced(doc).value("/derived/unit_initiative") == 4 + 5 + 4


def test_negative_main_system_modifier() -> None:
    """A main system may lower the initiative."""
    doc = character(attributes=ATTRS, machine=machine(main_system_modifier=-2), budget=100)
    assert priced(doc).value("/derived/unit_initiative") == 4 + 5 + 4 - 2


def test_alternative_speeds() -> None:
    """Each conditional speed gets its own unit initiative (「その条件を併記の上それぞれの値」)."""
    m = machine(alt_speeds=[{"condition": "飛行時", "speed": 6}, {"condition": "水中", "speed": 2}])
    pricing = priced(character(attributes=ATTRS, machine=m, budget=100))
    assert pricing.value("/derived/machine/alt_speeds/0/unit_initiative") == 4 + 5 + 6 + 1
    assert pricing.value("/derived/machine/alt_speeds/1/unit_initiative") == 4 + 5 + 2 + 1


def test_invalid_speed_leaves_unit_initiative_out() -> None:
    """A speed that is not a whole number gives no unit initiative (and an error)."""
    pricing = priced(character(attributes=ATTRS, machine=machine(speed="fast"), budget=100))
    assert "/derived/unit_initiative" not in pricing.derived
    assert "/derived/initiative" in pricing.derived


def test_invalid_attribute_leaves_initiative_out() -> None:
    """An attribute that cannot be read leaves the initiatives that use it out."""
    pricing = priced(character(attributes={"reflex": "x"}, machine=machine()))
    assert "/derived/initiative" not in pricing.derived
    assert "/derived/unit_initiative" not in pricing.derived

"""The machine block: no costs (seed 003 has none); types, minimums and choices checked; damage
gauges, a melee weapon's evasion target and the explosion's penetration derived."""
from __future__ import annotations

import pytest

from converter.core.findings import Severity

from .conftest import character, codes, found, machine, priced, skill, weapon


def _machine_findings(m: dict) -> list[tuple[str, str]]:
    return found(priced(character(machine=m)))


def test_machine_costs_nothing() -> None:
    """A machine adds no line and no PP."""
    pricing = priced(character(machine=machine()))
    assert pricing.lines == [] and pricing.total == 0
    assert found(pricing) == []


@pytest.mark.parametrize("field", ["speed", "mobility", "workability", "armor", "durability",
                                   "toughness", "size_modifier", "main_system_modifier"])
def test_integer_fields(field: str) -> None:
    """Every whole-number figure refuses text and fractions."""
    for bad in ("3", 2.5, True):
        assert _machine_findings(machine(**{field: bad})) == [("PP_MACHINE_TYPE", f"/machine/{field}")]


@pytest.mark.parametrize("field", ["speed", "armor", "durability", "toughness"])
def test_minimum_zero(field: str) -> None:
    """スピード, 装甲値, 耐久性 (dice) and 頑丈さ (dice) cannot be negative."""
    assert _machine_findings(machine(**{field: -1})) == [("PP_MACHINE_MINIMUM", f"/machine/{field}")]


@pytest.mark.parametrize("field", ["mobility", "workability", "size_modifier", "main_system_modifier"])
def test_modifiers_may_be_negative(field: str) -> None:
    """Modifiers may be negative (回避修正 left to be derived from them, so none differs)."""
    m = machine(**{field: -2})
    del m["evasion_modifier"]
    assert _machine_findings(m) == []


def test_evasion_modifier_two_figures() -> None:
    """回避修正 holds two whole numbers: 回避 and 受け."""
    assert _machine_findings(machine(evasion_modifier={"dodge": 3, "parry": "2"})) == [
        ("PP_MACHINE_TYPE", "/machine/evasion_modifier/parry")]
    assert _machine_findings(machine(evasion_modifier=3)) == [
        ("PP_MACHINE_TYPE", "/machine/evasion_modifier")]


def test_weight_escape_and_name() -> None:
    """重量 is a number of tons (fractions allowed), 脱出機構 true/false, 機体名 text."""
    assert _machine_findings(machine(weight=8.5, escape=True, main_system="SAI")) == []
    assert _machine_findings(machine(weight="8t", escape="yes", name=3)) == [
        ("PP_MACHINE_TYPE", "/machine/escape"), ("PP_MACHINE_TYPE", "/machine/name"),
        ("PP_MACHINE_TYPE", "/machine/weight")]
    assert _machine_findings(machine(weight=-1)) == [("PP_MACHINE_MINIMUM", "/machine/weight")]


@pytest.mark.parametrize("field", ["hit_target", "evasion_target", "penetration"])
def test_weapon_figures(field: str) -> None:
    """命中目標値, 回避目標値 and 貫通力 are whole numbers from 0."""
    where = f"/machine/weapons/0/{field}"
    assert _machine_findings(machine(weapons=[weapon(**{field: "7"})])) == [("PP_MACHINE_TYPE", where)]
    assert _machine_findings(machine(weapons=[weapon(**{field: -1})])) == [("PP_MACHINE_MINIMUM", where)]


@pytest.mark.parametrize("damage", ["L", "M", "S", "D"])
def test_damage_classes(damage: str) -> None:
    """破壊力 L/M/S/D fill 1/2/5/10 damage gauges."""
    pricing = priced(character(machine=machine(weapons=[weapon(damage=damage)])))
    assert found(pricing) == []
    assert pricing.value("/derived/machine/weapons/0/gauges") == {"L": 1, "M": 2, "S": 5, "D": 10}[damage]


def test_damage_class_x_is_an_error() -> None:
    """破壊力 "X" is not a class: an error at the weapon's damage, listing the classes."""
    pricing = priced(character(machine=machine(weapons=[weapon(damage="X")])))
    assert found(pricing) == [("PP_MACHINE_CHOICE", "/machine/weapons/0/damage")]
    assert pricing.findings[0].level is Severity.ERROR
    assert pricing.findings[0].params["choices"] == ["L", "M", "S", "D"]


@pytest.mark.parametrize("spelled,means", [("Ｄ", "D"), ("s", "S"), ("大破", "D")])
def test_damage_class_spelled_otherwise(spelled: str, means: str) -> None:
    """A class spelled full-width, lower-case or by name is an error that says how to write it."""
    pricing = priced(character(machine=machine(weapons=[weapon(damage=spelled)])))
    assert found(pricing) == [("PP_MACHINE_CHOICE_SPELLING", "/machine/weapons/0/damage")]
    assert pricing.findings[0].params["expected"] == means


def test_tracking_may_be_null() -> None:
    """追尾性 is a whole number for homing weapons, null (or absent) for others."""
    assert _machine_findings(machine(weapons=[weapon(tracking=3), weapon(tracking=None)])) == []
    assert _machine_findings(machine(weapons=[weapon(tracking="高")])) == [
        ("PP_MACHINE_TYPE", "/machine/weapons/0/tracking")]


def test_null_not_allowed_elsewhere() -> None:
    """A figure that is not nullable refuses null."""
    assert _machine_findings(machine(speed=None)) == [("PP_MACHINE_TYPE", "/machine/speed")]


def test_engagements() -> None:
    """A weapon's engagements are among the seed's five."""
    ok = weapon(engagements=["extreme", "long", "medium", "short", "close"])
    assert _machine_findings(machine(weapons=[ok])) == []
    assert _machine_findings(machine(weapons=[weapon(engagements=["close", "far"])])) == [
        ("PP_MACHINE_CHOICE", "/machine/weapons/0/engagements/1")]
    assert _machine_findings(machine(weapons=[weapon(engagements="close")])) == [
        ("PP_MACHINE_TYPE", "/machine/weapons/0/engagements")]


def test_melee_evasion_target() -> None:
    """A melee weapon's evasion target is 〈機動格闘〉 + 作業性 + the weapon's own figure."""
    m = machine(workability=2, weapons=[weapon(melee=True, evasion_target=3), weapon()])
    pricing = priced(character(skills=[skill("機動格闘", 2)], machine=m))
    assert pricing.value("/derived/machine/weapons/0/evasion_target") == 2 + 2 + 3
    assert pricing.value("/derived/machine/weapons/1/evasion_target") == 7


def test_explosion_penetration() -> None:
    """An exploding machine deals 重量 (tons, rounded up) + 1D10 penetration."""
    pricing = priced(character(machine=machine(weight=8.2)))
    assert pricing.value("/derived/machine/explosion_penetration") == "9+1D10"
    assert "/derived/machine/explosion_penetration" not in priced(character(machine=machine())).derived


def test_alternative_speed_checked() -> None:
    """A conditional speed is checked like スピード."""
    m = machine(alt_speeds=[{"condition": "飛行時", "speed": -1}])
    assert _machine_findings(m) == [("PP_MACHINE_MINIMUM", "/machine/alt_speeds/0/speed")]


def test_malformed_machine_does_not_stop_the_engine() -> None:
    """Weapons that are not tables are skipped; the character is still priced."""
    pricing = priced(character(machine=machine(weapons=["ライフル", 3]), skills=[skill("操縦", 1)]))
    assert pricing.total == 2 and codes(pricing) == set()

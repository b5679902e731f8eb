"""An item with an error is left out whole, never priced as if the error were not there: no line,
no derived values, the weapons' total without it, and the total partial (so a written total is not
compared with it). Each error a weapon or an ability can have, one at a time, on an M unit (400)."""
from __future__ import annotations

import copy
from typing import Any, Callable

import pytest

from converter.core.evaluation import Evaluation
from converter.rules.options import resolve_options
from converter.rules.tables_file import load_tables
from converter.rules.up.abilities import price_abilities
from converter.rules.up.stats import price_terrain
from converter.rules.up.tables import UpTables

from .conftest import found, melee, priced, ranged, unit

WEAPON_ERRORS = [
    ("kind", melee(kind="beam"), "UP_WEAPON_KIND", "/weapons/0/kind"),
    ("range", melee(range=6), "UP_WEAPON_RANGE", "/weapons/0/range"),
    ("minimum range", ranged(range=3, min_range=4), "UP_WEAPON_MIN_RANGE", "/weapons/0/min_range"),
    ("attribute", melee(attribute="fire"), "UP_WEAPON_ATTRIBUTE", "/weapons/0/attribute"),
    ("damage as text", melee(damage="3D"), "UP_ITEM_MALFORMED", "/weapons/0/damage"),
    ("damage below base", melee(damage={"dice": 0, "fixed": 10}), "UP_DAMAGE_BELOW_BASE", "/weapons/0/damage/dice"),
    ("accuracy", melee(accuracy=35), "UP_ACCURACY_STEP", "/weapons/0/accuracy"),
    ("usage as text", ranged(usage="弾数8"), "UP_ITEM_MALFORMED", "/weapons/0/usage"),
    ("usage type", ranged(usage={"type": "fuel", "amount": 3}), "UP_USAGE_TYPE", "/weapons/0/usage/type"),
    ("usage amount", ranged(usage={"type": "ammo", "amount": 4}), "UP_USAGE_AMOUNT", "/weapons/0/usage/amount"),
    ("usage reduction", ranged(usage={"type": "ammo", "amount": 8, "reduction": "half"}), "UP_USAGE_REDUCTION",
     "/weapons/0/usage/reduction"),
    ("terrain as text", melee(terrain="A"), "UP_ITEM_MALFORMED", "/weapons/0/terrain"),
    ("terrain grade", melee(terrain={"sea": "Q"}), "UP_TERRAIN_GRADE", "/weapons/0/terrain/sea"),
    ("map as text", ranged(map="自機中心"), "UP_ITEM_MALFORMED", "/weapons/0/map"),
    ("map type", ranged(map={"type": "ring"}), "UP_MAP_TYPE", "/weapons/0/map/type"),
    ("map radius", ranged(map={"type": "target_point"}), "UP_MAP_RADIUS", "/weapons/0/map/radius"),
    ("combo", melee(combo="maybe"), "UP_WEAPON_COMBO", "/weapons/0/combo"),
    ("effect", melee(effects=["fire"]), "UP_EFFECT_UNKNOWN", "/weapons/0/effects/0"),
    ("effect level", ranged(effects=[{"id": "move_down", "level": 4}]), "UP_EFFECT_LEVEL",
     "/weapons/0/effects/0/level"),
    ("not an object", "ビームライフル", "UP_ITEM_MALFORMED", "/weapons/0"),
]

ABILITY_ERRORS = [
    ("unknown", {"id": "teleport"}, "UP_ABILITY_UNKNOWN", "/abilities/0/id"),
    ("shield armor", {"id": "shield", "armor": 0}, "UP_ABILITY_VALUE", "/abilities/0/armor"),
    ("shield uses", {"id": "shield", "armor": 5, "uses": 2}, "UP_SHIELD_USES", "/abilities/0/uses"),
    ("level", {"id": "bunshin", "level": 8}, "UP_ABILITY_LEVEL", "/abilities/0/level"),
    ("barrier armor", {"id": "barrier1"}, "UP_ABILITY_VALUE", "/abilities/0/armor"),
    ("grade", {"id": "en_regen", "grade": "huge"}, "UP_ABILITY_GRADE", "/abilities/0/grade"),
    ("no bonuses", {"id": "stat_bonus"}, "UP_ABILITY_VALUE", "/abilities/0/bonuses"),
    ("bonus stat", {"id": "stat_bonus", "bonuses": [{"stats": ["luck"], "amount": 1}]}, "UP_STAT_BONUS_INVALID",
     "/abilities/0/bonuses/0/stats/0"),
    ("bonus mixed", {"id": "stat_bonus", "bonuses": [{"stats": ["melee", "defense"], "amount": 1}]},
     "UP_STAT_BONUS_MIXED", "/abilities/0/bonuses/0"),
]


@pytest.mark.parametrize(("weapon", "code", "where"), [c[1:] for c in WEAPON_ERRORS], ids=[c[0] for c in WEAPON_ERRORS])
def test_a_weapon_with_an_error_is_not_priced(weapon: Any, code: str, where: str) -> None:
    """A weapon with an error gets its one finding and is left unpriced: no line, derived value or total."""
    p = priced(unit(weapons=[weapon], declared_total=999))
    assert [c for c in found(p) if c[0] != "UP_SOURCE_WORK_ONLY"] == [(code, where)]
    assert "/weapons/0" in p.unevaluated  # a part written malformed is marked too
    assert all(u == "/weapons/0" or u.startswith("/weapons/0/") for u in p.unevaluated)
    assert [line.pointer for line in p.lines] == ["/size"]
    assert not any(key.startswith("/weapons/0/") for key in p.derived)
    assert p.value("/weapons_total") == 0


@pytest.mark.parametrize(("ability", "code", "where"), [c[1:] for c in ABILITY_ERRORS],
                         ids=[c[0] for c in ABILITY_ERRORS])
def test_an_ability_with_an_error_is_not_priced(ability: dict, code: str, where: str) -> None:
    """An ability with an error gets its one finding and is left unpriced, with no line."""
    p = priced(unit(abilities=[ability], declared_total=999))
    assert [c for c in found(p) if c[0] != "UP_SOURCE_WORK_ONLY"] == [(code, where)]
    assert p.unevaluated == ["/abilities/0"]
    assert [line.pointer for line in p.lines] == ["/size"]


def test_the_other_weapons_are_still_priced() -> None:
    """The weapon after a broken one is priced as usual, its derived values shown."""
    p = priced(unit(weapons=[melee(name="壊れ", accuracy=35), melee(name="無事")]))
    assert [line.pointer for line in p.lines] == ["/size", "/weapons/1"]
    assert p.value("/weapons_total") == 40 and p.value("/weapons/1/effective_damage") == "1D10+25"


# --- rows the tables might give without a rule: reported, never priced ----------------------------
# The shipped tables price every terrain step from a unit's default and have a rule for every
# ability; these guard the engine against tables edited without it.

def _tables(edit: Callable[[dict], Any]) -> UpTables:
    raw = copy.deepcopy(load_tables("up"))
    edit(raw)
    return UpTables(raw)


def test_a_terrain_step_the_tables_do_not_price_is_reported() -> None:
    """Without the A→S step, 陸 A→S is UP_TERRAIN_GRADE at it, and not priced."""
    t = _tables(lambda raw: raw["terrain"]["steps"].pop("A>S"))
    out = Evaluation()
    price_terrain(unit(terrain={"land": "S"}), t, resolve_options("up"), out)
    assert [(f.code, f.pointer) for f in out.findings] == [("UP_TERRAIN_GRADE", "/terrain/land")]
    assert out.lines == []


def test_an_ability_without_a_price_rule_is_reported() -> None:
    """An ability the tables list with no price of any kind is UP_ABILITY_UNKNOWN, not priced."""
    t = _tables(lambda raw: raw["abilities"].append({"id": "teleport", "label": "テレポート", "label_en": "teleport"}))
    out = Evaluation()
    price_abilities(unit(abilities=[{"id": "teleport"}]), t.sizes["M"], t, resolve_options("up"), out)
    assert [(f.code, f.pointer) for f in out.findings] == [("UP_ABILITY_UNKNOWN", "/abilities/0/id")]
    assert (out.unevaluated, out.lines) == (["/abilities/0"], [])

"""A derived roll's parts are the roll its value shows: the dice, their sides, the fixed bonus and
the bonus on each die that front ends (a dice roller, the report's ``roll``) read instead of the
text. Checked on every sample and broken sample and on generated documents, for each system's
notation:

- up: 「２Ｄ10＋35」 as ``2D10+35`` (seed 000: damage is rolled on ten-sided dice);
- pp: an attribute's dice ``4`` (「能力値と同じ数だけのダイスを振り」, 「１０面体ダイス」) and a skill's
  pool ``5D10（各+3）`` (「それぞれのダイスの出目に技能レベルを足す」);
- mailgear: a bonus added to 2d6, ``+1d+5`` (the level-4 ＋１ｄ), and 武運 as the whole roll
  ``3d6+2`` (「[２ｄ＋ミラクル]」).
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from converter import evaluate
from converter.core.evaluation import Evaluation, Roll

from .mailgear.conftest import example_catalog, pilot, skills
from .pp.conftest import character, skill
from .strategies import mailgear_pilot, pp_character, up_unit
from .up.conftest import melee, unit

ROOT = Path(__file__).resolve().parent.parent
DOCUMENTS = sorted(p for p in ROOT.glob("samples/*/*.json") if p.parent.name != "legacy") + sorted(
    ROOT.glob("samples/broken/*/*.json"))  # legacy/ holds homemade sheets and what they import to

UP_DAMAGE = re.compile(r"(\d+)D10\+(\d+)")
PP_POOL = re.compile(r"(\d+)D10(?:（各\+(\d+)）)?")
PP_POOL_EN = re.compile(r"(\d+)D10(?: \(\+(\d+) each\))?")
MG_BONUS = re.compile(r"(?:\+(\d+)d)?([+-]\d+)?")
MG_FORTUNE = re.compile(r"(\d+)d6([+-]\d+)?")


def shown(key: str, value: Any, value_en: Any) -> Roll:
    """The roll a derived value's text (or number) says, by the notation of its key."""
    if key.endswith("/effective_damage"):
        dice, fixed = UP_DAMAGE.fullmatch(value).groups()
        return Roll(int(dice), 10, int(fixed))
    if key.startswith("/derived/attributes/"):
        return Roll(value, 10)
    if key.endswith("/pool"):
        dice, each = PP_POOL.fullmatch(value).groups()
        assert PP_POOL_EN.fullmatch(value_en).groups() == (dice, each)
        return Roll(int(dice), 10, 0, int(each or 0))
    if key == "/derived/fortune":
        dice, fixed = MG_FORTUNE.fullmatch(value).groups()
        return Roll(int(dice), 6, int(fixed or 0))
    dice, fixed = MG_BONUS.fullmatch(value).groups()
    assert dice or fixed, value
    return Roll(int(dice or 0), 6, int(fixed or 0))


def mismatches(ev: Evaluation) -> list[tuple[str, Any, Roll]]:
    return [(key, d.value, d.roll) for key, d in ev.derived.items()
            if d.roll is not None and shown(key, d.value, d.value_en) != d.roll]


def _context(doc: dict) -> dict | None:
    return {"catalog": example_catalog()} if doc.get("system") == "mailgear" else None


@pytest.mark.parametrize("path", DOCUMENTS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_sample_roll_is_what_it_shows(path: Path) -> None:
    """Each sample's derived rolls are what their values show, and every good sample shows rolls."""
    doc = json.loads(path.read_text("utf-8"))
    ev = evaluate(doc, None, _context(doc))
    assert mismatches(ev) == []
    if path.parent.parent.name != "broken":  # every good sample shows rolls
        assert any(d.roll for d in ev.derived.values())


_GENERATED = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@_GENERATED
@given(doc=up_unit())
def test_generated_up_rolls_are_what_they_show(doc: dict) -> None:
    """A generated up unit's derived rolls are what their values show."""
    assert mismatches(evaluate(doc)) == []


@_GENERATED
@given(doc=pp_character())
def test_generated_pp_rolls_are_what_they_show(doc: dict) -> None:
    """A generated pp character's derived rolls are what their values show."""
    assert mismatches(evaluate(doc)) == []


@_GENERATED
@given(doc=mailgear_pilot())
def test_generated_mailgear_rolls_are_what_they_show(doc: dict) -> None:
    """A generated mailgear pilot's derived rolls are what their values show."""
    assert mismatches(evaluate(doc, None, _context(doc))) == []


# --- by hand ----------------------------------------------------------------------------------------

def test_up_damage_roll() -> None:
    """A melee 2D+15 on an M unit (パワー 15): 2D10+30."""
    d = evaluate(unit(weapons=[melee(damage={"dice": 2, "fixed": 15})])).derived["/weapons/0/effective_damage"]
    assert (d.value, d.roll) == ("2D10+30", Roll(2, 10, 30))


def test_pp_rolls() -> None:
    """【感覚】4 rolls 4d10; 〈直接砲撃〉3 (感覚) rolls them each +3, its ビーム兵器 5 each +5."""
    ev = evaluate(character(attributes={"sense": 4}, skills=[skill("直接砲撃", 3, ("ビーム兵器", 5))]))
    assert ev.derived["/derived/attributes/sense/dice"].roll == Roll(4, 10)
    assert ev.derived["/derived/skills/0/pool"].roll == Roll(4, 10, 0, 3)
    assert ev.derived["/derived/skills/0/specializations/0/pool"].roll == Roll(4, 10, 0, 5)


def test_pp_pool_without_dice_has_no_roll() -> None:
    """A skill whose attribute is unknown (a group's skill without one) has no dice: no roll."""
    ev = evaluate(character(skills=[skill("料理", 2)]))
    assert (ev.value("/derived/skills/0/pool"), ev.derived["/derived/skills/0/pool"].roll) == ("?D10（各+2）", None)


@pytest.mark.parametrize(("miracle", "value", "roll"), [
    (0, "2d6", Roll(2, 6, 0)), (2, "2d6+2", Roll(2, 6, 2)), (4, "3d6", Roll(3, 6, 0))])
def test_mailgear_fortune_roll(miracle: int, value: str, roll: Roll) -> None:
    """「武運の値は、[２ｄ＋ミラクル]によって決定し」: ミラクル 4 is ＋１ｄ, a third die."""
    doc = pilot(skills=skills(miracle=miracle) if miracle else [])
    d = evaluate(doc).derived["/derived/fortune"]
    assert (d.value, d.roll) == (value, roll)


def test_mailgear_bonus_roll() -> None:
    """熱血 4 on CR 2: ＋１ｄ (level 4) and +2: +1d+2, one die added to 2d6."""
    d = evaluate(pilot(skills=skills(hot_blooded=4))).derived["/derived/hit_cr"]
    assert (d.value, d.roll) == ("+1d+2", Roll(1, 6, 2))

"""Issue 31, item 3: the account says what reached the target, computed from the output.

A source field is "exact", "scaled" or "approximated" only when the target holds it: a field its
row writes is in the output (for a weapon's field, in the item that weapon became), a name is
written there, and a field said only in notes has its words in them. Otherwise it is "dropped"
(the row still says where it would have gone; the carried source keeps it)."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.convert import convert
from converter.convert import account as accounts
from converter.convert.carried import without_key
from converter.convert.leaves import leaves, matches
from converter.convert.mapping import load_mapping
from converter.core.errors import InputError
from tests.strategies import mailgear_pilot, pp_character, up_unit

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("up", "mailgear", "pp")
DOCUMENTS = {"up": up_unit(), "mailgear": mailgear_pilot(), "pp": pp_character()}
DIRECTIONS = [(a, b) for a in SYSTEMS for b in SYSTEMS if a != b]


def claimed_but_absent(result: Any) -> list[str]:
    """The source fields the account claims were carried whose row writes nothing in the output,
    or whose name is in no text field it writes (judged from the output alone)."""
    out = leaves(without_key(result.document)).values
    bad = []
    for e in result.account.source:
        if e.kind not in accounts.CARRYING or e.row is None:
            continue
        written = [p for p in out if any(matches(t, p) for t in e.row.targets)]
        if not written:
            bad.append(f"{e.pointer} ({e.kind}): nothing at {list(e.row.targets)}")
        elif e.row.targets and all(t.endswith("/notes") for t in e.row.targets) \
                and not any(isinstance(out[p], str) and out[p] for p in written):
            bad.append(f"{e.pointer} ({e.kind}): empty notes")
    return bad


@pytest.mark.parametrize("source,target", DIRECTIONS, ids=[f"{a}->{b}" for a, b in DIRECTIONS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_no_field_is_claimed_that_the_output_lacks(source: str, target: str, data: Any) -> None:
    """For generated documents of every system, every claimed field is in the output."""
    doc = data.draw(DOCUMENTS[source])
    try:
        result = convert(doc, target, check=False)
    except InputError:
        return
    assert claimed_but_absent(result) == []


def _up(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "samples/up" / f"{name}.json").read_text("utf-8"))


def _kinds(result: Any, prefix: str) -> set[str]:
    return {e.kind for e in result.account.source if e.pointer == prefix or e.pointer.startswith(prefix + "/")}


@pytest.mark.parametrize("name,part", [("l-super-robot", "/morale_boosts"), ("l-transform-marine", "/terrain"),
                                       ("lll-carrier", "/carrier")])
def test_what_pp_notes_lack_is_dropped_and_what_they_hold_is_approximated(name: str, part: str) -> None:
    """up → pp: 気力 boosts, 地形適応 and a carrier are in no note of the pp machine, so they are
    dropped; the abilities the notes name are approximated, each one's label in the notes."""
    doc = _up(name)
    assert part[1:] in doc
    result = convert(doc, "pp", check=False)
    assert _kinds(result, part) == {"dropped"}
    abilities = [e for e in result.account.source if e.pointer.startswith("/abilities/")]
    assert all(e.kind == "approximated" for e in abilities)
    assert len(abilities) > 0 or not doc["abilities"]
    assert claimed_but_absent(result) == []


def test_the_account_follows_the_output_not_the_table() -> None:
    """The same conversion accounted against an output whose notes were emptied: every field
    said only in those notes becomes dropped (the account reads the output)."""
    doc = _up("lll-carrier")
    result = convert(doc, "pp", check=False)
    assert any(e.kind == "approximated" and e.row is not None and e.row.targets == ("/machine/notes",)
               for e in result.account.source)
    emptied = copy.deepcopy(without_key(result.document))
    emptied["machine"]["notes"] = ""
    from converter.convert.up import lift

    sheet = lift(doc)
    again = accounts.build(load_mapping(), "up", "pp", leaves(doc), leaves(emptied), sheet.said, {})
    assert not any(e.kind == "approximated" and e.row is not None and e.row.targets == ("/machine/notes",)
                   for e in again.source)


def test_a_weapon_beyond_the_slots_is_dropped_in_the_account() -> None:
    """pp → mailgear with eight weapons: the six slots hold six; the other two weapons' fields
    are dropped, not "exact" because other weapons have names."""
    doc = json.loads((ROOT / "samples/pp/pilot_with_machine.json").read_text("utf-8"))
    weapon = doc["machine"]["weapons"][0]
    doc["machine"]["weapons"] = [dict(weapon, name=f"武器{k}") for k in range(8)]
    result = convert(doc, "mailgear", check=False)
    assert len(result.document["equipment"]) <= 6
    for k in (6, 7):
        assert _kinds(result, f"/machine/weapons/{k}") == {"dropped"}, k
    assert "exact" in _kinds(result, "/machine/weapons/0")


def test_a_feat_that_is_no_mailgear_skill_is_dropped_and_one_that_is_keeps_its_level() -> None:
    """pp → mailgear: 「精密射撃」 (a group's feat) reaches nothing and is dropped; a feat written
    「タフガイ Lv3」 (how mailgear → pp writes a skill pp has not) becomes タフガイ at level 3."""
    doc = json.loads((ROOT / "samples/pp/veteran.json").read_text("utf-8"))
    doc["feats"] = [{"name": "精密射撃"}, {"name": "タフガイ Lv3"}]
    result = convert(doc, "mailgear", check=False)
    assert _kinds(result, "/feats/0") == {"dropped"}
    assert _kinds(result, "/feats/1/name") == {"scaled"}
    assert {"id": "tough_guy", "level": 3} in result.document["skills"]

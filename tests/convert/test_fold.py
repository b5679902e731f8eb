"""An edited conversion folded back: B -> A converts only the fields the GM changed in B onto the
carried A, names them, and says which edits have no counterpart; a B whose fields were added or
removed is converted afresh."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.convert import carried, convert
from converter.convert.conversion import UNEDITED
from converter.convert.leaves import leaves
from converter.core.errors import InputError
from converter.core.pointers import get, put
from tests.strategies import mailgear_pilot, pp_character, up_unit

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = {"up": "up/m-mobile-suit.json", "mailgear": "mailgear/veteran-custom.json", "pp": "pp/pilot_with_machine.json"}
#: each system's move, the grid-scaled field every machine has
MOVE = {"up": "/stats/move", "mailgear": "/gear/stats/move", "pp": "/machine/speed"}
PAIRS = [(a, b) for a in SAMPLES for b in SAMPLES if a != b]


def _sample(system: str) -> dict:
    return json.loads((ROOT / "samples" / SAMPLES[system]).read_text("utf-8"))


def _diff(a: dict, b: dict) -> set[str]:
    x, y = leaves(a).values, leaves(b).values
    return {p for p in {*x, *y} if p not in x or p not in y or (type(x[p]), x[p]) != (type(y[p]), y[p])}


def _edited(doc: dict, ptr: str, by: int) -> dict:
    edited = json.loads(json.dumps(doc))
    put(edited, ptr, get(edited, ptr) + by)
    return edited


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}->{b}->{a}" for a, b in PAIRS])
def test_an_edited_move_changes_only_its_counterpart(a: str, b: str) -> None:
    """A -> B, B's move raised by 2, B -> A: A differs only in its move, which is what B as
    edited converts to afresh; the finding names the edit and the counterpart."""
    doc = _sample(a)
    there = _edited(convert(doc, b, check=False).document, MOVE[b], 2)
    back = convert(there, a, check=False)
    afresh = convert(carried.without_key(there), a, check=False).document
    assert _diff(doc, back.document) == {MOVE[a]}
    assert get(back.document, MOVE[a]) == get(afresh, MOVE[a]) != get(doc, MOVE[a])
    folded = [f for f in back.findings if f.code == "CONVERT_FOLDED"]
    assert [(f.params["fields"], f.params["changed"]) for f in folded] == [([MOVE[b]], [MOVE[a]])]
    assert {e.pointer for e in back.account.target if e.row is not UNEDITED} == {MOVE[a]}
    assert {e.pointer for e in back.account.source if e.row is not UNEDITED} == {MOVE[b]}


def test_a_weapon_edit_lands_on_its_own_weapon_past_variants() -> None:
    """l-map-combo's 撃ち分け variants take no place in pp, so pp's weapon k is not up's weapon k:
    an edited damage class lands on the up weapon that pp weapon came from, and only there."""
    doc = json.loads((ROOT / "samples/up/l-map-combo.json").read_text("utf-8"))
    there = convert(doc, "pp", check=False).document
    weapons = there["machine"]["weapons"]
    k = len(weapons) - 1
    weapons[k]["damage"] = "D" if weapons[k]["damage"] != "D" else "L"
    back = convert(there, "up", check=False)
    name = weapons[k]["name"]
    home = next(i for i, w in enumerate(doc["weapons"]) if w["name"] == name and not w.get("variant_of"))
    assert home != k  # the variants shifted the places
    assert {p.split("/")[2] for p in _diff(doc, back.document)} == {str(home)}
    assert all(p.startswith(f"/weapons/{home}/damage/") for p in _diff(doc, back.document))


def test_an_edit_with_no_counterpart_is_said() -> None:
    """pp's 作業性 has no up field: the edit is named as not carried back, and A is returned whole."""
    doc = _sample("up")
    there = _edited(convert(doc, "pp", check=False).document, "/machine/workability", 1)
    back = convert(there, "up", check=False)
    assert back.document == doc
    lost = [f for f in back.findings if f.code == "CONVERT_EDIT_NOT_CARRIED"]
    assert [f.params["fields"] for f in lost] == [["/machine/workability"]]


def test_a_removed_field_means_converting_afresh() -> None:
    """A weapon deleted from B changes B's fields, not only values: B -> A is converted afresh and
    the edit named (CONVERT_EDITED), never folded."""
    doc = _sample("up")
    there = convert(doc, "pp", check=False).document
    del there["machine"]["weapons"][0]
    back = convert(there, "up", check=False)
    codes = [f.code for f in back.findings]
    assert "CONVERT_EDITED" in codes and "CONVERT_FOLDED" not in codes
    assert len(back.document["weapons"]) == len(there["machine"]["weapons"])


DOCUMENTS = {"up": up_unit(), "mailgear": mailgear_pilot(), "pp": pp_character()}


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}->{b}->{a}" for a, b in PAIRS])
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_generated_edits_stay_in_their_counterpart(a: str, b: str, data) -> None:
    """For generated documents: raising B's move changes at most A's move, nothing else."""
    doc = data.draw(DOCUMENTS[a])
    try:
        there = convert(doc, b, check=False).document
    except InputError:  # no machine, nothing carried: refused, tested elsewhere
        return
    if get(there, MOVE[b]) is None:
        return
    back = convert(_edited(there, MOVE[b], 3), a, check=False)
    assert _diff(doc, back.document) <= {MOVE[a]}

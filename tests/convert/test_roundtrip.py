"""Round trips through the common model, under Hypothesis: lifting and lowering within one system
is the identity; A -> B -> A gives A back when B was not edited; every field of both documents is
named by a row of the direction's table; scaling keeps order."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.convert import convert
from converter.convert import carried
from converter.convert.conversion import LIFT
from converter.convert.mapping import load_mapping
from converter.core.errors import InputError
from tests.strategies import mailgear_pilot, pp_character, up_unit

SYSTEMS = ("up", "mailgear", "pp")
DOCUMENTS = {"up": up_unit(), "mailgear": mailgear_pilot(), "pp": pp_character()}
FAST = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("system", SYSTEMS)
@FAST
@given(data=st.data())
def test_lift_then_lower_in_one_system_is_the_identity(system: str, data) -> None:
    """lower_s(lift_s(doc)) == doc for every generated document of each system."""
    doc = data.draw(DOCUMENTS[system])
    assert LIFT[system](doc).leaves.rebuild() == doc
    assert convert(doc, system, check=False).document == doc


def _convert_or_refused(doc: dict, to: str):
    try:
        return convert(doc, to, check=False)
    except InputError as exc:  # a pp character with no machine has no up unit
        assert exc.code == "CONVERT_NO_MACHINE" and to == "up" and not isinstance(doc.get("machine"), dict)
        return None


@pytest.mark.parametrize("source,target", [(a, b) for a in SYSTEMS for b in SYSTEMS if a != b])
@FAST
@given(data=st.data())
def test_there_and_back_restores_the_source(source: str, target: str, data) -> None:
    """A -> B -> A == A when B was not edited (the carried source, its fingerprint unchanged)."""
    doc = data.draw(DOCUMENTS[source])
    there = _convert_or_refused(doc, target)
    if there is None:
        return
    back = convert(there.document, source, check=False)
    assert back.document == doc
    assert [f.code for f in back.findings if f.code.startswith("CONVERT_R")] == ["CONVERT_RESTORED"]


@pytest.mark.parametrize("source,target", [(a, b) for a in SYSTEMS for b in SYSTEMS if a != b])
@FAST
@given(data=st.data())
def test_every_field_is_accounted_for(source: str, target: str, data) -> None:
    """Each leaf of the source and of the converted document appears once in the account, each
    named by a row of the direction's table (none left to the fallback)."""
    doc = data.draw(DOCUMENTS[source])
    there = _convert_or_refused(doc, target)
    if there is None:
        return
    from converter.convert.leaves import leaves

    acc = there.account
    assert [e.pointer for e in acc.source] == list(leaves(doc).values)
    assert [e.pointer for e in acc.target] == list(leaves(carried.without_key(there.document)).values)
    assert [e.side + e.pointer for e in acc.unlisted()] == []


@settings(max_examples=200, deadline=None)
@given(a=st.floats(0, 3000), b=st.floats(0, 3000))
def test_scaling_keeps_order(a: float, b: float) -> None:
    """A sturdier up unit stays sturdier in mailgear and pp: the grade is monotonic (extrapolated
    past the anchors, never clamped)."""
    m = load_mapping()
    lo, hi = sorted((a, b))
    for system, field in (("mailgear", ""), ("pp", "/machine/durability"), ("pp", "/machine/toughness")):
        g_lo, g_hi = m.grade(lo, "durability", "up"), m.grade(hi, "durability", "up")
        assert m.at_grade(g_lo, "durability", system, field) <= m.at_grade(g_hi, "durability", system, field)

"""A -> C is close to A -> B -> C for the scaled fields every system has (durability, mobility,
move), where "close" is what the units' rounding allows (docs/conversion.md, "Close"):

    tolerance in C = (half a rounding step of B, in the common unit) x (C's units per common unit,
                      at most) + one rounding step of C

The common unit is the quantity's: the grade for durability (a B or C unit is worth 1 / the
width of the anchor segment it lies on: the narrowest for B's error, the widest for C's), the pip
for mobility (up: 10 % a pip), the grid step for move (pp: speed_per_grid a step). Each path
rounds once in C, which gives the last step. Values held at a legal limit (CONVERT_CLAMPED, or
CONVERT_OVER_LIMIT at a maximum) are not scaled and are left out."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.convert import convert
from converter.convert.mapping import Mapping, load_mapping
from converter.core.errors import InputError
from converter.core.pointers import get
from tests.strategies import mailgear_pilot, pp_character, up_unit

#: each quantity's fields per system, and each field's rounding step in its own unit (up HP,
#: mobility: snapped to 5, convert/up.py; everything else to whole numbers)
FIELDS = {
    "durability": {"up": {"/stats/hp": 5}, "mailgear": {"/gear/stats/durability": 1},
                   "pp": {"/machine/durability": 1, "/machine/toughness": 1}},
    "mobility": {"up": {"/stats/mobility": 5}, "mailgear": {"/gear/stats/mobility": 1}, "pp": {"/machine/mobility": 1}},
    "move": {"up": {"/stats/move": 1}, "mailgear": {"/gear/stats/move": 1}, "pp": {"/machine/speed": 1}},
}
SYSTEMS = ("up", "mailgear", "pp")
DOCUMENTS = {"up": up_unit(), "mailgear": mailgear_pilot(), "pp": pp_character()}
TRIPLES = [(a, b, c) for a in SYSTEMS for b in SYSTEMS for c in SYSTEMS if len({a, b, c}) == 3]


def _per_unit(quantity: str, system: str, field: str, m: Mapping, widest: bool) -> float:
    """How many common units (grade, pip, grid step) one unit of ``field`` is worth: for the
    grade, over the narrowest (``widest`` False) or the widest anchor segment."""
    if quantity == "durability":
        lo, mid, hi = m.anchor("durability", system, field if system == "pp" else "").values
        width = max(mid - lo, hi - mid) if widest else min(mid - lo, hi - mid)
        return 1 / width
    if quantity == "mobility":
        return 1 / m.param("pip_percent") if system == "up" else 1.0
    return 1 / m.param("speed_per_grid") if system == "pp" else 1.0


def tolerance(quantity: str, via: str, target: str, field: str, m: Mapping) -> float:
    """How far A -> B -> C may lie from A -> C in ``field`` of C (see the module's docstring)."""
    error = max(0.5 * step * _per_unit(quantity, via, f, m, widest=False) for f, step in FIELDS[quantity][via].items())
    return error / _per_unit(quantity, target, field, m, widest=True) + FIELDS[quantity][target][field]


def _clamped(result) -> set[str]:
    return {f.pointer for f in result.findings if f.code in ("CONVERT_CLAMPED", "CONVERT_OVER_LIMIT")}


@pytest.mark.parametrize("a,b,c", TRIPLES, ids=[f"{a}->{b}->{c}" for a, b, c in TRIPLES])
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_going_through_a_third_system_stays_close(a: str, b: str, c: str, data) -> None:
    """|A -> C − A -> B -> C| ≤ the tolerance, field by field, for generated documents."""
    m = load_mapping()
    doc = data.draw(DOCUMENTS[a])
    try:
        direct, first = convert(doc, c, check=False), convert(doc, b, check=False)
        second = convert(first.document, c, check=False)
    except InputError:  # no machine: nothing to compare
        return
    for quantity, fields in FIELDS.items():
        for field in fields[c]:
            x, y = get(direct.document, field), get(second.document, field)
            if x is None or y is None or field in _clamped(direct) | _clamped(second) \
                    or any(get(first.document, f) is None or f in _clamped(first) for f in fields[b]) \
                    or not any(get(doc, f) is not None for f in fields[a]):
                continue
            assert abs(x - y) <= tolerance(quantity, b, c, field, m), (quantity, field, x, y)


def test_the_tolerance_is_the_rounding_and_no_more() -> None:
    """Worked by hand: up -> pp -> mailgear durability: pp's toughness rounds by half a point on a
    segment of 2 (2/4/8): 0.25 of a grade, × mailgear's widest segment 60 (60/120) = 15, + 1 = 16;
    mailgear -> pp speed: half of mailgear's whole step is 0.5 grid, × pp's 2/3 speed a grid
    = 0.33, + 1 = 1.33 (pp's speed may differ by one)."""
    m = load_mapping()
    assert tolerance("durability", "pp", "mailgear", "/gear/stats/durability", m) == pytest.approx(16)
    assert tolerance("move", "mailgear", "pp", "/machine/speed", m) == pytest.approx(0.5 * 2 / 3 + 1, abs=1e-3)

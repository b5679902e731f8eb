"""Issue 31, item 2: a stronger source never gives a weaker target. Raising any one source
quantity never lowers the target's corresponding quantity, nor the up unit's price (the only
target that prices a machine: pp's PP buy the character, mailgear has no points) while the
unit fits a size. When no size holds every converted stat, what is held back is named
(CONVERT_OVER_LIMIT) and the size is the one holding back least: there the price may fall, and
the finding says why (docs/conversion.md, "Legal by construction").

Checked under Hypothesis over generated documents of every system, and as a sweep over every row
(model × rank) of the example catalog, one stat raised at a time."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.convert import convert
from converter.core.errors import InputError
from converter.core.pointers import get, put
from converter.sheets.source import load_catalog
from tests.strategies import mailgear_pilot, pp_character, up_unit

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog(ROOT / "samples/mailgear/.catalog/catalog-example.json")
SYSTEMS = ("up", "mailgear", "pp")
#: each source field that holds a quantity, with its step, and the target fields that hold the
#: same quantity (the counterparts that must not fall)
COUNTERPARTS: dict[str, dict[str, tuple[int, dict[str, tuple[str, ...]]]]] = {
    "mailgear": {
        "/gear/stats/durability": (1, {"up": ("/stats/hp",), "pp": ("/machine/durability", "/machine/toughness")}),
        "/gear/stats/energy": (1, {"up": ("/stats/en",)}),
        "/gear/stats/output": (1, {"up": ("/stats/power",)}),
        "/gear/stats/mobility": (1, {"up": ("/stats/mobility",), "pp": ("/machine/mobility",)}),
        "/gear/stats/move": (1, {"up": ("/stats/move",), "pp": ("/machine/speed",)}),
        "/gear/stats/guard": (1, {"pp": ("/machine/workability",)}),
    },
    "up": {
        "/stats/hp": (5, {"mailgear": ("/gear/stats/durability",), "pp": ("/machine/durability", "/machine/toughness")}),
        "/stats/en": (5, {"mailgear": ("/gear/stats/energy",)}),
        "/stats/armor": (1, {"pp": ("/machine/armor",)}),
        "/stats/power": (1, {"mailgear": ("/gear/stats/output",)}),
        "/stats/mobility": (5, {"mailgear": ("/gear/stats/mobility",), "pp": ("/machine/mobility",)}),
        "/stats/move": (1, {"mailgear": ("/gear/stats/move",), "pp": ("/machine/speed",)}),
    },
    "pp": {
        "/machine/durability": (1, {"up": ("/stats/hp",), "mailgear": ("/gear/stats/durability",)}),
        "/machine/toughness": (1, {"up": ("/stats/hp",), "mailgear": ("/gear/stats/durability",)}),
        "/machine/armor": (1, {"up": ("/stats/armor",)}),
        "/machine/mobility": (1, {"up": ("/stats/mobility",), "mailgear": ("/gear/stats/mobility",)}),
        "/machine/speed": (1, {"up": ("/stats/move",), "mailgear": ("/gear/stats/move",)}),
        "/machine/workability": (1, {"mailgear": ("/gear/stats/guard",)}),
    },
}


def _raised(doc: dict[str, Any], field: str, step: int) -> dict[str, Any]:
    out = copy.deepcopy(doc)
    put(out, field, get(doc, field) + step)
    return out


def weaker(doc: dict[str, Any], field: str, step: int, target: str) -> list[str]:
    """The counterparts (and the up price) that fall when ``field`` of ``doc`` rises by ``step``."""
    before = convert(doc, target, catalog=CATALOG, check=False).document
    raised = convert(_raised(doc, field, step), target, catalog=CATALOG, check=False)
    after = raised.document
    fields = COUNTERPARTS[doc["system"]][field][1].get(target, ())
    out = [f"{f}: {get(before, f)} -> {get(after, f)}" for f in fields if get(after, f) < get(before, f)]
    held = any(f.code == "CONVERT_OVER_LIMIT" for f in raised.findings)
    if target == "up" and after["declared_total"] < before["declared_total"] and not held:
        out.append(f"price: {before['declared_total']} -> {after['declared_total']}")
    return out


DOCUMENTS = {"up": up_unit(), "mailgear": mailgear_pilot(), "pp": pp_character()}
DIRECTIONS = [(a, b) for a in SYSTEMS for b in SYSTEMS if a != b]


@pytest.mark.parametrize("source,target", DIRECTIONS, ids=[f"{a}->{b}" for a, b in DIRECTIONS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_raising_one_source_quantity_never_weakens_the_target(source: str, target: str, data: Any) -> None:
    """For a generated document and any one of its quantities raised a step: no counterpart falls,
    nor the up price."""
    doc = data.draw(DOCUMENTS[source])
    fields = [f for f in COUNTERPARTS[source] if isinstance(get(doc, f), int)]
    if not fields:
        return
    field = data.draw(st.sampled_from(fields))
    try:
        assert weaker(doc, field, COUNTERPARTS[source][field][0], target) == []
    except InputError:  # a pp character with no machine has no up unit
        return


def _catalog_rows() -> list[tuple[str, str, dict[str, Any]]]:
    raw = json.loads((ROOT / "samples/mailgear/.catalog/catalog-example.json").read_text("utf-8"))
    return [(m["name"], rank, stats) for m in raw["models"] for rank, stats in m["ranks"].items()]


def _gear(name: str, rank: str, stats: dict[str, Any]) -> dict[str, Any]:
    """veteran-custom's pilot and weapons in the catalog row's gear."""
    doc = json.loads((ROOT / "samples/mailgear/veteran-custom.json").read_text("utf-8"))
    doc["gear"] = {"model": name, "rank": rank, "stats": dict(stats)}
    return doc


@pytest.mark.parametrize("target", ["up", "pp"])
def test_every_catalog_row_raised_one_stat_at_a_time_never_weakens_the_target(target: str) -> None:
    """Every model at every rank of the example catalog, each gear stat raised by one: no
    counterpart falls, nor the up price."""
    found = {}
    for name, rank, stats in _catalog_rows():
        for field in COUNTERPARTS["mailgear"]:
            if target in COUNTERPARTS["mailgear"][field][1]:
                got = weaker(_gear(name, rank, stats), field, 1, target)
                if got:
                    found[f"{name} {rank} {field}"] = got
    assert found == {}

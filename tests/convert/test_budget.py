"""Issue 14, item 6: a converted up unit's price against the seed's budget classes (seed 000:4:
1200 a 中堅 real robot, 1500 a νガンダム, 2000 a super robot). Into up, the unit is priced by up's
engine and the nearest class is reported; out of up, no target prices a machine (pp's PP buys the
character, mailgear has no points), so there is nothing to land near."""
from __future__ import annotations

import copy
import json
from pathlib import Path

from typing import Any

import pytest

from converter.convert import convert
from converter.convert.conversion import source_band
from converter.convert.mapping import load_mapping
from converter.convert.up import BUDGET_CLASSES
from converter.sheets.source import load_catalog

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog(ROOT / "samples/mailgear/.catalog/catalog-example.json")
#: the seed's band: its lowest and highest class, widened by half the gap to the next class
BAND = (BUDGET_CLASSES[0] - (BUDGET_CLASSES[1] - BUDGET_CLASSES[0]) / 2,
        BUDGET_CLASSES[-1] + (BUDGET_CLASSES[-1] - BUDGET_CLASSES[-2]) / 2)
#: samples whose machine is above the catalog's middle rank (C), or a pp machine at the
#: proposal's standard figures: a protagonist's machine, what the seed's classes describe.
#: option-cap (rank C) is not one: its cheapest legal size is L, whose base gives HP 350 and
#: power 25 for 500 UP (859 in all), cheaper than raising an M to its converted 300 HP.
STANDARD_OR_ABOVE = ["mailgear/veteran-custom.json", "mailgear/veteran-fortune.json",
                     "pp/pilot_with_machine.json"]


def _doc(name: str) -> dict:
    return json.loads((ROOT / "samples" / name).read_text("utf-8"))


def _up(name: str) -> Any:
    return convert(json.loads((ROOT / "samples" / name).read_text("utf-8")), "up", catalog=CATALOG)


@pytest.mark.parametrize("name", STANDARD_OR_ABOVE)
def test_a_standard_machine_lands_within_the_seeds_band(name: str) -> None:
    """Priced by up's engine, within the band; the finding names the total and its nearest class."""
    result = _up(name)
    assert BAND[0] <= result.total <= BAND[1], result.total
    found = [f.params for f in result.findings if f.code == "CONVERT_BUDGET_CLASS"]
    assert found == [{"total": result.total, "nearest": min(BUDGET_CLASSES, key=lambda c: abs(c - result.total)),
                      "budget": result.document["budget"]}]
    assert result.document["declared_total"] == result.total
    # the budget: the source band's class (mapping.toml [[bands]]), or the price when that is more
    assert result.document["budget"] == max(result.total, source_band(_doc(name), load_mapping())["up_budget"])


def test_a_starting_gear_lands_below_the_band() -> None:
    """starting-pilot's E-rank gear (the catalog's floor) is weaker than any machine the seed's
    classes describe, and its unit says so by its price: below the band, not lifted into it."""
    assert _up("mailgear/starting-pilot.json").total < BAND[0]


def test_a_sturdier_machine_never_costs_less() -> None:
    """Raising the source's durability never lowers the price, across sizes too: the size is the
    cheapest that legally holds every converted stat (docs/conversion.md, "Legal by construction"),
    so crossing into a larger size (whose base HP is free) is taken only when it is cheaper. Past
    the HP an M holds with this machine's 運動性 30 (which no L holds), no size holds both: each
    such conversion names what it held back (CONVERT_OVER_LIMIT) and is left out."""
    doc = json.loads((ROOT / "samples/mailgear/veteran-custom.json").read_text("utf-8"))
    sizes, prices = set(), []
    for durability in range(30, 130, 5):
        x = copy.deepcopy(doc)
        x["gear"]["stats"]["durability"] = durability
        result = convert(x, "up", catalog=CATALOG, check=False)
        if any(f.code == "CONVERT_OVER_LIMIT" for f in result.findings):
            continue
        sizes.add(result.document["size"])
        prices.append(result.document["declared_total"])
    assert len(sizes) >= 2 and len(prices) >= 8
    assert prices == sorted(prices), prices


@pytest.mark.parametrize("target", ["pp", "mailgear"])
def test_out_of_up_no_price_depends_on_the_unit(target: str) -> None:
    """Two units of one band (a super robot and a carrier, both top) give the same pp total (the
    band's pilot) and no mailgear total: neither target prices a machine, so no class can be
    landed near; only the band, read from the unit's budget, moves the pilot."""
    totals = {convert(json.loads((ROOT / f"samples/up/{n}.json").read_text("utf-8")), target, catalog=CATALOG).total
              for n in ("l-super-robot", "lll-carrier")}
    assert len(totals) == 1

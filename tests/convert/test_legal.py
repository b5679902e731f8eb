"""Issue 31, items 1 and 6: a converted sheet is legal in its target, or says what it held back;
the unit conversions are exact (fractions), rounded once at the end.

Into up the size is the cheapest that legally holds every converted stat; a stat below the size's
base is lifted to it (CONVERT_CLAMPED, the size gives it free), one above every size's maximum is
held at the chosen size's maximum with CONVERT_OVER_LIMIT naming the value and the limit."""
from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from converter.convert import convert
from converter.convert.carried import without_key
from converter.convert.files import render_text
from converter.convert.mapping import load_mapping
from converter.convert.up import SIZE_ORDER, stat_limit
from converter.core.errors import InputError
from converter.rules.up.tables import STAT_IDS, tables
from converter.sheets.source import load_catalog

ROOT = Path(__file__).resolve().parents[2]
CATALOG_PATH = ROOT / "samples/mailgear/.catalog/catalog-example.json"
CATALOG = load_catalog(CATALOG_PATH)
SYSTEMS = ("up", "mailgear", "pp")
SAMPLES = sorted(p for s in SYSTEMS for p in (ROOT / "samples" / s).glob("*.json")
                 if "system" in json.loads(p.read_text("utf-8")))
CASES = [(p, t) for p in SAMPLES for t in SYSTEMS if t != json.loads(p.read_text("utf-8"))["system"]]


def _errors_unnamed(result: Any) -> list[str]:
    """The target check's errors at a pointer no CONVERT_OVER_LIMIT names."""
    named = {f.pointer for f in result.findings if f.code == "CONVERT_OVER_LIMIT"}
    return [f"{f.code} {f.pointer}" for f in result.checked if f.level.value == "error" and f.pointer not in named]


@pytest.mark.parametrize("path,target", CASES, ids=[f"{p.parent.name}/{p.stem}->{t}" for p, t in CASES])
def test_every_sample_converts_legally_or_names_its_excess(path: Path, target: str) -> None:
    """Every sample in every direction passes the target's own check, or each error is a named
    over-limit finding."""
    try:
        result = convert(json.loads(path.read_text("utf-8")), target, catalog=CATALOG)
    except InputError as exc:  # a pp character with no machine has nothing to make a unit of
        assert exc.code == "CONVERT_NO_MACHINE"
        return
    assert _errors_unnamed(result) == []


def _up_within_limits(doc: dict[str, Any]) -> list[str]:
    rules = tables().sizes[doc["size"]].stats
    return [sid for sid in STAT_IDS if not rules[sid].base <= doc["stats"][sid] <= stat_limit(rules[sid])]


def test_every_catalog_row_becomes_a_legal_unit() -> None:
    """Every model at every rank of the example catalog (in veteran-custom's sheet) converts into
    a unit up's check accepts, each stat within its size, anything held back named."""
    raw = json.loads(CATALOG_PATH.read_text("utf-8"))
    doc = json.loads((ROOT / "samples/mailgear/veteran-custom.json").read_text("utf-8"))
    bad = {}
    for model in raw["models"]:
        for rank, stats in model["ranks"].items():
            doc["gear"] = {"model": model["name"], "rank": rank, "stats": dict(stats)}
            result = convert(doc, "up", catalog=CATALOG)
            if _errors_unnamed(result) or _up_within_limits(result.document):
                bad[f"{model['name']} {rank}"] = _errors_unnamed(result) + _up_within_limits(result.document)
    assert bad == {}


def test_an_excess_is_named_with_its_value_and_limit_and_held_there() -> None:
    """veteran-fortune's 運動性 (機動力 5 = 50 %) fits no size that holds its HP: the unit holds it
    at its size's maximum, the finding names both numbers, and the GM reads it in the text."""
    doc = json.loads((ROOT / "samples/mailgear/veteran-fortune.json").read_text("utf-8"))
    result = convert(doc, "up", catalog=CATALOG)
    over = [f for f in result.findings if f.code == "CONVERT_OVER_LIMIT"]
    assert [f.pointer for f in over] == ["/stats/mobility"]
    size = tables().sizes[result.document["size"]]
    limit = stat_limit(size.stats["mobility"])
    assert over[0].params["value"] == 50 and over[0].params["limit"] == limit
    assert result.document["stats"]["mobility"] == limit
    assert result.report.valid
    assert "50" in over[0].message("ja") and f"{limit}" in over[0].message("en")
    assert over[0].message("ja") in render_text(result, "ja")


def test_the_size_is_the_cheapest_that_holds_every_stat() -> None:
    """pilot_with_machine's unit: no other size holding the same converted stats legally costs less
    (each size's price by up's engine, the stats it would hold)."""
    from converter.convert.up import _fit, _unit, _wanted
    from converter.convert.units import Lowering
    from converter.convert.pp import lift

    doc = json.loads((ROOT / "samples/pp/pilot_with_machine.json").read_text("utf-8"))
    result = convert(doc, "up", catalog=CATALOG, check=False)
    sheet = lift(doc)
    assert sheet.machine is not None
    low = Lowering(load_mapping())
    wanted = _wanted(sheet.machine, low)
    prices = {}
    for size in SIZE_ORDER:
        fit = _fit(size, wanted)
        if not fit.over:
            prices[size] = _unit(sheet, sheet.machine, fit, Lowering(low.mapping))["declared_total"]
    assert result.document["size"] == min(prices, key=lambda s: (prices[s], SIZE_ORDER.index(s)))
    assert result.document["declared_total"] == min(prices.values())


def test_the_grid_step_is_exactly_two_thirds() -> None:
    """speed_per_grid is 2/3 itself, not 0.6667: pp speed 3 is exactly 4.5 grid steps."""
    from converter.convert.model import Measure
    from converter.convert.units import grid

    m = load_mapping()
    assert m.param("speed_per_grid") == Fraction(2, 3)
    assert grid(Measure(3, "pp", "move"), m) == Fraction(9, 2)


def test_an_l_units_move_survives_pp_without_the_carried_source() -> None:
    """An L unit's 移動力 5 → pp speed 3 (5 × 2/3 = 3.33) → back 3 ÷ 2/3 = 4.5, rounded half up
    once: 5, L's base (with 0.6667 it was 4.4998 → 4, below the base)."""
    doc = json.loads((ROOT / "samples/up/l-super-robot.json").read_text("utf-8"))
    assert doc["size"] == "L" and doc["stats"]["move"] == 5
    there = convert(doc, "pp", check=False).document
    assert there["machine"]["speed"] == 3
    back = convert(without_key(there), "up", check=False).document
    assert back["stats"]["move"] == 5


def test_a_mapping_file_may_write_a_parameter_as_a_fraction(tmp_path: Path) -> None:
    """A GM's "3/4" is read exactly; a word is refused naming the key."""
    good = tmp_path / "good.toml"
    good.write_text('[parameters]\nspeed_per_grid = "3/4"\n', "utf-8")
    assert load_mapping(good).param("speed_per_grid") == Fraction(3, 4)
    bad = tmp_path / "bad.toml"
    bad.write_text('[parameters]\nspeed_per_grid = "3/0"\n', "utf-8")
    with pytest.raises(InputError) as got:
        load_mapping(bad)
    assert got.value.code == "CONVERT_MAPPING_INVALID" and "speed_per_grid" in str(got.value)

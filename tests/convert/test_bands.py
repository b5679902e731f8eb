"""Issue 31, item 7: power bands as data (mapping.toml [[bands]]) keep a sheet's standing: a
starting sheet stays starting, a veteran veteran, a super robot in the top band, for every
sample in every direction. Into mailgear and pp the band is proposed from the source's (the
pilot's level and experience; the attributes' baseline and the budget); into up it is what the
unit's stats cost by up's engine (its budget is the band's, or the price when that is more), so
the price must stay below the next band: veteran-fortune's B-rank gear costs 1530 UP, not the
top band's 1910 that the grade's peak gave (share_up_mailgear)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter.convert import convert
from converter.convert.conversion import source_band
from converter.convert.mapping import load_mapping
from converter.core.errors import InputError
from converter.sheets.source import load_catalog

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog(ROOT / "samples/mailgear/.catalog/catalog-example.json")
#: every sample's band, as a GM reads it (up by its budget, mailgear by its pilot's level, pp by
#: its budget): the table the conversions must keep
BANDS = {
    "up/l-map-combo": "top", "up/l-super-robot": "top", "up/l-transform-land": "top",
    "up/l-transform-marine": "top", "up/l-transform-wing": "top", "up/lll-carrier": "top",
    "up/m-mobile-suit": "veteran", "up/s-real-robot": "starting", "up/ss-armored-trooper": "starting",
    "mailgear/option-cap": "starting", "mailgear/starting-pilot": "starting",
    "mailgear/veteran-custom": "veteran", "mailgear/veteran-fortune": "veteran",
    "pp/ordinary_person": "starting", "pp/pilot_with_machine": "starting", "pp/veteran": "veteran",
}
CASES = [(name, target) for name in BANDS for target in ("up", "mailgear", "pp") if not name.startswith(target + "/")]


def _doc(name: str) -> dict:
    return json.loads((ROOT / "samples" / f"{name}.json").read_text("utf-8"))


def test_the_table_names_every_sample_and_reads_each_band() -> None:
    """Every sample is in the table, and its band read from the document is the table's."""
    samples = {f"{s}/{p.stem}" for s in ("up", "mailgear", "pp") for p in (ROOT / "samples" / s).glob("*.json")
               if "system" in json.loads(p.read_text("utf-8"))}
    assert samples == set(BANDS)
    m = load_mapping()
    assert {name: source_band(_doc(name), m)["name"] for name in BANDS} == BANDS


@pytest.mark.parametrize("name,target", CASES, ids=[f"{n}->{t}" for n, t in CASES])
def test_a_conversion_keeps_the_band(name: str, target: str) -> None:
    """The converted sheet's band (read as the source's was) is the source's."""
    try:
        result = convert(_doc(name), target, catalog=CATALOG, check=False)
    except InputError as exc:
        assert exc.code == "CONVERT_NO_MACHINE"
        return
    assert source_band(result.document, load_mapping())["name"] == BANDS[name]


def test_the_band_proposes_the_pilot() -> None:
    """A veteran pp character becomes a level-B mailgear pilot with the catalog's 45 experience;
    a super robot's pilot in pp starts from attributes 5 and a 250-PP budget, above a 40-PP
    civilian (not every attribute 1)."""
    pilot = convert(_doc("pp/veteran"), "mailgear", catalog=CATALOG, check=False).document["pilot"]
    assert (pilot["level"], pilot["experience"]) == ("B", 45)
    pp = convert(_doc("up/l-super-robot"), "pp", check=False).document
    assert set(pp["attributes"].values()) == {5} and pp["budget"] == 250
    assert pp["declared_total"] > 40

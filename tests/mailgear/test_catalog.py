"""The catalog: the tables seed 001 points at but does not contain, supplied by a group.
Loading checks it against its own schema and rules; each finding points into the catalog, and at
the catalog sheet's cell when there is one. With a catalog, the sheet is checked against it."""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from converter.core.errors import InputError
from converter.core.findings import Severity
from converter.sheets.source import load_catalog
from converter.rules.mailgear import Catalog, evaluate as price
from converter.check.context import catalog_from

from .conftest import EXAMPLE_CATALOG, example_catalog, codes, only, pilot, skills, weapon


def _example() -> dict:
    return json.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))


def _at(cat: Catalog, where: str):
    found = [f for f in cat.findings if f.pointer == where]
    assert len(found) == 1, cat.findings
    return found[0]


def _errors(cat: Catalog) -> set[tuple[str, str]]:
    return {(f.code, f.pointer) for f in cat.findings if f.level is Severity.ERROR}


def test_the_example_catalog_is_clean_and_says_it_is_invented() -> None:
    """The shipped example loads without findings, and its first field says it is not the rules."""
    raw = _example()
    assert next(iter(raw)) == "about"
    assert "INVENTED" in raw["about"] and "NOT from the rules" in raw["about"]
    cat = load_catalog(EXAMPLE_CATALOG)
    assert cat.findings == [] and cat.valid


def test_an_unreadable_catalog_file_stops_work(tmp_path: Path) -> None:
    """A missing file or broken JSON is an InputError (exit 2) naming the file."""
    with pytest.raises(InputError, match="no such file"):
        load_catalog(tmp_path / "gone.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{", encoding="utf-8")
    with pytest.raises(InputError, match="bad.json"):
        load_catalog(bad)


def test_schema_errors_point_into_the_catalog() -> None:
    """A wrong type, a missing stat, an unknown band or skill: MG_CATALOG_SCHEMA at each place."""
    raw = _example()
    raw["levels"][2]["experience"] = "25"
    del raw["models"][0]["ranks"]["C"]["move"]
    raw["weapons"][1]["bands"] = ["xr"]
    raw["options"][0]["effects"][0]["skill"] = "newtype"
    assert _errors(catalog_from(raw)) == {
        ("MG_CATALOG_SCHEMA", "/levels/2/experience"),
        ("MG_CATALOG_SCHEMA", "/models/0/ranks/C"),
        ("MG_CATALOG_SCHEMA", "/weapons/1/bands/0"),
        ("MG_CATALOG_SCHEMA", "/options/0/effects/0/skill"),
    }


def test_schema_messages_are_worded_like_document_checks() -> None:
    """A catalog schema finding says, in Japanese and English, what the document checks say."""
    raw = _example()
    raw["levels"][2]["experience"] = "25"
    f = _at(catalog_from(raw), "/levels/2/experience")
    # The expected type in each message's own language (issue 11: no English inside Japanese).
    assert f.message("ja").startswith("カタログ: ") and "整数が必要です" in f.message("ja")
    assert f.message("en").startswith("catalog: ") and "a whole number expected" in f.message("en")


def test_ladders_must_rise() -> None:
    """A ladder row not above the one before is MG_CATALOG_ORDER at its threshold."""
    raw = _example()
    raw["gear_ranks"][3]["rank_points"] = 20
    assert _errors(catalog_from(raw)) == {("MG_CATALOG_ORDER", "/gear_ranks/3/rank_points")}


def test_names_are_unique_however_written() -> None:
    """「Ａ．Ｇ．Ｓ」 and 「A.G.S」 are one name: the second is MG_CATALOG_DUPLICATE."""
    raw = _example()
    raw["options"].append({"name": "A.G.S", "effects": []})
    last = len(raw["options"]) - 1
    assert _errors(catalog_from(raw)) == {("MG_CATALOG_DUPLICATE", f"/options/{last}/name")}


def test_a_model_rank_must_be_in_the_rank_table() -> None:
    """A model with rank Z, which the 階級 table never gives, is MG_CATALOG_RANK_UNKNOWN."""
    raw = _example()
    raw["models"][1]["ranks"]["Z"] = copy.deepcopy(raw["models"][1]["ranks"]["E"])
    assert _errors(catalog_from(raw)) == {("MG_CATALOG_RANK_UNKNOWN", "/models/1/ranks/Z")}


def test_a_catalog_that_is_not_an_object() -> None:
    """A list where the catalog should be: one MG_CATALOG_SCHEMA at the root."""
    assert _errors(catalog_from([1, 2])) == {("MG_CATALOG_SCHEMA", "")}


def test_a_catalog_finding_names_its_cell() -> None:
    """From a catalog sheet, a finding takes the cell of its place or of the nearest parent."""
    raw = _example()
    raw["levels"][2]["experience"] = 5
    cat = catalog_from(raw, cells={"/levels/2": "カタログ!A7",
                                        "/levels/2/experience": "カタログ!B7"})
    assert [(f.code, f.cell) for f in cat.findings] == [("MG_CATALOG_ORDER", "カタログ!B7")]
    assert cat.cell_for("/levels/2/level") == "カタログ!A7"
    assert cat.cell_for("/models/0") == ""


# --- the sheet checked against a catalog ----------------------------------------------------------

def _sheet(**overrides) -> dict:
    """A pilot matching the example catalog: 経験 20 → D, 階級 22 → C, a ボルワーク C."""
    cat = _example()
    stats = next(m for m in cat["models"] if m["name"] == "ボルワーク")["ranks"]["C"]
    doc = pilot(gear={"model": "ボルワーク", "rank": "C", "stats": dict(stats)},
                equipment=[weapon("ヒートナイフ", ("cr",), extra_damage=2, energy=0)])
    doc["pilot"].update(experience=20, rank_points=22, level="D")
    doc.update(overrides)
    return doc


def test_a_sheet_matching_the_catalog_has_no_finding() -> None:
    """Level, rank, model stats and weapon all as the catalog gives them: nothing to say."""
    assert price(_sheet(), catalog=example_catalog()).findings == []


def test_the_level_letter_is_checked_against_the_ladder() -> None:
    """Level C at 経験 20 (the ladder gives D); a letter the ladder lacks is unknown."""
    doc = _sheet()
    doc["pilot"]["level"] = "C"
    result = price(doc, catalog=example_catalog())
    assert codes(result) == {("MG_LEVEL_MISMATCH", "/pilot/level")}
    assert only(result, "MG_LEVEL_MISMATCH").params["expected"] == "D"
    doc["pilot"]["level"] = "Q"
    assert codes(price(doc, catalog=example_catalog())) == {("MG_LEVEL_UNKNOWN", "/pilot/level")}


def test_the_gear_rank_is_checked_against_rank_points() -> None:
    """階級 22 gives C: a C+ (専用機) there is MG_GEAR_RANK_MISMATCH, a warning for the GM."""
    doc = _sheet()
    doc["gear"].update(rank="C+", boosts=["sensor", "cr", "sr"])
    result = price(doc, catalog=example_catalog())
    assert codes(result) == {("MG_GEAR_RANK_MISMATCH", "/gear/rank")}
    assert only(result, "MG_GEAR_RANK_MISMATCH").level is Severity.WARNING


def test_gear_stats_are_compared_with_the_model() -> None:
    """A stat that differs from the model's is MG_CATALOG_MISMATCH; the sheet's value is used."""
    doc = _sheet()
    doc["gear"]["stats"]["move"] = 9
    result = price(doc, catalog=example_catalog())
    assert codes(result) == {("MG_CATALOG_MISMATCH", "/gear/stats/move")}
    assert result.value("/derived/move") == 9


def test_missing_values_come_from_the_catalog() -> None:
    """A sheet that names the model and weapon only gets their figures from the catalog."""
    doc = _sheet(equipment=[{"kind": "weapon", "name": "ショットガン"},
                            {"kind": "option", "name": "A.G.S"}], skills=skills(iron_wall=1))
    doc["gear"]["stats"] = {}
    result = price(doc, catalog=example_catalog())
    assert codes(result) == set()
    assert result.value("/derived/move") == 3
    assert result.value("/equipment/0/derived/hit_sr") == "+2"
    assert result.value("/derived/skills/iron_wall") == 2


def test_unknown_names_and_other_ranks_are_warned() -> None:
    """A model, weapon or option the catalog lacks, or a rank the model lacks, is a warning."""
    doc = _sheet(equipment=[weapon("ビームライフル"), {"kind": "option", "name": "謎", "effects": []}])
    doc["gear"]["model"] = "試作機"
    assert codes(price(doc, catalog=example_catalog())) == {
        ("MG_CATALOG_UNKNOWN_ITEM", "/gear/model"),
        ("MG_CATALOG_UNKNOWN_ITEM", "/equipment/0/name"),
        ("MG_CATALOG_UNKNOWN_ITEM", "/equipment/1/name"),
    }
    raw = _example()
    del raw["models"][2]["ranks"]["C"]
    assert codes(price(_sheet(), catalog=raw)) == {("MG_MODEL_RANK_MISSING", "/gear/rank")}


def test_item_figures_are_compared_with_the_catalog() -> None:
    """A weapon whose bands or extra damage differ from the catalog's: one warning per field."""
    doc = _sheet(equipment=[weapon("ヒートナイフ", ("sr",), extra_damage=9, energy=0)])
    assert codes(price(doc, catalog=example_catalog())) == {
        ("MG_CATALOG_MISMATCH", "/equipment/0/bands"),
        ("MG_CATALOG_MISMATCH", "/equipment/0/extra_damage"),
    }

"""Limits and malformed shapes of seed 001 not tested elsewhere: a catalog ladder's threshold
reached exactly, the party's floor at a table row, options that raise a skill the pilot has not
learned, an option's stat effect that names no stat, a model or a rank the catalog lacks, and the
party as the set check sees it."""
from __future__ import annotations

import json
from typing import Any

import pytest

from converter.core.evaluation import Evaluation
from converter.core.sets import Member
from converter.rules.mailgear import evaluate as price, party_unit_level
from converter.rules.mailgear.party import party_check

from .conftest import BASE_STATS, EXAMPLE_CATALOG, example_catalog, option, pilot, skills, weapon


def _codes(ev: Evaluation) -> list[tuple[str, str]]:
    """(code, pointer) of the findings, but the notes that a catalog table is missing."""
    return [(f.code, f.pointer) for f in ev.findings if f.code != "MG_CATALOG_TABLE_MISSING"]


def _pilot(experience: int = 20, rank_points: int = 20, level: str = "D", rank: str = "C", **more: Any) -> dict:
    """A pilot on the example catalog's ガルム, whose rank C stats it writes."""
    garm = json.loads(EXAMPLE_CATALOG.read_text("utf-8"))["models"][0]
    return pilot(pilot={"name": "P", "experience": experience, "rank_points": rank_points, "level": level},
                 gear={"model": "ガルム", "rank": rank, "stats": dict(garm["ranks"][rank.rstrip("+")])}, **more)


# --- the catalog's ladders: a threshold reached exactly ------------------------------------------
# The example catalog (invented): level D from experience 10, C from 25; rank C from 20 points.

@pytest.mark.parametrize(("experience", "level"), [(9, "E"), (10, "D"), (24, "D"), (25, "C")])
def test_level_letter_at_the_ladders_thresholds(experience: int, level: str) -> None:
    """At the experience thresholds the right level letter is silent and another one a mismatch naming it."""
    ev = price(_pilot(experience=experience, level=level), catalog=example_catalog())
    assert _codes(ev) == []
    other = "B" if level != "B" else "A"
    ev = price(_pilot(experience=experience, level=other), catalog=example_catalog())
    assert [(f.code, f.params["expected"]) for f in ev.findings] == [("MG_LEVEL_MISMATCH", level)]


@pytest.mark.parametrize(("points", "rank"), [(19, "D"), (20, "C"), (29, "C"), (30, "C+")])
def test_gear_rank_at_the_ladders_thresholds(points: int, rank: str) -> None:
    """At the rank-point thresholds the right gear rank is silent and a wrong one a mismatch naming it."""
    ev = price(_pilot(rank_points=points, rank=rank), catalog=example_catalog())
    assert [c for c in _codes(ev) if c[0] == "MG_GEAR_RANK_MISMATCH"] == []
    wrong = price(_pilot(rank_points=points, rank="E"), catalog=example_catalog())
    assert [(f.code, f.params["expected"]) for f in wrong.findings if f.code == "MG_GEAR_RANK_MISMATCH"] == [
        ("MG_GEAR_RANK_MISMATCH", rank)]


# --- the party: 「人数で割り（切捨て）」 at a table row --------------------------------------------
# The example table: unit level 1 from 0, 2 from 20.

@pytest.mark.parametrize(("sums", "floor", "level"), [
    ([20], 20, 2),            # exactly the row
    ([19], 19, 1),            # one below it
    ([20, 19], 19, 1),        # 39 / 2 = 19.5: the floor, 19, is below the row
    ([20, 21], 20, 2),        # 41 / 2 = 20.5: 20
])
def test_party_floor_at_a_table_row(sums: list[int], floor: int, level: int) -> None:
    """The party's unit level is read at the floor of the pilots' average, around a table row."""
    docs = [pilot(pilot={"name": f"P{k}", "experience": s, "rank_points": 0}) for k, s in enumerate(sums)]
    party = party_unit_level(docs, example_catalog())
    assert (party.floor, party.unit_level, party.findings) == (floor, level, ())


def _member(doc: dict, catalog: Any = None) -> Member:
    return Member(doc, price(doc, catalog=catalog), {"catalog": catalog} if catalog is not None else {})


def test_party_set_check_counts_a_pilot_once_with_the_first_catalog() -> None:
    """The same pilot twice (its JSON and its sheet) counts once; the catalog is the first member's
    that has one."""
    a = pilot(pilot={"name": "A", "player": "x", "experience": 10, "rank_points": 10})
    b = pilot(pilot={"name": "B", "player": "y", "experience": 30, "rank_points": 30})
    outcome = party_check([_member(a), _member(a, example_catalog()), _member(b)])
    assert outcome.name == "mailgear.party"
    assert (outcome.summary.members, outcome.summary.floor, outcome.summary.unit_level) == (2, 40, 3)


def test_party_set_check_without_pilots_shows_nothing() -> None:
    """The party set check over no pilots has no summary."""
    outcome = party_check([])
    assert (outcome.name, outcome.summary) == ("mailgear.party", None)


# --- options raising skills ------------------------------------------------------------------------

def test_two_options_raising_a_skill_not_learned() -> None:
    """Two Ａ．Ｇ．Ｓ raise 鉄壁 from 0 to 2 (「オプションでスキルのレベルが上がる」): one info finding, at
    the first of them, naming it; the level counts both."""
    ev = price(pilot(equipment=[option("Ａ．Ｇ．Ｓ"), option("予備のＡ．Ｇ．Ｓ")]))
    assert [(f.code, f.pointer, f.params["name"]) for f in ev.findings if f.code != "MG_CATALOG_TABLE_MISSING"] == [
        ("MG_OPTION_SKILL_NOT_LEARNED", "/equipment/0", "Ａ．Ｇ．Ｓ")]
    assert ev.value("/derived/skills/iron_wall") == 2
    assert ev.value("/derived/guard") == f"+{BASE_STATS['guard'] + 2}"


def test_options_reaching_a_skills_maximum_exactly() -> None:
    """鉄壁 2 with two options +1: 4, its maximum, and no cut."""
    ev = price(pilot(skills=skills(iron_wall=2), equipment=[option("Ａ"), option("Ｂ")]))
    assert _codes(ev) == [] and ev.value("/derived/skills/iron_wall") == 4


# --- an option's stat effect ----------------------------------------------------------------------

@pytest.mark.parametrize("effect", [{"stat": "luck", "amount": 2}, {"stat": "sensor", "amount": "two"},
                                    {"stat": None, "amount": 2}, {"stat": ["sensor"], "amount": 2}])
def test_a_stat_effect_that_names_no_stat_or_no_amount(effect: dict) -> None:
    """An effect whose stat is not one of the gear's, or whose amount is not whole, is
    MG_ITEM_FIELD_INVALID at it and changes no stat; the option's other effects still count."""
    doc = pilot(equipment=[{"kind": "option", "name": "謎の装置",
                            "effects": [effect, {"stat": "sensor", "amount": 1}]}])
    ev = price(doc)
    assert _codes(ev) == [("MG_ITEM_FIELD_INVALID", "/equipment/0/effects/0")]
    assert ev.value("/derived/stats/sensor") == BASE_STATS["sensor"] + 1


def test_a_stat_effect_by_label() -> None:
    """A stat named by its label (センサー) is the gear's sensor; a negative amount lowers it."""
    doc = pilot(equipment=[{"kind": "option", "name": "重り", "effects": [{"stat": "センサー", "amount": -1}]}])
    assert price(doc).value("/derived/stats/sensor") == BASE_STATS["sensor"] - 1


# --- a model or a rank the catalog lacks ------------------------------------------------------------

def test_a_model_the_catalog_lacks_leaves_the_stats_to_the_sheet() -> None:
    """An unknown model is warned; a stat the sheet leaves out is then missing (an error each)."""
    doc = pilot(gear={"model": "試作機", "stats": {k: v for k, v in BASE_STATS.items() if k != "move"}})
    ev = price(doc, catalog=example_catalog())
    assert ("MG_CATALOG_UNKNOWN_ITEM", "/gear/model") in _codes(ev)
    assert ("MG_STAT_INVALID", "/gear/stats/move") in _codes(ev)
    assert "/derived/move" not in ev.derived and ev.value("/derived/stats/sensor") == BASE_STATS["sensor"]


def test_a_rank_the_model_lacks_leaves_the_stats_to_the_sheet() -> None:
    """ガルム has no rank S in the example catalog: MG_MODEL_RANK_MISSING naming its ranks; the
    sheet's stats are used, and one it leaves out is missing."""
    doc = _pilot(rank_points=20, rank="C")
    doc["gear"]["rank"] = "S"
    del doc["gear"]["stats"]["move"]
    ev = price(doc, catalog=example_catalog())
    missing = [f for f in ev.findings if f.code == "MG_MODEL_RANK_MISSING"]
    assert [(f.pointer, f.params["rank"], f.params["choices"]) for f in missing] == [
        ("/gear/rank", "S", ["E", "D", "C", "B", "A"])]
    assert ("MG_STAT_INVALID", "/gear/stats/move") in _codes(ev)


def test_ladder_rows_without_a_value_are_not_duplicates() -> None:
    """Two rows of a ladder without their letter (or with true) are not one letter listed twice."""
    from converter.rules.mailgear.catalog import Catalog

    raw = {"catalog": "mailgear", "format": 1,
           "levels": [{"experience": 0}, {"experience": 10}, {"experience": 20, "level": True},
                      {"experience": 30, "level": True}, {"experience": 40, "level": ["B"]},
                      {"experience": 50, "level": ["B"]}]}
    assert [f.code for f in Catalog.from_data(raw).findings] == []


def test_an_empty_party_as_the_report_shows_it() -> None:
    """No pilot: nothing counted, no mean, no level."""
    assert {k: v for k, v in party_unit_level([]).to_dict().items() if k != "findings"} == {
        "members": 0, "total": 0, "mean": None, "floor": None, "unit_level": None}


@pytest.mark.parametrize("written", ["鉄壁", "iron_wall", "てっぺき"])
def test_option_effects_written_by_label_or_id_agree_with_the_catalog(written: str) -> None:
    """The sheet's Ａ．Ｇ．Ｓ raising 鉄壁 (by label or id) is what the catalog says (by id): no
    mismatch; a skill the tables do not know is one."""
    catalog = example_catalog()
    doc = _pilot(equipment=[option("Ａ．Ｇ．Ｓ", skill=written)])
    mismatches = [f.pointer for f in price(doc, catalog=catalog).findings if f.code == "MG_CATALOG_MISMATCH"]
    assert mismatches == ([] if written != "てっぺき" else ["/equipment/0/effects"])


@pytest.mark.parametrize(("extra", "adds"), [(0, 0), (3, 3), ("大", 0), (None, 0)])
def test_a_weapons_extra_damage_from_0(extra: Any, adds: int) -> None:
    """「[２ｄ＋壊し屋＋出力＋武器の追加ダメージ]」: 0, or a value that is not a number (an error of
    its own), adds nothing to 出力."""
    ev = price(pilot(equipment=[weapon(extra_damage=extra)]))
    assert ev.value("/equipment/0/derived/damage") == f"+{BASE_STATS['output'] + adds}"


def test_a_pilot_has_no_price() -> None:
    """Seed 001 has no point costs: no lines, and the answer says it is not priced (no total)."""
    ev = price(pilot(skills=skills(iron_wall=2)))
    assert (ev.lines, ev.priced, ev.budget) == ([], False, None)


def test_a_catalog_with_an_error_is_not_valid() -> None:
    """The example catalog is valid; a ladder that does not rise (an error) makes one invalid."""
    from converter.rules.mailgear.catalog import Catalog

    assert example_catalog().valid
    raw = {"catalog": "mailgear", "format": 1, "levels": [{"experience": 5, "level": "E"},
                                                          {"experience": 5, "level": "D"}]}
    assert not Catalog.from_data(raw).valid

"""The party view: unit level = the floor of the mean of 経験 + 階級 over the party, then the
catalog's table (seed 001, ５．ユニット・レベルの決定: 「人数で割り（切捨て）」)."""
from __future__ import annotations

from fractions import Fraction

from converter.rules.mailgear import party_unit_level

from .conftest import example_catalog, pilot


def _member(experience, rank_points, name: str = "p") -> dict:
    doc = pilot()
    doc["pilot"].update(name=name, experience=experience, rank_points=rank_points)
    return doc


def test_floor_of_the_mean_of_experience_plus_rank() -> None:
    """(10+5) + (20+12) + (3+0) = 50 over 3: mean 50/3, floor 16."""
    party = party_unit_level([_member(10, 5), _member(20, 12), _member(3, 0)])
    assert (party.members, party.total, party.mean, party.floor) == (3, 50, Fraction(50, 3), 16)


def test_without_a_catalog_the_table_level_is_skipped() -> None:
    """No catalog: no table level, one info finding naming the unit-level table."""
    party = party_unit_level([_member(10, 5)])
    assert party.unit_level is None
    assert [(f.code, f.params["table"]) for f in party.findings] == [
        ("MG_CATALOG_TABLE_MISSING", "unit_levels")]


def test_with_a_catalog_the_table_gives_the_unit_level() -> None:
    """Example table (invented): 40 ≤ floor 41 < 60 → unit level 3; exactly 60 → 4."""
    assert party_unit_level([_member(30, 11), _member(30, 12)], example_catalog()).unit_level == 3
    party = party_unit_level([_member(40, 20)], example_catalog())
    assert (party.unit_level, party.findings) == (4, ())


def test_a_member_without_numbers_is_left_out_with_a_finding() -> None:
    """A sheet whose 経験 is not a whole number is not guessed: it is left out, pointed at."""
    party = party_unit_level([_member(10, 10), _member("十", 3, name="ミナ")], example_catalog())
    assert (party.members, party.floor) == (1, 20)
    assert [(f.code, f.pointer) for f in party.findings] == [
        ("MG_PARTY_MEMBER_INVALID", "/1/pilot/experience")]


def test_an_empty_party() -> None:
    """No usable pilot: MG_PARTY_EMPTY, no figures."""
    party = party_unit_level([])
    assert (party.members, party.mean, party.floor) == (0, None, None)
    assert [f.code for f in party.findings] == ["MG_PARTY_EMPTY"]


def test_below_the_first_row_of_the_table() -> None:
    """A table starting above the party's floor cannot place it: MG_UNIT_LEVEL_BELOW_TABLE."""
    catalog = {"catalog": "mailgear", "format": 1, "unit_levels": [{"min": 30, "unit_level": 1}]}
    party = party_unit_level([_member(5, 5)], catalog)
    assert party.unit_level is None
    assert [f.code for f in party.findings] == ["MG_UNIT_LEVEL_BELOW_TABLE"]


def test_the_party_view_as_json() -> None:
    """to_dict gives plain JSON values for a report."""
    data = party_unit_level([_member(1, 0), _member(2, 0)]).to_dict("en")
    assert data["mean"] == 1.5 and data["floor"] == 1 and data["findings"][0]["severity"] == "info"

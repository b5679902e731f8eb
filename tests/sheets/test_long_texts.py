"""Nothing lost on write: texts longer than a cell holds, every Unicode plane, control characters,
lone surrogates and formula-like strings survive a write and a read, in a mapped field (notes)
and in content the layout has no cell for (extra), for every system."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.sheets import read_workbook, sheet_bytes

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = {"up": ROOT / "samples" / "up" / "m-mobile-suit.json",
          "mailgear": ROOT / "samples" / "mailgear" / "starting-pilot.json",
          "pp": ROOT / "samples" / "pp" / "veteran.json"}
FORMULA_LIKE = ["=SUM(A1:A9)", "+1", "-1", "@A1", "\t=1", "=HYPERLINK(\"http://x\",\"y\")", "'=1"]


def _round_trip(tmp_path: Path, doc: dict) -> dict:
    path = tmp_path / "sheet.xlsx"
    path.write_bytes(sheet_bytes(doc))
    return read_workbook(path).document


def _with(system: str, notes: str | None, extra: dict) -> dict:
    doc = json.loads(SAMPLE[system].read_text(encoding="utf-8"))
    if notes is not None:
        doc["notes"] = notes
    doc["extra"] = extra
    return doc


@pytest.mark.parametrize("system", sorted(SAMPLE))
@pytest.mark.parametrize("size", [32_767, 32_768, 200_000])
def test_texts_longer_than_a_cell_come_back_whole(tmp_path, system: str, size: int) -> None:
    """A note and an extra value of 200,000 characters (Japanese, astral, control, formula-like)."""
    base = "ガンダム\U0001F680\x01\x1f\t\n=SUM(A1)" + "".join(FORMULA_LIKE)
    text = (base * (size // len(base) + 1))[:size]
    doc = _with(system, text, {"memo": text[::-1], "list": [text[:1000], "\ud800"]})
    back = _round_trip(tmp_path, doc)
    assert back["notes"] == text
    assert back["extra"] == doc["extra"]


any_text = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=300) | \
    st.sampled_from(FORMULA_LIKE) | st.builds(lambda s, n: s * n, st.text(min_size=1, max_size=5), st.integers(1, 20_000))


@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(SAMPLE)), any_text, st.dictionaries(st.text(max_size=8), any_text, max_size=3))
def test_any_text_round_trips(tmp_path_factory, system: str, notes: str, extra: dict) -> None:
    """Any Unicode text in notes and extra comes back exactly."""
    doc = _with(system, notes, extra)
    back = _round_trip(tmp_path_factory.mktemp("rt"), doc)
    assert back.get("notes") == notes
    assert back.get("extra", {}) == extra

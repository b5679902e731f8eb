"""Every sample of every system converts into each other system: the result passes the target's
schema, is priced (or, for mailgear, evaluated) by the target's own engine, and its account names
every field; pp characters without a machine are refused for up, with the reason."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter.convert import convert
from converter.convert.leaves import leaves
from converter.core.errors import InputError
from converter.sheets.source import load_catalog

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for system in ("up", "pp", "mailgear") for p in (ROOT / "samples" / system).glob("*.json"))
CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"
CASES = [(p, to) for p in SAMPLES for to in ("up", "mailgear", "pp") if p.parent.name != to]


@pytest.mark.parametrize("path,to", CASES, ids=[f"{p.parent.name}/{p.stem}->{to}" for p, to in CASES])
def test_sample_converts_into_a_checked_document(path: Path, to: str) -> None:
    """Schema-valid for the target, evaluated by its engine, every leaf named by a row."""
    doc = json.loads(path.read_text("utf-8"))
    if to == "up" and doc["system"] == "pp" and not isinstance(doc.get("machine"), dict):
        with pytest.raises(InputError) as exc:
            convert(doc, to)
        assert exc.value.code == "CONVERT_NO_MACHINE"
        return
    result = convert(doc, to, catalog=load_catalog(CATALOG))
    assert result.document["system"] == to
    assert [f.code for f in result.checked if f.code.startswith("SCHEMA_")] == []
    assert result.report.evaluation is not None
    if to != "mailgear":
        assert result.total is not None and result.total >= 0
    assert [e.pointer for e in result.account.source] == list(leaves(doc).values)
    assert result.account.unlisted() == []
    assert "CONVERT_EXAMPLE_CATALOG" not in [f.code for f in result.findings]


def test_without_a_catalog_the_example_figures_are_used_with_a_warning() -> None:
    """No --catalog: mailgear's anchors are the example catalog's, said by a warning."""
    doc = json.loads((ROOT / "samples/up/m-mobile-suit.json").read_text("utf-8"))
    result = convert(doc, "mailgear")
    assert "CONVERT_EXAMPLE_CATALOG" in [f.code for f in result.findings]
    assert result.findings[0].level.value == "warning"


def test_the_packaged_mailgear_anchors_are_the_example_catalogs() -> None:
    """The mailgear rows of mapping.toml are what anchors_from_catalog computes from the example
    catalog (lowest-rank minimum, middle-rank median, top-rank maximum)."""
    from converter.convert.mailgear import anchors_from_catalog
    from converter.convert.mapping import load_mapping

    computed = {(a.quantity, a.field): a.values for a in anchors_from_catalog(json.loads(CATALOG.read_text("utf-8")))}
    packaged = {(a.quantity, a.field): a.values for a in load_mapping().anchors if a.system == "mailgear"}
    assert computed == packaged


def test_a_pilotless_unit_gets_an_empty_pilot_said_so() -> None:
    """up has no pilot rules: into pp the character has no skills and CB 3, its attributes the
    baseline of the unit's band (a 1500-UP unit: veteran, 4; mapping.toml [[bands]])."""
    doc = json.loads((ROOT / "samples/up/m-mobile-suit.json").read_text("utf-8"))
    del doc["pilot"]
    result = convert(doc, "pp")
    assert result.document["name"] == "ガルディア試作二号機のパイロット"
    assert set(result.document["attributes"].values()) == {4}
    assert "skills" not in result.document and result.document["combat_boost"] == 3
    assert "CONVERT_EMPTY_PILOT" in [f.code for f in result.findings]

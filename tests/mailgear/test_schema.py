"""The generated document schema and the engine agree: where both see a problem they point at
the same place, so the check reports it once, in the engine's words."""
from __future__ import annotations

import json

import pytest

from converter.core.findings import Severity
from converter.check.schema import validate

from .conftest import ROOT, pilot, skills

SAMPLES = ROOT / "samples" / "mailgear"
BROKEN = ROOT / "samples" / "broken" / "mailgear"


@pytest.mark.parametrize("path", sorted(SAMPLES.glob("*.json")), ids=lambda p: p.name)
def test_good_samples_are_schema_valid(path) -> None:
    """The good samples match the generated schema."""
    assert validate(json.loads(path.read_text(encoding="utf-8")), "mailgear") == []


@pytest.mark.parametrize(("name", "where"), [
    ("seven-slots.json", "/equipment"),  # maxItems 6
    ("skill-over-max.json", None),  # by name: only the engine knows it is 韋駄天
    ("four-boosts.json", "/gear/boosts"),  # maxItems 3
])
def test_schema_sees_broken_shapes_where_the_engine_does(name: str, where: str | None) -> None:
    """A broken sample's schema findings sit exactly at the engine's error pointer."""
    doc = json.loads((BROKEN / name).read_text(encoding="utf-8"))
    assert {f.pointer for f in validate(doc, "mailgear")} == ({where} if where else set())


def test_schema_knows_each_skills_maximum_by_id() -> None:
    """With an id, the schema itself caps the level (韋駄天 3)."""
    found = validate(pilot(skills=skills(fleet_footed=4)), "mailgear")
    assert [(f.code, f.pointer) for f in found] == [("SCHEMA_MAXIMUM", "/skills/0/level")]


def test_unmapped_content_is_kept_under_extra() -> None:
    """Unknown top-level fields are refused; the same content under extra is accepted."""
    assert [f.code for f in validate(pilot(age=17), "mailgear")] == ["SCHEMA_ADDITIONAL"]
    assert validate(pilot(extra={"age": 17, "容姿": "長髪"}), "mailgear") == []


def test_an_option_cannot_carry_weapon_fields() -> None:
    """Bands or extra damage on an option are schema errors (they would be dropped otherwise)."""
    doc = pilot(equipment=[{"kind": "option", "name": "X", "effects": [], "bands": ["cr"]}])
    assert all(f.level is Severity.ERROR for f in validate(doc, "mailgear"))
    assert validate(doc, "mailgear") != []

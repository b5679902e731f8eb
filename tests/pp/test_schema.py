"""The generated schema of a `pp` document agrees with the seed and with the engine's lists;
every code the engine can emit is in the catalog."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from converter.core.findings import catalog
from converter.check.schema import validate
from converter.rules.pp import build_schema
from converter.rules.pp.skills import ENTRY_KEYS

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "converter" / "rules" / "pp"


def test_limits_from_the_seed() -> None:
    """Attributes 0..12, skill levels 0..8, sub-categories 1..8, CB from 3, budget 50."""
    props = build_schema()["properties"]
    body = props["attributes"]["properties"]["body"]
    assert (body["minimum"], body["maximum"]) == (0, 12)
    level = props["skills"]["items"]["properties"]["level"]
    assert (level["minimum"], level["maximum"]) == (0, 8)
    spec = props["skills"]["items"]["properties"]["specializations"]["items"]["properties"]["level"]
    assert (spec["minimum"], spec["maximum"]) == (1, 8)
    assert props["combat_boost"]["minimum"] == 3
    assert props["budget"]["default"] == 50


def test_damage_classes_and_machine_fields() -> None:
    """破壊力 is one of L/M/S/D; the machine block has the seed's figures."""
    machine = build_schema()["properties"]["machine"]
    weapon = machine["properties"]["weapons"]["items"]
    assert weapon["properties"]["damage"]["enum"] == ["L", "M", "S", "D"]
    for field in ("speed", "mobility", "workability", "armor", "durability", "toughness",
                  "size_modifier", "main_system_evasion", "evasion_modifier", "main_system_modifier",
                  "weight", "escape"):
        assert field in machine["properties"], field
    assert set(machine["properties"]["evasion_modifier"]["required"]) == {"dodge", "parry"}
    # 回避修正 is typed, or derived from メインシステムの回避修正 (issue 16.8): one of the two
    assert "evasion_modifier" not in machine["required"]
    assert machine["allOf"] == [{"anyOf": [{"required": ["evasion_modifier"]},
                                           {"required": ["main_system_evasion"]}]}]


def test_skill_list_entry_keys_match_the_reader() -> None:
    """The schema's skill-list entry has the keys the list reader accepts."""
    entry = build_schema()["properties"]["skill_list"]["items"]["anyOf"][1]
    assert set(entry["properties"]) == set(ENTRY_KEYS)


@pytest.mark.parametrize("path", sorted((ROOT / "samples" / "pp").glob("*.json")), ids=lambda p: p.stem)
def test_good_samples_are_schema_clean(path: Path) -> None:
    """Every good sample validates against the generated schema without a finding."""
    assert validate(json.loads(path.read_text(encoding="utf-8")), "pp") == []


def test_schema_reports_what_the_engine_does_not() -> None:
    """Structure is the schema's: a missing name and an unknown field are reported."""
    doc = {"system": "pp", "format": 1, "attributes": {"body": 1, "reflex": 1, "sense": 1,
                                                      "mind": 1, "social": 1}, "luck": 3}
    assert sorted(f.code for f in validate(doc, "pp")) == ["SCHEMA_ADDITIONAL", "SCHEMA_REQUIRED"]


def test_every_emitted_code_is_in_the_catalog() -> None:
    """Each PP_ code in the engine's source has a catalog entry, and each entry is used."""
    source = "".join(p.read_text(encoding="utf-8") for p in PACKAGE.glob("*.py"))
    used = set(re.findall(r'"(PP_[A-Z_]+)"', source))
    listed = {code for code in catalog() if code.startswith("PP_")}
    assert used == listed


def test_catalog_messages_in_both_languages() -> None:
    """Every PP_ code has a Japanese and an English message."""
    for code, entry in catalog().items():
        if code.startswith("PP_"):
            assert entry.ja.strip() and entry.en.strip(), code

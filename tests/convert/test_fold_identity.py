"""Issue 31, item 4: a pilot's skills (and a pp character's feats) fold back by identity, not by
place. Reordering B's skills changes nothing in A; inserting a skill anywhere in B changes only
that skill's counterpart in A, the same wherever it was inserted (A's order kept, the new item
last).

Under Hypothesis: every mailgear and pp sample with skills, B the other system, a random order
of B's skills and feats, and a skill inserted at a random place."""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.convert import convert
from converter.convert.conversion import identity
from converter.sheets.source import load_catalog

ROOT = Path(__file__).resolve().parents[2]
CATALOG = load_catalog(ROOT / "samples/mailgear/.catalog/catalog-example.json")
OTHER = {"mailgear": "pp", "pp": "mailgear"}
SAMPLES = [f"{s}/{p.stem}" for s in OTHER for p in sorted((ROOT / "samples" / s).glob("*.json"))
           if (d := json.loads(p.read_text("utf-8"))).get("system") == s and d.get("skills")]
#: a skill inserted into B (by B's system), and the one item of A it is the counterpart of
INSERTED = {"pp": ({"name": "知覚", "level": 3}, "sixth_sense"),
            "mailgear": ({"id": "sixth_sense", "level": 1}, "知覚")}


def _there(name: str) -> tuple[dict[str, Any], dict[str, Any]]:
    a = json.loads((ROOT / "samples" / f"{name}.json").read_text("utf-8"))
    return a, convert(a, OTHER[a["system"]], catalog=CATALOG).document


def _back(b: dict[str, Any], system: str) -> Any:
    return convert(b, system, catalog=CATALOG, check=False)


def _shuffled(data: Any, items: list[Any]) -> list[Any]:
    return data.draw(st.permutations(items)) if items else items


@pytest.mark.parametrize("name", SAMPLES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_reordering_bs_skills_changes_nothing_in_a(name: str, data: Any) -> None:
    """B's skills and feats in any order fold back to A exactly as it was."""
    a, b = _there(name)
    edited = copy.deepcopy(b)
    edited["skills"] = _shuffled(data, edited.get("skills") or [])
    if "feats" in edited:
        edited["feats"] = _shuffled(data, edited["feats"])
    got = _back(edited, a["system"])
    assert "CONVERT_EDITED" not in [f.code for f in got.findings]
    assert got.document == a


@pytest.mark.parametrize("name", SAMPLES)
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_inserting_a_skill_in_b_changes_only_its_counterpart_in_a(name: str, data: Any) -> None:
    """A skill inserted at any place of B (the rest of B's list in any order) folds back as one
    change in A: its counterpart's item, last; every other item of A as it was, in A's order."""
    a, b = _there(name)
    skill, counterpart = INSERTED[b["system"]]
    key = identity(b["system"])
    if key(skill) in {key(s) for s in b.get("skills") or []}:
        return  # B has it already: nothing to insert
    edited = copy.deepcopy(b)
    rest = _shuffled(data, edited.get("skills") or [])
    at = data.draw(st.integers(0, len(rest)))
    edited["skills"] = [*rest[:at], dict(skill), *rest[at:]]
    got = _back(edited, a["system"]).document
    mine = identity(a["system"])
    kept = [s for s in got["skills"] if mine(s) != counterpart]
    assert kept == [s for s in a["skills"] if mine(s) != counterpart]
    assert mine(got["skills"][-1]) == counterpart
    assert {k: v for k, v in got.items() if k != "skills"} == {k: v for k, v in a.items() if k != "skills"}

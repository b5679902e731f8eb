"""The bundled `pp` samples: the good ones check clean with a breakdown, each broken one fails
with exactly its code. Expected figures and codes are written here, not taken from the engine."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter import check_document
from converter.cli import main
from converter.core.findings import Severity

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples" / "pp"
BROKEN = ROOT / "samples" / "broken" / "pp"

# file → (total, budget, initiative, unit initiative or None), worked by hand in each file's notes
GOOD = {
    "ordinary_person.json": (40, 40, 2 + 3 + 4 + 0, None),
    "pilot_with_machine.json": (50, 50, 3 + 4 + 4 + 1, 4 + 4 + 4 + 1 + 1),
    "veteran.json": (146, 150, 4 + 5 + 5 + 3, None),
}
# file → the error codes it must produce, and nothing else
BAD = {
    "over_budget.json": {"PP_OVER_BUDGET"},
    "attribute_13.json": {"PP_ATTRIBUTE_MAX"},
    "skill_9.json": {"PP_SKILL_MAX"},
    "combat_boost_below_3.json": {"PP_COMBAT_BOOST_BELOW_START"},
    "damage_class_x.json": {"PP_MACHINE_CHOICE"},
}


def _check(path: Path):
    return check_document(json.loads(path.read_text(encoding="utf-8")), None, str(path))


def test_folders_hold_exactly_these_samples() -> None:
    """Every sample file is listed here, so none goes unchecked."""
    assert sorted(p.name for p in SAMPLES.glob("*.json")) == sorted(GOOD)
    assert sorted(p.name for p in BROKEN.glob("*.json")) == sorted(BAD)


@pytest.mark.parametrize("name", sorted(GOOD))
def test_good_sample(name: str) -> None:
    """A good sample has no error or warning, its written total matches, and it has a breakdown."""
    total, budget, initiative, unit = GOOD[name]
    report = _check(SAMPLES / name)
    assert [f.code for f in report.findings if f.level is not Severity.INFO] == []
    assert (report.computed, report.declared, report.budget) == (total, total, budget)
    assert sum(line.cost for line in report.breakdown) == total
    assert all(line.pointer.startswith("/") and line.rule for line in report.breakdown)
    assert report.value("/derived/initiative") == initiative
    assert report.value("/derived/unit_initiative") == unit


@pytest.mark.parametrize("name", sorted(BAD))
def test_broken_sample(name: str) -> None:
    """A broken sample fails with exactly its error code (the schema's twin is folded in)."""
    report = _check(BROKEN / name)
    assert not report.valid
    assert {f.code for f in report.findings if f.level is Severity.ERROR} == BAD[name]


def test_pilot_breakdown_and_derived() -> None:
    """The pilot's sheet: attribute and skill lines, meanings, pools, gauges."""
    report = _check(SAMPLES / "pilot_with_machine.json")
    lines = {line.pointer: line.cost for line in report.breakdown}
    assert lines["/attributes/reflex"] == 9 and lines["/skills/0/level"] == 6
    d = {k: x.value for k, x in report.derived.items()}
    assert d["/derived/attributes/social/meaning"] == "やや不得意"
    assert d["/derived/skills/0/pool"] == "4D10（各+2）"  # 〈操縦〉 with 【反応】4
    assert d["/derived/machine/weapons/1/gauges"] == 5
    assert d["/derived/machine/weapons/2/evasion_target"] == 0 + 1 + 2
    assert d["/derived/machine/alt_speeds/0/unit_initiative"] == 4 + 4 + 5 + 1 + 1
    # 回避修正: メインシステムの回避修正 1 ＋ 機動性 2, ＋ 作業性 1, as typed (3, 2)
    assert d["/derived/machine/evasion_modifier/dodge"] == 1 + 2
    assert d["/derived/machine/evasion_modifier/parry"] == 1 + 1


def test_veteran_specializations_and_feats() -> None:
    """The veteran's sub-categories cost from the skill's level; each feat 5."""
    report = _check(SAMPLES / "veteran.json")
    lines = {line.pointer: line.cost for line in report.breakdown}
    assert lines["/skills/0/specializations/0/level"] == 4 + 5
    assert lines["/skills/0/specializations/1/level"] == 4
    assert lines["/feats/0"] == lines["/feats/1"] == 5
    assert lines["/combat_boost"] == 10
    assert [f.code for f in report.findings] == ["PP_UNDER_BUDGET"]


def test_cli_passes_the_samples(capsys: pytest.CaptureFixture[str]) -> None:
    """`mechasheet check samples/pp` exits 0."""
    assert main(["check", str(SAMPLES)]) == 0
    assert "pilot_with_machine.json" in capsys.readouterr().out


def test_cli_fails_the_broken_samples(capsys: pytest.CaptureFixture[str]) -> None:
    """`mechasheet check samples/broken/pp` exits 1 and names every code."""
    assert main(["check", str(BROKEN), "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    got = {Path(f["path"]).name: {x["code"] for x in f["findings"] if x["severity"] == "error"}
           for f in report["files"]}
    assert got == BAD

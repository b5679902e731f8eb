"""The bundled samples: good units check clean, broken units fail with exactly the findings we expect.

The expectations below are written by hand from the rules (seed 000 and docs/rules-up.md), not
read back from the engine, so a change in the engine's verdict shows up here.
"""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from converter import Severity, check_document, evaluate as price

ROOT = Path(__file__).resolve().parent.parent
GOOD_DIR = ROOT / "samples" / "up"
BROKEN_DIR = ROOT / "samples" / "broken" / "up"
GOOD = sorted(GOOD_DIR.glob("*.json"))
BROKEN = sorted(BROKEN_DIR.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _found(report, level: Severity) -> set[tuple[str, str]]:
    return {(f.code, f.pointer) for f in report.findings if f.level is level}


# --- good samples --------------------------------------------------------------------------------

def test_there_are_enough_good_samples() -> None:
    """samples/up holds at least six units."""
    assert len(GOOD) >= 6, [p.name for p in GOOD]


def test_sample_file_names_are_ascii() -> None:
    """Every sample file name is plain ASCII (they travel through zip files and Windows shares)."""
    for path in GOOD + BROKEN:
        assert path.name.isascii(), path.name


@pytest.mark.parametrize("path", GOOD, ids=[p.name for p in GOOD])
def test_good_sample_has_no_error(path: Path) -> None:
    """A good sample has no error, and a warning only if its notes name the code and explain it."""
    doc = _load(path)
    report = check_document(doc, path=str(path))
    errors = [(f.code, f.pointer, f.message("en")) for f in report.findings
              if f.level is Severity.ERROR]
    assert errors == []
    unexplained = [f.code for f in report.findings
                   if f.level is Severity.WARNING and f.code not in doc.get("notes", "")]
    assert unexplained == []


@pytest.mark.parametrize("path", GOOD, ids=[p.name for p in GOOD])
def test_good_sample_claims_the_engines_total(path: Path) -> None:
    """declared_total is the engine's computed total and fits in the budget."""
    doc = _load(path)
    report = check_document(doc, path=str(path))
    assert doc["system"] == "up" and doc["format"] == 1
    assert doc["declared_total"] == report.computed
    assert report.computed <= doc["budget"]


@pytest.mark.parametrize("path", GOOD, ids=[p.name for p in GOOD])
def test_good_sample_weapons_within_a_fifth_of_the_budget(path: Path) -> None:
    """Each weapon costs at most 1/5 of the unit's budget (seed 000: 総ＵＰの５分の１まで)."""
    doc = _load(path)
    report = check_document(doc, path=str(path))
    weapons = [line for line in report.breakdown if line.pointer.startswith("/weapons/")]
    assert len(weapons) == len(doc.get("weapons", []))
    for line in weapons:
        assert line.cost * 5 <= doc["budget"], (line.item, line.cost)


def test_good_samples_cover_the_common_shapes() -> None:
    """The samples include SS, S, M, L and LLL units, a carrier, MAP, combo and 撃ち分け weapons."""
    docs = [_load(p) for p in GOOD]
    assert {"SS", "S", "M", "L", "LLL"} <= {d["size"] for d in docs}
    assert any(d.get("carrier") is True and d["size"] == "LLL" for d in docs)
    weapons = [w for d in docs for w in d.get("weapons", [])]
    assert any(w.get("map") for w in weapons)
    assert any(w.get("combo") == "usable" for w in weapons)
    assert any(w.get("variant_of") for w in weapons)
    groups = defaultdict(list)
    for d in docs:
        if d.get("transformation"):
            groups[d["transformation"]["group"]].append(d["name"])
    assert any(len(names) == 3 for names in groups.values()), dict(groups)


def _own_total(doc: dict[str, Any]) -> int:
    """A form's UP without its transformation cost (what the other forms list)."""
    pricing = price(doc)
    return pricing.total - sum(line.cost for line in pricing.lines
                               if line.pointer == "/transformation")


def test_transformation_sets_list_each_other_consistently() -> None:
    """Each form of a set lists every OTHER form with the UP the engine computes for it."""
    by_group: dict[str, dict[str, dict[str, Any]]] = defaultdict(dict)
    for path in GOOD:
        doc = _load(path)
        if doc.get("transformation"):
            by_group[doc["transformation"]["group"]][doc["name"]] = doc
    assert by_group, "no transformation set among the samples"
    for group, forms in by_group.items():
        own = {name: _own_total(doc) for name, doc in forms.items()}
        for name, doc in forms.items():
            listed = {f["name"]: f["up"] for f in doc["transformation"]["forms"]}
            expected = {other: up for other, up in own.items() if other != name}
            assert listed == expected, (group, name)
        # Every form pays the same Σ/50 + 100 (seed 000, 変形).
        paid = {next(line.cost for line in price(doc).lines if line.pointer == "/transformation")
                for doc in forms.values()}
        assert len(paid) == 1, (group, paid)


def test_document_guide_example_checks_clean() -> None:
    """The complete example in docs/up-document.md has no finding and claims the engine's total."""
    text = (ROOT / "docs" / "up-document.md").read_text(encoding="utf-8")
    blocks = [b.split("```", 1)[0] for b in text.split("```json\n")[1:]]
    examples = [json.loads(b) for b in blocks if b.lstrip().startswith('{\n  "system": "up"')]
    assert len(examples) == 1
    report = check_document(examples[0])
    assert [(f.code, f.pointer) for f in report.findings] == []
    assert report.computed == examples[0]["declared_total"] == 1447


def test_document_guide_size_table_matches_the_rule_tables() -> None:
    """The size table in docs/up-document.md says what tables.toml says, cell for cell."""
    from converter.rules.up.tables import STAT_IDS, tables

    text = (ROOT / "docs" / "up-document.md").read_text(encoding="utf-8")
    for size in tables().sizes.values():
        cells = []
        for sid in STAT_IDS:
            r = size.stats[sid]
            if sid == "move":
                cells.append(f"{r.base} (+1: {r.price}, +2: {2 * r.price} more)")
            else:
                cells.append(f"{r.base} (+{r.step} per {r.price}, ≤ {r.base + r.max_raise})")
        row = f"| `{size.id}` {size.label} | {size.base_up} | " + " | ".join(cells) + " |"
        assert row in text.splitlines(), row


# --- broken samples ------------------------------------------------------------------------------
# file name → the (code, pointer) errors and warnings it must produce, nothing more.

EXPECTED: dict[str, dict[str, set[tuple[str, str]]]] = {
    # HP 203 is not base 200 + a multiple of 5; 運動性 40 passes M's maximum 15 + 20.
    "stat-step-and-max.json": {
        "errors": {("UP_STAT_STEP", "/stats/hp"), ("UP_STAT_MAX", "/stats/mobility")},
    },
    # 命中 +35 % is not a step of the table; 弾数10 is not a row of the usage table.
    "accuracy-and-ammo.json": {
        "errors": {("UP_ACCURACY_STEP", "/weapons/0/accuracy"),
                   ("UP_USAGE_AMOUNT", "/weapons/1/usage/amount")},
    },
    # 1445 UP on a 1000 budget, a written total of 1000, and one 230 UP weapon (> 1000/5).
    "over-budget.json": {
        "errors": {("UP_OVER_BUDGET", "/budget"), ("UP_TOTAL_MISMATCH", "/declared_total")},
        "warnings": {("UP_WEAPON_OVER_CAP", "/weapons/0")},
    },
    "unknown-ability.json": {
        "errors": {("UP_ABILITY_UNKNOWN", "/abilities/0/id")},
    },
    # 陸 twice: one problem, one finding.
    "duplicate-movement.json": {
        "errors": {("UP_MOVEMENT_DUPLICATE", "/movement")},
    },
    # An effect id the table does not have: one problem, one finding, at the id like abilities.
    "unknown-effect.json": {
        "errors": {("UP_EFFECT_UNKNOWN", "/weapons/0/effects/0/id")},
    },
    # Melee reaches 5 at most; the variant's base weapon is not on the sheet.
    "weapon-rules.json": {
        "errors": {("UP_WEAPON_RANGE", "/weapons/0/range"),
                   ("UP_VARIANT_BASE_MISSING", "/weapons/1/variant_of")},
    },
    # 「元になった武器とそこから派生した武器の２つのみ」: a second variant of ビームライフル.
    "second-variant.json": {
        "errors": {("UP_VARIANT_SECOND", "/weapons/2/variant_of")},
    },
    # 「射撃武器の地形適応は「地形３つがＡ、残りひとつがＢ」」: a beam weapon has no free B to place
    # (warning); the missile's unplaced B is priced under the − (an info, not listed here); 海Ｄ is
    # no grade of 「Ｓ、Ａ、Ｂ、Ｃ、−」.
    "weapon-terrain.json": {
        "errors": {("UP_TERRAIN_GRADE", "/weapons/2/terrain/sea")},
        "warnings": {("UP_TERRAIN_B_NOT_RANGED", "/weapons/0/terrain_b")},
    },
}

# Known checker bugs: the expectation above is right, the checker reports one problem twice.
KNOWN_BUGS: dict[str, str] = {}


def _broken_params():
    for name in sorted(EXPECTED):
        marks = ([pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[name])]
                 if name in KNOWN_BUGS else [])
        yield pytest.param(name, id=name, marks=marks)


def test_every_broken_sample_has_an_expectation() -> None:
    """Each file in samples/broken/up is listed in EXPECTED, and each listed file exists."""
    assert {p.name for p in BROKEN} == set(EXPECTED)
    assert len(BROKEN) >= 3


@pytest.mark.parametrize("name", list(_broken_params()))
def test_broken_sample_findings(name: str) -> None:
    """A broken sample produces exactly the expected errors and warnings."""
    path = BROKEN_DIR / name
    report = check_document(_load(path), path=str(path))
    assert not report.valid
    assert _found(report, Severity.ERROR) == EXPECTED[name]["errors"]
    assert _found(report, Severity.WARNING) == EXPECTED[name].get("warnings", set())

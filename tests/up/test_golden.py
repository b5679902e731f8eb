"""Golden cases: the seven worked examples of seed 000, one data file each in tests/golden/up/.

Each file names the rule it exercises, the rule options it needs, a whole document, the line to
look at and the UP the example states. A note says which reading reproduces the example and where
that disagrees with our first reading of the rules. Add a case by adding a file; this module needs no change.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from converter import check_document
from converter.rules.options import option_declarations, resolve_options
from converter.rules.up.engine import price_unit

from .conftest import cost_at

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "up"
CASE_KEYS = {"rule", "example", "options", "document", "pointer", "expected_cost",
             "cost_under_defaults", "derived", "findings", "note"}
CASES = sorted(GOLDEN.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _ids(path: Path) -> str:
    return path.stem


def test_golden_folder_holds_every_worked_example() -> None:
    """Every example of seed 000 that states a number has at least one golden case."""
    rules = " ".join(_load(p)["rule"] for p in CASES)
    for name in ("ビームサーベル", "ビームライフル", "切り札", "大車輪ロケットパンチ", "マジンパワー",
                 "ゼロシステム", "ゲッター"):
        assert name in rules, f"no golden case for {name}"


@pytest.mark.parametrize("path", CASES, ids=_ids)
def test_case_file_shape(path: Path) -> None:
    """A case file has exactly the known keys, valid options, and a note on non-default readings."""
    case = _load(path)
    assert set(case) == CASE_KEYS
    resolve_options("up", case["options"])  # raises on an unknown value
    assert set(case["options"]) <= set(option_declarations("up"))
    assert case["note"].strip()
    if case["expected_cost"] != case["cost_under_defaults"]:
        assert "NOT reproduce under the default" in case["note"]


@pytest.mark.parametrize("path", CASES, ids=_ids)
def test_example_cost(path: Path) -> None:
    """Under the case's options the example's line costs exactly the stated UP."""
    case = _load(path)
    pricing = price_unit(case["document"], case["options"])
    assert cost_at(pricing, case["pointer"]) == case["expected_cost"]
    for where, value in case["derived"].items():
        assert pricing.value(where) == value


@pytest.mark.parametrize("path", CASES, ids=_ids)
def test_example_under_default_options(path: Path) -> None:
    """Under the default options the line costs what the case says (the stated UP, or not)."""
    case = _load(path)
    pricing = price_unit(case["document"], {})
    assert cost_at(pricing, case["pointer"]) == case["cost_under_defaults"]


@pytest.mark.parametrize("path", CASES, ids=_ids)
def test_example_document_checks_clean(path: Path) -> None:
    """The whole document passes schema and rules with exactly the listed findings."""
    case = _load(path)
    report = check_document(case["document"], case["options"])
    assert sorted((f.code, f.pointer) for f in report.findings) == sorted(
        tuple(f) for f in case["findings"])
    assert report.computed == case["document"]["declared_total"]

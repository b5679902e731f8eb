"""Golden cases: the seed's own figures, one data file each in tests/pp/golden/.

Each file names the rule and quotes the example, gives a document, the JSON pointer of the value
the example changes, the value before and after, and the PP that change costs. ``seed_states`` is
the number the seed's text gives (null when it gives none); where it differs, the note says why.
Add a case by adding a file; this module needs no change.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from converter.rules.pp.engine import price_character

GOLDEN = Path(__file__).resolve().parent / "golden"
CASE_KEYS = {"rule", "example", "document", "pointer", "from", "to", "expected_delta",
             "seed_states", "note"}
CASES = sorted(GOLDEN.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


def _with(doc: dict[str, Any], pointer: str, value: Any) -> dict[str, Any]:
    """A copy of ``doc`` with ``value`` at ``pointer`` (whose parent exists)."""
    out = copy.deepcopy(doc)
    *parents, last = [p for p in pointer.split("/")[1:]]
    node: Any = out
    for part in parents:
        node = node[int(part)] if isinstance(node, list) else node[part]
    if isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


def test_golden_folder_holds_every_figure_the_seed_states() -> None:
    """Every PP figure seed 003 states has a golden case quoting it."""
    examples = " ".join(_load(p)["example"] for p in CASES)
    for quote in ("２→３なら３点", "３→５なら４＋５＝９点", "１×２＝２点", "＝１１点",
                  "５点のＰＰ", "５ＰＰ"):
        assert quote in examples, f"no golden case quotes {quote}"


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_case_file_shape(path: Path) -> None:
    """A case file has exactly the known keys and a note; a figure unlike the seed's says why."""
    case = _load(path)
    assert set(case) == CASE_KEYS
    assert case["note"].strip()
    if case["seed_states"] is not None and case["seed_states"] != case["expected_delta"]:
        assert "slip" in case["note"]


@pytest.mark.parametrize("path", CASES, ids=lambda p: p.stem)
def test_figure(path: Path) -> None:
    """Changing the value from ``from`` to ``to`` costs exactly ``expected_delta`` PP."""
    case = _load(path)
    before = price_character(_with(case["document"], case["pointer"], case["from"]))
    after = price_character(_with(case["document"], case["pointer"], case["to"]))
    assert after.total - before.total == case["expected_delta"]


def test_the_seeds_slip_is_the_only_disagreement() -> None:
    """Only the level-3 skill example (11 stated, 12 by the rule) disagrees with the engine."""
    slips = [p.stem for p in CASES
             if _load(p)["seed_states"] not in (None, _load(p)["expected_delta"])]
    assert slips == ["skill_new_level_3"]

"""docs/rules-up.md gives every rules option of `up` its reason with the seed's line (issue 16.10)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from converter.rules.tables_file import load_tables

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = load_tables("up")["options"]


def _reasons() -> dict[str, str]:
    """The "Why each option exists" bullets: option → its paragraph."""
    text = (ROOT / "docs" / "rules-up.md").read_text(encoding="utf-8")
    section = text.split("### Why each option exists, with the seed's line")[1].split("\n## ")[0]
    return {m.group(1): m.group(2) for m in re.finditer(r"^- \*\*`([a-z_0-9]+)`\.\*\* (.*?)(?=^- |\Z)",
                                                         section, re.S | re.M)}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_every_option_has_its_seed_line_and_reason(name: str) -> None:
    """A paragraph per option: a quoted line of the seed (「…」) and every value it can take."""
    reasons = _reasons()
    assert name in reasons, f"docs/rules-up.md gives no reason for the option {name}"
    assert re.search(r"「[^」]{8,}」", reasons[name]), reasons[name]
    for value in OPTIONS[name]["values"]:
        assert f"`{value}`" in reasons[name], (name, value)


def test_no_reason_for_an_option_that_does_not_exist() -> None:
    """docs/rules-up.md gives reasons for exactly the options that exist."""
    assert sorted(_reasons()) == sorted(OPTIONS)

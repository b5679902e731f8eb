"""docs/rules-pp.md gives every rules option of `pp` its reason with the seed's line (issue 16.10)."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from converter.rules.tables_file import load_tables

ROOT = Path(__file__).resolve().parents[2]
OPTIONS = load_tables("pp")["options"]


def _option_rows() -> dict[str, list[str]]:
    """The options table of rules-pp.md: option → its cells (values, seed line, why)."""
    text = (ROOT / "docs" / "rules-pp.md").read_text(encoding="utf-8")
    section = text.split("## Readings where the seed is silent")[1].split("Other readings")[0]
    rows = {}
    for line in section.splitlines():
        m = re.match(r"\| `([a-z_]+)` \|(.*)\|\s*$", line)
        if m:
            rows[m.group(1)] = [c.strip() for c in m.group(2).split("|")]
    return rows


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_every_option_has_its_seed_line_and_reason(name: str) -> None:
    """A row per option: every value named, a quoted line of the seed (「…」), and a reason."""
    rows = _option_rows()
    assert name in rows, f"docs/rules-pp.md has no row for the option {name}"
    values, seed, why = rows[name]
    assert [v.strip("`") for v in values.split(", ")] == list(OPTIONS[name]["values"])
    assert re.search(r"「[^」]{8,}", seed), seed
    assert len(why) > 40, why


def test_no_row_for_an_option_that_does_not_exist() -> None:
    """The table lists the options there are, no more."""
    assert sorted(_option_rows()) == sorted(OPTIONS)

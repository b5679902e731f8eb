"""docs/rules-mailgear.md gives every mailgear rules option its reason and the seed's line (issue
16.10): a row of its readings table names the option, every value (the default first, as the
tables declare it) and quotes the seed (「…」)."""
from __future__ import annotations

import re

import pytest

from converter.rules.options import option_declarations

from .conftest import ROOT

DOC = ROOT / "docs" / "rules-mailgear.md"


def _rows() -> dict[str, list[str]]:
    """Option name → the cells of its row in the readings table."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = re.match(r"^\| `([a-z_0-9]+)` \|", line)
        if m:
            out.setdefault(m.group(1), [c.strip() for c in line.strip("|").split("|")])
    return out


@pytest.mark.parametrize("name", sorted(option_declarations("mailgear")))
def test_each_option_has_its_reason_and_seed_line(name: str) -> None:
    """docs/rules-mailgear.md has a row per option: its values (default first), a reason, a seed line."""
    rows = _rows()
    assert name in rows, f"docs/rules-mailgear.md has no row for {name}"
    option, values, why, seed = rows[name][:4]
    declared = option_declarations("mailgear")[name]
    assert re.findall(r"`([a-z_0-9]+)`", values) == list(declared["values"])
    assert list(declared["values"])[0] == declared["default"]
    assert len(why) > 80
    assert re.search(r"「[^」]+」", seed), f"{name}: no seed line quoted"


def test_the_readme_and_the_document_page_link_the_rules_page() -> None:
    """README.md and docs/mailgear-document.md link the mailgear rules page."""
    assert "docs/rules-mailgear.md" in (ROOT / "README.md").read_text(encoding="utf-8")
    assert "rules-mailgear.md" in (ROOT / "docs" / "mailgear-document.md").read_text(encoding="utf-8")

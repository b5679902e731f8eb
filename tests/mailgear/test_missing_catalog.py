"""Without a catalog, each check that needs one of its tables is skipped with one info finding
that names the table (our reading, docs/mailgear-document.md: 「A check that needs a missing table is skipped with an info
finding that says which table would enable it」)."""
from __future__ import annotations

import json

from converter.core.findings import Severity
from converter.rules.mailgear import evaluate as price

from .conftest import EXAMPLE_CATALOG, example_catalog, option, pilot, weapon


def _missing(result) -> list[tuple[str, str]]:
    found = [f for f in result.findings if f.code == "MG_CATALOG_TABLE_MISSING"]
    assert all(f.level is Severity.INFO for f in found)
    return sorted((f.params["table"], f.pointer) for f in found)


def test_one_info_finding_per_table_a_check_needs() -> None:
    """A sheet with weapons and options: levels, gear ranks, models, weapons, options, once each."""
    result = price(pilot(equipment=[weapon("A"), weapon("B"), option("X"), option("Y")]))
    assert _missing(result) == [("gear_ranks", "/gear/rank"), ("levels", "/pilot/level"),
                                ("models", "/gear/model"), ("options", "/equipment"),
                                ("weapons", "/equipment")]


def test_no_info_for_tables_nothing_on_the_sheet_needs() -> None:
    """No weapons and no options: the weapon and option tables are not mentioned."""
    assert [t for t, _ in _missing(price(pilot()))] == ["gear_ranks", "levels", "models"]


def test_the_finding_names_the_table_and_what_it_enables() -> None:
    """The message names the table in Japanese and says which check it would enable."""
    f = next(f for f in price(pilot()).findings if f.params.get("table") == "levels")
    assert "レベル表" in f.message("ja") and "経験" in f.message("ja")
    assert "levels" in f.message("en")


def test_a_partial_catalog_skips_only_what_it_lacks() -> None:
    """A catalog with levels and models only: gear ranks, weapons and options are still skipped."""
    raw = json.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))
    partial = {k: raw[k] for k in ("catalog", "format", "levels", "models")}
    result = price(pilot(equipment=[weapon(), option()]), catalog=partial)
    assert [t for t, _ in _missing(result)] == ["gear_ranks", "options", "weapons"]


def test_with_the_full_catalog_nothing_is_skipped() -> None:
    """The example catalog has every table: no MG_CATALOG_TABLE_MISSING at all."""
    result = price(pilot(equipment=[weapon(), option()]), catalog=example_catalog())
    assert _missing(result) == []

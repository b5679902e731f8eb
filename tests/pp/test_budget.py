"""The budget (総ＰＰ): 50 unless the sheet sets another; the remainder; the written total."""
from __future__ import annotations

from converter.core.findings import Severity

from .conftest import character, priced, skill


def _findings(pricing):
    return sorted((f.code, f.pointer) for f in pricing.findings)


def test_default_budget_is_fifty() -> None:
    """A sheet that sets no budget has the seed's general 50."""
    doc = character()
    assert priced(doc).budget == 50
    assert priced({**doc, "budget": None}).budget == 50


def test_sheet_sets_the_budget() -> None:
    """A sheet's own budget wins (e.g. 40 for an ordinary person)."""
    assert priced(character(budget=40)).budget == 40


def test_remainder() -> None:
    """The remainder is the budget minus the total, with an info note while PP are left."""
    pricing = priced(character(budget=40, skills=[skill("操縦", 3)]))
    assert (pricing.total, pricing.remainder) == (12, 28)
    note = next(f for f in pricing.findings if f.code == "PP_UNDER_BUDGET")
    assert note.level is Severity.INFO and note.params["remainder"] == 28


def test_exactly_spent_has_no_note() -> None:
    """Spending the whole budget raises no finding at all."""
    pricing = priced(character(budget=12, skills=[skill("操縦", 3)]))
    assert pricing.remainder == 0 and _findings(pricing) == []


def test_over_budget_is_an_error() -> None:
    """Spending more than the budget is an error at /budget saying by how much."""
    pricing = priced(character(budget=10, skills=[skill("操縦", 3)]))
    assert _findings(pricing) == [("PP_OVER_BUDGET", "/budget")]
    assert pricing.findings[0].params["over"] == 2 and pricing.remainder == -2


def test_written_total_must_match() -> None:
    """A written total unlike the computed one is an error."""
    pricing = priced(character(budget=12, skills=[skill("操縦", 3)], declared_total=11))
    assert _findings(pricing) == [("PP_TOTAL_MISMATCH", "/declared_total")]
    assert pricing.declared == 11


def test_written_total_not_compared_when_partial() -> None:
    """When an item could not be priced the partial total is not compared."""
    pricing = priced(character(budget=12, skills=[skill("操縦", "3")], declared_total=12))
    assert "PP_TOTAL_MISMATCH" not in {f.code for f in pricing.findings}


def test_budget_not_a_whole_number() -> None:
    """A budget that is not a whole number is reported; no budget check is made."""
    pricing = priced(character(budget="fifty"))
    assert _findings(pricing) == [("PP_VALUE_NOT_INTEGER", "/budget")]
    assert pricing.budget is None and pricing.remainder is None

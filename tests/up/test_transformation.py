"""変形: Σ(all forms)/50 + 100, partial, one-way, 脱落型 and combination (seed 000, 変形).

The unit is a bare M (own total 400) unless a test says otherwise.
"""
from __future__ import annotations

import pytest

from converter.core.findings import Severity
from converter.rules.up import transformation_cost

from .conftest import cost_at, finding, found, melee, priced, unit


def transforming(**tr) -> dict:
    """A bare M unit with a transformation (other form 600 UP unless ``forms`` is given)."""
    return unit(transformation={"group": "試験", "forms": [{"name": "別形態", "up": 600}], **tr})


@pytest.mark.parametrize(("own", "others"), [(2500, [2000, 2000]), (2000, [2500, 2000])])
def test_getter_forms_each_pay_230(own: int, others: list[int]) -> None:
    """ゲッター: 6500/50 + 100 = 230, whichever form is pricing."""
    assert transformation_cost(own, others)[0] == 230


def test_full_transformation_line() -> None:
    """(400 + 600) / 50 + 100 = 120, on its own line; the total includes it."""
    p = priced(transforming())
    assert cost_at(p, "/transformation") == 120
    assert p.total == 520
    assert found(p) == []


def test_own_total_counts_everything_but_the_transformation() -> None:
    """Weapons count in the form's own total: (440 + 560) / 50 + 100 = 120."""
    doc = transforming(forms=[{"name": "別形態", "up": 560}])
    doc["weapons"] = [melee()]
    assert cost_at(priced(doc), "/transformation") == 120


@pytest.mark.parametrize(("changed", "cost"), [(1, 40), (2, 40), (3, 70), (4, 70), (5, 100), (6, 100)])
def test_partial_transformation_discount(changed: int, cost: int) -> None:
    """部分変形: 1–2 places −80, 3–4 −50, 5–6 −20."""
    assert cost_at(priced(transforming(changed_places=changed)), "/transformation") == cost


def test_partial_beyond_six_is_an_error() -> None:
    """7 changed places is UP_TRANSFORM_PARTIAL (a full transformation is written without it)."""
    p = priced(transforming(changed_places=7))
    assert found(p) == [("UP_TRANSFORM_PARTIAL", "/transformation/changed_places")]
    assert not p.complete


def test_one_way_halves() -> None:
    """回数制限 (once only): 120 / 2 = 60."""
    assert cost_at(priced(transforming(one_way=True)), "/transformation") == 60


def test_partial_then_one_way() -> None:
    """The partial discount comes first, then the half: (120 − 80) / 2 = 20."""
    p = priced(transforming(changed_places=2, one_way=True))
    assert cost_at(p, "/transformation") == 20


@pytest.mark.parametrize(("forms", "cost"), [
    ([{"name": "B", "up": 600}], 240),                              # 120 × 2 forms
    ([{"name": "B", "up": 600}, {"name": "C", "up": 500}], 390),    # (1500/50 + 100) × 3
])
def test_drop_off_multiplies_by_the_number_of_forms(forms: list, cost: int) -> None:
    """脱落型: × the number of forms the unit can take."""
    assert cost_at(priced(transforming(forms=forms, drop_off=True)), "/transformation") == cost


def test_drop_off_is_not_halved_as_one_way() -> None:
    """脱落型 is the exception to 回数制限's half (「ただし…」): one_way with drop_off is × forms only."""
    p = priced(transforming(drop_off=True, one_way=True))
    assert cost_at(p, "/transformation") == 240


def test_partial_drop_off() -> None:
    """Partial discount, then × forms: (120 − 80) × 2 = 80."""
    p = priced(transforming(changed_places=1, drop_off=True))
    assert cost_at(p, "/transformation") == 80


def test_combination_part_pays_like_any_form() -> None:
    """A part of a combination lists the combined unit as a form and pays the usual amount."""
    p = priced(transforming(combination="part"))
    assert cost_at(p, "/transformation") == 120


def test_combined_unit_pays_nothing() -> None:
    """The combined unit pays 0 for combining, with an info; it needs no forms."""
    p = priced(unit(transformation={"forms": [], "combination": "combined"}))
    assert cost_at(p, "/transformation") == 0
    assert found(p) == [("UP_TRANSFORM_COMBINED", "/transformation/combination")]
    assert finding(p, "UP_TRANSFORM_COMBINED").level is Severity.INFO


def test_rounds_half_up() -> None:
    """(400 + 625) / 50 + 100 = 120.5 → 121; one-way 60.25 → 60."""
    forms = [{"name": "B", "up": 625}]
    assert cost_at(priced(transforming(forms=forms)), "/transformation") == 121
    assert cost_at(priced(transforming(forms=forms, one_way=True)), "/transformation") == 60


def test_no_other_forms_is_an_error() -> None:
    """A transformation without other forms is UP_TRANSFORM_NO_FORMS; the total is partial."""
    p = priced(transforming(forms=[]))
    assert found(p) == [("UP_TRANSFORM_NO_FORMS", "/transformation/forms")]
    assert not p.complete


def test_form_without_up_is_an_error() -> None:
    """A form whose UP is not a whole number is UP_TRANSFORM_INVALID at it; the total is partial."""
    p = priced(transforming(forms=[{"name": "B", "up": "たくさん"}]))
    assert found(p) == [("UP_TRANSFORM_INVALID", "/transformation/forms/0/up")]
    assert not p.complete


def test_unknown_combination_is_an_error() -> None:
    """A combination other than none/part/combined is UP_TRANSFORM_INVALID."""
    p = priced(transforming(combination="merged"))
    assert found(p) == [("UP_TRANSFORM_INVALID", "/transformation/combination")]
    assert not p.complete


@pytest.mark.parametrize("forms", [3, {"name": "B", "up": 625}, "B"])
def test_forms_not_a_list_are_malformed_not_a_crash(forms) -> None:
    """Forms written as a number, an object or a text (not the list of forms) are UP_ITEM_MALFORMED
    at /transformation/forms, once; the line is not priced and the total is partial."""
    p = priced(transforming(forms=forms))
    assert found(p) == [("UP_ITEM_MALFORMED", "/transformation/forms")]
    assert p.unevaluated == ["/transformation/forms"]
    assert cost_at(p, "/size") == 400 and len(p.lines) == 1

"""Transformation sets: each listed form's UP against that form's own document (UP_TRANSFORM_SET_MISMATCH).

The set under test is the ゲッター of the golden cases: ドラゴン 2500, ライガー 2000, ポセイドン 2000.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

from converter.core.findings import Severity
from converter.rules.up import check_transformation_sets
from converter.rules.up.engine import price_unit
from converter.rules.up.sets import own_total

from .conftest import melee, unit

GOLDEN = Path(__file__).resolve().parent.parent / "golden" / "up"


def getter() -> list[dict]:
    """ドラゴン, ライガー, ポセイドン as documents (copies: tests may change them)."""
    return [copy.deepcopy(json.loads((GOLDEN / f"getter_{k}.json").read_text("utf-8"))["document"])
            for k in ("dragon", "liger", "poseidon")]


def check(docs: list[dict]) -> list[tuple[int, str, str, dict]]:
    items = [(d, price_unit(d)) for d in docs]
    return [(i, f.code, f.pointer, dict(f.params)) for i, f in check_transformation_sets(items)]


def test_own_total_leaves_out_the_transformation_line() -> None:
    """ドラゴン totals 2730; its own total, as the others list it, is 2500."""
    pricing = price_unit(getter()[0])
    assert pricing.total == 2730
    assert own_total(pricing) == 2500


def test_consistent_set_has_no_finding() -> None:
    """Every form lists the others at their own totals: nothing to report."""
    assert check(getter()) == []


def test_wrong_listed_up_is_reported_on_the_listing_document() -> None:
    """ライガー lists ドラゴン at 2400 (it is 2500): one warning on ライガー's forms/0/up."""
    docs = getter()
    docs[1]["transformation"]["forms"][0]["up"] = 2400
    assert check(docs) == [(1, "UP_TRANSFORM_SET_MISMATCH", "/transformation/forms/0/up",
                            {"group": "ゲッター", "form": "ゲッタードラゴン", "declared": 2400,
                             "computed": 2500})]


def test_changed_form_is_reported_by_every_other_form() -> None:
    """ポセイドン gains a 40 UP weapon: ドラゴン and ライガー both list it at the old 2000."""
    docs = getter()
    docs[2]["weapons"].append(melee(name="ゲッタービジョン"))
    found = check(docs)
    assert [(i, ptr, p["computed"]) for i, _, ptr, p in found] == [
        (0, "/transformation/forms/1/up", 2040), (1, "/transformation/forms/1/up", 2040)]


def test_mismatch_is_a_warning() -> None:
    """UP_TRANSFORM_SET_MISMATCH is a warning."""
    docs = getter()
    docs[0]["transformation"]["forms"][0]["up"] = 1
    (_, finding), = check_transformation_sets([(d, price_unit(d)) for d in docs])
    assert finding.level is Severity.WARNING


def test_other_groups_are_not_compared() -> None:
    """A document of another group with the same form name is ignored."""
    docs = getter()
    stranger = unit(name="ゲッタードラゴン",
                    transformation={"group": "別物", "forms": [{"name": "X", "up": 1}]})
    assert check([*docs, stranger]) == []


def test_form_missing_from_the_set_is_not_compared() -> None:
    """Checking ドラゴン and ライガー alone: ポセイドン's figure cannot be compared."""
    assert check(getter()[:2]) == []


def test_documents_without_group_are_ignored() -> None:
    """Without transformation.group a document joins no set."""
    docs = getter()
    for d in docs:
        del d["transformation"]["group"]
        d["transformation"]["forms"][0]["up"] = 1
    assert check(docs) == []


def test_ambiguous_form_name_is_not_compared() -> None:
    """Two documents named like the listed form: no comparison for that name."""
    docs = getter()
    twin = copy.deepcopy(docs[1])
    twin["stats"]["hp"] = 355
    alone = check([docs[0], twin, docs[2]])
    assert any(p["form"] == "ゲッターライガー" for _, _, _, p in alone)  # 2015 ≠ 2000
    both = check([*docs, twin])
    assert all(p["form"] != "ゲッターライガー" for _, _, _, p in both)


def test_incompletely_priced_form_is_not_compared() -> None:
    """A form whose document has an unpriceable item is skipped (its total is partial)."""
    docs = getter()
    docs[1]["weapons"] = [melee(range=9)]
    assert check(docs) == []


def test_forms_not_a_list_are_left_out_of_the_set() -> None:
    """A member whose forms are not a list (its own check reports it) lists nothing to compare;
    the others are still compared."""
    docs = getter()
    docs[0]["transformation"]["forms"] = 3
    docs[1]["transformation"]["forms"][1]["up"] += 1  # ライガー lists ポセイドン at 2001
    assert [(i, code, at) for i, code, at, _ in check(docs)] == [
        (1, "UP_TRANSFORM_SET_MISMATCH", "/transformation/forms/1/up")]


def test_a_name_that_is_not_a_text_names_no_form() -> None:
    """A document named by a list, or a form so named (malformed), matches nothing: no crash, and
    the well-named forms are still compared."""
    docs = getter()
    docs[0]["name"] = ["ゲッタードラゴン"]
    docs[1]["transformation"]["forms"][0]["name"] = {"name": "ゲッタードラゴン"}
    docs[1]["transformation"]["forms"][1]["up"] += 1  # ライガー lists ポセイドン at 2001
    assert [(i, code, at) for i, code, at, _ in check(docs)] == [
        (1, "UP_TRANSFORM_SET_MISMATCH", "/transformation/forms/1/up")]


def test_a_listed_up_that_is_not_a_whole_number_is_not_compared() -> None:
    """A form listed at "2000" (text) or true (its own check reports it) is not compared."""
    docs = getter()
    docs[1]["transformation"]["forms"][0]["up"] = "2500"
    docs[2]["transformation"]["forms"][0]["up"] = True
    assert check(docs) == []

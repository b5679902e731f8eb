"""The machine block's 回避修正 (issue 16.8): two sums the seed defines, derived from the main
system's evasion modifier; a typed figure that differs is a warning.

Seed 003, ②回避判定: 「メインシステムによって提供される回避判定への修正と機体の「機動性」（このふたつの
合計は、機体シートに「回避修正」として記されている）」; ②－ａ「受け」: 「「メインシステムの回避修正」＋
「機体（＋メインシステム）の作業性」（このふたつの合計は、機体シートに「回避修正」として記されている
２番目の数値である）」. Figures below are worked by hand from those two lines.
"""
from __future__ import annotations

from converter import check_document
from converter.core.findings import Severity
from converter.check.schema import validate

from .conftest import character, finding, found, machine, priced

DODGE, PARRY = "/derived/machine/evasion_modifier/dodge", "/derived/machine/evasion_modifier/parry"


def _evasion(**overrides):
    """メインシステムの回避修正 2, 機動性 3, 作業性 −1: 回避 2 + 3 = 5, 受け 2 + (−1) = 1."""
    return machine(**{"main_system_evasion": 2, "mobility": 3, "workability": -1, **overrides})


def test_both_figures_are_derived() -> None:
    """回避 = メインシステムの回避修正＋機動性, 受け = メインシステムの回避修正＋作業性, each shown
    with its name in both languages."""
    pricing = priced(character(machine=_evasion(evasion_modifier={"dodge": 5, "parry": 1})))
    assert pricing.value(DODGE) == 2 + 3
    assert pricing.value(PARRY) == 2 + (-1)
    assert (pricing.derived[DODGE].label, pricing.derived[DODGE].label_en) == \
        ("回避修正（回避）", "evasion modifier (dodge)")
    assert (pricing.derived[PARRY].label, pricing.derived[PARRY].label_en) == \
        ("回避修正（受け）", "evasion modifier (parry)")
    assert found(pricing) == []


def test_a_typed_figure_that_differs_is_a_warning() -> None:
    """回避 typed 4 where 2 + 3 = 5: a warning at that figure naming the typed figure and both
    terms; 受け 1 agrees and says nothing."""
    pricing = priced(character(machine=_evasion(evasion_modifier={"dodge": 4, "parry": 1})))
    assert found(pricing) == [("PP_EVASION_MODIFIER_MISMATCH", "/machine/evasion_modifier/dodge")]
    f = finding(pricing, "PP_EVASION_MODIFIER_MISMATCH")
    assert f.level is Severity.WARNING
    assert (f.params["value"], f.params["expected"]) == (4, 5)
    assert f.message("ja") == "回避修正（回避） 4 が メインシステムの回避修正 2 ＋ 機動性 3 ＝ 5 と違います"
    assert f.message("en") == ("evasion modifier (dodge) 4 differs from main system evasion modifier 2"
                               " + mobility 3 = 5")
    assert pricing.value(DODGE) == 5  # the derived figure is the sum, whatever was typed


def test_both_typed_figures_may_differ() -> None:
    """回避 6 (not 5) and 受け 0 (not 2 + (−1) = 1): one warning each, at each figure."""
    pricing = priced(character(machine=_evasion(evasion_modifier={"dodge": 6, "parry": 0})))
    assert found(pricing) == [("PP_EVASION_MODIFIER_MISMATCH", "/machine/evasion_modifier/dodge"),
                              ("PP_EVASION_MODIFIER_MISMATCH", "/machine/evasion_modifier/parry")]
    parry = [f for f in pricing.findings if f.pointer.endswith("/parry")][0]
    assert (parry.params["value"], parry.params["expected"]) == (0, 1)
    assert parry.message("ja") == "回避修正（受け） 0 が メインシステムの回避修正 2 ＋ 作業性 -1 ＝ 1 と違います"


def test_the_warning_leaves_the_document_valid() -> None:
    """A differing figure is a warning: the document still checks valid, the total unchanged."""
    doc = character(machine=_evasion(evasion_modifier={"dodge": 4, "parry": 1}))
    report = check_document(doc)
    assert report.valid and report.computed == 0
    assert [f.code for f in report.findings if f.level is not Severity.INFO] == \
        ["PP_EVASION_MODIFIER_MISMATCH"]


def test_figures_need_not_be_typed() -> None:
    """With メインシステムの回避修正 recorded, 回避修正 may be left out: the schema asks for one of
    the two, and the engine derives both figures."""
    m = _evasion()
    del m["evasion_modifier"]
    doc = character(machine=m)
    assert validate(doc, "pp") == []
    pricing = priced(doc)
    assert (pricing.value(DODGE), pricing.value(PARRY)) == (5, 1) and found(pricing) == []
    del doc["machine"]["main_system_evasion"]
    assert sorted((f.code, f.params["field"]) for f in validate(doc, "pp")) == [
        ("SCHEMA_REQUIRED", "evasion_modifier"), ("SCHEMA_REQUIRED", "main_system_evasion")]
    either = [f for f in check_document(doc).findings if f.level is Severity.ERROR]
    assert [f.code for f in either] == ["SCHEMA_REQUIRED_ONE_OF"]  # one error, not two
    assert either[0].message("ja") == \
        "「回避修正」か「メインシステムの回避修正」のどちらかが必要ですが、どちらもありません"
    assert either[0].message("en") == \
        "one of \"evasion modifier\" or \"main system's evasion modifier\" is needed, and neither is given"


def test_an_older_sheet_keeps_its_typed_figures_with_an_info() -> None:
    """No メインシステムの回避修正 (a sheet from before it was recorded): 回避修正 3/2 is taken as
    written, nothing is derived or compared, and an info says it was not checked."""
    m = machine()
    del m["main_system_evasion"]
    m["evasion_modifier"] = {"dodge": 9, "parry": -4}  # no sum to hold them to
    doc = character(machine=m)
    assert validate(doc, "pp") == []
    pricing = priced(doc)
    assert found(pricing) == [("PP_EVASION_MODIFIER_UNCHECKED", "/machine/main_system_evasion")]
    f = finding(pricing, "PP_EVASION_MODIFIER_UNCHECKED")
    assert f.level is Severity.INFO
    assert f.message("ja") == "メインシステムの回避修正 が記されていません（回避修正は記入どおりとし、確かめていません）"
    assert DODGE not in pricing.derived and PARRY not in pricing.derived
    assert check_document(doc).valid


def test_unreadable_figures_are_reported_once_and_not_compared() -> None:
    """A main system modifier that is text is a type error: nothing derived, nothing compared;
    a typed figure that is text is a type error, and the other figure is still compared."""
    pricing = priced(character(machine=_evasion(main_system_evasion="2",
                                                evasion_modifier={"dodge": 9, "parry": 9})))
    assert found(pricing) == [("PP_MACHINE_TYPE", "/machine/main_system_evasion")]
    assert DODGE not in pricing.derived and PARRY not in pricing.derived
    pricing = priced(character(machine=_evasion(evasion_modifier={"dodge": "5", "parry": 2})))
    assert found(pricing) == [("PP_EVASION_MODIFIER_MISMATCH", "/machine/evasion_modifier/parry"),
                              ("PP_MACHINE_TYPE", "/machine/evasion_modifier/dodge")]


def test_a_term_that_cannot_be_read_leaves_its_figure_out() -> None:
    """機動性 2.5 (not a whole number): 回避 is not derived; 受け 2 + (−1) = 1 still is."""
    pricing = priced(character(machine=_evasion(mobility=2.5, evasion_modifier={"dodge": 4, "parry": 1})))
    assert found(pricing) == [("PP_MACHINE_TYPE", "/machine/mobility")]
    assert DODGE not in pricing.derived and pricing.value(PARRY) == 1


def test_a_whole_float_counts_as_its_number() -> None:
    """メインシステムの回避修正 2.0 is 2, as every whole-number figure is read."""
    pricing = priced(character(machine=_evasion(main_system_evasion=2.0,
                                                evasion_modifier={"dodge": 5, "parry": 1})))
    assert pricing.value(DODGE) == 5 and found(pricing) == []

"""Equipment: six slots shared by weapons and options, two arms, and at most two copies of the
same option counting (seed 001, 武器の選択／オプションの選択)."""
from __future__ import annotations

import pytest

from converter.core.findings import Severity
from converter.rules.mailgear import evaluate as price

from .conftest import codes, only, option, pilot, skills, weapon


def _items(n: int) -> list[dict]:
    return [weapon(f"武器{k}") for k in range(n)]


def test_six_items_fill_the_slots() -> None:
    """Six one-slot items are fine, and the sheet shows 6 slots used."""
    result = price(pilot(equipment=_items(4) + [option("シールド", None), option()]))
    assert codes(result) == set()
    assert result.value("/derived/slots_used") == 6


def test_a_seventh_slot_is_an_error() -> None:
    """Seven items: MG_SLOTS_OVER at /equipment, with the count."""
    result = price(pilot(equipment=_items(7)))
    assert codes(result) == {("MG_SLOTS_OVER", "/equipment")}
    assert only(result, "MG_SLOTS_OVER").params == {"used": 7, "max": 6}


def test_weapons_and_options_share_the_slots() -> None:
    """Four weapons and three options are seven slots too (「オプションも同様です」)."""
    equipment = _items(4) + [option("A"), option("B"), option("C")]
    assert ("MG_SLOTS_OVER", "/equipment") in codes(price(pilot(equipment=equipment)))


def test_an_item_may_take_more_than_one_slot() -> None:
    """A two-slot item counts two: five items can overflow."""
    result = price(pilot(equipment=_items(4) + [weapon("ミサイルポッド", slots=2), option()]))
    assert only(result, "MG_SLOTS_OVER").params["used"] == 7


def test_two_arms_hold_two_items() -> None:
    """One item in each arm is fine; a third held item is MG_ARMS_OVER at its arm."""
    equipment = [weapon("A", arm="right"), option("シールド", None, arm="left"),
                 weapon("B", arm="right")]
    result = price(pilot(equipment=equipment))
    assert codes(result) == {("MG_ARMS_OVER", "/equipment/2/arm")}
    assert only(result, "MG_ARMS_OVER").params["other"] == "A"


def test_an_item_in_both_hands_takes_both_arms() -> None:
    """両腕 takes both arms: another held item does not fit."""
    equipment = [weapon("ライフル", arm="both"), weapon("ナイフ", ("cr",), arm="left")]
    assert codes(price(pilot(equipment=equipment))) == {("MG_ARMS_OVER", "/equipment/1/arm")}


def test_stowed_items_need_no_arm() -> None:
    """Any number of weapons may be carried (「何種類持っても構いません」) within the slots."""
    assert codes(price(pilot(equipment=_items(5)))) == set()


def test_a_third_copy_of_an_option_is_a_warning_that_it_adds_nothing() -> None:
    """Three Ａ．Ｇ．Ｓ (鉄壁 1): 「Ａ．Ｇ．Ｓ」を２つ装備すれば「鉄壁」は＋２レベルされますが、３つ装備した
    としても＋３レベルにはなりません」: 鉄壁 1 + 2 = 3, not 4. The third is MG_OPTION_COPIES, a
    warning (the seed says it adds nothing, not that it may not be fitted), and still takes its
    slot: 3 slots used."""
    result = price(pilot(skills=skills(iron_wall=1), equipment=[option(), option(), option()]))
    assert codes(result) == {("MG_OPTION_COPIES", "/equipment/2")}
    finding = only(result, "MG_OPTION_COPIES")
    assert finding.level is Severity.WARNING
    assert finding.params == {"name": "Ａ．Ｇ．Ｓ", "copy": 3, "max": 2}
    assert result.value("/derived/skills/iron_wall") == 3
    assert result.value("/derived/guard") == "+5"  # 受け 2 + 鉄壁 3
    assert result.value("/derived/slots_used") == 3


def test_the_third_copy_still_takes_a_slot() -> None:
    """Four weapons and three Ａ．Ｇ．Ｓ are seven slots: MG_SLOTS_OVER (an error) although the third
    Ａ．Ｇ．Ｓ adds nothing."""
    result = price(pilot(equipment=_items(4) + [option()] * 3))
    assert codes(result) == {("MG_SLOTS_OVER", "/equipment"), ("MG_OPTION_COPIES", "/equipment/6")}
    assert only(result, "MG_SLOTS_OVER").params == {"used": 7, "max": 6}


def test_a_fourth_copy_is_named_too() -> None:
    """Four Ａ．Ｇ．Ｓ: the third and the fourth each add nothing (鉄壁 0 + 2 = 2)."""
    result = price(pilot(equipment=[option()] * 4))
    assert codes(result) == {("MG_OPTION_COPIES", "/equipment/2"), ("MG_OPTION_COPIES", "/equipment/3")}
    assert [f.params["copy"] for f in result.findings if f.code == "MG_OPTION_COPIES"] == [3, 4]
    assert result.value("/derived/skills/iron_wall") == 2


def test_copies_are_recognised_however_the_name_is_written() -> None:
    """「Ａ．Ｇ．Ｓ」「A.G.S」「ags」 are one option: the third of them is the copy."""
    equipment = [option("Ａ．Ｇ．Ｓ"), option("A.G.S"), option("ags")]
    assert codes(price(pilot(equipment=equipment))) >= {("MG_OPTION_COPIES", "/equipment/2")}


def test_a_third_copy_can_be_read_as_an_error() -> None:
    """Option option_copies=error: a third copy may not be fitted; still ignored, still a slot."""
    result = price(pilot(skills=skills(iron_wall=1), equipment=[option()] * 3),
                   {"option_copies": "error"})
    assert only(result, "MG_OPTION_COPIES").level is Severity.ERROR
    assert result.value("/derived/skills/iron_wall") == 3
    assert result.value("/derived/slots_used") == 3


def test_two_identical_weapons_are_fine() -> None:
    """The copy limit is for options: two identical weapons are two weapons."""
    assert codes(price(pilot(equipment=[weapon(), weapon()]))) == set()


@pytest.mark.parametrize(("entry", "where"), [
    ({"kind": "armor", "name": "装甲"}, "/equipment/0/kind"),
    (weapon(bands=()), "/equipment/0/bands"),
    (weapon(bands=("xr",)), "/equipment/0/bands"),
    (weapon(arm="tail"), "/equipment/0/arm"),
    (weapon(slots=0), "/equipment/0/slots"),
    ({"kind": "option", "name": "謎", "effects": [{"skill": "newtype", "levels": 1}]},
     "/equipment/0/effects/0"),
])
def test_malformed_item_fields(entry: dict, where: str) -> None:
    """A field the engine cannot use is MG_ITEM_FIELD_INVALID at that field."""
    assert codes(price(pilot(equipment=[entry]))) == {("MG_ITEM_FIELD_INVALID", where)}


def test_an_option_without_effects_is_noted() -> None:
    """An option whose effects are neither written nor in a catalog: an info note, nothing applied."""
    result = price(pilot(equipment=[{"kind": "option", "name": "謎のオプション"}]))
    assert codes(result) == set()
    assert ("MG_OPTION_EFFECTS_UNKNOWN", "/equipment/0") in codes(result, info=True)

"""部分変形: the changed places counted from the forms' documents (issue 16.5).

Seed 000, 変形 › 部分変形: 「１箇所（武器１個）または２箇所のみを変更する（付け加える）場合…８０点安く
なる。３箇所または４箇所を変更する場合は５０点、５箇所または６箇所を変更する場合は２０点安くなる。」
「このとき、「元々持っていた武器を消す」「ステータスを減らす」のは変更箇所に数えない。また、移動タイプと
地形適応の変更はまとめて「１箇所」として数えられる。」
"""
from __future__ import annotations

import copy

import pytest

from converter.rules.up import check_transformation_sets
from converter.rules.up.engine import price_unit
from converter.rules.up.transformation import changed_places

from .conftest import base_stats, melee, ranged, unit

GROUP = "ゼータ"


def form(name: str, other: str, places: int | None, **overrides) -> dict:
    """An M unit of the set, listing the other form (its UP is not what these tests check)."""
    doc = unit(name=name, **overrides)
    doc["transformation"] = {"group": GROUP, "forms": [{"name": other, "up": 1000}],
                             "changed_places": places}
    return doc


def places_found(docs: list[dict]) -> list[tuple[int, str, dict]]:
    items = [(d, price_unit(d)) for d in docs]
    return [(i, f.pointer, dict(f.params)) for i, f in check_transformation_sets(items)
            if f.code == "UP_TRANSFORM_PLACES_MISMATCH"]


BASE = {"weapons": [melee(name="ビームサーベル")]}
# ウェイブライダー from the base: a weapon added (1), HP raised 200→250 (1), 空 added to the
# movement with 空 S (one place together), the サーベル dropped and 装甲 lowered (nothing): 3.
RIDER = {"weapons": [ranged(name="メガ粒子砲", range=4)], "movement": ["air", "land", "space"],
         "terrain": {"air": "S"}, "stats": {"hp": 250, "armor": 18}}


def test_count_follows_the_seed_line() -> None:
    """The changed places between two forms are counted as the seed line says, both ways."""
    base, rider = unit(**BASE), unit(**RIDER)
    assert changed_places(base, rider) == 3
    # Back again: the サーベル is added (1) and 装甲 raised 18→20 (1); 空 removed and 空 S gone
    # are one place; HP lowered is nothing: 3.
    assert changed_places(rider, base) == 3


def test_removals_and_lowered_stats_are_not_places() -> None:
    """A form that only drops a weapon and lowers a stat changes nothing going there; the way
    back adds the weapon (1) and raises the stat (1): the pair counts 2."""
    full = unit(weapons=[melee(name="剣"), ranged(name="銃")])
    light = unit(weapons=[melee(name="剣")], stats={"hp": 150})
    assert changed_places(full, light) == 0
    assert changed_places(light, full) == 2


@pytest.mark.parametrize(("change", "places"), [
    ({"movement": ["air", "land", "space"]}, 1),                             # movement only
    ({"terrain": {"land": "S"}}, 1),                                          # terrain only
    ({"movement": ["air", "land", "space"], "terrain": {"air": "S", "sea": "A"}}, 1),  # both: one place
    ({"weapons": [melee(name="ビームサーベル", range=2)]}, 1),                # the same weapon altered
    ({"weapons": [melee(name="ビームサーベル", notes="メモだけ")]}, 0),      # a note is no place
    ({"abilities": [{"id": "shield", "uses": 1}]}, 1),                        # an ability added
    ({"stats": {"hp": 205, "en": 55, "power": 16}}, 3),                       # each stat raised
    # L's base against M's: the size, and HP, EN, 装甲, 出力 higher (運動性, 移動力 lower): 1 + 4.
    ({"size": "L", "stats": base_stats("L")}, 1 + 4),
])
def test_each_kind_of_place(change: dict, places: int) -> None:
    """Each kind of change counts its places (movement and terrain together one, a note none)."""
    base = unit(**BASE)
    changed = unit(**{**BASE, **change})
    assert changed_places(base, changed) == places


def test_typed_count_that_agrees_is_silent() -> None:
    """A typed count of changed places that agrees with the forms gives no finding."""
    docs = [form("ゼータ", "ウェイブライダー", 3, **BASE), form("ウェイブライダー", "ゼータ", 3, **RIDER)]
    assert places_found(docs) == []


def test_typed_count_that_disagrees_is_a_warning_on_each_form() -> None:
    """Both forms type 2 (−80); the documents differ in 3 places (−50): a warning naming both."""
    docs = [form("ゼータ", "ウェイブライダー", 2, **BASE), form("ウェイブライダー", "ゼータ", 2, **RIDER)]
    expected = {"group": GROUP, "typed": 2, "counted": 3}
    assert places_found(docs) == [(0, "/transformation/changed_places", expected),
                                  (1, "/transformation/changed_places", expected)]
    items = [(d, price_unit(d)) for d in docs]
    [(_, f), _] = [x for x in check_transformation_sets(items) if x[1].code == "UP_TRANSFORM_PLACES_MISMATCH"]
    assert f.level.value == "warning"
    assert "2" in f.message("ja") and "3" in f.message("ja")


def test_the_larger_direction_counts() -> None:
    """ゼータ adds nothing going to a lighter form, which adds 2 coming back: the pair is 2."""
    heavy = {"weapons": [melee(name="剣"), ranged(name="銃")]}
    light = {"weapons": [melee(name="剣")], "stats": {"hp": 150}}
    docs = [form("重", "軽", 1, **heavy), form("軽", "重", 2, **light)]
    assert places_found(docs) == [(0, "/transformation/changed_places",
                                   {"group": GROUP, "typed": 1, "counted": 2})]


def test_full_transformation_and_forms_not_in_the_set_are_not_counted() -> None:
    """No typed count (a full transformation), or the other form's document not checked: silent."""
    assert places_found([form("ゼータ", "ウェイブライダー", None, **BASE),
                         form("ウェイブライダー", "ゼータ", None, **RIDER)]) == []
    assert places_found([form("ゼータ", "ウェイブライダー", 5, **BASE)]) == []


def test_a_form_whose_documents_disagree_is_not_counted() -> None:
    """ウェイブライダー twice (its JSON, and a sheet that adds a weapon): against them ゼータ counts 3
    or 4, so ゼータ's typed 2 gets no verdict; each ウェイブライダー document is judged on its own
    against ゼータ, and the sheet's 4 is not its typed 3."""
    rider = form("ウェイブライダー", "ゼータ", 3, **RIDER)
    other = copy.deepcopy(rider)
    other["weapons"].append(ranged(name="グレネード"))
    assert places_found([form("ゼータ", "ウェイブライダー", 2, **BASE), rider, other]) == [
        (2, "/transformation/changed_places", {"group": GROUP, "typed": 3, "counted": 4})]


def test_a_form_named_by_a_list_counts_nothing_and_crashes_nothing() -> None:
    """A malformed form name (a list) names no document: no count, no finding, no exception."""
    a = form("ゼータ", "ウェイブライダー", 2, **BASE)
    a["transformation"]["forms"] = [{"name": ["ウェイブライダー"], "up": 1000}, "not a form"]
    assert places_found([a, form("ウェイブライダー", "ゼータ", 3, **RIDER)]) == []


def test_unreadable_fixed_damage_counts_as_none() -> None:
    """A weapon's fixed damage that is no whole number adds nothing to its derived damage: 射撃
    実体, 1 die, fixed unreadable → 1D10+0 (ranged weapons take no パワー)."""
    from converter.rules.up.weapons import damage_parts

    assert damage_parts(ranged(damage={"dice": 1, "fixed": "x"}), unit()) == (1, 0)
    assert damage_parts(ranged(damage={"dice": 2, "fixed": 0}), unit()) == (2, 0)

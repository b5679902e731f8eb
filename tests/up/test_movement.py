"""移動タイプ (added/removed types at 基本ＵＰ/5) and the optional 地形適応 rule (seed 000)."""
from __future__ import annotations

import pytest

from converter.core.findings import Severity

from .conftest import cost_at, finding, found, has_line, priced, unit


def test_one_of_air_land_sea_plus_space_is_free() -> None:
    """陸+宇宙, the starting pair, costs nothing."""
    p = priced(unit(movement=["land", "space"]))
    assert not has_line(p, "/movement")
    assert found(p) == []


@pytest.mark.parametrize(("size", "movement", "cost"), [
    ("M", ["air", "land", "space"], 80),
    ("M", ["air", "land", "sea", "space"], 160),
    ("L", ["land", "sea", "space"], 100),
    ("SSS", ["air", "land", "sea", "space"], 100),
    ("LLL", ["air", "sea", "space"], 160),
])
def test_each_added_type_costs_a_fifth_of_base_up(size: str, movement: list[str], cost: int) -> None:
    """Each type beyond the starting two costs 基本ＵＰ/5 (M 80, L 100, SSS 50, LLL 160)."""
    assert cost_at(priced(unit(size=size, movement=movement)), "/movement") == cost


@pytest.mark.parametrize(("size", "movement", "refund"), [
    ("M", ["land"], -80), ("M", ["space"], -80), ("SS", ["sea"], -60)])
def test_removed_type_refunds_a_fifth_of_base_up(size: str, movement: list[str], refund: int) -> None:
    """A unit bound to one space gets 基本ＵＰ/5 back."""
    assert cost_at(priced(unit(size=size, movement=movement)), "/movement") == refund


def test_swapping_space_for_another_type_nets_zero() -> None:
    """空+陸 without 宇宙: one type removed, one added: no line."""
    assert not has_line(priced(unit(movement=["air", "land"])), "/movement")


def test_no_movement_type_is_an_error() -> None:
    """An empty movement list is UP_MOVEMENT_EMPTY."""
    assert found(priced(unit(movement=[]))) == [("UP_MOVEMENT_EMPTY", "/movement")]


def test_unknown_movement_type_is_an_error() -> None:
    """A type outside 空/陸/海/宇宙 is UP_MOVEMENT_UNKNOWN at its place."""
    p = priced(unit(movement=["land", "space", "underground"]))
    assert found(p) == [("UP_MOVEMENT_UNKNOWN", "/movement/2")]
    assert not has_line(p, "/movement")


def test_duplicate_movement_type_is_an_error_counted_once() -> None:
    """陸 listed twice is UP_MOVEMENT_DUPLICATE (at /movement, where the schema reports it too)."""
    p = priced(unit(movement=["land", "space", "land"]))
    assert found(p) == [("UP_MOVEMENT_DUPLICATE", "/movement")]
    assert not has_line(p, "/movement")


# --- 地形適応（選択ルール） -----------------------------------------------------------------------

@pytest.mark.parametrize(("terrain", "pointer", "cost"), [
    ({"air": "A"}, "/terrain/air", 50),       # B→A
    ({"land": "S"}, "/terrain/land", 70),     # A→S
    ({"air": "S"}, "/terrain/air", 120),      # B→A→S
    ({"land": "B"}, "/terrain/land", -40),    # A→B
    ({"sea": "C"}, "/terrain/sea", -40),      # B→C
    ({"space": "C"}, "/terrain/space", -80),  # A→B→C
])
def test_terrain_step_prices(terrain: dict[str, str], pointer: str, cost: int) -> None:
    """B→A 50, A→S 70, each step down −40; defaults: A for 陸・宇宙, B for 空・海."""
    p = priced(unit(terrain=terrain))
    assert cost_at(p, pointer) == cost
    assert found(p) == []


def test_terrain_defaults_follow_movement_types() -> None:
    """A unit that flies starts at 空A: raising it to S costs 70, not 120."""
    p = priced(unit(movement=["air", "space"], terrain={"air": "S"}))
    assert cost_at(p, "/terrain/air") == 70


def test_terrain_written_at_defaults_costs_nothing() -> None:
    """Writing out the default grades prices nothing."""
    p = priced(unit(terrain={"air": "B", "land": "A", "sea": "B", "space": "A"}))
    assert p.total == 400
    assert found(p) == []


def test_terrain_lines_add_up() -> None:
    """空B→A (+50) and 海B→C (−40) are two lines."""
    p = priced(unit(terrain={"air": "A", "sea": "C"}))
    assert p.total == 400 + 50 - 40


def test_terrain_change_forbidden_by_option_is_an_error() -> None:
    """Under terrain=forbidden a changed grade is UP_TERRAIN_FORBIDDEN (error) and not priced."""
    p = priced(unit(terrain={"land": "S", "sea": "B"}), terrain="forbidden")
    assert found(p) == [("UP_TERRAIN_FORBIDDEN", "/terrain/land")]
    assert finding(p, "UP_TERRAIN_FORBIDDEN").level is Severity.ERROR
    assert not has_line(p, "/terrain/land")


def test_terrain_at_defaults_is_fine_when_forbidden() -> None:
    """terrain=forbidden accepts grades written at their defaults."""
    assert found(priced(unit(terrain={"land": "A", "air": "B"}), terrain="forbidden")) == []


def test_unknown_terrain_grade_is_an_error() -> None:
    """A grade outside S/A/B/C is UP_TERRAIN_GRADE; the total is partial."""
    p = priced(unit(terrain={"land": "D"}))
    assert found(p) == [("UP_TERRAIN_GRADE", "/terrain/land")]
    assert not p.complete

"""機体性能: size base UP, stat raises of every size, 移動力 doubling and morale-boosted stats.

Expected costs are written by hand from seed 000's table (１．機体性能), never read from the engine.
"""
from __future__ import annotations

import pytest

from converter.core.findings import Severity

from .conftest import SEED_SIZES, cost_at, finding, found, has_line, priced, unit

# (size, 基本ＵＰ)
BASE_UP = [("SSS", 250), ("SS", 300), ("S", 350), ("M", 400), ("L", 500), ("LL", 600), ("LLL", 800)]

# (size, stat, raised value, UP): one step, then the maximum raise (e.g. M ＨＰ 200 + 200 = 400 at
# 40 steps × 18 = 720).
STAT_RAISES = [
    ("SSS", "hp", 55, 30), ("SSS", "hp", 100, 300),
    ("SSS", "en", 40, 20), ("SSS", "en", 65, 120),
    ("SSS", "armor", 13, 20), ("SSS", "armor", 20, 160),
    ("SSS", "power", 1, 20), ("SSS", "power", 20, 400),
    ("SSS", "mobility", 30, 50), ("SSS", "mobility", 50, 250),
    ("SS", "hp", 95, 25), ("SS", "hp", 180, 450),
    ("SS", "en", 45, 18), ("SS", "en", 75, 126),
    ("SS", "armor", 16, 18), ("SS", "armor", 25, 180),
    ("SS", "power", 6, 18), ("SS", "power", 25, 360),
    ("SS", "mobility", 25, 60), ("SS", "mobility", 40, 240),
    ("S", "hp", 155, 20), ("S", "hp", 300, 600),
    ("S", "en", 50, 15), ("S", "en", 85, 120),
    ("S", "armor", 19, 18), ("S", "armor", 30, 216),
    ("S", "power", 11, 18), ("S", "power", 35, 450),
    ("S", "mobility", 25, 60), ("S", "mobility", 40, 240),
    ("M", "hp", 205, 18), ("M", "hp", 400, 720),
    ("M", "en", 55, 15), ("M", "en", 100, 150),
    ("M", "armor", 21, 15), ("M", "armor", 35, 225),
    ("M", "power", 16, 18), ("M", "power", 40, 450),
    ("M", "mobility", 20, 70), ("M", "mobility", 35, 280),
    ("L", "hp", 355, 15), ("L", "hp", 700, 1050),
    ("L", "en", 65, 12), ("L", "en", 120, 144),
    ("L", "armor", 26, 12), ("L", "armor", 45, 240),
    ("L", "power", 26, 15), ("L", "power", 55, 450),
    ("L", "mobility", 15, 90), ("L", "mobility", 25, 270),
    ("LL", "hp", 605, 12), ("LL", "hp", 1200, 1440),
    ("LL", "en", 85, 12), ("LL", "en", 160, 192),
    ("LL", "armor", 26, 12), ("LL", "armor", 45, 240),
    ("LL", "power", 36, 15), ("LL", "power", 65, 450),
    ("LL", "mobility", 15, 90), ("LL", "mobility", 25, 270),
    ("LLL", "hp", 1005, 10), ("LLL", "hp", 2000, 2000),
    ("LLL", "en", 105, 10), ("LLL", "en", 200, 200),
    ("LLL", "armor", 26, 12), ("LLL", "armor", 45, 240),
    ("LLL", "power", 51, 12), ("LLL", "power", 80, 360),
    ("LLL", "mobility", 10, 100), ("LLL", "mobility", 15, 200),
]

# (size, 移動力 base, UP for +1, UP for +2 = 3 × the +1 price)
MOVE_RAISES = [("SSS", 6, 50, 150), ("SS", 6, 50, 150), ("S", 6, 50, 150), ("M", 6, 60, 180),
               ("L", 5, 80, 240), ("LL", 5, 90, 270), ("LLL", 5, 100, 300)]


@pytest.mark.parametrize(("size", "base_up"), BASE_UP)
def test_size_pays_its_base_up(size: str, base_up: int) -> None:
    """A unit at its size's base stats pays only the size's 基本ＵＰ, with no finding."""
    p = priced(unit(size=size))
    assert [(line.pointer, line.cost) for line in p.lines] == [("/size", base_up)]
    assert p.total == base_up
    assert found(p) == []


@pytest.mark.parametrize(("size", "stat", "value", "cost"), STAT_RAISES)
def test_stat_raise_cost(size: str, stat: str, value: int, cost: int) -> None:
    """Raising a stat costs (raise / step) × the size's price, up to the maximum raise."""
    p = priced(unit(size=size, stats={stat: value}))
    assert cost_at(p, f"/stats/{stat}") == cost
    assert found(p) == []


@pytest.mark.parametrize(("size", "stat", "value", "cost"), STAT_RAISES[1::2])
def test_stat_one_step_over_maximum_is_an_error(size: str, stat: str, value: int, cost: int) -> None:
    """One step past the maximum raise is UP_STAT_MAX (an error); the raise is still priced."""
    step = SEED_SIZES[size][1][stat][1]
    p = priced(unit(size=size, stats={stat: value + step}))
    assert found(p) == [("UP_STAT_MAX", f"/stats/{stat}")]
    assert finding(p, "UP_STAT_MAX").params["max"] == value
    assert cost_at(p, f"/stats/{stat}") > cost


@pytest.mark.parametrize(("size", "base", "one", "two"), MOVE_RAISES)
def test_move_plus_one_and_plus_two(size: str, base: int, one: int, two: int) -> None:
    """移動力 +1 costs the table's figure; +2 adds twice that (3× in all)."""
    assert cost_at(priced(unit(size=size, stats={"move": base + 1})), "/stats/move") == one
    p = priced(unit(size=size, stats={"move": base + 2}))
    assert cost_at(p, "/stats/move") == two
    assert found(p) == []


def test_move_plus_three_doubles_again_with_warning() -> None:
    """移動力 +3 (M): 60 + 120 + 240 = 420, with the warning UP_MOVE_BEYOND_TWO."""
    p = priced(unit(stats={"move": 9}))
    assert cost_at(p, "/stats/move") == 420
    assert found(p) == [("UP_MOVE_BEYOND_TWO", "/stats/move")]
    assert finding(p, "UP_MOVE_BEYOND_TWO").level is Severity.WARNING


def test_move_plus_four_doubles_each_point() -> None:
    """移動力 +4 (L): 80 + 160 + 320 + 640 = 1200."""
    assert cost_at(priced(unit(size="L", stats={"move": 9})), "/stats/move") == 1200


def test_move_beyond_two_forbidden_is_an_error() -> None:
    """Under move_beyond_two=forbid, 移動力 +3 is an error instead of a warning."""
    p = priced(unit(stats={"move": 9}), move_beyond_two="forbid")
    assert found(p) == [("UP_MOVE_BEYOND_TWO", "/stats/move")]
    assert finding(p, "UP_MOVE_BEYOND_TWO").level is Severity.ERROR


def test_move_plus_two_is_fine_when_forbidding_beyond_two() -> None:
    """move_beyond_two=forbid leaves +2 alone."""
    p = priced(unit(stats={"move": 8}), move_beyond_two="forbid")
    assert cost_at(p, "/stats/move") == 180
    assert found(p) == []


def test_raise_off_its_step_is_an_error_with_hint() -> None:
    """ＨＰ 203 on an M unit (step 5): UP_STAT_STEP with the neighbours 200 and 205, not priced."""
    p = priced(unit(stats={"hp": 203}))
    assert found(p) == [("UP_STAT_STEP", "/stats/hp")]
    assert finding(p, "UP_STAT_STEP").params["hint"] == [200, 205]
    assert not has_line(p, "/stats/hp")
    assert not p.complete


def test_stat_below_base_warns_without_refund() -> None:
    """ＨＰ 195 on an M unit: UP_STAT_BELOW_BASE warning, no refund line."""
    p = priced(unit(stats={"hp": 195}))
    assert found(p) == [("UP_STAT_BELOW_BASE", "/stats/hp")]
    assert finding(p, "UP_STAT_BELOW_BASE").level is Severity.WARNING
    assert p.total == 400


def test_stat_not_an_integer_is_an_error() -> None:
    """A stat written as text is UP_VALUE_NOT_INTEGER and leaves the total partial."""
    p = priced(unit(stats={"armor": "二十"}))
    assert found(p) == [("UP_VALUE_NOT_INTEGER", "/stats/armor")]
    assert not p.complete


def test_unknown_size_stops_pricing() -> None:
    """An unknown size is UP_SIZE_UNKNOWN; nothing is priced."""
    doc = unit()
    doc["size"] = "XL"
    p = priced(doc)
    assert found(p) == [("UP_SIZE_UNKNOWN", "/size")]
    assert p.lines == [] and not p.complete


# --- 気力によるステータス上昇 -------------------------------------------------------------------

@pytest.mark.parametrize(("morale", "cost"), [("fulfilled", 162), ("elated", 144), ("confident", 126),
                                              ("super_confident", 90), ("limit_break", 54)])
def test_morale_boost_discount(morale: str, cost: int) -> None:
    """パワー+10 on M (180 UP) at 充実/高揚/強気/超強気/限界突破: −10/−20/−30/−50/−70 %."""
    p = priced(unit(morale_boosts=[{"stat": "power", "raise": 10, "morale": morale}]))
    assert cost_at(p, "/morale_boosts/0") == cost
    assert found(p) == []


def test_morale_boost_floor_by_option() -> None:
    """ability_floor=minus50: パワー+10 on M (180 UP) at 限界突破 (−70 %) pays 180 × 0.5 = 90,
    not 54; 超強気 (−50 %) is 90 either way."""
    boost = {"stat": "power", "raise": 10, "morale": "limit_break"}
    assert cost_at(priced(unit(morale_boosts=[boost]), ability_floor="minus50"), "/morale_boosts/0") == 90
    assert cost_at(priced(unit(morale_boosts=[boost])), "/morale_boosts/0") == 54
    boost["morale"] = "super_confident"
    assert cost_at(priced(unit(morale_boosts=[boost]), ability_floor="minus50"), "/morale_boosts/0") == 90


def test_morale_boost_rounds_half_up() -> None:
    """装甲+1 on M at 強気: 15 × 0.7 = 10.5 → 11 (round half up)."""
    p = priced(unit(morale_boosts=[{"stat": "armor", "raise": 1, "morale": "confident"}]))
    assert cost_at(p, "/morale_boosts/0") == 11


def test_morale_boost_of_move_continues_the_doubling() -> None:
    """A unit already at 移動力+1 boosting +1 more pays the second point's price (M: 120 × 0.7 = 84)."""
    p = priced(unit(stats={"move": 7},
                    morale_boosts=[{"stat": "move", "raise": 1, "morale": "confident"}]))
    assert cost_at(p, "/morale_boosts/0") == 84


def test_morale_boost_past_maximum_warns() -> None:
    """パワー already +20 on M boosted +10 passes the +25 maximum: UP_BOOST_OVER_MAX (warning)."""
    p = priced(unit(stats={"power": 35},
                    morale_boosts=[{"stat": "power", "raise": 10, "morale": "confident"}]))
    assert found(p) == [("UP_BOOST_OVER_MAX", "/morale_boosts/0")]
    assert cost_at(p, "/morale_boosts/0") == 126


def test_morale_boost_off_step_is_an_error() -> None:
    """ＨＰ+7 (step 5) is UP_STAT_STEP at the boost's raise."""
    p = priced(unit(morale_boosts=[{"stat": "hp", "raise": 7, "morale": "confident"}]))
    assert found(p) == [("UP_STAT_STEP", "/morale_boosts/0/raise")]
    assert not has_line(p, "/morale_boosts/0")
    assert not p.complete


def test_morale_boost_unknown_morale_is_an_error() -> None:
    """An unknown morale level is UP_MORALE_UNKNOWN; the boost is priced without discount."""
    p = priced(unit(morale_boosts=[{"stat": "power", "raise": 10, "morale": "angry"}]))
    assert found(p) == [("UP_MORALE_UNKNOWN", "/morale_boosts/0/morale")]
    assert cost_at(p, "/morale_boosts/0") == 180


@pytest.mark.parametrize(("boost", "where"), [
    ({"stat": "luck", "raise": 10, "morale": "confident"}, "/morale_boosts/0/stat"),
    ({"stat": "power", "raise": 0, "morale": "confident"}, "/morale_boosts/0/raise"),
])
def test_morale_boost_malformed_is_an_error(boost: dict, where: str) -> None:
    """A boost of an unknown stat or a raise below 1 is UP_BOOST_INVALID at that field; not priced."""
    p = priced(unit(morale_boosts=[boost]))
    assert found(p) == [("UP_BOOST_INVALID", where)]
    assert not has_line(p, "/morale_boosts/0")
    assert not p.complete

"""使用回数 (ＥＮ／弾数): every row, the −UP or −% choice, and a legacy sheet that does not say.

The weapon under test sums to 500 UP before reductions: 格闘 射程3 (120) + 8D (280) + 命中+20 (90)
+ fixed +2 (10).
"""
from __future__ import annotations

import pytest

from .conftest import cost_at, finding, found, melee, priced, unit, weapon_cost


def five_hundred(usage: dict | None = None, **extra) -> dict:
    """A 500 UP melee weapon with ``usage``."""
    return melee(range=3, damage={"dice": 8, "fixed": 12}, accuracy=20, usage=usage, **extra)


def test_base_weapon_is_five_hundred() -> None:
    """Without a usage limit the weapon costs 500."""
    assert weapon_cost(five_hundred()) == 500


@pytest.mark.parametrize(("kind", "amount", "cost"), [
    ("en", 5, 490), ("ammo", 16, 490),   # −10 UP
    ("ammo", 12, 480),                   # −20 UP
])
def test_rows_with_only_an_up_reduction(kind: str, amount: int, cost: int) -> None:
    """ＥＮ5／弾数16 −10 UP, 弾数12 −20 UP."""
    assert weapon_cost(five_hundred({"type": kind, "amount": amount, "reduction": "up"})) == cost


ROWS = [  # (ＥＮ, 弾数, cost with −UP, cost with −%)
    (10, 8, 460, 450),    # −40 UP or −10 %
    (15, 5, 420, 400),    # −80 UP or −20 %
    (20, 3, 370, 350),    # −130 UP or −30 %
    (30, 2, 340, 300),    # −160 UP or −40 %
    (50, 1, 300, 250),    # −200 UP or −50 %
]


@pytest.mark.parametrize(("en", "ammo", "by_up", "by_percent"), ROWS)
def test_rows_with_a_choice(en: int, ammo: int, by_up: int, by_percent: int) -> None:
    """ＥＮ／弾数 rows offering −N UP or −M %: the document's choice is priced."""
    for kind, amount in (("en", en), ("ammo", ammo)):
        assert weapon_cost(five_hundred({"type": kind, "amount": amount, "reduction": "up"})) == by_up
        assert weapon_cost(five_hundred({"type": kind, "amount": amount, "reduction": "percent"})) == by_percent


def test_up_reduction_comes_before_percentages() -> None:
    """Fixed −UP is subtracted first, then the percentages: (500 − 40) × 0.7 = 322."""
    weapon = five_hundred({"type": "ammo", "amount": 8, "reduction": "up"}, post_move=False)
    assert weapon_cost(weapon) == 322


def test_ammo_three_example_reading_is_twenty_percent() -> None:
    """ammo3=example: 弾数3 is −20 % (大車輪ロケットパンチ), whatever the sheet chose."""
    for reduction in ("percent", "up"):
        weapon = five_hundred({"type": "ammo", "amount": 3, "reduction": reduction})
        assert weapon_cost(weapon, ammo3="example") == 400


def test_ammo_three_example_reading_leaves_en_twenty_alone() -> None:
    """ammo3=example changes 弾数3 only: ＥＮ20 stays −130 UP or −30 %."""
    weapon = five_hundred({"type": "en", "amount": 20, "reduction": "percent"})
    assert weapon_cost(weapon, ammo3="example") == 350


def test_percent_chosen_where_the_row_has_none_is_an_error() -> None:
    """弾数12 has no −% choice: UP_USAGE_NO_PERCENT, priced at −20 UP."""
    p = priced(unit(weapons=[five_hundred({"type": "ammo", "amount": 12, "reduction": "percent"})]))
    assert found(p) == [("UP_USAGE_NO_PERCENT", "/weapons/0/usage/reduction")]
    assert cost_at(p, "/weapons/0") == 480


@pytest.mark.parametrize(("kind", "amount", "hint"), [("ammo", 7, [5, 8]), ("en", 25, [20, 30]),
                                                       ("ammo", 20, [16]), ("en", 12, [10, 15])])
def test_amount_not_in_the_table_is_an_error(kind: str, amount: int, hint: list[int]) -> None:
    """An amount the table lacks is UP_USAGE_AMOUNT with the neighbouring amounts."""
    p = priced(unit(weapons=[five_hundred({"type": kind, "amount": amount, "reduction": "up"})]))
    assert found(p) == [("UP_USAGE_AMOUNT", "/weapons/0/usage/amount")]
    assert finding(p, "UP_USAGE_AMOUNT").params["hint"] == hint
    assert not p.complete


def test_unknown_usage_type_is_an_error() -> None:
    """A usage type other than ＥＮ／弾数 is UP_USAGE_TYPE."""
    p = priced(unit(weapons=[five_hundred({"type": "fuel", "amount": 8})]))
    assert found(p) == [("UP_USAGE_TYPE", "/weapons/0/usage/type")]


def test_unknown_reduction_is_an_error() -> None:
    """A reduction other than up/percent is UP_USAGE_REDUCTION."""
    p = priced(unit(weapons=[five_hundred({"type": "ammo", "amount": 8, "reduction": "both"})]))
    assert found(p) == [("UP_USAGE_REDUCTION", "/weapons/0/usage/reduction")]
    assert not p.complete


# --- a legacy sheet that does not say which reduction -------------------------------------------

@pytest.mark.parametrize(("declared", "cost", "choice"), [(450, 450, "−%"), (460, 460, "−UP")])
def test_missing_reduction_is_inferred_from_the_written_cost(declared: int, cost: int, choice: str) -> None:
    """No reduction written: the choice matching declared_cost is kept, with an info finding."""
    weapon = five_hundred({"type": "ammo", "amount": 8}, declared_cost=declared)
    p = priced(unit(weapons=[weapon]))
    assert cost_at(p, "/weapons/0") == cost
    assert found(p) == [("UP_USAGE_REDUCTION_INFERRED", "/weapons/0/usage/reduction")]
    f = finding(p, "UP_USAGE_REDUCTION_INFERRED")
    assert (f.params["choice"], f.params["matched"]) == (choice, "match")
    assert f.message("ja").endswith(f"{choice} で計算しました（記入されたコスト: 一致）")
    assert f.message("en") == f"the usage reduction was not given; priced as {choice} (it matches the written cost)"


def test_missing_reduction_matching_neither_falls_back_to_up() -> None:
    """A written cost matching neither choice: priced −UP, plus the cost-mismatch warning."""
    p = priced(unit(weapons=[five_hundred({"type": "ammo", "amount": 8}, declared_cost=999)]))
    assert cost_at(p, "/weapons/0") == 460
    assert found(p) == [("UP_USAGE_REDUCTION_INFERRED", "/weapons/0/usage/reduction"),
                        ("UP_WEAPON_COST_MISMATCH", "/weapons/0/declared_cost")]
    f = finding(p, "UP_USAGE_REDUCTION_INFERRED")
    assert f.params["matched"] == "mismatch"
    assert "（記入されたコスト: 不一致）" in f.message("ja")
    assert "(neither choice matches the written cost)" in f.message("en")


def test_missing_reduction_without_written_cost_is_priced_up() -> None:
    """No reduction and no written cost: priced −UP; the info says there was nothing to match."""
    p = priced(unit(weapons=[five_hundred({"type": "ammo", "amount": 8})]))
    assert cost_at(p, "/weapons/0") == 460
    assert found(p) == [("UP_USAGE_REDUCTION_INFERRED", "/weapons/0/usage/reduction")]
    f = finding(p, "UP_USAGE_REDUCTION_INFERRED")
    assert f.params["matched"] == "none"
    assert "（記入されたコスト: 記入なし）" in f.message("ja")
    assert "(no cost is written)" in f.message("en")


def test_missing_reduction_on_a_row_without_choice_needs_no_inference() -> None:
    """弾数16 offers −UP only: no inference, no finding."""
    p = priced(unit(weapons=[five_hundred({"type": "ammo", "amount": 16})]))
    assert cost_at(p, "/weapons/0") == 490
    assert found(p) == []


def test_inference_prices_the_weapon_on_its_own_unit() -> None:
    """The trial prices use the unit's movement: a melee weapon with its terrain written out
    at the unit's defaults has no terrain percentage, so −10 % (450) matches."""
    weapon = five_hundred({"type": "ammo", "amount": 8}, declared_cost=450,
                          terrain={"air": "-", "land": "A", "sea": "B", "space": "A"})
    p = priced(unit(weapons=[weapon]))
    assert cost_at(p, "/weapons/0") == 450
    assert finding(p, "UP_USAGE_REDUCTION_INFERRED").params["choice"] == "−%"

"""Typed access to the `up` rule tables in ``tables.toml`` (seed 000).

Every name has its Japanese ``label`` (the seed's term) and its English ``label_en``: the engine
builds each text it reports in both languages from them."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Mapping

from ..tables_file import load_tables

STAT_IDS = ("hp", "en", "armor", "power", "mobility", "move")
TERRAINS = ("air", "land", "sea", "space")


@dataclass(frozen=True)
class StatRule:
    """A size's figures for one stat: base value, raise step, maximum raise, price per step."""

    base: int
    step: int
    price: int
    max_raise: int | None  # None for 移動力, whose pricing doubles instead of stopping


@dataclass(frozen=True)
class Size:
    id: str
    label: str
    base_up: int
    stats: dict[str, StatRule]
    label_en: str = ""


class UpTables:
    """The seed's tables, indexed the way the engine, schema and sheets need them."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.raw = raw
        self.stat_labels = {k: v["label"] for k, v in raw["stats"].items()}
        self.stat_labels_en = {k: v["label_en"] for k, v in raw["stats"].items()}
        self.sizes: dict[str, Size] = {}
        for s in raw["sizes"]:
            stats = {sid: StatRule(s[sid]["base"], s[sid]["step"], s[sid]["price"],
                                   s[sid].get("max_raise")) for sid in STAT_IDS}
            self.sizes[s["id"]] = Size(s["id"], s["label"], s["base_up"], stats, s["label_en"])
        self.morale = {m["id"]: m for m in raw["morale"]}
        self.movement_types = {m["id"]: m["label"] for m in raw["movement"]["types"]}
        self.movement_types_en = {m["id"]: m["label_en"] for m in raw["movement"]["types"]}
        self.terrain_grades: list[str] = raw["terrain"]["grades"]
        self.accuracy = {a["value"]: a["price"] for a in raw["accuracy"]}
        self.attributes = {a["id"]: a for a in raw["attributes"]}
        self.weapon_kinds = {k["id"]: k for k in raw["weapon_kinds"]}
        self.usage_types = {u["id"]: u["label"] for u in raw["usage"]["types"]}
        self.usage_types_en = {u["id"]: u["label_en"] for u in raw["usage"]["types"]}
        self.map_types = {m["id"]: m for m in raw["map_types"]}
        self.combo = {c["id"]: c for c in raw["combo"]}
        self.effects = {e["id"]: e for e in raw["effects"]}
        self.abilities = {a["id"]: a for a in raw["abilities"]}
        self.regen_grades = {g["id"]: g for g in raw["regen_grades"]}
        self.pilot_stats = {p["id"]: p for p in raw["pilot_stats"]}
        self.ability_en_costs = {e["en"]: e["percent"] for e in raw["ability_en_costs"]}
        self.weapon_terrain_grades: list[str] = raw["weapon_terrain"]["grades"]
        self.combinations = {c["id"]: c["label"] for c in raw["transformation"]["combination"]}

    def usage_row(self, kind: str, amount: int) -> dict[str, Any] | None:
        """The 使用回数 row for ``ＥＮ amount`` or ``弾数 amount``, if the table has it."""
        return next((row for row in self.raw["usage"]["rows"] if row.get(kind) == amount), None)

    def usage_amounts(self, kind: str) -> list[int]:
        return [row[kind] for row in self.raw["usage"]["rows"] if kind in row]

    def range_price(self, kind: str, rng: int, post_move: bool) -> int | None:
        """UP for a weapon reaching ``rng`` squares; None where the table has no price."""
        if rng < 1:
            return None
        if kind == "melee":
            prices = self.raw["melee"]["range_prices"]
            return prices[rng - 1] if rng <= len(prices) else None
        table = self.raw["ranged"]
        prices = table["post_move_range_prices" if post_move else "range_prices"]
        if rng <= len(prices):
            return prices[rng - 1]
        extra = table["beyond_post_move_price" if post_move else "beyond_price"]
        return prices[-1] + (rng - len(prices)) * extra

    def max_melee_range(self) -> int:
        return len(self.raw["melee"]["range_prices"])

    def ability_floor(self, opts: Mapping[str, str]) -> int:
        """The floor of an ability's or a morale boost's summed percentages under ``opts``
        (option ``ability_floor``: a row of ``[ability_rules] percent_floor``)."""
        return self.raw["ability_rules"]["percent_floor"][opts["ability_floor"]]


@lru_cache(maxsize=1)
def tables() -> UpTables:
    return UpTables(load_tables("up"))


def neighbours(value: int, allowed: list[int]) -> list[int]:
    """The allowed values just below and just above ``value`` (for a hint in a message)."""
    below = [a for a in allowed if a < value]
    above = [a for a in allowed if a > value]
    return ([max(below)] if below else []) + ([min(above)] if above else [])

"""Shared helpers for the `up` engine tests: a minimal valid unit, weapons, and readers of a Evaluation.

The size table below is copied by hand from seed 000 (１．機体性能), not read from tables.toml, so
that the tests check the engine's data instead of echoing it.
"""
from __future__ import annotations

from typing import Any

from converter.core.findings import Finding
from converter.core.evaluation import Evaluation
from converter.rules.up.engine import price_unit
from ..pricing_helpers import cost_at, has_line  # noqa: F401  (shared by the tests here)

# size → (基本ＵＰ, {stat: (base, step, max raise, UP per step)}); 移動力 has no maximum.
SEED_SIZES: dict[str, tuple[int, dict[str, tuple[int, int, int | None, int]]]] = {
    "SSS": (250, {"hp": (50, 5, 50, 30), "en": (35, 5, 30, 20), "armor": (12, 1, 8, 20),
                  "power": (0, 1, 20, 20), "mobility": (25, 5, 25, 50), "move": (6, 1, None, 50)}),
    "SS": (300, {"hp": (90, 5, 90, 25), "en": (40, 5, 35, 18), "armor": (15, 1, 10, 18),
                 "power": (5, 1, 20, 18), "mobility": (20, 5, 20, 60), "move": (6, 1, None, 50)}),
    "S": (350, {"hp": (150, 5, 150, 20), "en": (45, 5, 40, 15), "armor": (18, 1, 12, 18),
                "power": (10, 1, 25, 18), "mobility": (20, 5, 20, 60), "move": (6, 1, None, 50)}),
    "M": (400, {"hp": (200, 5, 200, 18), "en": (50, 5, 50, 15), "armor": (20, 1, 15, 15),
                "power": (15, 1, 25, 18), "mobility": (15, 5, 20, 70), "move": (6, 1, None, 60)}),
    "L": (500, {"hp": (350, 5, 350, 15), "en": (60, 5, 60, 12), "armor": (25, 1, 20, 12),
                "power": (25, 1, 30, 15), "mobility": (10, 5, 15, 90), "move": (5, 1, None, 80)}),
    "LL": (600, {"hp": (600, 5, 600, 12), "en": (80, 5, 80, 12), "armor": (25, 1, 20, 12),
                 "power": (35, 1, 30, 15), "mobility": (10, 5, 15, 90), "move": (5, 1, None, 90)}),
    "LLL": (800, {"hp": (1000, 5, 1000, 10), "en": (100, 5, 100, 10), "armor": (25, 1, 20, 12),
                  "power": (50, 1, 30, 12), "mobility": (5, 5, 10, 100), "move": (5, 1, None, 100)}),
}


def base_stats(size: str) -> dict[str, int]:
    """The stats a unit of ``size`` has before any raise."""
    return {stat: row[0] for stat, row in SEED_SIZES[size][1].items()}


def unit(**overrides: Any) -> dict[str, Any]:
    """A minimal valid `up` document (M size, 陸+宇宙, budget 5000); ``stats`` merges, the rest replaces."""
    size = overrides.get("size", "M")
    stats = overrides.pop("stats", {})
    doc: dict[str, Any] = {"system": "up", "format": 1, "name": "試験機", "budget": 5000,
                           "size": size, "stats": base_stats(size), "movement": ["land", "space"]}
    doc.update(overrides)
    doc["stats"] = {**doc["stats"], **stats}
    return doc


def melee(**overrides: Any) -> dict[str, Any]:
    """A melee weapon at the base: 射程1, 1D10+10, 命中±0 (40 UP)."""
    return {"name": "格闘", "kind": "melee", "range": 1, "damage": {"dice": 1, "fixed": 10},
            **overrides}


def ranged(**overrides: Any) -> dict[str, Any]:
    """A ranged weapon at the base: 射程1 (not P), 1D10+10, 命中±0 (30 UP)."""
    return {"name": "射撃", "kind": "ranged", "range": 1, "damage": {"dice": 1, "fixed": 10},
            **overrides}


def priced(doc: dict[str, Any], **options: str) -> Evaluation:
    """The engine's answer for ``doc`` under the given rule options."""
    return price_unit(doc, options)


def found(pricing: Evaluation) -> list[tuple[str, str]]:
    """(code, pointer) of every finding, sorted."""
    return sorted((f.code, f.pointer) for f in pricing.findings)


def finding(pricing: Evaluation, code: str) -> Finding:
    """The one finding with ``code``."""
    hits = [f for f in pricing.findings if f.code == code]
    assert len(hits) == 1, f"expected one {code}, got {pricing.findings}"
    return hits[0]


def weapon_cost(weapon: dict[str, Any], doc: dict[str, Any] | None = None, **options: str) -> int:
    """The cost of ``weapon`` as the only weapon of ``doc`` (default: the minimal unit)."""
    return cost_at(priced(unit(**(doc or {}), weapons=[weapon]), **options), "/weapons/0")


def ability_cost(ability: dict[str, Any], doc: dict[str, Any] | None = None) -> int:
    """The cost of ``ability`` as the only ability of ``doc`` (default: the minimal unit)."""
    return cost_at(priced(unit(**(doc or {}), abilities=[ability])), "/abilities/0")

"""The `up` system (seed 000): units paid in ユニットポイント."""
from __future__ import annotations

from .engine import effective_accuracy, effective_damage, price_unit, transformation_cost
from .schema import FORMAT, build_schema
from .tables import tables

__all__ = ["FORMAT", "build_schema", "effective_accuracy", "effective_damage", "price_unit",
           "tables", "transformation_cost"]

price = price_unit
LABEL = tables().raw["label"]

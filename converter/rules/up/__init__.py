"""The `up` system (seed 000): units paid in ユニットポイント."""
from __future__ import annotations

from .engine import price_unit
from .schema import FORMAT, build_schema
from .sets import check_transformation_sets, transformation_group, transformation_sets
from .tables import tables
from .transformation import PLACES_FIELDS, transformation_cost
from .weapons import effective_accuracy, effective_damage

__all__ = ["CONTEXT", "FORMAT", "LABEL", "SET_CHECKS", "build_schema", "check_transformation_sets",
           "effective_accuracy", "effective_damage", "evaluate", "price_unit", "tables",
           "transformation_cost"]

evaluate = price_unit
LABEL = tables().raw["label"]
CONTEXT: tuple[str, ...] = ()
SET_CHECKS = (transformation_sets,)
SET_FIELDS = ("name", "transformation")  # what the set checks read of each document
SET_FIELDS_IF = (("transformation", PLACES_FIELDS),)  # a form's changed places (部分変形)
SET_PARTITION = transformation_group  # forms are compared within their set only

"""The `mailgear` system (seed 001): a メイルギア pilot and the pilot's mail gear.

The seed fixes the skills, 専用機, slots, arms and the derived values; the tables it points at
but does not contain (levels, ranks, unit levels, gear models, weapons, options) come from a
catalog the group supplies (:mod:`.catalog`).
"""
from __future__ import annotations

from .catalog import Catalog, build_catalog_schema, catalog_schema_text
from .engine import price_pilot, roll_bonus, roll_expression, skill_bonus
from .party import PartyLevel, party_check, party_unit_level
from .schema import FORMAT, build_schema
from .tables import tables

__all__ = ["CONTEXT", "Catalog", "FORMAT", "LABEL", "SET_CHECKS", "evaluate", "party_check", "PartyLevel", "build_catalog_schema", "build_schema",
           "catalog_schema_text", "party_unit_level", "price_pilot",
           "roll_bonus", "roll_expression", "skill_bonus", "tables"]

evaluate = price_pilot
LABEL = tables().raw["label"]
CONTEXT = ("catalog",)
SET_CHECKS = (party_check,)
# what the set checks read of each document: the party's unit level (seed 001, ５．)
SET_FIELDS = ("pilot/name", "pilot/player", "pilot/experience", "pilot/rank_points")

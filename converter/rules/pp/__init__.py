"""The `pp` system (seed 003): characters paid in パイロットポイント, d10 dice pools."""
from __future__ import annotations

from .engine import (attribute_cost, combat_boost_cost, dice_pool, price_character, skill_cost,
                     specialization_cost)
from .schema import FORMAT, build_schema
from .skills import SkillDef, SkillList, SkillListError, parse_skill_list, skill_list
from .tables import tables

__all__ = ["CONTEXT", "FORMAT", "LABEL", "SET_CHECKS", "evaluate", "SkillDef", "SkillList", "SkillListError", "attribute_cost",
           "build_schema", "combat_boost_cost", "dice_pool", "parse_skill_list",
           "price_character", "skill_cost", "skill_list", "specialization_cost", "tables"]

evaluate = price_character
LABEL = tables().raw["label"]
CONTEXT = ("skills",)
SET_CHECKS = ()
SET_FIELDS: tuple[str, ...] = ()

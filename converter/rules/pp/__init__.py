"""The `pp` system (seed 003): characters paid in パイロットポイント, d10 dice pools."""
from __future__ import annotations

from .engine import (attribute_cost, combat_boost_cost, dice_pool, price_character, skill_cost,
                     specialization_cost)
from .schema import FORMAT, build_schema
from .skills import SkillDef, SkillList, SkillListError, load_skill_list, skill_list
from .tables import tables

__all__ = ["FORMAT", "LABEL", "SkillDef", "SkillList", "SkillListError", "attribute_cost",
           "build_schema", "combat_boost_cost", "dice_pool", "load_skill_list", "price",
           "price_character", "skill_cost", "skill_list", "specialization_cost", "tables"]

price = price_character
LABEL = tables().raw["label"]

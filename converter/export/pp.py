"""`pp`'s palette per attribute, skill and specialization: the pool as BCDice's upper roll
(「振り足し値」 rerolled and added, the skill level added to every die):
``{反応}U10[{振り足し値}]{操縦}>={目標値}``, from the engine's derived dice and bonuses."""
from __future__ import annotations

import re
from typing import Any, Mapping

from ..rules.tables_file import load_tables
from .model import Line, Piece, signed
from .pieces import Reading

_POOL = re.compile(r"^(/derived/skills/\d+)(/specializations/\d+)?/pool$")


def pools(reading: Reading, piece: Piece, data: Mapping[str, Any]) -> None:
    """A line for each attribute alone, then for each skill and specialization."""
    reroll, target = data["reroll"], data["target"]
    attributes: dict[str, tuple[str, int]] = {}  # id → (variable, dice)
    for row in load_tables("pp")["attributes"]:
        dice = reading.derived(f"/derived/attributes/{row['id']}/dice")
        if dice is None or dice.roll is None:
            continue
        var = piece.add_variable(row["label"], str(dice.value), dice.pointer)
        attributes[row["id"]] = (var, dice.value)
        piece.lines.append(Line(f"{{{var}}}{data['pool']}{dice.roll.sides}[{{{reroll}}}]>={{{target}}}",
                                f"【{row['label']}】", dice.pointer))
    for pointer, pool in list(reading.evaluation.derived.items()):
        m = _POOL.match(pointer)
        if m is None or pool.roll is None:
            continue
        skill = m.group(1)
        attribute = reading.derived(f"{skill}/attribute")
        bonus = reading.derived(pointer[: -len("/pool")] + "/bonus")
        if bonus is None or not isinstance(bonus.value, int):
            continue
        label = pool.label.removesuffix("の判定")
        var = piece.add_variable(label.replace("〈", "").replace("〉", ""), signed(bonus.value), bonus.pointer)
        known = attributes.get(attribute.value if attribute is not None else "")
        count = f"{{{known[0]}}}" if known is not None and known[1] == pool.roll.dice else str(pool.roll.dice)
        piece.lines.append(Line(f"{count}{data['pool']}{pool.roll.sides}[{{{reroll}}}]{{{var}}}>={{{target}}}",
                                label, pointer))

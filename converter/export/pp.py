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
    rolled: set[str] = set()
    for pointer, pool in list(reading.evaluation.derived.items()):
        m = _POOL.match(pointer)
        if m is None:
            continue
        rolled.add(m.group(1))
        skill = m.group(1)
        label = pool.label.removesuffix("の判定")
        attribute = reading.derived(f"{skill}/attribute")
        bonus = reading.derived(pointer[: -len("/pool")] + "/bonus")
        if pool.roll is None or bonus is None or not isinstance(bonus.value, int):
            piece.lines.append(Line("", _unrollable(data, label, attribute.value if attribute else None),
                                    pointer))
            continue
        var = piece.add_variable(label.replace("〈", "").replace("〉", ""), signed(bonus.value), bonus.pointer)
        known = attributes.get(attribute.value if attribute is not None else "")
        count = f"{{{known[0]}}}" if known is not None and known[1] == pool.roll.dice else str(pool.roll.dice)
        piece.lines.append(Line(f"{count}{data['pool']}{pool.roll.sides}[{{{reroll}}}]{{{var}}}>={{{target}}}",
                                label, pointer))
    listed = reading.document_value("/skills")
    for i, s in enumerate(listed if isinstance(listed, list) else []):
        if f"/derived/skills/{i}" not in rolled and isinstance(s, Mapping) and isinstance(s.get("name"), str):
            piece.lines.append(Line("", data["unrollable"]["level"].format(
                skill=f"〈{s['name'].strip().strip('〈〉')}〉"), f"/skills/{i}/level"))


def _unrollable(data: Mapping[str, Any], skill: str, attribute: Any) -> str:
    """The note for a skill the engine gives no roll: what the sheet lacks for one."""
    notes = data["unrollable"]
    if not isinstance(attribute, str):
        return notes["attribute"].format(skill=skill)
    row = next((r for r in load_tables("pp")["attributes"] if r["id"] == attribute), None)
    return notes["dice"].format(skill=skill, attribute=row["label"] if row else attribute)

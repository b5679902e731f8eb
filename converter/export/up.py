"""`up`'s palette per weapon: the hit roll under the pilot's 【格闘】/【射撃】 plus the weapon's
命中修正, its damage, and its 弾数 as a resource. Numbers from the engine's derived
``effective_accuracy`` and ``effective_damage`` (パワー, beam +5 already applied)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.findings import Finding
from .model import Line, Piece, Status, roll_expression, signed
from .pieces import Reading


def weapons(reading: Reading, piece: Piece, data: Mapping[str, Any]) -> None:
    """Each weapon's 命中 and ダメージ lines (and its ammunition)."""
    listed = reading.document_value("/weapons")
    for i, weapon in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(weapon, Mapping):
            continue
        name = str(weapon.get("name") or f"#{i + 1}")
        accuracy = reading.derived(f"/weapons/{i}/effective_accuracy")
        damage = reading.derived(f"/weapons/{i}/effective_damage")
        stat = data["hit_stat"].get(str(weapon.get("kind")), data["hit_stat"]["ranged"])
        if accuracy is not None and isinstance(accuracy.value, int):
            var = piece.add_variable(f"{name}命中", signed(accuracy.value), accuracy.pointer)
            piece.lines.append(Line(f"{data['hit']}{{{stat}}}{{{var}}}", f"{name} 命中（{stat}）",
                                    accuracy.pointer))
        if damage is not None and damage.roll is not None:
            var = piece.add_variable(f"{name}ダメージ", roll_expression(damage.roll), damage.pointer)
            piece.lines.append(Line(f"{{{var}}}", f"{name} ダメージ", damage.pointer))
        usage = weapon.get("usage")
        if isinstance(usage, Mapping) and usage.get("type") == "ammo" and isinstance(usage.get("amount"), int):
            amount = usage["amount"]
            piece.status.append(Status(f"{name}{data['ammo_suffix']}", amount, amount, f"/weapons/{i}/usage/amount"))
    _say_unset_pilot(piece, data)


def _say_unset_pilot(piece: Piece, data: Mapping[str, Any]) -> None:
    """The pilot's stats start at 0 (a unit sheet does not hold them): until the player sets
    them, every hit roll is 1D100<= the weapon's 命中修正 alone. Said first in the palette and
    as a finding, where the player looks."""
    stats = set(data["hit_stat"].values())
    unset = [v.name for v in piece.variables if v.name in stats and not v.pointer and v.value == "0"]
    if unset and any(line.command.startswith(data["hit"]) for line in piece.lines):
        piece.lines.insert(0, Line("", data["unset_note"]))
        piece.findings.append(Finding("EXPORT_UP_PILOT_UNSET"))

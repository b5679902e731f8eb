"""`mailgear`'s palette per weapon: the hit roll of each range band it reaches and its damage,
each the engine's derived roll for that weapon (「[２ｄ＋壊し屋＋出力＋武器の追加ダメージ]」);
a shield's 耐久 as a resource (「受け」 lowers the shield's 耐久 first)."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .model import Line, Piece, Status, roll_addend
from .pieces import Reading


def equipment(reading: Reading, piece: Piece, data: Mapping[str, Any]) -> None:
    """Each weapon's 命中 (per band) and ダメージ lines; each shield's 耐久."""
    shared = {v.name: v.value for v in piece.variables}
    listed = reading.document_value("/equipment")
    for i, item in enumerate(listed if isinstance(listed, list) else []):
        if not isinstance(item, Mapping):
            continue
        name = str(item.get("name") or f"#{i + 1}")
        for band in data["hit_bands"]:
            hit = reading.derived(f"/equipment/{i}/derived/{band}")
            if hit is None or hit.roll is None:
                continue
            value = roll_addend(hit.roll)
            var = data["hit_variables"][band]
            if shared.get(var) != value:  # the band's own modifier unless this weapon's differs
                var = piece.add_variable(f"{name}{var}", value, hit.pointer)
            piece.lines.append(Line(f"{data['check']}{{{var}}}", hit.label, hit.pointer))
        damage = reading.derived(f"/equipment/{i}/derived/damage")
        if damage is not None and damage.roll is not None:
            var = piece.add_variable(f"{name}ダメージ", roll_addend(damage.roll), damage.pointer)
            piece.lines.append(Line(f"{data['check']}{{{var}}}", damage.label, damage.pointer))
        durability = item.get("durability")
        if item.get("kind") == "option" and isinstance(durability, int) and not isinstance(durability, bool):
            piece.status.append(Status(f"{name}耐久", durability, durability, f"/equipment/{i}/durability"))

"""The pilot's skills between mailgear and pp, through the mapping's skill table.

Neither system's rules are read here: levels come in by the source's names and go out by the
target's; each system's lowering checks them against its own tables. Standard library only.
"""
from __future__ import annotations

from collections import Counter
from typing import Iterable

from .mapping import Mapping


def to_pp(levels: dict[str, int], mapping: Mapping) -> dict[str, int]:
    """pp skill levels from mailgear's: base + the highest mailgear level feeding each pp skill
    (level 4, +1d, counts as 4); a piloting skill no mailgear skill feeds stays at its base."""
    out: dict[str, int] = {}
    for row in mapping.skills:
        name, base = row["pp"], int(row["base"])
        level = levels.get(row["mailgear"])
        if level is not None:
            out[name] = max(out.get(name, 0), base + level)
        elif base > 0:
            out.setdefault(name, base)
    return out


def origins(levels: dict[str, int], mapping: Mapping) -> dict[str, str]:
    """pp skill → the mailgear skill that set its level, where the way back would not find it
    (a row marked back = "none" won: 鉄壁 on 〈機動格闘〉 is not 熱血)."""
    best: dict[str, tuple[int, str, bool]] = {}
    for row in mapping.skills:
        level = levels.get(row["mailgear"])
        if level is not None and (row["pp"] not in best or int(row["base"]) + level > best[row["pp"]][0]):
            best[row["pp"]] = (int(row["base"]) + level, row["mailgear"], row.get("back") == "none")
    return {name: sid for name, (_, sid, hidden) in best.items() if hidden}


def from_pp(levels: dict[str, int], ranged_bands: Iterable[str], mapping: Mapping,
            came_from: dict[str, str] | None = None) -> dict[str, int]:
    """mailgear skill levels from pp's: the pp level minus the base, positive levels only. A pp
    skill that says which mailgear skill it came from (``came_from``) goes back to that one.
    Otherwise rows marked back = "none" are skipped; of the band rows only the band the machine's
    ranged weapons reach most often (else short) is filled."""
    common = Counter(b for b in ranged_bands if b in ("short", "medium", "long")).most_common(1)
    band = common[0][0] if common else "short"
    came_from = came_from or {}
    out: dict[str, int] = {}
    for row in mapping.skills:
        back = row.get("back", "")
        if row["pp"] in came_from:
            if row["mailgear"] != came_from[row["pp"]]:
                continue
        elif back == "none" or back == "band" and row.get("band") != band:
            continue
        level = levels.get(row["pp"], 0) - int(row["base"])
        if level > 0:
            out[row["mailgear"]] = max(out.get(row["mailgear"], 0), level)
    return out

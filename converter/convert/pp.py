"""pp (seed 003): a character and its machine block lifted into the common model and lowered
from it. Imports pp's own rules only (its tables; its engine prices the lowered character)."""
from __future__ import annotations

import re
from typing import Any, Mapping as MappingType

from ..core.evaluation import round_half_up
from ..rules.pp.tables import ATTRIBUTE_IDS, tables
from .model import BANDS, Machine, Measure, Pilot, Sheet, Weapon
from .skills import origins, to_pp
from .units import Lowering, damage_grade, grid, mean_grade, pips, pp_class, share

SYSTEM = "pp"
#: pp's サイズ修正 per up size: M 0, one per step, smaller is + (seed 003:93)
SIZE_MODIFIER = {"SSS": 3, "SS": 2, "S": 1, "M": 0, "L": -1, "LL": -2, "LLL": -3}


def _seed_name(name: str) -> str:
    """A skill's seed label for the way a sheet wrote it (label or synonym), else as written."""
    t = tables()
    key = t.names.python(name)
    for s in t.seed_skills:
        if any(t.names.python(spelled) == key for spelled in (s["label"], *s.get("synonyms", ()))):
            return s["label"]
    return name


_LEVEL = re.compile(r"^(.*?)\s*Lv\.?\s*(\d+)$")


def perk(text: str) -> tuple[str, int | None]:
    """A feat as (name, level): 「タフガイ Lv3」 keeps its level (written so by the way there)."""
    found = _LEVEL.match(text.strip())
    return (found.group(1), int(found.group(2))) if found else (text.strip(), None)


#: how the way there says which mailgear skill a pp skill came from (in the skill's notes)
_ORIGIN = re.compile(r"mailgear〈(.+?)〉")


def lift(doc: MappingType[str, Any]) -> Sheet:
    sheet = Sheet.of(SYSTEM, doc)
    skills: dict[str, int] = {}
    came_from: dict[str, str] = {}
    for s in doc.get("skills") or []:
        if isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("level"), int):
            name = _seed_name(s["name"])
            skills[name] = max(skills.get(name, 0), s["level"])
            said = _ORIGIN.search(s["notes"]) if isinstance(s.get("notes"), str) else None
            if said:
                came_from[name] = said.group(1)
    pilot = Pilot(name=doc.get("name"), system=SYSTEM, player=doc.get("player"), skills=skills, came_from=came_from,
                  pool=doc.get("combat_boost", tables().combat_boost_start),
                  perks=[perk(str(f.get("name"))) for f in doc.get("feats") or [] if isinstance(f, dict)],
                  perk_sources=[f"/feats/{k}" for k, f in enumerate(doc.get("feats") or []) if isinstance(f, dict)])
    m = doc.get("machine") if isinstance(doc.get("machine"), dict) else None
    machine = None
    if m is not None:
        machine = Machine(name=str(m.get("name", "")), size_modifier=m.get("size_modifier"))
        for key, quantity in (("durability", "durability"), ("toughness", "durability"), ("armor", "armor"),
                              ("mobility", "mobility"), ("speed", "move"), ("workability", "guard")):
            if isinstance(m.get(key), (int, float)):
                name = "toughness" if key == "toughness" else quantity
                machine.stats[name] = Measure(m[key], SYSTEM, quantity, f"/machine/{key}")
        for k, w in enumerate(m.get("weapons") or []):
            if not isinstance(w, dict):
                continue
            bands = tuple(b for b in BANDS if b in (w.get("engagements") or []))
            melee = bool(w.get("melee", bands == ("close",)))
            text = [sheet.say(f"/machine/weapons/{k}/{key}", f"{label}{w[key]}")
                    for key, label in (("penetration", "貫通力"), ("evasion_target", "回避目標値"),
                                       ("tracking", "追尾性")) if w.get(key) is not None]
            machine.weapons.append(Weapon(
                name=str(w.get("name", "")), melee=melee, bands=bands or (("close",) if melee else ("short",)),
                damage=Measure(w.get("damage", "L"), SYSTEM, "damage_class"),
                # the main system's modifier helps every weapon's hit: one pip per point
                accuracy=Measure(w["hit_target"] - int(m.get("main_system_modifier") or 0), SYSTEM, "hit_target")
                if isinstance(w.get("hit_target"), int) else None,
                penetration=Measure(w["penetration"], SYSTEM, "damage") if isinstance(w.get("penetration"), int) else None,
                guided=bool(w.get("tracking")), notes=sheet.notes_of(f"/machine/weapons/{k}", w.get("notes")),
                text=text, source=f"/machine/weapons/{k}"))
        for key, label in (("main_system", "メインシステム"), ("weight", "重量"), ("escape", "脱出機構")):
            if m.get(key) is not None:
                machine.text.append(sheet.say(f"/machine/{key}", f"{label}{m[key]}"))
    sheet.pilot, sheet.machine = pilot, machine
    return sheet


def lower(sheet: Sheet, low: Lowering) -> dict[str, Any]:
    """A character from the model: its skills through the skill table (mailgear) or at the
    creation start (up), and its machine block by grade, pip, grid and share."""
    m = low.mapping
    pilot = sheet.pilot
    machine = sheet.machine
    trained = pilot is not None and pilot.system == "mailgear"
    name = pilot.name if pilot is not None and pilot.name else f"{machine.name if machine else ''}のパイロット"
    doc: dict[str, Any] = {"system": SYSTEM, "format": 1, "name": name}
    if pilot is not None and pilot.player:
        doc["player"] = pilot.player
    band = low.band or m.bands[0]
    start = int(band["pp_attribute"])  # the source band's baseline (mapping.toml [[bands]])
    doc["attributes"] = {a: start for a in ATTRIBUTE_IDS}
    cb = int(m.param("pp_combat_boost_start"))
    if trained and pilot is not None:
        table = {row["mailgear"] for row in m.skills}
        levels = to_pp(pilot.skills, m)
        fed = origins(pilot.skills, m)
        doc["skills"] = [{"name": n, "level": v, **({"notes": f"mailgear〈{pilot.labels.get(fed[n], fed[n])}〉"}
                                                   if n in fed else {})} for n, v in levels.items()]
        doc["combat_boost"] = cb + (pilot.pool or 0)
        feats = [{"name": f"{pilot.labels.get(sid, sid)} Lv{level}"} for sid, level in pilot.skills.items()
                 if sid not in table and sid != "miracle"]
        if feats:
            doc["feats"] = feats
    else:
        doc["combat_boost"] = cb
        low.find("CONVERT_EMPTY_PILOT", "", system=SYSTEM)
    if machine is not None:
        doc["machine"] = _machine(sheet, machine, low)
    if sheet.notes is not None:
        doc["notes"] = sheet.notes
    if sheet.extra:
        doc["extra"] = dict(sheet.extra)
    total = _price(doc)
    doc["budget"] = max(int(band["pp_budget"]), total)
    doc["declared_total"] = total  # what the sheet writes back as its total
    return doc


def _machine(sheet: Sheet, machine: Machine, low: Lowering) -> dict[str, Any]:
    m = low.mapping
    out: dict[str, Any] = {"name": machine.name or "（名称未定）"}
    move = machine.stats.get("move")
    out["speed"] = round_half_up(grid(move, m) * m.param("speed_per_grid")) if move else 4
    mob = machine.stats.get("mobility")
    out["mobility"] = round_half_up(pips(mob, m)) if mob else 0
    guard = machine.stats.get("guard")
    if guard is not None:
        out["workability"] = round_half_up(pips(guard, m))
    else:
        out["workability"] = 0 if machine.no_manipulator else int(m.param("pp_workability"))
    armor = machine.stats.get("armor")
    out["armor"] = (low.scaled(m.at_grade(m.grade(armor.value, "armor", armor.system), "armor", SYSTEM),
                               "/machine/armor", "armor", SYSTEM)
                    if armor is not None else int(m.anchor("armor", SYSTEM).values[1]))
    durability = [x for x in machine.stats.values() if x.quantity == "durability"]
    g = mean_grade(durability, m)
    for key in ("durability", "toughness"):
        field = f"/machine/{key}"
        out[key] = (low.scaled(m.at_grade(g, "durability", SYSTEM, field), field, "durability", SYSTEM, field)
                    if g is not None else int(m.anchor("durability", SYSTEM, field).values[1]))
    out["size_modifier"] = SIZE_MODIFIER.get(machine.size or "M", 0)
    out["evasion_modifier"] = {"dodge": out["mobility"], "parry": out["workability"]}
    weapons = [_weapon(w, k, low) for k, w in enumerate(machine.weapons)]
    low.placed.update({w.source: f"/machine/weapons/{k}" for k, w in enumerate(machine.weapons)})
    if weapons:
        out["weapons"] = weapons
    if machine.text or (sheet.pilot is not None and sheet.pilot.text):
        out["notes"] = "; ".join([*machine.text, *(sheet.pilot.text if sheet.pilot else [])])
    return out


def _weapon(w: Any, k: int, low: Lowering) -> dict[str, Any]:
    m = low.mapping
    ptr = f"/machine/weapons/{k}"
    hit = m.param("pp_hit_standard") - (pips(w.accuracy, m) if w.accuracy is not None else 0)
    penetration = m.at_grade(damage_grade(w.damage, m), "damage", SYSTEM)
    out: dict[str, Any] = {"name": w.name or f"武器{k + 1}"}
    if w.melee or tuple(w.bands) == ("close",):  # pp reads a close-only weapon as melee unless told
        out["melee"] = bool(w.melee)
    out.update({"hit_target": low.clamped(round_half_up(hit), f"{ptr}/hit_target", low=0),
                "evasion_target": int(m.param("pp_evasion_melee" if w.melee else "pp_evasion_standard")),
                "penetration": low.clamped(low.scaled(penetration, f"{ptr}/penetration", "damage", SYSTEM),
                                           f"{ptr}/penetration", low=0),
                "damage": pp_class(share(w.damage, m), m)})
    if w.guided:
        out["tracking"] = 2
    out["engagements"] = [b for b in reversed(BANDS) if b in w.bands]
    notes = "; ".join([*([w.notes] if w.notes else []), *w.text])
    if notes:
        out["notes"] = notes
    return out


def _price(doc: MappingType[str, Any]) -> int:
    """The character's PP by pp's own engine (never a currency conversion of UP)."""
    from ..rules import get_system

    return get_system(SYSTEM).evaluate_with(doc, None, None).total

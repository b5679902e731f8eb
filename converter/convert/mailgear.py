"""mailgear (seed 001): a pilot and gear lifted into the common model and lowered from it; the
anchors a group's catalog gives.

Imports mailgear's own rules only. The seed gives no gear numbers: every mailgear anchor comes
from the catalog in use (``anchors_from_catalog``).
"""
from __future__ import annotations

import re
from statistics import median
from typing import Any, Mapping as MappingType

from ..core.evaluation import round_half_up
from ..rules.mailgear.tables import name_key, tables
from .mapping import Anchor
from .model import Machine, Measure, Pilot, Sheet, Weapon
from .skills import from_pp
from .units import Lowering, grid, mean_grade, pips, weapon_share

SYSTEM = "mailgear"
#: mailgear's bands and the shared bands of the model (seed 001:89-97 name them like pp's)
BAND_OF = {"cr": "close", "sr": "short", "mr": "medium", "lr": "long"}
SHARED_TO_BAND = {v: k for k, v in BAND_OF.items()}
RANK_ORDER = ("E", "D", "C", "B", "A", "S")
_QUANTITY = {"durability": "durability", "energy": "energy", "output": "power", "mobility": "mobility",
             "move": "move", "guard": "guard", "sensor": "sensor", "capacity": "capacity",
             "counter": "counter", "cr": "cr", "sr": "sr", "mr": "mr", "lr": "lr"}
SHIELD, BARRIERS = "シールド", ("チャフ・キャンセラー", "マグネット・バリア")
#: the word a weapon's notes carry when it is a melee weapon reaching beyond CR (up's 格闘 range 2)
MELEE, RANGED = "格闘武器", "射撃武器"
#: a guided weapon (up's 誘導, pp's 追尾性): its band stat holds the +2 its accuracy does not
GUIDED = "誘導"
#: a weapon's accuracy apart from its best band stat, in a weapon's notes (「命中-2」): mailgear's
#: CR..LR are per band, so without it every weapon of a band comes back with the band's best
ACCURACY = re.compile(r"^命中([+-]\d+)$")
_Values = tuple[float, float, float]  # an anchor's floor, standard and peak


def _raw(catalog: Any) -> MappingType[str, Any] | None:
    """A catalog's data, whether given as data or as the rules' parsed Catalog."""
    if catalog is None:
        return None
    raw = getattr(catalog, "raw", catalog)
    return raw if isinstance(raw, MappingType) else None


def _table(value: Any) -> MappingType[str, Any]:
    """``value`` when it is a table, else empty (a malformed part of a sheet lifts as nothing)."""
    return value if isinstance(value, dict) else {}


def anchors_from_catalog(catalog: Any) -> list[Anchor]:
    """Floor, standard and peak of each gear stat over the catalog's models: the lowest rank's
    minimum, the middle rank's median, the top rank's maximum; and a weapon's mean damage
    (7 + output + extra) from the same. Empty when the catalog has no models."""
    raw = _raw(catalog) or {}
    models = [m for m in raw.get("models") or [] if isinstance(m, dict) and isinstance(m.get("ranks"), dict)]
    ranks = sorted({r for m in models for r in m["ranks"] if r in RANK_ORDER}, key=RANK_ORDER.index)
    if not ranks:
        return []
    low, mid, top = ranks[0], ranks[(len(ranks) - 1) // 2], ranks[-1]

    def at(rank: str, stat: str) -> list[float]:
        return [m["ranks"][rank][stat] for m in models if isinstance(m["ranks"].get(rank), dict)
                and isinstance(m["ranks"][rank].get(stat), (int, float))]

    name = str(raw.get("name", "catalog"))
    out = []
    for stat, quantity in _QUANTITY.items():
        lo, mi, hi = at(low, stat), at(mid, stat), at(top, stat)
        if lo and mi and hi and min(lo) < median(mi) < max(hi):
            out.append(Anchor(quantity, SYSTEM, f"/gear/stats/{stat}", (min(lo), median(mi), max(hi)),
                              f"catalog: {name}"))
    extras = [w["extra_damage"] for w in raw.get("weapons") or [] if isinstance(w, dict)
              and isinstance(w.get("extra_damage"), (int, float))]
    outputs = {a.quantity: a.values for a in out}
    if extras and "power" in outputs:
        floor, standard, peak = outputs["power"]
        values = (7 + floor + min(extras), 7 + standard + median(extras), 7 + peak + max(extras))
        if values[0] < values[1] < values[2]:
            out.append(Anchor("damage", SYSTEM, "/equipment/*/extra_damage", values, f"catalog: {name}"))
    return out


def skill_levels(doc: MappingType[str, Any]) -> dict[str, int]:
    """The pilot's skills by id (a sheet may name them by label or synonym)."""
    t = tables()
    out: dict[str, int] = {}
    for s in doc.get("skills") or []:
        if isinstance(s, dict):
            sid = s.get("id") if s.get("id") in t.skills else t.skill_id(s.get("name", ""))
            if sid and isinstance(s.get("level"), int):
                out[sid] = max(out.get(sid, 0), s["level"])
    return out


def effective_stats(doc: MappingType[str, Any]) -> dict[str, float]:
    """The gear's base stats plus its custom boosts and its options' stat effects; never the
    written derived values, which already hold the pilot's skills (no double counting)."""
    t = tables()
    gear = _table(doc.get("gear"))
    stats = {k: v for k, v in (gear.get("stats") or {}).items() if isinstance(v, (int, float))}
    for boost in gear.get("boosts") or []:
        if boost in stats:
            stats[boost] += t.custom_boosts.get(boost, 0)
    for item in doc.get("equipment") or []:
        for e in (item.get("effects") or []) if isinstance(item, dict) else []:
            sid = t.stat_id(e.get("stat", "")) if isinstance(e, dict) else None
            if sid in stats and isinstance(e.get("amount"), (int, float)):
                stats[sid] += e["amount"]
    return stats


def lift(doc: MappingType[str, Any]) -> Sheet:
    """The pilot (skills by id, ミラクル as the pool) and the gear (stats, bands, weapons and
    options, what the model cannot hold as text)."""
    t = tables()
    sheet = Sheet.of(SYSTEM, doc)
    p = _table(doc.get("pilot"))
    skills = skill_levels(doc)
    pilot = Pilot(name=p.get("name"), system=SYSTEM, player=p.get("player"), skills=skills,
                  pool=skills.get("miracle"))
    gear = _table(doc.get("gear"))
    stats = effective_stats(doc)
    machine = _machine(str(gear.get("model", "")), stats, sheet)
    if gear.get("rank"):
        machine.text.append(sheet.say("/gear/rank", f"ランク{gear['rank']}"))
    for k, item in enumerate(doc.get("equipment") or []):
        if isinstance(item, dict) and item.get("kind") == "weapon":
            machine.weapons.append(_lift_weapon(item, k, machine, stats.get("output", 0), sheet))
        elif isinstance(item, dict):
            machine.text.append(sheet.say(f"/equipment/{k}", _lift_option(item, machine)))
    pilot.labels = {sid: t.skills[sid].label for sid in skills}
    if p.get("military_rank"):
        pilot.text.append(sheet.say("/pilot/military_rank", str(p["military_rank"])))
    sheet.pilot, sheet.machine = pilot, machine
    return sheet


def _machine(model: str, stats: MappingType[str, float], sheet: Sheet) -> Machine:
    """The gear's stats as measures (CR..LR as the shared bands), the rest as text."""
    machine = Machine(name=model)
    for stat, quantity in _QUANTITY.items():
        if stat in stats:
            measure = Measure(stats[stat], SYSTEM, quantity, f"/gear/stats/{stat}")
            if stat in BAND_OF:
                machine.bands[BAND_OF[stat]] = measure
            elif stat in ("durability", "energy", "output", "mobility", "move", "guard"):
                machine.stats[quantity] = measure
    for stat, label in (("sensor", "センサー"), ("energy", "エネルギー"), ("capacity", "キャパシティ"),
                        ("counter", "カウンター")):
        if stat in stats:
            machine.text.append(sheet.say(f"/gear/stats/{stat}", f"{label}{stats[stat]:g}"))
    return machine


def _lift_weapon(item: MappingType[str, Any], k: int, machine: Machine, output: float, sheet: Sheet) -> Weapon:
    """A weapon: its bands, mean damage (7 + output + extra), the best band stat it reaches as
    its accuracy, its energy and uses."""
    bands = tuple(BAND_OF[b] for b in ("cr", "sr", "mr", "lr") if b in (item.get("bands") or []))
    best = max((machine.bands[b] for b in bands if b in machine.bands), key=lambda x: x.value, default=None)
    text = [sheet.say(f"/equipment/{k}/{key}", f"{label}{item[key]}")
            for key, label in (("energy", "消費エネルギー"), ("uses", "回数"), ("slots", "スロット"),
                               ("durability", "耐久")) if item.get(key) is not None]
    words = str(item.get("notes") or "").split("; ")
    apart = next((int(hit.group(1)) for word in words if (hit := ACCURACY.match(word))), 0)
    guided = GUIDED in words
    if best is not None and (apart or guided):
        best = Measure(best.value + apart - (2 if guided else 0), best.system, best.quantity, best.field)
    return Weapon(name=str(item.get("name", "")), melee=bands == ("close",) and RANGED not in words or MELEE in words,
                  bands=bands or ("close",),
                  damage=Measure(7 + output + int(item.get("extra_damage", 0) or 0), SYSTEM, "damage"),
                  accuracy=best, guided=guided, usage={"energy": item.get("energy"), "uses": item.get("uses")},
                  notes=sheet.notes_of(f"/equipment/{k}", item.get("notes")), text=text, source=f"/equipment/{k}")


def _lift_option(item: MappingType[str, Any], machine: Machine) -> str:
    """An option: a shield or barrier by name; its name and effects as text."""
    name = str(item.get("name", ""))
    machine.shield |= name_key(name) == name_key(SHIELD)
    machine.barrier |= name_key(name) in {name_key(b) for b in BARRIERS}
    effects = [e.get("text") or e.get("skill") or e.get("stat") for e in item.get("effects") or []
               if isinstance(e, dict)]
    return name + (f"（{'・'.join(str(e) for e in effects if e)}）" if any(effects) else "")


def _catalog_option(raw: MappingType[str, Any] | None, name: str) -> MappingType[str, Any] | None:
    for row in (raw or {}).get("options") or []:
        if isinstance(row, dict) and name_key(str(row.get("name", ""))) == name_key(name):
            return row
    return None


def _first(raw: MappingType[str, Any] | None, table: str, key: str, default: str) -> str:
    rows = [r for r in (raw or {}).get(table) or [] if isinstance(r, dict) and key in r]
    return str(rows[0][key]) if rows else default


#: the gear's stats in the order a sheet lists them
_GEAR_ORDER = ("sensor", "mobility", "cr", "sr", "mr", "lr", "guard", "counter", "durability", "energy",
               "capacity", "output", "move")


def lower(sheet: Sheet, low: Lowering) -> dict[str, Any]:
    """A pilot and gear from the model: gear stats by grade, pip and grid against the catalog's
    anchors, band stats from the weapons' accuracy, weapons' extra damage by share."""
    raw, pilot_in = _raw(low.catalog), sheet.pilot
    machine = sheet.machine or Machine(name="（未定）")
    pilot = _lower_pilot(pilot_in, machine, raw, low.band)
    stats = _gear_stats(machine, low)
    gear = {"model": machine.name or "（未定）", "rank": _first(raw, "gear_ranks", "rank", "E"), "stats": stats}
    skills = _skills_from(pilot_in, machine, low) if pilot_in is not None and pilot_in.system == "pp" else []
    if not skills:
        low.find("CONVERT_EMPTY_PILOT", "/pilot", system=SYSTEM)
    doc: dict[str, Any] = {"system": SYSTEM, "format": 1}
    if raw and raw.get("name"):
        doc["catalog"] = raw["name"]
    doc.update({"pilot": pilot, "skills": skills, "gear": gear})
    doc["equipment"] = _equipment(machine, stats, raw, low)  # required, even empty
    if sheet.notes is not None:
        doc["notes"] = sheet.notes
    if sheet.extra:
        doc["extra"] = dict(sheet.extra)
    return doc


def _lower_pilot(pilot_in: Pilot | None, machine: Machine, raw: MappingType[str, Any] | None,
                 band: MappingType[str, Any]) -> dict[str, Any]:
    """The pilot's name (the machine's pilot when unnamed) and player, at the source band's level
    (mapping.toml [[bands]]) with the catalog's experience for it (else the catalog's first level)."""
    name = pilot_in.name if pilot_in is not None and pilot_in.name else f"{machine.name}のパイロット"
    pilot: dict[str, Any] = {"name": name}
    if pilot_in is not None and pilot_in.player:
        pilot["player"] = pilot_in.player
    levels = [r for r in (raw or {}).get("levels") or [] if isinstance(r, dict) and "level" in r]
    fallback = levels[0] if levels else {"level": band.get("mailgear_level", "E"), "experience": 0}
    row = next((r for r in levels if r["level"] == band.get("mailgear_level")), fallback)
    experience = row.get("experience", 0)
    pilot.update({"experience": experience if isinstance(experience, int) else 0, "rank_points": 0,
                  "level": str(row.get("level", "E"))})
    return pilot


def _gear_stats(machine: Machine, low: Lowering) -> dict[str, int]:
    """The gear's stats in a sheet's order; the catalog's standard (or floor) where the model has none."""
    std = {a.field.rsplit("/", 1)[-1]: a.values for a in low.mapping.anchors
           if a.system == SYSTEM and a.field.startswith("/gear/stats/")}
    stats = {**_graded_stats(machine, low, std), **_pip_stats(machine, low, std),
             **_band_stats(machine, low, std)}
    stats.update({stat: int(std[stat][1]) for stat in ("sensor", "capacity", "counter")})
    return {k: stats[k] for k in _GEAR_ORDER}


def _graded_stats(machine: Machine, low: Lowering, std: MappingType[str, _Values]) -> dict[str, int]:
    """耐久 (the mean grade of the model's durabilities), エネルギー and 出力 at their grade."""
    m = low.mapping
    g = mean_grade([x for x in machine.stats.values() if x.quantity == "durability"], m)
    stats = {"durability": int(std["durability"][1]) if g is None else
             low.scaled(m.at_grade(g, "durability", SYSTEM), "/gear/stats/durability", "durability", SYSTEM)}
    for stat, quantity in (("energy", "energy"), ("output", "power")):
        src = machine.stats.get(quantity)
        if src is None or not m.has_anchor(quantity, src.system):
            stats[stat] = int(std[stat][1])
            continue
        g = m.grade(src.value, quantity, src.system, src.field)
        stats[stat] = low.scaled(m.at_grade(g, quantity, SYSTEM), f"/gear/stats/{stat}", quantity, SYSTEM)
    return stats


def _pip_stats(machine: Machine, low: Lowering, std: MappingType[str, _Values]) -> dict[str, int]:
    """運動性 and ガード in pips, 移動 in grid steps; ガード without one: the standard with a shield."""
    m = low.mapping
    stats: dict[str, int] = {}
    mob, move, guard = (machine.stats.get(q) for q in ("mobility", "move", "guard"))
    mobility = int(std["mobility"][1]) if mob is None else round_half_up(pips(mob, m))
    stats["mobility"] = low.clamped(mobility, "/gear/stats/mobility", low=0)
    steps = int(std["move"][1]) if move is None else round_half_up(grid(move, m))
    stats["move"] = low.clamped(steps, "/gear/stats/move", low=0)
    if guard is not None:
        stats["guard"] = low.clamped(round_half_up(pips(guard, m)), "/gear/stats/guard", low=0)
    else:
        stats["guard"] = int(std["guard"][1] if machine.shield else std["guard"][0])
    return stats


def _band_stats(machine: Machine, low: Lowering, std: MappingType[str, _Values]) -> dict[str, int]:
    """CR..LR: the standard plus the best accuracy (誘導 +2) of the weapons reaching the band, else
    the floor."""
    stats: dict[str, int] = {}
    for band, shared in BAND_OF.items():
        reaching = [pips(w.accuracy, low.mapping) + (2 if w.guided else 0) for w in machine.weapons
                    if shared in w.bands and w.accuracy is not None]
        if reaching:
            best = max(reaching)
            stats[band] = low.clamped(round_half_up(std[band][1] + best), f"/gear/stats/{band}", low=0)
        else:
            stats[band] = int(std[band][0])
    return stats


def _equipment(machine: Machine, stats: MappingType[str, int], raw: MappingType[str, Any] | None,
               low: Lowering) -> list[dict[str, Any]]:
    """The weapons, then a shield and a barrier option, as many as the slots hold (the rest said)."""
    items = [_weapon(w, k, low, stats) for k, w in enumerate(machine.weapons)]
    if machine.shield:
        items.append(_option(raw, SHIELD, {"arm": "left"}))
    if machine.barrier:
        items.append(_option(raw, BARRIERS[0], {}))
    slots = int(low.mapping.param("mailgear_slots"))
    kept: list[dict[str, Any]] = []
    left: list[dict[str, Any]] = []
    sources = [w.source for w in machine.weapons] + [""] * (len(items) - len(machine.weapons))
    for item, source in zip(items, sources, strict=True):
        fits = sum(i.get("slots", 1) for i in kept) + item.get("slots", 1) <= slots
        if source:
            low.placed[source] = f"/equipment/{len(kept)}" if fits else None
        (kept if fits else left).append(item)
    if left:
        low.find("CONVERT_SLOTS_FULL", "/equipment", slots=slots, names=[i["name"] for i in left])
    return kept


def _weapon(w: Weapon, k: int, low: Lowering, stats: MappingType[str, int]) -> dict[str, Any]:
    """A weapon item: its bands, extra damage by share, energy or uses, and in its notes what
    mailgear's bands cannot say (melee beyond CR, ranged at CR, guided, accuracy apart from its band)."""
    m = low.mapping
    output = stats["output"]
    bands = [SHARED_TO_BAND[b] for b in ("close", "short", "medium", "long") if b in w.bands] or ["lr"]
    mean = round_half_up(weapon_share(w, m) * m.anchor("durability", SYSTEM).exact[1])
    lo, _, hi = m.anchor("damage", SYSTEM).values
    if mean > m.anchor("damage", SYSTEM).exact[2]:  # above the catalog's weapons: flagged, never cut
        low.find("CONVERT_OUT_OF_RANGE", f"/equipment/{k}/extra_damage", value=mean, floor=lo, peak=hi)
    extra = mean - int(m.param("mailgear_roll_mean")) - output
    out: dict[str, Any] = {"kind": "weapon", "name": w.name or "武器", "bands": bands,
                           "extra_damage": low.clamped(extra, f"/equipment/{k}/extra_damage", low=0)}
    usage = w.usage or {}
    if usage.get("type") == "en":
        out["energy"] = min(4, max(1, round_half_up(usage["amount"] / 10)))
    elif usage.get("type") == "ammo":
        out["uses"] = int(usage["amount"])
    # mailgear knows melee by CR alone: a melee weapon beyond CR, or a ranged one at CR only, says so
    melee = [MELEE] if w.melee and bands != ["cr"] else [RANGED] if not w.melee and bands == ["cr"] else []
    notes = "; ".join([*([w.notes] if w.notes else []), *w.text, *melee, *([GUIDED] if w.guided else []),
                       *_apart(w, bands, stats, m)])
    if notes:
        out["notes"] = notes
    return out


def _apart(w: Weapon, bands: list[str], stats: MappingType[str, int], m: Any) -> list[str]:
    """「命中-2」 when the weapon's own accuracy (誘導 +2) is not its best band stat's: the lift reads
    the best band it reaches (as ``_lift_weapon`` does) and adds this back."""
    if w.accuracy is None or not bands:
        return []
    band = max(bands, key=lambda b: stats[b])
    own = pips(w.accuracy, m) + (2 if w.guided else 0)
    apart = round_half_up(own - (stats[band] - m.anchor(band, SYSTEM).exact[1]))
    return [f"命中{apart:+d}"] if apart else []


def _option(raw: MappingType[str, Any] | None, name: str, extra: dict[str, Any]) -> dict[str, Any]:
    """An option as the catalog lists it (its durability, uses, effects), else by name alone."""
    row = _catalog_option(raw, name) or {}
    out: dict[str, Any] = {"kind": "option", "name": name, **extra}
    for key in ("durability", "uses", "energy"):
        if key in row:
            out[key] = row[key]
    out["effects"] = [dict(e) for e in row.get("effects") or []] or [{"text": name}]
    return out


def _skills_from(pilot: Pilot, machine: Machine, low: Lowering) -> list[dict[str, Any]]:
    """A pp character's skills as mailgear's (the skill table backwards), each held at its
    maximum with a finding; CB − 3 as ミラクル; a feat named like a mailgear skill as that skill."""
    t = tables()
    ranged = [b for w in machine.weapons if not w.melee for b in w.bands]
    came_from = {name: sid for name, label in pilot.came_from.items() if (sid := t.skill_id(label))}
    levels = from_pp(pilot.skills, ranged, low.mapping, came_from)
    if pilot.pool is not None and pilot.pool - int(low.mapping.param("pp_combat_boost_start")) > 0:
        levels["miracle"] = pilot.pool - int(low.mapping.param("pp_combat_boost_start"))
    perks: dict[str, str] = {}
    for (name, level), source in zip(pilot.perks, pilot.perk_sources, strict=True):
        sid = t.skill_id(name)
        if sid and sid not in levels:
            levels[sid] = level or 1
            perks[source] = sid
        low.placed[source] = None  # placed below, once the skill has its place
    order = list(levels)
    low.placed.update({source: f"/skills/{order.index(sid)}" for source, sid in perks.items()})
    out = []
    for k, (sid, level) in enumerate(levels.items()):
        out.append({"id": sid,
                    "level": low.clamped(level, f"/skills/{k}/level", high=t.skills[sid].max_level)})
    return out

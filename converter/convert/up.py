"""up (seed 000): a unit lifted into the common model, and the model lowered into a unit.

Imports up's own rules only (its tables; its engine prices the lowered unit for its budget).
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Mapping as MappingType

from ..core.evaluation import round_half_up
from ..rules.tables_file import both
from ..rules.up.tables import StatRule, tables
from .model import Machine, Measure, Pilot, Sheet, Weapon
from .units import Lowering, bands_between, grid, mean_grade, pips, reach_of, weapon_share

SYSTEM = "up"
SIZE_ORDER = ("SSS", "SS", "S", "M", "L", "LL", "LLL")
#: the budget classes of seed 000:4 (リアル系 1200, νガンダム 1500, スーパーロボット 2000)
BUDGET_CLASSES = (1200, 1500, 2000)
_STAT_QUANTITY = {"hp": "durability", "en": "energy", "armor": "armor", "power": "power",
                  "mobility": "mobility", "move": "move"}


def mean_damage(w: MappingType[str, Any], power: int) -> float:
    """A weapon's mean damage: 5.5 per die, the fixed part, the attribute's bonus, and for melee
    the unit's power (seed 000:131, 155)."""
    t = tables()
    dmg = d if isinstance(d := w.get("damage"), dict) else {}
    attribute = t.attributes.get(w.get("attribute", "solid"), {}).get("damage_bonus", 0)
    melee = power if w.get("kind") == "melee" else 0
    return 5.5 * int(dmg.get("dice", 1)) + int(dmg.get("fixed", 10)) + attribute + melee


def _weapon_text(w: MappingType[str, Any]) -> list[tuple[str, str]]:
    """What pp or mailgear can only say in words about an up weapon, each with the field it says."""
    t = tables()
    out = []
    usage = w.get("usage")
    if isinstance(usage, dict) and usage.get("type") in t.usage_types:
        out.append(("usage", f"{t.usage_types[usage['type']]}{usage.get('amount')}"))
    if w.get("attribute") in t.attributes:
        out.append(("attribute", t.attributes[w["attribute"]]["label"]))
    if w.get("post_move") is not None:
        out.append(("post_move", "P" if w["post_move"] else "非P"))
    for key, label in (("map", "MAP"), ("combo", "合体攻撃"), ("morale", "気力"), ("terrain", "地形")):
        if w.get(key):
            out.append((key, label))
    for k, e in enumerate(w.get("effects") or []):
        if isinstance(e, dict) and e.get("id") in t.effects:
            out.append((f"effects/{k}", t.effects[e["id"]]["label"]))
    return out


def lift(doc: MappingType[str, Any]) -> Sheet:
    """A unit as the common model: its stats, weapons and abilities in up's own units."""
    t = tables()
    sheet = Sheet.of(SYSTEM, doc)
    stats = s if isinstance(s := doc.get("stats"), dict) else {}
    machine = Machine(name=str(doc.get("name", "")), size=doc.get("size"))
    for sid, quantity in _STAT_QUANTITY.items():
        if isinstance(stats.get(sid), (int, float)):
            machine.stats[quantity] = Measure(stats[sid], SYSTEM, quantity, f"/stats/{sid}")
    power = int(stats.get("power", 0) or 0)
    weapons = [w for w in doc.get("weapons") or [] if isinstance(w, dict)]
    by_name = {}
    for k, w in enumerate(weapons):
        if w.get("variant_of"):  # 撃ち分け: a mode of its base, taking no place of its own
            continue
        rng = int(w.get("range", 1))
        weapon = Weapon(name=str(w.get("name", "")), melee=w.get("kind") == "melee",
                        bands=bands_between(int(w.get("min_range", 1)), rng),
                        damage=Measure(mean_damage(w, power), SYSTEM, "damage"),
                        accuracy=Measure(int(w.get("accuracy", 0)), SYSTEM, "accuracy"),
                        guided=bool(w.get("guided")), usage=w.get("usage") if isinstance(w.get("usage"), dict) else None,
                        notes=sheet.notes_of(f"/weapons/{k}", w.get("notes")),
                        text=[sheet.say(f"/weapons/{k}/{key}", text) for key, text in _weapon_text(w)],
                        source=f"/weapons/{k}")
        machine.weapons.append(weapon)
        by_name[weapon.name] = weapon
    for k, w in enumerate(weapons):
        if w.get("variant_of") in by_name:
            by_name[w["variant_of"]].text.append(sheet.say(f"/weapons/{k}", f"撃ち分け「{w.get('name')}」"))
    for k, a in enumerate(doc.get("abilities") or []):
        if not isinstance(a, dict):
            continue
        aid = a.get("id")
        machine.shield |= aid == "shield"
        machine.barrier |= aid in ("barrier1", "barrier2")
        machine.no_manipulator |= aid == "no_manipulator"
        if aid in t.abilities:
            machine.text.append(sheet.say(f"/abilities/{k}", a.get("name") or t.abilities[aid]["label"]))
    for sid, label in (("en", "ＥＮ"), ("power", "パワー")):
        if sid in stats:
            machine.text.append(sheet.say(f"/stats/{sid}", f"{label}{stats[sid]}"))
    if doc.get("movement"):
        machine.text.append(sheet.say("/movement", "移動: " + "・".join(t.movement_types.get(m, str(m))
                                                                         for m in doc["movement"])))
    if doc.get("transformation"):
        machine.text.append(sheet.say("/transformation", "変形"))
    pilot = Pilot(name=doc["pilot"], system=SYSTEM) if isinstance(doc.get("pilot"), str) else None
    sheet.pilot, sheet.machine = pilot, machine
    return sheet


def _nearest(value: float | Fraction, allowed: list[int]) -> int:
    return min(allowed, key=lambda a: (abs(a - value), a))


def accuracy_step(value: int, was: int) -> int:
    """``value`` (a weapon's accuracy moved from ``was`` by a fold) on one of up's steps: the
    nearest step not short of the move (up has no +35: 30 raised by 5 becomes 40)."""
    allowed = sorted(tables().accuracy)
    if value in allowed:
        return value
    ahead = [a for a in allowed if (a > value if value > was else a < value)]
    return min(ahead, key=lambda a: abs(a - value)) if ahead else _nearest(value, allowed)


def _wanted(machine: Machine, low: Lowering) -> dict[str, Fraction]:
    """Each stat the model has, in up's units and exact (rounded once, per size, in ``_fit``)."""
    m = low.mapping
    out: dict[str, Fraction] = {}
    g = mean_grade([x for x in machine.stats.values() if x.quantity == "durability"], m)
    if g is not None:
        out["hp"] = m.at_grade(g, "durability", SYSTEM)
    for sid, quantity in (("en", "energy"), ("armor", "armor"), ("power", "power")):
        src = machine.stats.get(quantity)
        if src is not None and m.has_anchor(quantity, src.system):
            out[sid] = m.at_grade(m.grade(src.value, quantity, src.system, src.field), quantity, SYSTEM)
    mob = machine.stats.get("mobility")
    if mob is not None:
        out["mobility"] = pips(mob, m) * m.param("pip_percent")
    move = machine.stats.get("move")
    if move is not None:
        out["move"] = grid(move, m)
    return out


def stat_limit(rule: StatRule) -> int:
    """The highest legal value of a stat in a size: base + maximum raise; 移動力 +2 (seed 000:
    the text prices +1 and +2 only)."""
    if rule.max_raise is None:
        return rule.base + len(tables().raw["move_pricing"]["multipliers"])
    return rule.base + rule.max_raise


@dataclass
class _Fit:
    """One size's reading of the wanted stats: the values, those held at the size's limit and
    those lifted to its base (which the size gives free), each as (stat, wanted value, held at)."""

    size: str
    stats: dict[str, int]
    over: list[tuple[str, int, int]]
    lifted: list[tuple[str, int, int]]
    held_back: int  # what the held-back raises would cost in this size, in UP


def _fit(size: str, wanted: MappingType[str, Fraction]) -> _Fit:
    """The stats in ``size``: each wanted value rounded once to the size's step (never below
    its base, which the size gives free), held at the size's limit when above it."""
    rules = tables().sizes[size].stats
    stats: dict[str, int] = {}
    over: list[tuple[str, int, int]] = []
    lifted: list[tuple[str, int, int]] = []
    held_back = 0
    for sid in _STAT_QUANTITY:
        rule = rules[sid]
        if sid not in wanted:
            stats[sid] = rule.base
            continue
        value = rule.base + round_half_up((wanted[sid] - rule.base) / rule.step) * rule.step
        if value < rule.base:
            lifted.append((sid, value, rule.base))
            value = rule.base
        limit = stat_limit(rule)
        if value > limit:
            over.append((sid, value, limit))
            held_back += (value - limit) // rule.step * rule.price
            value = limit
        stats[sid] = value
    return _Fit(size, stats, over, lifted, held_back)


def lower(sheet: Sheet, low: Lowering) -> dict[str, Any]:
    """A unit from the model: stats by grade and pip, weapons by share, in the cheapest size that
    legally holds every stat (or, when none does, the one holding back the fewest UP of raises,
    each excess a CONVERT_OVER_LIMIT finding); priced by up's engine."""
    machine = sheet.machine
    assert machine is not None  # the conversion refuses a source without a machine
    wanted = _wanted(machine, low)
    best: tuple[tuple[int, int], dict[str, Any], _Fit, Lowering] | None = None
    for size in SIZE_ORDER:
        fit = _fit(size, wanted)
        trial = Lowering(low.mapping, low.catalog, band=low.band)
        doc = _unit(sheet, machine, fit, trial)
        key = (fit.held_back, doc["declared_total"])
        if best is None or key < best[0]:
            best = (key, doc, fit, trial)
    assert best is not None
    _, doc, fit, trial = best
    t = tables()
    chosen = t.sizes[fit.size]
    for sid, value, limit in fit.over:
        low.find("CONVERT_OVER_LIMIT", f"/stats/{sid}", value=value, limit=limit,
                 **both("label", t.stat_labels[sid], t.stat_labels_en[sid]),
                 **both("within", f"サイズ{chosen.label}", f"size {chosen.label_en}"))
    for sid, value, base in fit.lifted:
        low.find("CONVERT_CLAMPED", f"/stats/{sid}", value=value, limit=base)
    low.findings.extend(trial.findings)
    low.placed.update(trial.placed)
    total = doc["declared_total"]
    nearest = min(BUDGET_CLASSES, key=lambda c: abs(c - total))
    low.find("CONVERT_BUDGET_CLASS", "/budget", total=total, nearest=nearest, budget=doc["budget"])
    return doc


def _unit(sheet: Sheet, machine: Machine, fit: _Fit, low: Lowering) -> dict[str, Any]:
    """The unit in one size's fit, priced by up's engine."""
    m = low.mapping
    stats = fit.stats
    doc: dict[str, Any] = {"system": SYSTEM, "format": 1, "name": machine.name or "（名称未定）"}
    if sheet.pilot is not None and sheet.pilot.name:
        doc["pilot"] = sheet.pilot.name
    doc.update({"size": fit.size, "stats": stats, "movement": ["land", "space"]})
    weapons = [_weapon(w, k, stats["power"], low) for k, w in enumerate(machine.weapons)]
    low.placed.update({w.source: f"/weapons/{k}" for k, w in enumerate(machine.weapons)})
    if weapons:
        doc["weapons"] = weapons
    abilities = []
    if machine.shield:
        abilities.append({"id": "shield", "name": "シールド", "armor": int(m.param("up_shield_armor")),
                          "uses": int(m.param("up_shield_uses"))})
    if machine.barrier:
        abilities.append({"id": "barrier1", "armor": int(m.param("up_shield_armor"))})
    if abilities:
        doc["abilities"] = abilities
    if sheet.notes is not None:
        doc["notes"] = sheet.notes
    if sheet.extra:
        doc["extra"] = dict(sheet.extra)
    total = _price(doc)
    # the source band's class (mapping.toml [[bands]]), or the price when that is more
    doc["budget"] = max(total, int(low.band.get("up_budget", 0)))
    doc["declared_total"] = total  # what the sheet writes back as its total
    return doc


def _weapon(w: Weapon, k: int, power: int, low: Lowering) -> dict[str, Any]:
    t, m = tables(), low.mapping
    ptr = f"/weapons/{k}"
    kind = "melee" if w.melee else "ranged"
    first, last = reach_of(w.bands, m)
    if w.melee:
        last = min(last, t.max_melee_range())
        first = min(first, last)
    mean = weapon_share(w, m) * m.param("up_standard_hp")
    lo, _, hi = m.anchor("damage", SYSTEM).values
    if mean > m.anchor("damage", SYSTEM).exact[2]:  # above the seed's weapons: flagged, never cut
        low.find("CONVERT_OUT_OF_RANGE", f"{ptr}/damage", value=round_half_up(mean), floor=lo, peak=hi)
    fixed = round_half_up(mean - m.param("up_die_mean") - (power if w.melee else 0))
    fixed = low.clamped(fixed, f"{ptr}/damage/fixed", low=int(m.param("up_fixed_floor")))
    out: dict[str, Any] = {"name": w.name or f"武器{k + 1}", "kind": kind, "range": last}
    if first > 1:
        out["min_range"] = first
    out["damage"] = {"dice": 1, "fixed": fixed}
    accuracy = Fraction(0)
    if w.accuracy is not None:
        accuracy = pips(w.accuracy, m) * m.param("pip_percent")
    allowed = sorted(t.accuracy)
    acc = _nearest(accuracy, allowed)
    if accuracy < allowed[0] - 2.5 or accuracy > allowed[-1] + 2.5:
        low.find("CONVERT_CLAMPED", f"{ptr}/accuracy", value=round_half_up(accuracy), limit=acc)
    out["accuracy"] = acc
    if w.guided:
        out["guided"] = True
    usage = _usage(w.usage)
    if usage:
        out["usage"] = usage
    notes = "; ".join([*([w.notes] if w.notes else []), *w.text])
    if notes:
        out["notes"] = notes
    return out


def _usage(usage: MappingType[str, Any] | None) -> dict[str, Any] | None:
    """mailgear's energy (× 10, to an EN row) or uses (down to an ammo row); none: unlimited."""
    if not usage:
        return None
    t = tables()
    if usage.get("energy"):
        amount = _nearest(usage["energy"] * 10, t.usage_amounts("en"))
        row = t.usage_row("en", amount) or {}
        return {"type": "en", "amount": amount, "reduction": "percent" if row.get("percent") else "up"}
    if usage.get("uses"):
        rows = [a for a in t.usage_amounts("ammo") if a <= usage["uses"]]
        amount = max(rows) if rows else min(t.usage_amounts("ammo"))
        row = t.usage_row("ammo", amount) or {}
        return {"type": "ammo", "amount": amount, "reduction": "percent" if row.get("percent") else "up"}
    return None


def _price(doc: MappingType[str, Any]) -> int:
    """The unit's total by up's own engine (never a currency conversion)."""
    from ..rules import get_system

    return get_system(SYSTEM).evaluate_with(doc, None, None).total

"""The unit's own figures (seed 000, 「１．機体性能」): stat raises, 移動タイプ, the unit's
地形適応 (a selectable rule), and 気力制限 stat boosts (bought like a stat raise, with the
気力 percentage of 「特殊能力」).

Each ``price_*`` adds the lines of its topic to the unit's :class:`Evaluation`; the sheets reuse
:func:`default_terrain` and :func:`terrain_step_cost`. Standard library only.
"""
from __future__ import annotations

from fractions import Fraction
from collections.abc import Mapping
from typing import Any

from ...core.coerce import as_int as _int, as_list, as_mapping
from ...core.evaluation import Evaluation, round_half_up
from ...core.pointers import pointer
from ..tables_file import both
from .document import list_at, morale_percent, percent_text, report_malformed, table_key
from .tables import STAT_IDS, TERRAINS, Size, StatRule, UpTables


def stat_raise_cost(stat: str, rule: StatRule, raise_by: int, start: int = 0) -> int:
    """UP for raising a stat by ``raise_by`` steps' worth above ``start`` (both in stat points).

    移動力: +1 costs the price, +2 twice that, each further point doubles again (docs/rules-up.md).
    """
    if stat == "move":
        return sum(rule.price * 2 ** i for i in range(start, start + raise_by))
    return (raise_by // rule.step) * rule.price


def price_stats(doc: Mapping[str, Any], size: Size, t: UpTables, opts: Mapping[str, str],
                out: Evaluation) -> None:
    """One line per raised stat; a value off its step, below base or over its maximum is a finding."""
    stats = as_mapping(doc.get("stats"))
    for sid in STAT_IDS:
        rule = size.stats[sid]
        where = pointer("stats", sid)
        value = _int(stats.get(sid, rule.base))
        label = t.stat_labels[sid]
        labels = both("label", label, t.stat_labels_en[sid])
        sizes = both("size", size.label, size.label_en)
        if value is None:
            out.find("UP_VALUE_NOT_INTEGER", where, **labels, value=stats.get(sid))
            out.skip(where)
            continue
        raised = value - rule.base
        if raised < 0:
            out.find("UP_STAT_BELOW_BASE", where, **labels, value=value, base=rule.base, **sizes)
            continue
        if raised == 0:
            continue
        if raised % rule.step:
            out.find("UP_STAT_STEP", where, **labels, value=value, base=rule.base,
                     step=rule.step, **sizes,
                     hint=[rule.base + (raised // rule.step) * rule.step,
                           rule.base + (raised // rule.step + 1) * rule.step])
            out.skip(where)
            continue
        if rule.max_raise is not None and raised > rule.max_raise:
            out.find("UP_STAT_MAX", where, **labels, value=value, base=rule.base,
                     max=rule.base + rule.max_raise, max_raise=rule.max_raise, **sizes)
        if sid == "move" and raised > len(t.raw["move_pricing"]["multipliers"]):
            out.find("UP_MOVE_BEYOND_TWO", where, value=value, raise_by=raised)  # option move_beyond_two
        cost = stat_raise_cost(sid, rule, raised)
        if sid == "move":
            steps = " + ".join(str(rule.price * 2 ** i) for i in range(raised))
            rule_text = rule_en = f"+{raised}: {steps}"
        else:
            rule_text = f"+{raised} = {raised // rule.step}段階 × {rule.price}"
            rule_en = f"+{raised} = {raised // rule.step} steps × {rule.price}"
        out.add(where, f"{label} {rule.base}→{value}", rule_text, cost,
                item_en=f"{t.stat_labels_en[sid]} {rule.base}→{value}", rule_en=rule_en)



# --- 移動タイプ ---------------------------------------------------------------------------------

def price_movement(doc: Mapping[str, Any], size: Size, t: UpTables, out: Evaluation) -> None:
    """移動タイプ: each type beyond the baseline costs 基本ＵＰ/5, each one fewer refunds it."""
    movement = doc.get("movement")
    if not isinstance(movement, list) or not movement:
        out.find("UP_MOVEMENT_EMPTY", "/movement")
        return
    seen: set[str] = set()
    for i, m in enumerate(movement):
        m = table_key(m)
        if m not in t.movement_types:
            out.find("UP_MOVEMENT_UNKNOWN", pointer("movement", i), value=m,
                     choices=list(t.movement_types))
            out.skip(pointer("movement", i))  # its price (one type more or less) is unknown
        elif m in seen:  # at the list, where the schema's uniqueItems reports it too
            out.find("UP_MOVEMENT_DUPLICATE", "/movement",
                     **both("value", t.movement_types[m], t.movement_types_en[m]))
        seen.add(m)
    known = [m for m in seen if m in t.movement_types]
    if len(known) < len(seen):  # an unknown type: how many types the unit has is not known
        return
    delta = len(known) - t.raw["movement"]["baseline_count"]
    if delta:
        unit_price = size.base_up // t.raw["movement"]["price_divisor"]
        labels = "・".join(t.movement_types[m] for m in t.movement_types if m in known)
        labels_en = ", ".join(t.movement_types_en[m] for m in t.movement_types if m in known)
        verb = "追加" if delta > 0 else "削減"
        verb_en = "added" if delta > 0 else "removed"
        out.add("/movement", f"移動タイプ {labels}",
                f"{abs(delta)}種{verb} × 基本ＵＰ/5 ({unit_price})", delta * unit_price,
                item_en=f"Movement types {labels_en}",
                rule_en=f"{abs(delta)} {verb_en} × base UP/5 ({unit_price})")


# --- 地形適応 -----------------------------------------------------------------------------------

def default_terrain(movement: list[str], t: UpTables) -> dict[str, str]:
    """The unit's 地形適応 before purchases: A where it can move, B elsewhere."""
    raw = t.raw["terrain"]
    return {k: raw["default_in_movement"] if k in movement else raw["default_outside"]
            for k in TERRAINS}


def terrain_step_cost(start: str, end: str, t: UpTables) -> int | None:
    """UP to move a unit's 地形適応 from ``start`` to ``end`` one step at a time."""
    grades = t.terrain_grades
    steps = t.raw["terrain"]["steps"]
    i, j = grades.index(start), grades.index(end)
    cost = 0
    while i != j:
        nxt = i - 1 if j < i else i + 1
        key = f"{grades[i]}>{grades[nxt]}"
        if key not in steps:
            return None
        cost += steps[key]
        i = nxt
    return cost


def price_terrain(doc: Mapping[str, Any], t: UpTables, opts: Mapping[str, str],
                  out: Evaluation) -> None:
    """The unit's 地形適応 bought away from :func:`default_terrain` (option ``terrain``)."""
    terrain = doc.get("terrain")
    if not terrain:
        return
    if not isinstance(terrain, Mapping):
        report_malformed("/terrain", "terrain", "{…}", terrain, out)
        return
    base = default_terrain(as_list(doc.get("movement")), t)
    for key in TERRAINS:
        grade = table_key(terrain.get(key, base[key]))
        where = pointer("terrain", key)
        if grade not in t.terrain_grades:
            out.find("UP_TERRAIN_GRADE", where, value=grade, choices=t.terrain_grades)
            out.skip(where)
            continue
        if grade == base[key]:
            continue
        if opts["terrain"] == "forbidden":
            out.find("UP_TERRAIN_FORBIDDEN", where,
                     **both("terrain", t.movement_types[key], t.movement_types_en[key]))
            continue
        cost = terrain_step_cost(base[key], grade, t)
        if cost is None:  # e.g. S→? never: every neighbouring step is priced
            out.find("UP_TERRAIN_GRADE", where, value=grade, choices=t.terrain_grades)
            continue
        out.add(where, f"地形適応 {t.movement_types[key]} {base[key]}→{grade}", "地形適応（選択ルール）",
                cost, item_en=f"Terrain adaptation {t.movement_types_en[key]} {base[key]}→{grade}",
                rule_en="terrain adaptation (optional rule)")


# --- 気力制限付きの能力値上昇 ---------------------------------------------------------------------

def price_morale_boosts(doc: Mapping[str, Any], size: Size, t: UpTables, opts: Mapping[str, str],
                        out: Evaluation) -> None:
    """Stat raises that hold only at some 気力: the raise's cost with the 気力 percentage, floored
    (option ``ability_floor``)."""
    stats = as_mapping(doc.get("stats"))
    floor = t.ability_floor(opts)
    for i, boost in enumerate(list_at(doc, "morale_boosts", out)):
        where = pointer("morale_boosts", i)
        if not isinstance(boost, Mapping):
            report_malformed(where, "morale_boosts", "{…}", boost, out)
            continue
        sid = table_key(boost.get("stat"))
        amount = _int(boost.get("raise"))
        # At the field that is wrong, where the schema reports it too.
        bad = ([] if sid in size.stats else ["/stat"]) + ([] if amount and amount > 0 else ["/raise"])
        for field in bad:
            out.find("UP_BOOST_INVALID", where + field, stat=sid, value=boost.get("raise"))
        if bad or amount is None:
            out.skip(where)
            continue
        rule = size.stats[sid]
        labels = both("label", t.stat_labels[sid], t.stat_labels_en[sid])
        if amount % rule.step:
            out.find("UP_STAT_STEP", where + "/raise", **labels, value=amount, base=0,
                     step=rule.step, **both("size", size.label, size.label_en),
                     hint=[amount // rule.step * rule.step, (amount // rule.step + 1) * rule.step])
            out.skip(where)
            continue
        current = _int(stats.get(sid, rule.base)) or rule.base
        already = max(0, current - rule.base)
        if rule.max_raise is not None and already + amount > rule.max_raise:
            out.find("UP_BOOST_OVER_MAX", where, **labels, value=current + amount,
                     max=rule.base + rule.max_raise)
        full = stat_raise_cost(sid, rule, amount, start=already if sid == "move" else 0)
        pct = max(floor, morale_percent(boost.get("morale"), where + "/morale", t, out))
        cost = round_half_up(Fraction(full) * (100 + pct) / 100)
        name = boost.get("name") or t.stat_labels[sid]
        name_en = boost.get("name") or t.stat_labels_en[sid]
        out.add(where, f"{name}（{t.stat_labels[sid]}+{amount}）", f"{full} {percent_text(pct)}", cost,
                item_en=f"{name_en} ({t.stat_labels_en[sid]} +{amount})")

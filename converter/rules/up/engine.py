"""The `up` cost engine: prices a unit document item by item (seed 000, ユニットの作成).

Pure Python (standard library only). Every front end — CLI, template reference values, xlwings
UDFs, audit — calls :func:`price_unit`. Robust to malformed documents: an item it cannot price
yields a finding and is skipped, so a schema error never hides the other findings.
"""
from __future__ import annotations

import json
from fractions import Fraction
from typing import Any, Mapping

from ...core.pointers import pointer
from ..options import evaluates
from ...core.evaluation import Evaluation, Roll, round_half_up
from .tables import STAT_IDS, TERRAINS, UpTables, neighbours, tables
from ...core.coerce import as_int as _int

# Fields a 撃ち分け variant is compared on; each differing field is one changed place.
# 気力制限 toggling is not a change (seed 000, 撃ち分け); all MAP changes count as one.
VARIANT_PLACES = ("kind", "range", "min_range", "post_move", "attribute", "damage", "accuracy",
                  "guided", "usage", "terrain", "map", "combo")


def _key(value: Any) -> Any:
    """``value`` as a table key. A list or object where a name belongs (a malformed document)
    becomes its JSON text, which no table holds: it is reported as unknown, never a crash."""
    try:
        hash(value)
    except TypeError:
        return json.dumps(value, ensure_ascii=False, default=str)
    return value


def _items(container: Mapping[str, Any], key: str, out: Evaluation, at: str = "") -> list[Any]:
    """The list at ``container[key]`` (empty when absent); anything else is UP_ITEM_MALFORMED."""
    value = container.get(key)
    if value is None or value == "":
        return []
    if not isinstance(value, list):
        _malformed(at + pointer(key), key, "[…]", value, out)
        return []
    return value


def _malformed(where: str, field: str, expected: str, value: Any, out: Evaluation) -> None:
    out.find("UP_ITEM_MALFORMED", where, field=field, expected=expected,
             value=json.dumps(value, ensure_ascii=False, default=str)[:40])
    out.skip(where)


def _decimal(value: Fraction) -> int | float:
    """A fraction for a message: whole numbers stay whole (1000/5 → 200, 1001/5 → 200.2)."""
    return int(value) if value.denominator == 1 else float(value)


def _pct(p: int | Fraction) -> str:
    return f"{'+' if p >= 0 else '−'}{abs(p)}%"


@evaluates("up")
def price_unit(doc: Mapping[str, Any], opts: Mapping[str, str]) -> Evaluation:
    """Price a unit: one cost line per priced item, derived values, and rule findings."""
    t = tables()
    out = Evaluation(budget=_int(doc.get("budget")), declared=_int(doc.get("declared_total")))
    size = t.sizes.get(_key(doc.get("size")))
    if size is None:
        out.find("UP_SIZE_UNKNOWN", "/size", value=doc.get("size"), choices=list(t.sizes))
        out.skip("/size")
        return out
    out.add("/size", f"サイズ {size.label}", "基本ＵＰ", size.base_up)

    _price_stats(doc, size, t, opts, out)
    _price_movement(doc, size, t, out)
    _price_terrain(doc, t, opts, out)
    _price_morale_boosts(doc, size, t, out)
    weapons_total = _price_weapons(doc, t, opts, out)
    _price_abilities(doc, size, t, out)
    _price_transformation(doc, t, out)

    if out.budget is not None and out.total > out.budget:
        out.find("UP_OVER_BUDGET", "/budget", total=out.total, budget=out.budget,
                 over=out.total - out.budget)
    if out.declared is not None and out.declared != out.total and out.complete:
        out.find("UP_TOTAL_MISMATCH", "/declared_total", declared=out.declared, computed=out.total)
    out.derive("/weapons_total", "武器ＵＰ合計", weapons_total)
    return out


# --- 機体性能 -------------------------------------------------------------------------------------

def stat_raise_cost(stat: str, rule, raise_by: int, start: int = 0) -> int:
    """UP for raising a stat by ``raise_by`` steps' worth above ``start`` (both in stat points).

    移動力: +1 costs the price, +2 twice that, each further point doubles again (RULES-NOTES).
    """
    if stat == "move":
        return sum(rule.price * 2 ** i for i in range(start, start + raise_by))
    return (raise_by // rule.step) * rule.price


def _price_stats(doc, size, t: UpTables, opts, out: Evaluation) -> None:
    stats = doc.get("stats") if isinstance(doc.get("stats"), Mapping) else {}
    for sid in STAT_IDS:
        rule = size.stats[sid]
        where = pointer("stats", sid)
        value = _int(stats.get(sid, rule.base))
        label = t.stat_labels[sid]
        if value is None:
            out.find("UP_VALUE_NOT_INTEGER", where, label=label, value=stats.get(sid))
            out.skip(where)
            continue
        raised = value - rule.base
        if raised < 0:
            out.find("UP_STAT_BELOW_BASE", where, label=label, value=value, base=rule.base,
                     size=size.label)
            continue
        if raised == 0:
            continue
        if raised % rule.step:
            out.find("UP_STAT_STEP", where, label=label, value=value, base=rule.base,
                     step=rule.step, size=size.label,
                     hint=[rule.base + (raised // rule.step) * rule.step,
                           rule.base + (raised // rule.step + 1) * rule.step])
            out.skip(where)
            continue
        if rule.max_raise is not None and raised > rule.max_raise:
            out.find("UP_STAT_MAX", where, label=label, value=value, base=rule.base,
                     max=rule.base + rule.max_raise, max_raise=rule.max_raise, size=size.label)
        if sid == "move" and raised > len(t.raw["move_pricing"]["multipliers"]):
            out.find("UP_MOVE_BEYOND_TWO", where, value=value, raise_by=raised)  # option move_beyond_two
        cost = stat_raise_cost(sid, rule, raised)
        if sid == "move":
            rule_text = f"+{raised}: " + " + ".join(str(rule.price * 2 ** i) for i in range(raised))
        else:
            rule_text = f"+{raised} = {raised // rule.step}段階 × {rule.price}"
        out.add(where, f"{label} {rule.base}→{value}", rule_text, cost)


def _price_movement(doc, size, t: UpTables, out: Evaluation) -> None:
    movement = doc.get("movement")
    if not isinstance(movement, list) or not movement:
        out.find("UP_MOVEMENT_EMPTY", "/movement")
        return
    seen: set[str] = set()
    for i, m in enumerate(movement):
        m = _key(m)
        if m not in t.movement_types:
            out.find("UP_MOVEMENT_UNKNOWN", pointer("movement", i), value=m,
                     choices=list(t.movement_types))
        elif m in seen:  # at the list, where the schema's uniqueItems reports it too
            out.find("UP_MOVEMENT_DUPLICATE", "/movement", value=t.movement_types[m])
        seen.add(m)
    known = [m for m in seen if m in t.movement_types]
    delta = len(known) - t.raw["movement"]["baseline_count"]
    if delta:
        unit_price = size.base_up // t.raw["movement"]["price_divisor"]
        labels = "・".join(t.movement_types[m] for m in t.movement_types if m in known)
        verb = "追加" if delta > 0 else "削減"
        out.add("/movement", f"移動タイプ {labels}",
                f"{abs(delta)}種{verb} × 基本ＵＰ/5 ({unit_price})", delta * unit_price)


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


def _price_terrain(doc, t: UpTables, opts, out: Evaluation) -> None:
    terrain = doc.get("terrain")
    if not terrain:
        return
    if not isinstance(terrain, Mapping):
        _malformed("/terrain", "terrain", "{…}", terrain, out)
        return
    movement = doc.get("movement") if isinstance(doc.get("movement"), list) else []
    base = default_terrain(movement, t)
    for key in TERRAINS:
        grade = _key(terrain.get(key, base[key]))
        where = pointer("terrain", key)
        if grade not in t.terrain_grades:
            out.find("UP_TERRAIN_GRADE", where, value=grade, choices=t.terrain_grades)
            out.skip(where)
            continue
        if grade == base[key]:
            continue
        if opts["terrain"] == "forbidden":
            out.find("UP_TERRAIN_FORBIDDEN", where, terrain=t.movement_types[key])
            continue
        cost = terrain_step_cost(base[key], grade, t)
        if cost is None:  # e.g. S→? never: every neighbouring step is priced
            out.find("UP_TERRAIN_GRADE", where, value=grade, choices=t.terrain_grades)
            continue
        out.add(where, f"地形適応 {t.movement_types[key]} {base[key]}→{grade}", "地形適応（選択ルール）",
                cost)


def _morale_percent(morale: Any, where: str, t: UpTables, out: Evaluation) -> int:
    morale = _key(morale)
    if morale in (None, ""):
        return 0
    if morale not in t.morale:
        out.find("UP_MORALE_UNKNOWN", where, value=morale,
                 choices=[m["label"] for m in t.morale.values()])
        return 0
    return t.morale[morale]["percent"]


def _price_morale_boosts(doc, size, t: UpTables, out: Evaluation) -> None:
    stats = doc.get("stats") if isinstance(doc.get("stats"), Mapping) else {}
    floor = t.raw["ability_rules"]["percent_floor"]
    for i, boost in enumerate(_items(doc, "morale_boosts", out)):
        where = pointer("morale_boosts", i)
        if not isinstance(boost, Mapping):
            _malformed(where, "morale_boosts", "{…}", boost, out)
            continue
        sid = _key(boost.get("stat"))
        amount = _int(boost.get("raise"))
        # At the field that is wrong, where the schema reports it too.
        bad = ([] if sid in size.stats else ["/stat"]) + ([] if amount and amount > 0 else ["/raise"])
        for field in bad:
            out.find("UP_BOOST_INVALID", where + field, stat=sid, value=boost.get("raise"))
        if bad:
            out.skip(where)
            continue
        rule = size.stats[sid]
        if amount % rule.step:
            out.find("UP_STAT_STEP", where + "/raise", label=t.stat_labels[sid], value=amount,
                     base=0, step=rule.step, size=size.label,
                     hint=[amount // rule.step * rule.step, (amount // rule.step + 1) * rule.step])
            out.skip(where)
            continue
        current = _int(stats.get(sid, rule.base)) or rule.base
        already = max(0, current - rule.base)
        if rule.max_raise is not None and already + amount > rule.max_raise:
            out.find("UP_BOOST_OVER_MAX", where, label=t.stat_labels[sid], value=current + amount,
                     max=rule.base + rule.max_raise)
        full = stat_raise_cost(sid, rule, amount, start=already if sid == "move" else 0)
        pct = max(floor, _morale_percent(boost.get("morale"), where + "/morale", t, out))
        cost = round_half_up(Fraction(full) * (100 + pct) / 100)
        name = boost.get("name") or t.stat_labels[sid]
        out.add(where, f"{name}（{t.stat_labels[sid]}+{amount}）", f"{full} {_pct(pct)}", cost)


# --- 武装 -----------------------------------------------------------------------------------------

class WeaponPrice:
    """A weapon's full cost and how it was reached."""

    def __init__(self) -> None:
        self.parts: list[tuple[str, int]] = []
        self.percents: list[tuple[str, int]] = []
        self.ok = True

    def part(self, label: str, up: int) -> None:
        self.parts.append((label, up))

    def percent(self, label: str, pct: int) -> None:
        self.percents.append((label, pct))

    def cost(self, floor: int) -> tuple[int, int, bool]:
        """(cost, applied percent, floored?) — parts summed, then the sum of percents."""
        base = sum(up for _, up in self.parts)
        pct = sum(p for _, p in self.percents)
        floored = pct < floor
        pct = max(pct, floor)
        return round_half_up(Fraction(base) * (100 + pct) / 100), pct, floored

    def text(self, floor: int) -> str:
        base = " + ".join(f"{label} {up}" for label, up in self.parts) or "0"
        if not self.percents:
            return base
        total, pct, floored = self.cost(floor)
        pcts = ", ".join(f"{label} {_pct(p)}" for label, p in self.percents)
        return f"({base}) × ({pcts}{'、下限' if floored else ''} {_pct(pct)})"


def weapon_terrain_bases(w: Mapping[str, Any], movement: list[str], t: UpTables) -> list[dict[str, str]]:
    """A weapon's possible 地形適応 before purchases (seed 000, 地形適応の決定).

    Melee and beam weapons have one; a ranged solid weapon has "three A and one B, placed
    freely", so four candidates.
    """
    raw = t.raw["weapon_terrain"]
    beam = w.get("attribute") == "beam"
    if w.get("kind") == "melee":
        base = {k: "A" if k in movement else raw["melee_outside"][k] for k in TERRAINS}
        if beam:
            base["sea"] = raw["beam_sea_melee"]
        return [base]
    if beam:
        return [{k: raw["beam_sea_ranged"] if k == "sea" else raw["ranged_default"] for k in TERRAINS}]
    return [{k: raw["ranged_one_lower"] if k == low else raw["ranged_default"] for k in TERRAINS}
            for low in TERRAINS]


def weapon_terrain_step_percent(base: str, final: str, t: UpTables) -> int:
    """Percent for a weapon's 地形適応 moving from ``base`` to ``final`` (seed 000): each step up
    +10 %, each step down −10 %, "−" −20 % whatever it replaces; from "−", C is one step up."""
    raw = t.raw["weapon_terrain"]
    order = t.weapon_terrain_grades
    if final == base:
        return 0
    if final == raw["unusable"]:
        return raw["unusable_percent"]
    if base == raw["unusable"]:
        return (order.index("C") - order.index(final) + 1) * raw["step_up_percent"]
    diff = order.index(base) - order.index(final)
    return diff * (raw["step_up_percent"] if diff > 0 else -raw["step_down_percent"])


def _terrain_percents(base: Mapping[str, str], final: Mapping[str, str], t: UpTables
                      ) -> list[tuple[str, int]]:
    out = []
    for key in TERRAINS:
        grade = final.get(key, base[key])
        if grade != base[key]:
            out.append((f"地形{t.movement_types[key]}{base[key]}→{grade}",
                        weapon_terrain_step_percent(base[key], grade, t)))
    return out


def _weapon_terrain_percent(w, movement, t: UpTables, where: str, out: Evaluation, wp: WeaponPrice):
    final = w.get("terrain") or {}
    if not isinstance(final, Mapping):
        _malformed(f"{where}/terrain", "terrain", "{…}", final, out)
        wp.ok = False
        return
    for key, grade in final.items():
        if key not in TERRAINS or _key(grade) not in t.weapon_terrain_grades:
            out.find("UP_TERRAIN_GRADE", f"{where}/terrain/{key}", value=grade,
                     choices=t.weapon_terrain_grades)
            wp.ok = False
            return
    # Where the free B may go anywhere, it goes where it absorbs a lowered grade: the reading
    # with the smallest discount, so no choice of placement prices the same weapon lower.
    candidates = [_terrain_percents(b, final, t) for b in weapon_terrain_bases(w, movement, t)]
    for label, pct in max(candidates, key=lambda c: sum(p for _, p in c)):
        wp.percent(label, pct)


def default_post_move(w: Mapping[str, Any], t: UpTables) -> bool | None:
    """Ｐ when the sheet does not say: 格闘 yes, 射撃 no; a ＭＡＰ兵器 no, whatever its kind
    (seed 000, Ｐ兵器: MAP weapons are basically not usable after moving)."""
    if w.get("map"):
        return False
    return t.weapon_kinds.get(_key(w.get("kind")), {}).get("post_move_default")


def price_weapon(w: Mapping[str, Any], unit: Mapping[str, Any], t: UpTables,
                 opts: Mapping[str, str], where: str, out: Evaluation) -> WeaponPrice:
    """A weapon's full cost (before any 撃ち分け fraction)."""
    wp = WeaponPrice()
    kind = _key(w.get("kind"))
    if kind not in t.weapon_kinds:
        out.find("UP_WEAPON_KIND", where + "/kind", value=kind, choices=list(t.weapon_kinds))
        wp.ok = False
        return wp
    post_move = w.get("post_move", default_post_move(w, t))
    rng = _int(w.get("range"))
    mapw = w.get("map") or None

    # 射程
    price = t.range_price(kind, rng, bool(post_move)) if rng is not None else None
    if price is None:
        out.find("UP_WEAPON_RANGE", where + "/range", value=w.get("range"),
                 max=t.max_melee_range() if kind == "melee" else "∞")
        wp.ok = False
    else:
        wp.part(f"射程{rng}{'P' if post_move and kind == 'ranged' else ''}", price)
    if kind == "melee" and not post_move:
        wp.percent("移動後攻撃不可", t.raw["melee"]["not_post_move_percent"])
    min_range = _int(w.get("min_range", 1))
    if min_range is None or min_range < 1 or (rng is not None and min_range > rng):
        out.find("UP_WEAPON_MIN_RANGE", where + "/min_range", value=w.get("min_range"), range=rng)
        wp.ok = False
    elif min_range > 1:
        wp.part(f"射程{min_range - 1}以内攻撃不可", (min_range - 1) * t.raw[kind]["dead_zone_price"])

    # 属性
    if _key(w.get("attribute", "solid")) not in t.attributes:
        out.find("UP_WEAPON_ATTRIBUTE", where + "/attribute", value=w.get("attribute"),
                 choices=[a["label"] for a in t.attributes.values()])
        wp.ok = False

    # ダメージ: what was bought; the first die is free unless every die costs 40.
    dmg = t.raw["damage"]
    damage = w.get("damage") or {}
    if not isinstance(damage, Mapping):
        _malformed(f"{where}/damage", "damage", "{…}", damage, out)
        wp.ok = False
        damage = {}
    dice, fixed = _int(damage.get("dice", dmg["base_dice"])), _int(damage.get("fixed", dmg["base_fixed"]))
    low = [key for key, value, base in (("dice", dice, dmg["base_dice"]), ("fixed", fixed, dmg["base_fixed"]))
           if value is None or value < base]
    for key in low:  # at the field, where the schema's minimum reports it too
        out.find("UP_DAMAGE_BELOW_BASE", f"{where}/damage/{key}", dice=damage.get("dice"),
                 fixed=damage.get("fixed"), base=f"{dmg['base_dice']}D10+{dmg['base_fixed']}")
        wp.ok = False
    if not low:
        paid_dice = dice if opts["damage_dice"] == "every_die" else dice - dmg["base_dice"]
        cost = paid_dice * dmg["die_price"] + (fixed - dmg["base_fixed"]) * dmg["fixed_price"]
        if cost:
            wp.part(f"ダメージ{dice}D+{fixed}", cost)

    # 命中修正
    acc = _int(w.get("accuracy", 0))
    if acc not in t.accuracy:
        out.find("UP_ACCURACY_STEP", where + "/accuracy", value=w.get("accuracy"),
                 hint=neighbours(acc, sorted(t.accuracy)) if acc is not None else sorted(t.accuracy))
        wp.ok = False
    elif t.accuracy[acc]:
        wp.part(f"命中{acc:+d}%", t.accuracy[acc])

    # 使用回数
    usage = w.get("usage") or None
    if usage and not isinstance(usage, Mapping):
        _malformed(where + "/usage", "usage", "{…}", usage, out)
        wp.ok = False
    elif usage:
        _price_usage(usage, w, unit, t, opts, where + "/usage", out, wp)

    # 地形適応
    movement = unit.get("movement") if isinstance(unit.get("movement"), list) else []
    _weapon_terrain_percent(w, movement, t, where, out, wp)

    # ＭＡＰ兵器
    if mapw and not isinstance(mapw, Mapping):
        _malformed(where + "/map", "map", "{…}", mapw, out)
        wp.ok = False
    elif mapw:
        mtype = t.map_types.get(_key(mapw.get("type")))
        if mtype is None:
            out.find("UP_MAP_TYPE", where + "/map/type", value=mapw.get("type"),
                     choices=list(t.map_types))
            wp.ok = False
        else:
            wp.percent(mtype["label"], mtype["percent"])
            if mtype.get("radius"):
                radius = _int(mapw.get("radius"))
                rprice = t.range_price(kind, radius, bool(post_move)) if radius else None
                if rprice is None:
                    out.find("UP_MAP_RADIUS", where + "/map/radius", value=mapw.get("radius"))
                    wp.ok = False
                else:
                    wp.part(f"着弾点からの射程{radius}", rprice)
        opt = t.raw["map_options"]
        if post_move:
            wp.percent("ＭＡＰのＰ兵器", opt["post_move_percent"])
            out.find("UP_SOURCE_WORK_ONLY", where + "/post_move", item="Ｐ属性のＭＡＰ兵器")
        if mapw.get("friend_foe"):
            wp.percent("敵味方識別", opt["friend_foe_percent"])
            out.find("UP_SOURCE_WORK_ONLY", where + "/map/friend_foe", item="敵味方識別")

    # 合体攻撃
    combo = _key(w.get("combo", "none")) or "none"
    if combo not in t.combo:
        out.find("UP_WEAPON_COMBO", where + "/combo", value=combo, choices=list(t.combo))
        wp.ok = False
    elif t.combo[combo]["percent"]:
        wp.percent(t.combo[combo]["label"], t.combo[combo]["percent"])

    # 特殊効果
    seen: set[str] = set()
    for j, eff in enumerate(_items(w, "effects", out, where)):
        _price_effect(eff, kind, t, f"{where}/effects/{j}", seen, out, wp)

    # 気力制限
    pct = _morale_percent(w.get("morale"), where + "/morale", t, out)
    if pct:
        wp.percent(f"気力制限（{t.morale[w['morale']]['label']}）", pct)
    return wp


def _price_usage(usage, w, unit, t: UpTables, opts, where: str, out: Evaluation, wp: WeaponPrice) -> None:
    kind = _key(usage.get("type"))
    amount = _int(usage.get("amount"))
    if kind not in t.usage_types:
        out.find("UP_USAGE_TYPE", where + "/type", value=kind, choices=list(t.usage_types))
        wp.ok = False
        return
    row = t.usage_row(kind, amount) if amount is not None else None
    if row is None:
        out.find("UP_USAGE_AMOUNT", where + "/amount", type=t.usage_types[kind],
                 value=usage.get("amount"), hint=neighbours(amount or 0, t.usage_amounts(kind)),
                 choices=t.usage_amounts(kind))
        wp.ok = False
        return
    percent = row.get("percent")
    if kind == "ammo" and amount == 3 and opts["ammo3"] == "example":
        percent = -20  # 大車輪ロケットパンチ's reading (RULES-NOTES, option ammo3=example)
        row = {"up": None, "percent": percent}
    label = f"{t.usage_types[kind]}{amount}"
    reduction = usage.get("reduction")
    if row.get("up") is None:
        reduction = "percent"
    if reduction in (None, ""):
        reduction = _infer_reduction(w, unit, row, t, opts, where, out)
    if reduction == "percent":
        if percent is None:
            out.find("UP_USAGE_NO_PERCENT", where + "/reduction", type=t.usage_types[kind],
                     amount=amount, up=row["up"])
            wp.part(label, row["up"])
        else:
            wp.percent(label, percent)
    elif reduction == "up":
        wp.part(label, row["up"])
    else:
        out.find("UP_USAGE_REDUCTION", where + "/reduction", value=reduction)
        wp.ok = False


def _infer_reduction(w, unit, row, t: UpTables, opts, where: str, out: Evaluation) -> str:
    """A legacy sheet that does not say −UP or −%: keep the one matching its written cost.

    Each choice is priced on the weapon's own unit (its movement sets the weapon's terrain base).
    """
    if row.get("percent") is None:
        return "up"
    declared = _int(w.get("declared_cost"))
    matches = []
    for choice in ("up", "percent"):
        trial = dict(w)
        trial["usage"] = {**w["usage"], "reduction": choice}
        trial.pop("variant_of", None)
        probe = Evaluation()
        cost, _, _ = price_weapon(trial, unit, t, opts, where, probe).cost(
            t.raw["effects_rules"]["percent_floor"])
        if declared is not None and cost == declared:
            matches.append(choice)
    choice = matches[0] if matches else "up"
    out.find("UP_USAGE_REDUCTION_INFERRED", where + "/reduction",
             choice="−UP" if choice == "up" else "−%",
             matched="記入なし" if declared is None else "一致" if matches else "不一致")
    return choice


def _price_effect(eff, kind: str, t: UpTables, where: str, seen: set[str], out: Evaluation,
                  wp: WeaponPrice) -> None:
    at_id = where + "/id" if isinstance(eff, Mapping) else where  # where the schema reports it
    eff = eff if isinstance(eff, Mapping) else {"id": eff}  # "snipe" for {"id": "snipe"}
    eid = _key(eff.get("id"))
    spec = t.effects.get(eid)
    if spec is None:
        out.find("UP_EFFECT_UNKNOWN", at_id, value=eid, choices=list(t.effects))
        wp.ok = False
        return
    if eid in seen:
        out.find("UP_EFFECT_DUPLICATE", where, effect=spec["label"])
        return
    seen.add(eid)
    if "up" in spec:
        wp.part(spec["label"], spec["up"])
    elif "percent" in spec:
        wp.percent(spec["label"], spec["percent"])
    elif "percent_melee" in spec:
        wp.percent(spec["label"], spec["percent_melee" if kind == "melee" else "percent_ranged"])
    elif "percent_per_level" in spec:
        level = _int(eff.get("level", 1))
        if level is None or not 1 <= level <= spec["max_level"]:
            out.find("UP_EFFECT_LEVEL", where + "/level", effect=spec["label"],
                     value=eff.get("level"), max=spec["max_level"])
            wp.ok = False
            return
        wp.percent(f"{spec['label']}Lv{level}", level * spec["percent_per_level"])
        if eff.get("always"):
            wp.percent(f"{spec['label']}（ダメージ不要）", spec["always_percent"])
        if spec.get("needs_target") and not eff.get("target"):
            out.find("UP_EFFECT_TARGET", where + "/target", effect=spec["label"])


def variant_changes(w: Mapping[str, Any], base: Mapping[str, Any], t: UpTables) -> int:
    """Changed places between a 撃ち分け variant and its base (seed 000, 撃ち分け).

    A field written at its default (P for 格闘, 命中 0, 実体, …) equals the field left out.
    """
    mine, theirs = _variant_view(w, t), _variant_view(base, t)
    changes = sum(1 for key in VARIANT_PLACES if mine[key] != theirs[key])
    changes += sum(1 for k in mine["effects"].keys() | theirs["effects"].keys()
                   if mine["effects"].get(k) != theirs["effects"].get(k))
    return changes


def _variant_view(w: Mapping[str, Any], t: UpTables) -> dict[str, Any]:
    """The places of a weapon that 撃ち分け compares, with defaults filled in and blanks dropped."""
    kind = _key(w.get("kind"))
    dmg = t.raw["damage"]
    defaults = {"post_move": default_post_move(w, t), "min_range": 1,
                "attribute": "solid", "accuracy": 0, "guided": False, "combo": "none",
                "damage": {"dice": dmg["base_dice"], "fixed": dmg["base_fixed"]}}
    view: dict[str, Any] = {}
    for key in VARIANT_PLACES:
        raw = w.get(key)
        if key in ("post_move", "guided"):  # booleans: False is a value (melee P defaults to True)
            view[key] = raw if isinstance(raw, bool) else defaults.get(key)
            continue
        # "none" is blank for 合体攻撃 but a value for 属性 (無属性).
        value = raw if key == "attribute" and raw not in (None, "") else _norm(raw)
        view[key] = _norm(defaults.get(key)) if value is None else value
    effects = {}
    for e in w.get("effects") or []:
        eff = _norm(dict(e) if isinstance(e, Mapping) else {"id": e})
        if isinstance(eff, dict):
            if eff.get("level") == 1:
                del eff["level"]
            effects[_key(eff.get("id"))] = eff
    view["effects"] = effects
    return view


def _norm(value: Any) -> Any:
    """Blank values (None, "", {}, [], False, "none") as None; mappings without blank entries."""
    if isinstance(value, Mapping):
        value = {k: v for k, v in value.items() if _norm(v) is not None}
    if value is False or value in ({}, [], "", "none", None):
        return None
    return value


def _price_weapons(doc, t: UpTables, opts, out: Evaluation) -> int:
    weapons = _items(doc, "weapons", out)
    floor = t.raw["effects_rules"]["percent_floor"]
    full: dict[int, int] = {}
    prices: dict[int, WeaponPrice] = {}
    names: dict[Any, int] = {}
    for i, w in enumerate(weapons):
        where = pointer("weapons", i)
        if not isinstance(w, Mapping):
            _malformed(where, "weapons", "{…}", w, out)
            prices[i] = WeaponPrice()
            prices[i].ok = False
            continue
        name = _key(w.get("name", ""))
        if name in names:
            out.find("UP_WEAPON_NAME_DUPLICATE", where + "/name", name=name)
        names.setdefault(name, i)
        wp = price_weapon(w, doc, t, opts, where, out)
        prices[i] = wp
        full[i] = wp.cost(floor)[0]
        if not wp.ok:
            out.skip(where)

    for i, w in enumerate(weapons):  # as the sheet counts them, whether or not the pair is valid
        j = names.get(_key(w.get("variant_of"))) if isinstance(w, Mapping) and w.get("variant_of") else None
        if j is not None and j != i and isinstance(weapons[j], Mapping):
            out.derive(pointer("weapons", i, "variant_changes"), f"{w.get('name', '')}: 撃ち分けの変更箇所",
                       variant_changes(w, weapons[j], t))

    total = 0
    budget = _int(doc.get("budget"))
    fractions = t.raw["variants"]
    for i, w in enumerate(weapons):
        where = pointer("weapons", i)
        wp = prices[i]
        if not wp.ok:
            continue
        cost, pct, floored = wp.cost(floor)
        rule = wp.text(floor)
        if floored:
            out.find("UP_PERCENT_FLOOR", where, name=w.get("name", ""), floor=floor)
        base_name = _key(w.get("variant_of"))
        if base_name:
            j = names.get(base_name)
            if j is None or j == i:
                out.find("UP_VARIANT_BASE_MISSING", where + "/variant_of", name=base_name)
            elif weapons[j].get("variant_of"):
                out.find("UP_VARIANT_CHAIN", where + "/variant_of", name=base_name)
            else:
                changes = variant_changes(w, weapons[j], t)
                row = next((r for r in fractions if changes <= r["max_changes"]), None)
                if changes == 0:
                    out.find("UP_VARIANT_NO_CHANGE", where + "/variant_of", name=base_name)
                if row is None:
                    out.find("UP_VARIANT_TOO_MANY_CHANGES", where + "/variant_of",
                             name=base_name, changes=changes,
                             max=fractions[-1]["max_changes"])
                else:
                    num, den = row["fraction"]
                    larger = max(full[i], full[j])
                    cost = round_half_up(Fraction(larger * num, den))
                    rule = (f"撃ち分け（{base_name}から{changes}箇所変更）: "
                            f"max({full[i]}, {full[j]}) × {num}/{den}")
        if budget and cost * t.raw["weapon_cap"]["budget_divisor"] > budget:  # option weapon_cap
            out.find("UP_WEAPON_OVER_CAP", where, name=w.get("name", ""), cost=cost,
                     cap=_decimal(Fraction(budget, t.raw["weapon_cap"]["budget_divisor"])))
        if cost < 0:  # the seed floors percentages only; a weapon that pays the unit is suspect
            out.find("UP_WEAPON_NEGATIVE", where, name=w.get("name", ""), cost=cost)
        declared = _int(w.get("declared_cost"))
        if declared is not None and declared != cost:
            out.find("UP_WEAPON_COST_MISMATCH", where + "/declared_cost", name=w.get("name", ""),
                     declared=declared, computed=cost)
        out.add(where, f"武器「{w.get('name', '')}」", rule, cost)
        name = w.get("name", "")
        out.derive(where + "/full_cost", f"{name}: 撃ち分け前のＵＰ", full[i])
        dice, fixed = damage_parts(w, doc, t)
        out.derive(where + "/effective_damage", f"{name}: ダメージ", f"{dice}D10+{fixed}",
                   Roll(dice, 10, fixed))
        out.derive(where + "/effective_accuracy", f"{name}: 命中修正", effective_accuracy(w, t))
        total += cost
    return total


def effective_damage(w: Mapping[str, Any], unit: Mapping[str, Any], t: UpTables | None = None) -> str:
    """The damage a weapon deals as the sheet shows it (``2D10+35``). Never typed in (RULES-NOTES)."""
    dice, fixed = damage_parts(w, unit, t)
    return f"{dice}D10+{fixed}"


def damage_parts(w: Mapping[str, Any], unit: Mapping[str, Any], t: UpTables | None = None) -> tuple[int, int]:
    """(dice, fixed) a weapon deals: bought dice and fixed plus attribute and (melee, unless
    マニュピレータなし) the unit's パワー."""
    t = t or tables()
    dmg = t.raw["damage"]
    damage = w.get("damage") if isinstance(w.get("damage"), Mapping) else {}
    dice = _int(damage.get("dice", dmg["base_dice"])) or dmg["base_dice"]
    fixed = _int(damage.get("fixed", dmg["base_fixed"])) or 0
    fixed += t.attributes.get(_key(w.get("attribute", "solid")), {"damage_bonus": 0})["damage_bonus"]
    no_hands = any(isinstance(a, Mapping) and a.get("id") == "no_manipulator"
                   for a in unit.get("abilities") or [])
    if w.get("kind") == "melee" and not no_hands:
        stats = unit.get("stats") if isinstance(unit.get("stats"), Mapping) else {}
        size = t.sizes.get(_key(unit.get("size")))
        power = _int(stats.get("power", size.stats["power"].base if size else 0)) or 0
        fixed += power
    return dice, fixed


def effective_accuracy(w: Mapping[str, Any], t: UpTables | None = None) -> int:
    """命中修正 as used in play: 誘導 adds +20 % for free."""
    t = t or tables()
    acc = _int(w.get("accuracy", 0)) or 0
    return acc + (t.raw["guided"]["accuracy_bonus"] if w.get("guided") else 0)


# --- 特殊能力 -------------------------------------------------------------------------------------

def _price_abilities(doc, size, t: UpTables, out: Evaluation) -> None:
    stats = doc.get("stats") if isinstance(doc.get("stats"), Mapping) else {}
    floor = t.raw["ability_rules"]["percent_floor"]
    for i, ab in enumerate(_items(doc, "abilities", out)):
        where = pointer("abilities", i)
        aid = _key(ab.get("id")) if isinstance(ab, Mapping) else None
        spec = t.abilities.get(aid)
        if spec is None:
            out.find("UP_ABILITY_UNKNOWN", where + "/id", value=aid, choices=list(t.abilities))
            out.skip(where)
            continue
        base = _ability_base(ab, spec, size, stats, t, where, out)
        if base is None:
            out.skip(where)
            continue
        up, rule = base
        percents: list[tuple[str, int]] = []
        if ab.get("narrowed") and "narrowed_percent" in spec:
            percents.append(("ビームのみ／実弾のみ", spec["narrowed_percent"]))
        en = _key(ab.get("en_cost"))
        if en not in (None, 0, ""):
            if en not in t.ability_en_costs:
                out.find("UP_ABILITY_EN_COST", where + "/en_cost", value=en,
                         choices=list(t.ability_en_costs))
            else:
                percents.append((f"ＥＮ消費{en}", t.ability_en_costs[en]))
        pct = _morale_percent(ab.get("morale"), where + "/morale", t, out)
        if pct:
            percents.append((f"気力制限（{t.morale[ab['morale']]['label']}）", pct))
        total_pct = max(floor, sum(p for _, p in percents))
        cost = round_half_up(up * Fraction(100 + total_pct, 100))
        if percents:
            rule = f"({rule}) × ({', '.join(f'{l} {_pct(p)}' for l, p in percents)})"
        name = ab.get("name") or spec["label"]
        declared = _int(ab.get("declared_cost"))
        if declared is not None and declared != cost:
            out.find("UP_ABILITY_COST_MISMATCH", where + "/declared_cost", name=name,
                     declared=declared, computed=cost)
        out.add(where, f"特殊能力「{name}」", rule, cost)


def _ability_base(ab, spec, size, stats, t: UpTables, where: str,
                  out: Evaluation) -> tuple[Fraction, str] | None:
    """(UP before percentages, rule text) of one ability, or None after a finding."""
    aid = spec["id"]
    if spec.get("source_work_only"):
        out.find("UP_SOURCE_WORK_ONLY", where, item=spec["label"])
    if aid == "shield":
        armor = _int(ab.get("armor"))
        uses = ab.get("uses")
        per = spec["price_per_armor"] if uses in (None, "", 0) else spec["uses_prices"].get(str(uses))
        if armor is None or armor < 1:
            out.find("UP_ABILITY_VALUE", where + "/armor", value=ab.get("armor"), name=spec["label"])
            return None
        if per is None:
            out.find("UP_SHIELD_USES", where + "/uses", value=uses,
                     choices=list(spec["uses_prices"]))
            return None
        power = _int(stats.get("power", size.stats["power"].base)) or 0
        if armor > power:
            out.find("UP_SHIELD_OVER_POWER", where + "/armor", value=armor, power=power)
        return Fraction(armor * per), f"装甲+{armor} × {per}"
    if aid in ("bunshin", "multi_seat"):
        level = _int(ab.get("level"))
        top = spec.get("max_level")
        if level is None or level < 1 or (top and level > top):
            out.find("UP_ABILITY_LEVEL", where + "/level", name=spec["label"], value=ab.get("level"),
                     max=top or "∞")
            return None
        return Fraction(level * spec["price_per_level"]), f"Lv{level} × {spec['price_per_level']}"
    if aid == "stat_bonus":
        return _stat_bonus(ab, t, where, out)
    if aid in ("barrier1", "barrier2"):
        armor = _int(ab.get("armor"))
        if armor is None or armor < 1:
            out.find("UP_ABILITY_VALUE", where + "/armor", value=ab.get("armor"), name=spec["label"])
            return None
        factor = Fraction(str(spec["narrowed_factor" if ab.get("narrowed") else "armor_factor"]))
        price = size.stats["armor"].price
        return armor * price * factor, f"装甲+{armor} × {price} × {factor.numerator}/{factor.denominator}"
    if aid in ("hp_regen", "en_regen"):
        grade = t.regen_grades.get(_key(ab.get("grade", "small")))
        if grade is None:
            out.find("UP_ABILITY_GRADE", where + "/grade", value=ab.get("grade"),
                     choices=list(t.regen_grades))
            return None
        unit = Fraction(size.base_up, spec["base_up_divisor"])
        return unit * grade["factor"], f"基本ＵＰ/5 ({unit}) × {grade['factor']}（{grade['label']}）"
    if aid == "no_manipulator":
        return Fraction(size.base_up, spec["base_up_divisor"]), "−基本ＵＰ/5"
    if "up" in spec:
        return Fraction(spec["up"]), spec["label"]
    out.find("UP_ABILITY_UNKNOWN", where + "/id", value=aid, choices=list(t.abilities))
    return None


def _stat_bonus(ab, t: UpTables, where: str, out: Evaluation) -> tuple[Fraction, str] | None:
    """能力値ボーナス: 技量/格闘/射撃 8, 10 or 12 per +1 for one, two or all three of them."""
    prices = t.raw["stat_bonus_attack_prices"]
    total = Fraction(0)
    texts = []
    bonuses = ab.get("bonuses") or []
    if not bonuses or not isinstance(bonuses, list):
        out.find("UP_ABILITY_VALUE", where + "/bonuses", value=bonuses or "", name="能力値ボーナス")
        return None
    for k, b in enumerate(bonuses):
        bw = f"{where}/bonuses/{k}"
        if not isinstance(b, Mapping):
            out.find("UP_STAT_BONUS_INVALID", bw, stats=[], value=b)
            return None
        stats = b.get("stats") or []
        stats = [_key(s) for s in stats] if isinstance(stats, list) else [_key(stats)]
        amount = _int(b.get("amount"))
        # At the field that is wrong, where the schema reports it too.
        bad = [f"{bw}/stats/{n}" for n, s in enumerate(stats) if s not in t.pilot_stats]
        if not stats:
            bad.append(f"{bw}/stats")
        if amount is None or amount < 1:
            bad.append(f"{bw}/amount")
        for where_bad in bad:
            out.find("UP_STAT_BONUS_INVALID", where_bad, stats=stats, value=b.get("amount"))
        if bad:
            return None
        groups = {t.pilot_stats[s].get("group") for s in stats}
        if groups == {"attack"}:
            per = prices[{1: "one", 2: "two", 3: "three"}[len(set(stats))]]
        elif len(stats) == 1:
            per = t.pilot_stats[stats[0]]["price"]
        else:
            out.find("UP_STAT_BONUS_MIXED", bw, stats=[t.pilot_stats[s]["label"] for s in stats])
            return None
        total += amount * per
        texts.append(f"{''.join(t.pilot_stats[s]['label'] for s in stats)}+{amount} × {per}")
    return total, " + ".join(texts)


# --- 変形 -----------------------------------------------------------------------------------------

def transformation_cost(own_total: int, others: list[int], changed_places: int | None = None,
                        one_way: bool = False, drop_off: bool = False,
                        combination: str = "none", t: UpTables | None = None) -> tuple[int, str]:
    """UP every form pays to transform (seed 000, 変形): Σ/50 + 100, then partial, one-way, 脱落型.

    脱落型 is the exception to 回数制限 (「ただし…」): it multiplies by the number of forms instead
    of halving, so ``one_way`` is ignored when ``drop_off`` is set.
    """
    t = t or tables()
    raw = t.raw["transformation"]
    if combination == "combined":
        return 0, "合体後のユニットは変形・合体のＵＰを払わない"
    forms_total = own_total + sum(others)
    cost = Fraction(forms_total, raw["divisor"]) + raw["addend"]
    text = f"{forms_total}/{raw['divisor']} + {raw['addend']}"
    if changed_places:
        row = next(r for r in raw["partial"] if changed_places <= r["max_changes"])
        cost -= row["discount"]
        text += f" − {row['discount']}（部分変形{changed_places}箇所）"
    if drop_off:
        forms = 1 + len(others)
        cost *= forms
        text = f"({text}) × {forms}（脱落型）"
    elif one_way:
        cost *= Fraction(str(raw["one_way_factor"]))
        text = f"({text}) × 1/2（回数制限）"
    return round_half_up(cost), text


def _price_transformation(doc, t: UpTables, out: Evaluation) -> None:
    tr = doc.get("transformation")
    if not tr:
        return
    where = "/transformation"
    if not isinstance(tr, Mapping):
        out.find("UP_TRANSFORM_INVALID", where, value=tr)
        out.skip(where)
        return
    combination = tr.get("combination", "none") or "none"
    if combination not in t.combinations:
        out.find("UP_TRANSFORM_INVALID", where + "/combination", value=combination)
        out.skip(where + "/combination")
        return
    others = []
    for k, form in enumerate(tr.get("forms") or []):
        up = _int(form.get("up")) if isinstance(form, Mapping) else None
        if up is None or up < 0:
            out.find("UP_TRANSFORM_INVALID", f"{where}/forms/{k}/up", value=form)
            out.skip(f"{where}/forms/{k}/up")
            return
        others.append(up)
    if not others and combination != "combined":
        out.find("UP_TRANSFORM_NO_FORMS", where + "/forms")
        out.skip(where + "/forms")
        return
    changed = tr.get("changed_places")
    top = t.raw["transformation"]["partial"][-1]["max_changes"]
    if changed not in (None, "", 0) and (_int(changed) is None or not 1 <= _int(changed) <= top):
        out.find("UP_TRANSFORM_PARTIAL", where + "/changed_places", value=changed, max=top)
        out.skip(where + "/changed_places")
        return
    if combination == "combined":
        out.find("UP_TRANSFORM_COMBINED", where + "/combination")
    own = out.total
    cost, text = transformation_cost(own, others, _int(changed) or None, bool(tr.get("one_way")),
                                     bool(tr.get("drop_off")), combination, t)
    out.add(where, "変形", f"自形態{own} + 他形態{'+'.join(map(str, others)) or '0'}: {text}", cost)

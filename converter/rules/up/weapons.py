"""Weapons (seed 000, 「武装」): a weapon's full cost from its parts and percentages.

射程, 移動後攻撃 (Ｐ), 属性, ダメージ, 命中修正, 使用回数, the weapon's 地形適応, ＭＡＰ兵器, 合体攻撃,
特殊効果 and 気力制限; then 撃ち分け (a variant pays a fraction of the larger of it and its base),
the 1/5 cap, and the values a sheet shows for a weapon (ダメージ, 命中修正). Standard library only.

Each topic is a check that yields priced parts, percentages and findings relative to the weapon;
``price_weapon`` adds the weapon's pointer (python-jsonschema's shape), so a check reads on one screen.
"""
from __future__ import annotations

from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

from ...core.coerce import as_int as _int, as_list, as_mapping
from ...core.evaluation import Evaluation, Roll, round_half_up
from ...core.pointers import pointer
from .document import (list_at, listed, malformed_params, message_number, morale_unknown,
                       percent_text, report_malformed, table_key)
from ..tables_file import both
from .tables import TERRAINS, UpTables, neighbours, tables

# Fields a 撃ち分け variant is compared on; each differing field is one changed place.
# 気力制限 toggling is not a change (seed 000, 撃ち分け); all MAP changes count as one.
VARIANT_PLACES = ("kind", "range", "min_range", "post_move", "attribute", "damage", "accuracy",
                  "guided", "usage", "terrain", "map", "combo")


class Part(NamedTuple):
    """A priced part of a weapon: its label, its UP, its label in English."""

    label: str
    up: int
    label_en: str


class Percent(NamedTuple):
    """A percentage on a weapon's parts: its label, the percent, its label in English."""

    label: str
    pct: int
    label_en: str


class WeaponPrice:
    """A weapon's full cost and how it was reached: each part and percentage with its label in
    Japanese and in English."""

    def __init__(self) -> None:
        self.parts: list[Part] = []
        self.percents: list[Percent] = []
        self.ok = True

    def cost(self, floor: int) -> tuple[int, int, bool]:
        """(cost, applied percent, floored?) — parts summed, then the sum of percents."""
        base = sum(up for _, up, _ in self.parts)
        pct = sum(p for _, p, _ in self.percents)
        floored = pct < floor
        pct = max(pct, floor)
        return round_half_up(Fraction(base) * (100 + pct) / 100), pct, floored

    def text(self, floor: int, lang: str = "ja") -> str:
        """How the cost was reached, in ``lang`` (the numbers are the same in both)."""
        en = lang == "en"
        base = " + ".join(f"{en_label if en else label} {up}"
                          for label, up, en_label in self.parts) or "0"
        if not self.percents:
            return base
        total, pct, floored = self.cost(floor)
        pcts = ", ".join(f"{en_label if en else label} {percent_text(p)}"
                         for label, p, en_label in self.percents)
        floor_word = (", floor" if en else "、下限") if floored else ""
        return f"({base}) × ({pcts}{floor_word} {percent_text(pct)})"


def weapon_terrain_bases(w: Mapping[str, Any], movement: list[str],
                         t: UpTables) -> dict[str | None, dict[str, str]]:
    """A weapon's possible 地形適応 before purchases (seed 000, 地形適応の決定), by where its free
    B went.

    Melee and beam weapons have one (key None); a ranged solid weapon has 「地形３つがＡ、残りひとつ
    がＢ」 placed 「好きなように」, so four candidates keyed by the terrain holding the B.
    """
    raw = t.raw["weapon_terrain"]
    beam = w.get("attribute") == "beam"
    if w.get("kind") == "melee":
        base = {k: "A" if k in movement else raw["melee_outside"][k] for k in TERRAINS}
        if beam:
            base["sea"] = raw["beam_sea_melee"]
        return {None: base}
    if beam:
        return {None: {k: raw["beam_sea_ranged"] if k == "sea" else raw["ranged_default"] for k in TERRAINS}}
    return {low: {k: raw["ranged_one_lower"] if k == low else raw["ranged_default"] for k in TERRAINS}
            for low in TERRAINS}


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


def default_post_move(w: Mapping[str, Any], t: UpTables) -> bool | None:
    """Ｐ when the sheet does not say: 格闘 yes, 射撃 no; a ＭＡＰ兵器 no, whatever its kind
    (seed 000, Ｐ兵器: MAP weapons are basically not usable after moving)."""
    if w.get("map"):
        return False
    return t.weapon_kinds.get(table_key(w.get("kind")), {}).get("post_move_default")


@dataclass(frozen=True, slots=True)
class Flaw:
    """A finding relative to the item a check reads (``at`` below it, "" for the item itself).

    ``blocks``: the weapon cannot be priced; ``skips``: the value at ``at`` is malformed and not
    evaluated (UP_ITEM_MALFORMED)."""

    code: str
    at: str
    params: dict[str, Any]
    blocks: bool = True
    skips: bool = False


Step = Part | Percent | Flaw


def _bad(code: str, at: str, **params: Any) -> Flaw:
    """A finding that leaves the weapon unpriced."""
    return Flaw(code, at, params)


def _note(code: str, at: str, **params: Any) -> Flaw:
    """A finding the weapon is priced despite."""
    return Flaw(code, at, params, blocks=False)


def _malformed(at: str, name: str, expected: str, value: Any, blocks: bool = True) -> Flaw:
    """UP_ITEM_MALFORMED at ``at``: the value is skipped."""
    return Flaw("UP_ITEM_MALFORMED", at, malformed_params(name, expected, value), blocks, skips=True)


def _under(at: str, steps: Iterable[Step]) -> Iterator[Step]:
    """``steps`` of an item at ``at`` below the weapon, their findings' pointers prefixed."""
    for step in steps:
        yield replace(step, at=at + step.at) if isinstance(step, Flaw) else step


@dataclass(frozen=True, slots=True)
class _Weapon:
    """A weapon being priced, with what several checks read: its (known) kind, Ｐ and 射程."""

    w: Mapping[str, Any]
    unit: Mapping[str, Any]
    t: UpTables
    opts: Mapping[str, str]
    kind: str
    post_move: Any
    rng: int | None


def price_weapon(w: Mapping[str, Any], unit: Mapping[str, Any], t: UpTables,
                 opts: Mapping[str, str], where: str, out: Evaluation) -> WeaponPrice:
    """A weapon's full cost (before any 撃ち分け fraction); its findings at ``where``."""
    wp = WeaponPrice()
    for step in weapon_steps(w, unit, t, opts):
        if isinstance(step, Flaw):
            out.find(step.code, where + step.at, **step.params)
            if step.skips:
                out.skip(where + step.at)
            wp.ok = wp.ok and not step.blocks
        elif isinstance(step, Percent):
            wp.percents.append(step)
        else:
            wp.parts.append(step)
    return wp


def weapon_steps(w: Mapping[str, Any], unit: Mapping[str, Any], t: UpTables,
                 opts: Mapping[str, str]) -> Iterator[Step]:
    """A weapon's priced parts, percentages and findings (relative to the weapon), topic by topic:
    nothing past an unknown kind."""
    kind = table_key(w.get("kind"))
    if kind not in t.weapon_kinds:
        yield _bad("UP_WEAPON_KIND", "/kind", value=kind, choices=list(t.weapon_kinds))
        return
    c = _Weapon(w, unit, t, opts, kind, w.get("post_move", default_post_move(w, t)), _int(w.get("range")))
    for check in _WEAPON_CHECKS:
        yield from check(c)


def _range(c: _Weapon) -> Iterator[Step]:
    """射程 (with Ｐ for a ranged weapon), and 格闘's −30 % when not Ｐ."""
    w, t, kind, rng = c.w, c.t, c.kind, c.rng
    price = t.range_price(kind, rng, bool(c.post_move)) if rng is not None else None
    if price is None:
        yield _bad("UP_WEAPON_RANGE", "/range", value=w.get("range"),
                   max=t.max_melee_range() if kind == "melee" else "∞")
    else:
        p_mark = "P" if c.post_move and kind == "ranged" else ""
        yield Part(f"射程{rng}{p_mark}", price, f"range {rng}{p_mark}")
    # A MAP weapon is bought like a normal one, then modified 「通常の格闘・射撃武器と同じように取得し、
    # その後…修正を加える」: a melee one that is not P takes the −30 % too, unless a table withholds it.
    if kind == "melee" and not c.post_move and not (w.get("map") and c.opts["melee_map_not_p"] == "withhold"):
        yield Percent("移動後攻撃不可", t.raw["melee"]["not_post_move_percent"], "no attack after moving")


def _min_range(c: _Weapon) -> Iterator[Step]:
    """射程ｎ以内攻撃不可: a dead zone below the minimum range, priced per square."""
    min_range = _int(c.w.get("min_range", 1))
    if min_range is None or min_range < 1 or (c.rng is not None and min_range > c.rng):
        yield _bad("UP_WEAPON_MIN_RANGE", "/min_range", value=c.w.get("min_range"), range=c.rng)
    elif min_range > 1:
        yield Part(f"射程{min_range - 1}以内攻撃不可", (min_range - 1) * c.t.raw[c.kind]["dead_zone_price"],
                   f"no attack within range {min_range - 1}")


def _attribute(c: _Weapon) -> Iterator[Step]:
    """属性: one the tables know (its damage bonus is a derived value, not a price)."""
    if table_key(c.w.get("attribute", "solid")) not in c.t.attributes:
        attributes = c.t.attributes.values()
        yield _bad("UP_WEAPON_ATTRIBUTE", "/attribute", value=c.w.get("attribute"),
                   **both("choices", [a["label"] for a in attributes], [a["label_en"] for a in attributes]))


def _damage(c: _Weapon) -> Iterator[Step]:
    """ダメージ: what was bought; the first die is free unless every die costs 40."""
    dmg = c.t.raw["damage"]
    damage = c.w.get("damage") or {}
    if not isinstance(damage, Mapping):
        yield _malformed("/damage", "damage", "{…}", damage)
        damage = {}
    dice, fixed = _int(damage.get("dice", dmg["base_dice"])), _int(damage.get("fixed", dmg["base_fixed"]))
    low = [key for key, value, base in (("dice", dice, dmg["base_dice"]), ("fixed", fixed, dmg["base_fixed"]))
           if value is None or value < base]
    for key in low:  # at the field, where the schema's minimum reports it too
        yield _bad("UP_DAMAGE_BELOW_BASE", f"/damage/{key}", dice=damage.get("dice"),
                   fixed=damage.get("fixed"), base=f"{dmg['base_dice']}D10+{dmg['base_fixed']}")
    if dice is None or fixed is None or low:
        return
    paid_dice = dice if c.opts["damage_dice"] == "every_die" else dice - dmg["base_dice"]
    cost = paid_dice * dmg["die_price"] + (fixed - dmg["base_fixed"]) * dmg["fixed_price"]
    if cost:
        yield Part(f"ダメージ{dice}D+{fixed}", cost, f"damage {dice}D+{fixed}")


def _accuracy(c: _Weapon) -> Iterator[Step]:
    """命中修正: one of the table's steps."""
    acc, steps = _int(c.w.get("accuracy", 0)), c.t.accuracy
    if acc is None or acc not in steps:
        yield _bad("UP_ACCURACY_STEP", "/accuracy", value=c.w.get("accuracy"),
                   hint=neighbours(acc, sorted(steps)) if acc is not None else sorted(steps))
    elif steps[acc]:
        yield Part(f"命中{acc:+d}%", steps[acc], f"accuracy {acc:+d}%")


def _usage(c: _Weapon) -> Iterator[Step]:
    """使用回数: a mapping priced by ``_price_usage``, its findings below ``/usage``."""
    usage = c.w.get("usage") or None
    if usage and not isinstance(usage, Mapping):
        yield _malformed("/usage", "usage", "{…}", usage)
    elif usage:
        yield from _under("/usage", _price_usage(usage, c))


def _price_usage(usage: Mapping[str, Any], c: _Weapon) -> Iterator[Step]:
    """使用回数 (relative to the weapon's ``usage``): −UP or −% as written, inferred for a legacy
    sheet that does not say."""
    t = c.t
    kind = table_key(usage.get("type"))
    amount = _int(usage.get("amount"))
    if kind not in t.usage_types:
        yield _bad("UP_USAGE_TYPE", "/type", value=kind, choices=list(t.usage_types))
        return
    row = t.usage_row(kind, amount) if amount is not None else None
    if row is None:
        yield _bad("UP_USAGE_AMOUNT", "/amount", **both("type", t.usage_types[kind], t.usage_types_en[kind]),
                   value=usage.get("amount"), hint=neighbours(amount or 0, t.usage_amounts(kind)),
                   choices=t.usage_amounts(kind))
        return
    percent = row.get("percent")
    if kind == "ammo" and amount == 3 and c.opts["ammo3"] == "example":
        percent = -20  # 大車輪ロケットパンチ's reading (docs/rules-up.md, option ammo3=example)
        row = {"up": None, "percent": percent}
    label, label_en = f"{t.usage_types[kind]}{amount}", f"{t.usage_types_en[kind]} {amount}"
    reduction = "percent" if row.get("up") is None else usage.get("reduction")
    if reduction in (None, ""):
        reduction, inferred = _infer_reduction(c, row)
        if inferred is not None:
            yield inferred
    if reduction == "percent" and percent is not None:
        yield Percent(label, percent, label_en)
    elif reduction == "percent":
        yield _note("UP_USAGE_NO_PERCENT", "/reduction", amount=amount, up=row["up"],
                    **both("type", t.usage_types[kind], t.usage_types_en[kind]))
        yield Part(label, row["up"], label_en)
    elif reduction == "up":
        yield Part(label, row["up"], label_en)
    else:
        yield _bad("UP_USAGE_REDUCTION", "/reduction", value=reduction)


def _infer_reduction(c: _Weapon, row: Mapping[str, Any]) -> tuple[str, Flaw | None]:
    """A legacy sheet that does not say −UP or −%: keep the one matching its written cost (and
    the finding saying so, relative to ``usage``).

    Each choice is priced on the weapon's own unit (its movement sets the weapon's terrain base).
    """
    if row.get("percent") is None:
        return "up", None
    w = c.w
    declared = _int(w.get("declared_cost"))
    matches = []
    for choice in ("up", "percent"):
        trial = dict(w)
        trial["usage"] = {**w["usage"], "reduction": choice}
        trial.pop("variant_of", None)
        cost, _, _ = price_weapon(trial, c.unit, c.t, c.opts, "", Evaluation()).cost(
            c.t.raw["effects_rules"]["percent_floor"])
        if declared is not None and cost == declared:
            matches.append(choice)
    choice = matches[0] if matches else "up"
    matched = "none" if declared is None else "match" if matches else "mismatch"
    return choice, _note("UP_USAGE_REDUCTION_INFERRED", "/reduction",
                         choice="−UP" if choice == "up" else "−%", matched=matched,
                         matched_ja=_MATCHED[matched][0], matched_en=_MATCHED[matched][1])


# How a legacy weapon's written cost compares with the inferred −UP or −% (for the message).
_MATCHED = {"none": ("記入なし", "no cost is written"),
            "match": ("一致", "it matches the written cost"),
            "mismatch": ("不一致", "neither choice matches the written cost")}


def _terrain(c: _Weapon) -> Iterator[Step]:
    """地形適応: each terrain moved from the weapon's base (the free B placed where written)."""
    w, t = c.w, c.t
    final = w.get("terrain") or {}
    if not isinstance(final, Mapping):
        yield _malformed("/terrain", "terrain", "{…}", final)
        return
    for key, grade in final.items():
        if key not in TERRAINS or table_key(grade) not in t.weapon_terrain_grades:
            yield _bad("UP_TERRAIN_GRADE", f"/terrain/{key}", value=grade, choices=t.weapon_terrain_grades)
            return
    movement = c.unit.get("movement")
    bases = weapon_terrain_bases(w, movement if isinstance(movement, list) else [], t)
    placed = w.get("terrain_b")
    if placed not in (None, "") and placed not in TERRAINS:
        yield _malformed("/terrain_b", "terrain_b", "|".join(TERRAINS), placed)
        return
    if placed not in (None, "") and None in bases:
        yield _note("UP_TERRAIN_B_NOT_RANGED", "/terrain_b",
                    **both("terrain", t.movement_types[placed], t.movement_types_en[placed]))
        placed = None
    if placed in (None, "") and None not in bases:
        placed = yield from _assumed_b(bases, final, t)
    yield from _terrain_percents(bases[placed or None], final, t)


def _assumed_b(bases: Mapping[str | None, Mapping[str, str]], final: Mapping[str, str],
               t: UpTables) -> Generator[Step, None, str]:
    """Where the free B goes when the sheet does not say: the player places it (「好きなように
    割り振った後」); unsaid, it goes where the weapon costs least, and the sheet is told so when
    the placement changes the price."""
    pcts = {k: sum(p.pct for p in _terrain_percents(b, final, t)) for k, b in bases.items() if k}
    placed = min(pcts, key=pcts.__getitem__)
    if len(set(pcts.values())) > 1:
        yield _note("UP_TERRAIN_B_ASSUMED", "/terrain_b",
                    **both("terrain", t.movement_types[placed], t.movement_types_en[placed]),
                    percent=percent_text(pcts[placed]), costliest=percent_text(max(pcts.values())))
    return placed


def _terrain_percents(base: Mapping[str, str], final: Mapping[str, str], t: UpTables) -> list[Percent]:
    out = []
    for key in TERRAINS:
        grade = final.get(key, base[key])
        if grade != base[key]:
            out.append(Percent(f"地形{t.movement_types[key]}{base[key]}→{grade}",
                               weapon_terrain_step_percent(base[key], grade, t),
                               f"terrain {t.movement_types_en[key]} {base[key]}→{grade}"))
    return out


def _map(c: _Weapon) -> Iterator[Step]:
    """ＭＡＰ兵器: its type's percentage, its radius priced as a range, Ｐ and 敵味方識別."""
    mapw = c.w.get("map") or None
    if mapw and not isinstance(mapw, Mapping):
        yield _malformed("/map", "map", "{…}", mapw)
        return
    if not mapw:
        return
    yield from _under("/map", _map_type(mapw, c))
    opt = c.t.raw["map_options"]
    if c.post_move:
        yield Percent("ＭＡＰのＰ兵器", opt["post_move_percent"], "MAP weapon usable after moving")
        yield _note("UP_SOURCE_WORK_ONLY", "/post_move",
                    **both("item", "Ｐ属性のＭＡＰ兵器", "a MAP weapon usable after moving"))
    if mapw.get("friend_foe"):
        yield Percent("敵味方識別", opt["friend_foe_percent"], "friend-or-foe recognition")
        yield _note("UP_SOURCE_WORK_ONLY", "/map/friend_foe",
                    **both("item", "敵味方識別", "friend-or-foe recognition"))


def _map_type(mapw: Mapping[str, Any], c: _Weapon) -> Iterator[Step]:
    """A MAP weapon's type (relative to its ``map``), and the radius a type with one prices."""
    t = c.t
    mtype = t.map_types.get(table_key(mapw.get("type")))
    if mtype is None:
        yield _bad("UP_MAP_TYPE", "/type", value=mapw.get("type"), choices=list(t.map_types))
        return
    yield Percent(mtype["label"], mtype["percent"], f"MAP {mtype['label_en']}")
    if not mtype.get("radius"):
        return
    radius = _int(mapw.get("radius"))
    rprice = t.range_price(c.kind, radius, bool(c.post_move)) if radius else None
    if rprice is None:
        yield _bad("UP_MAP_RADIUS", "/radius", value=mapw.get("radius"))
    else:
        yield Part(f"着弾点からの射程{radius}", rprice, f"range {radius} from the landing point")


def _combo(c: _Weapon) -> Iterator[Step]:
    """合体攻撃: one of the table's rows, a percentage."""
    combo = table_key(c.w.get("combo", "none")) or "none"
    if combo not in c.t.combo:
        yield _bad("UP_WEAPON_COMBO", "/combo", value=combo, choices=list(c.t.combo))
    elif c.t.combo[combo]["percent"]:
        row = c.t.combo[combo]
        yield Percent(row["label"], row["percent"], row["label_en"])


def _effects(c: _Weapon) -> Iterator[Step]:
    """特殊効果: each effect priced once, its findings below ``/effects/j``."""
    effects = listed(c.w.get("effects"))
    if effects is None:  # priced without its effects, and said so
        yield _malformed("/effects", "effects", "[…]", c.w.get("effects"), blocks=False)
        return
    seen: set[str] = set()
    for j, eff in enumerate(effects):
        yield from _under(f"/effects/{j}", _price_effect(eff, c.kind, c.t, seen))


def _price_effect(eff: Any, kind: str, t: UpTables, seen: set[str]) -> Iterator[Step]:
    """One 特殊効果 (relative to it), priced once per weapon: by UP, by percent, by kind or by level."""
    at_id = "/id" if isinstance(eff, Mapping) else ""  # where the schema reports it
    eff = eff if isinstance(eff, Mapping) else {"id": eff}  # "snipe" for {"id": "snipe"}
    eid = table_key(eff.get("id"))
    spec = t.effects.get(eid)
    if spec is None:
        yield _bad("UP_EFFECT_UNKNOWN", at_id, value=eid, choices=list(t.effects))
        return
    if eid in seen:
        yield _note("UP_EFFECT_DUPLICATE", "", **both("effect", spec["label"], spec["label_en"]))
        return
    seen.add(eid)
    label, label_en = spec["label"], spec["label_en"]
    if "up" in spec:
        yield Part(label, spec["up"], label_en)
    elif "percent" in spec:
        yield Percent(label, spec["percent"], label_en)
    elif "percent_melee" in spec:
        yield Percent(label, spec["percent_melee" if kind == "melee" else "percent_ranged"], label_en)
    elif "percent_per_level" in spec:
        yield from _effect_level(eff, spec)


def _effect_level(eff: Mapping[str, Any], spec: Mapping[str, Any]) -> Iterator[Step]:
    """An effect priced by its level (and ダメージ不要), its target asked for where it needs one."""
    label, label_en = spec["label"], spec["label_en"]
    level = _int(eff.get("level", 1))
    if level is None or not 1 <= level <= spec["max_level"]:
        yield _bad("UP_EFFECT_LEVEL", "/level", **both("effect", label, label_en),
                   value=eff.get("level"), max=spec["max_level"])
        return
    yield Percent(f"{label}Lv{level}", level * spec["percent_per_level"], f"{label_en} Lv{level}")
    if eff.get("always"):
        yield Percent(f"{label}（ダメージ不要）", spec["always_percent"], f"{label_en} (without damage)")
    if spec.get("needs_target") and not eff.get("target"):
        yield _note("UP_EFFECT_TARGET", "/target", **both("effect", label, label_en))


def _morale(c: _Weapon) -> Iterator[Step]:
    """気力制限: a percentage by the morale it needs."""
    unknown = morale_unknown(c.w.get("morale"), c.t)
    if unknown is not None:
        yield _note("UP_MORALE_UNKNOWN", "/morale", **unknown)
        return
    morale = c.t.morale.get(table_key(c.w.get("morale")))
    if morale and morale["percent"]:
        yield Percent(f"気力制限（{morale['label']}）", morale["percent"], f"morale limit ({morale['label_en']})")


#: a weapon's topics in the order its parts, percentages and findings are listed
_WEAPON_CHECKS: tuple[Callable[[_Weapon], Iterator[Step]], ...] = (
    _range, _min_range, _attribute, _damage, _accuracy, _usage, _terrain, _map, _combo, _effects, _morale)


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
            effects[table_key(eff.get("id"))] = eff
    view["effects"] = effects
    return view


def _norm(value: Any) -> Any:
    """Blank values (None, "", {}, [], False, "none") as None; mappings without blank entries."""
    if isinstance(value, Mapping):
        value = {k: v for k, v in value.items() if _norm(v) is not None}
    if value is False or value in ({}, [], "", "none", None):
        return None
    return value


def price_weapons(doc: Mapping[str, Any], t: UpTables, opts: Mapping[str, str],
                  out: Evaluation) -> int:
    """One line per weapon (撃ち分け, the 1/5 cap and written costs checked) and its derived
    values; returns the weapons' total UP."""
    weapons = list_at(doc, "weapons", out)
    floor = t.raw["effects_rules"]["percent_floor"]
    prices, names = _price_each(weapons, doc, t, opts, out)
    full = {i: wp.cost(floor)[0] for i, wp in prices.items() if wp is not None}
    for i, w in enumerate(weapons):  # as the sheet counts them, whether or not the pair is valid
        base = w.get("variant_of") if isinstance(w, Mapping) else None
        j = names.get(table_key(base)) if base else None
        if j is not None and j != i and isinstance(weapons[j], Mapping):
            out.derive(pointer("weapons", i, "variant_changes"), f"{w.get('name', '')}: 撃ち分けの変更箇所",
                       variant_changes(w, weapons[j], t),
                       label_en=f"{w.get('name', '')}: places changed in the variant")
    total = 0
    budget = _int(doc.get("budget"))
    first_variant: dict[int, int] = {}  # a base weapon's index → its first variant's
    for i, w in enumerate(weapons):
        wp = prices[i]
        if wp is None or not wp.ok:
            continue
        where = pointer("weapons", i)
        cost, _, floored = wp.cost(floor)
        rule, rule_en = wp.text(floor), wp.text(floor, "en")
        flaws = [_note("UP_PERCENT_FLOOR", "", name=w.get("name", ""), floor=floor)] if floored else []
        if table_key(w.get("variant_of")):
            variant_flaws, priced = _variant_price(i, weapons, names, full, first_variant, t)
            flaws += variant_flaws
            cost, rule, rule_en = priced or (cost, rule, rule_en)
        flaws += _cost_checks(w, cost, budget, t)
        for flaw in flaws:
            out.find(flaw.code, where + flaw.at, **flaw.params)
        _add_weapon(where, w, doc, cost, rule, rule_en, full[i], t, out)
        total += cost
    return total


def _price_each(weapons: list[Any], doc: Mapping[str, Any], t: UpTables, opts: Mapping[str, str],
                out: Evaluation) -> tuple[dict[int, WeaponPrice | None], dict[Any, int]]:
    """Each weapon priced (None: not a weapon at all), and the index of the first of each name."""
    prices: dict[int, WeaponPrice | None] = {}
    names: dict[Any, int] = {}
    for i, w in enumerate(weapons):
        where = pointer("weapons", i)
        if not isinstance(w, Mapping):
            report_malformed(where, "weapons", "{…}", w, out)
            prices[i] = None
            continue
        name = table_key(w.get("name", ""))
        if name in names:
            out.find("UP_WEAPON_NAME_DUPLICATE", where + "/name", name=name)
        names.setdefault(name, i)
        wp = prices[i] = price_weapon(w, doc, t, opts, where, out)
        if not wp.ok:
            out.skip(where)
    return prices, names


def _variant_price(i: int, weapons: list[Any], names: Mapping[Any, int], full: Mapping[int, int],
                   first_variant: dict[int, int],
                   t: UpTables) -> tuple[list[Flaw], tuple[int, str, str] | None]:
    """A 撃ち分け variant's findings (relative to the weapon) and its (cost, rule, rule in English):
    a fraction of the larger of it and its base by the places changed; None when it cannot be one."""
    w, fractions = weapons[i], t.raw["variants"]
    base_name = table_key(w.get("variant_of"))
    j = names.get(base_name)
    if j is None or j == i:
        return [_note("UP_VARIANT_BASE_MISSING", "/variant_of", name=base_name)], None
    if weapons[j].get("variant_of"):
        return [_note("UP_VARIANT_CHAIN", "/variant_of", name=base_name)], None
    flaws: list[Flaw] = []
    if j in first_variant:  # only the original and one derived weapon (seed 000, 撃ち分け)
        flaws.append(_note("UP_VARIANT_SECOND", "/variant_of", base=base_name,
                           first=weapons[first_variant[j]].get("name", "")))
    first_variant.setdefault(j, i)
    changes = variant_changes(w, weapons[j], t)
    row = next((r for r in fractions if changes <= r["max_changes"]), None)
    if changes == 0:
        flaws.append(_note("UP_VARIANT_NO_CHANGE", "/variant_of", name=base_name))
    if row is None:
        flaws.append(_note("UP_VARIANT_TOO_MANY_CHANGES", "/variant_of", name=base_name, changes=changes,
                           max=fractions[-1]["max_changes"]))
        return flaws, None
    num, den = row["fraction"]
    formula = f"max({full[i]}, {full[j]}) × {num}/{den}"
    return flaws, (round_half_up(Fraction(max(full[i], full[j]) * num, den)),
                   f"撃ち分け（{base_name}から{changes}箇所変更）: {formula}",
                   f"variant of {base_name}, {changes} place(s) changed: {formula}")


def _cost_checks(w: Mapping[str, Any], cost: int, budget: int | None, t: UpTables) -> Iterator[Flaw]:
    """A weapon's cost against the 1/5 cap (option weapon_cap), zero and its written cost."""
    cap = t.raw["weapon_cap"]["budget_divisor"]
    if budget and cost * cap > budget:
        yield _note("UP_WEAPON_OVER_CAP", "", name=w.get("name", ""), cost=cost,
                    cap=message_number(Fraction(budget, cap)))
    if cost < 0:  # the seed floors percentages only; a weapon that pays the unit is suspect
        yield _note("UP_WEAPON_NEGATIVE", "", name=w.get("name", ""), cost=cost)
    declared = _int(w.get("declared_cost"))
    if declared is not None and declared != cost:
        yield _note("UP_WEAPON_COST_MISMATCH", "/declared_cost", name=w.get("name", ""),
                    declared=declared, computed=cost)


def _add_weapon(where: str, w: Mapping[str, Any], doc: Mapping[str, Any], cost: int, rule: str, rule_en: str,
                full_cost: int, t: UpTables, out: Evaluation) -> None:
    """A weapon's line and the values a sheet shows for it (its cost before 撃ち分け, damage, accuracy)."""
    name = w.get("name", "")
    out.add(where, f"武器「{name}」", rule, cost, item_en=f"Weapon '{name}'", rule_en=rule_en)
    out.derive(where + "/full_cost", f"{name}: 撃ち分け前のＵＰ", full_cost,
               label_en=f"{name}: UP before the variant fraction")
    dice, fixed = damage_parts(w, doc, t)
    out.derive(where + "/effective_damage", f"{name}: ダメージ", f"{dice}D10+{fixed}",
               Roll(dice, 10, fixed), label_en=f"{name}: damage")
    out.derive(where + "/effective_accuracy", f"{name}: 命中修正", effective_accuracy(w, t),
               label_en=f"{name}: accuracy")


def effective_damage(w: Mapping[str, Any], unit: Mapping[str, Any], t: UpTables | None = None) -> str:
    """The damage a weapon deals as the sheet shows it (``2D10+35``). Never typed in (docs/rules-up.md)."""
    dice, fixed = damage_parts(w, unit, t)
    return f"{dice}D10+{fixed}"


def damage_parts(w: Mapping[str, Any], unit: Mapping[str, Any], t: UpTables | None = None) -> tuple[int, int]:
    """(dice, fixed) a weapon deals: bought dice and fixed plus attribute and (melee, unless
    マニュピレータなし) the unit's パワー."""
    t = t or tables()
    dmg = t.raw["damage"]
    damage = as_mapping(w.get("damage"))
    dice = _int(damage.get("dice", dmg["base_dice"])) or dmg["base_dice"]
    fixed = _int(damage.get("fixed", dmg["base_fixed"])) or 0
    fixed += t.attributes.get(table_key(w.get("attribute", "solid")), {"damage_bonus": 0})["damage_bonus"]
    abilities = as_list(unit.get("abilities"))
    no_hands = any(isinstance(a, Mapping) and a.get("id") == "no_manipulator" for a in abilities)
    if w.get("kind") == "melee" and not no_hands:
        stats = as_mapping(unit.get("stats"))
        size = t.sizes.get(table_key(unit.get("size")))
        power = _int(stats.get("power", size.stats["power"].base if size else 0)) or 0
        fixed += power
    return dice, fixed


def effective_accuracy(w: Mapping[str, Any], t: UpTables | None = None) -> int:
    """命中修正 as used in play: 誘導 adds +20 % for free."""
    t = t or tables()
    acc = _int(w.get("accuracy", 0)) or 0
    return acc + (t.raw["guided"]["accuracy_bonus"] if w.get("guided") else 0)


"""Special abilities (seed 000, 「特殊能力」): each ability's price, then its percentages
(ビームのみ／実弾のみ, ＥＮ消費, 気力制限) with the floor. Standard library only.
"""
from __future__ import annotations

from fractions import Fraction
from collections.abc import Mapping
from typing import Any

from ...core.coerce import as_int as _int
from ...core.evaluation import Evaluation, round_half_up
from ...core.pointers import pointer
from ..tables_file import both
from .document import list_at, morale_percent, percent_text, table_key
from .tables import Size, UpTables


def price_abilities(doc: Mapping[str, Any], size: Size, t: UpTables, opts: Mapping[str, str],
                    out: Evaluation) -> None:
    """One line per special ability: its base price, then its percentages with the floor
    (option ``ability_floor``)."""
    stats = doc.get("stats") if isinstance(doc.get("stats"), Mapping) else {}
    floor = t.ability_floor(opts)
    for i, ab in enumerate(list_at(doc, "abilities", out)):
        where = pointer("abilities", i)
        aid = table_key(ab.get("id")) if isinstance(ab, Mapping) else None
        spec = t.abilities.get(aid)
        if spec is None:
            out.find("UP_ABILITY_UNKNOWN", where + "/id", value=aid, choices=list(t.abilities))
            out.skip(where)
            continue
        base = _ability_base(ab, spec, size, stats, t, where, out)
        if base is None:
            out.skip(where)
            continue
        up, rule, rule_en = base
        percents: list[tuple[str, int, str]] = []  # (label, percent, label in English)
        if ab.get("narrowed") and "narrowed_percent" in spec:
            percents.append(("ビームのみ／実弾のみ", spec["narrowed_percent"], "beam only / solid only"))
        en = table_key(ab.get("en_cost"))
        if en not in (None, 0, ""):
            if en not in t.ability_en_costs:
                out.find("UP_ABILITY_EN_COST", where + "/en_cost", value=en,
                         choices=list(t.ability_en_costs))
            else:
                percents.append((f"ＥＮ消費{en}", t.ability_en_costs[en], f"EN use {en}"))
        pct = morale_percent(ab.get("morale"), where + "/morale", t, out)
        if pct:
            morale = t.morale[ab["morale"]]
            percents.append((f"気力制限（{morale['label']}）", pct, f"morale limit ({morale['label_en']})"))
        total_pct = max(floor, sum(p for _, p, _ in percents))
        cost = round_half_up(up * Fraction(100 + total_pct, 100))
        if percents:
            rule = f"({rule}) × ({', '.join(f'{l} {percent_text(p)}' for l, p, _ in percents)})"
            rule_en = f"({rule_en}) × ({', '.join(f'{l} {percent_text(p)}' for _, p, l in percents)})"
        name = ab.get("name") or spec["label"]
        name_en = ab.get("name") or spec["label_en"]
        declared = _int(ab.get("declared_cost"))
        if declared is not None and declared != cost:
            out.find("UP_ABILITY_COST_MISMATCH", where + "/declared_cost", **both("name", name, name_en),
                     declared=declared, computed=cost)
        out.add(where, f"特殊能力「{name}」", rule, cost, item_en=f"Ability '{name_en}'", rule_en=rule_en)


def _ability_base(ab, spec, size, stats, t: UpTables, where: str,
                  out: Evaluation) -> tuple[Fraction, str, str] | None:
    """(UP before percentages, rule text, rule text in English) of one ability, or None after a
    finding."""
    aid = spec["id"]
    names = both("name", spec["label"], spec["label_en"])
    if spec.get("source_work_only"):
        out.find("UP_SOURCE_WORK_ONLY", where, **both("item", spec["label"], spec["label_en"]))
    if aid == "shield":
        armor = _int(ab.get("armor"))
        uses = ab.get("uses")
        per = spec["price_per_armor"] if uses in (None, "", 0) else spec["uses_prices"].get(str(uses))
        if armor is None or armor < 1:
            out.find("UP_ABILITY_VALUE", where + "/armor", value=ab.get("armor"), **names)
            return None
        if per is None:
            out.find("UP_SHIELD_USES", where + "/uses", value=uses,
                     choices=list(spec["uses_prices"]))
            return None
        power = _int(stats.get("power", size.stats["power"].base)) or 0
        if armor > power:
            out.find("UP_SHIELD_OVER_POWER", where + "/armor", value=armor, power=power)
        return Fraction(armor * per), f"装甲+{armor} × {per}", f"armor +{armor} × {per}"
    if aid in ("bunshin", "multi_seat"):
        level = _int(ab.get("level"))
        top = spec.get("max_level")
        if level is None or level < 1 or (top and level > top):
            out.find("UP_ABILITY_LEVEL", where + "/level", **names, value=ab.get("level"),
                     max=top or "∞")
            return None
        text = f"Lv{level} × {spec['price_per_level']}"
        return Fraction(level * spec["price_per_level"]), text, text
    if aid == "stat_bonus":
        return _stat_bonus(ab, spec, t, where, out)
    if aid in ("barrier1", "barrier2"):
        armor = _int(ab.get("armor"))
        if armor is None or armor < 1:
            out.find("UP_ABILITY_VALUE", where + "/armor", value=ab.get("armor"), **names)
            return None
        factor = Fraction(str(spec["narrowed_factor" if ab.get("narrowed") else "armor_factor"]))
        price = size.stats["armor"].price
        formula = f"{armor} × {price} × {factor.numerator}/{factor.denominator}"
        return armor * price * factor, f"装甲+{formula}", f"armor +{formula}"
    if aid in ("hp_regen", "en_regen"):
        grade = t.regen_grades.get(table_key(ab.get("grade", "small")))
        if grade is None:
            out.find("UP_ABILITY_GRADE", where + "/grade", value=ab.get("grade"),
                     choices=list(t.regen_grades))
            return None
        unit = Fraction(size.base_up, spec["base_up_divisor"])
        return (unit * grade["factor"], f"基本ＵＰ/5 ({unit}) × {grade['factor']}（{grade['label']}）",
                f"base UP/5 ({unit}) × {grade['factor']} ({grade['label_en']})")
    if aid == "no_manipulator":
        return Fraction(size.base_up, spec["base_up_divisor"]), "−基本ＵＰ/5", "−base UP/5"
    if "up" in spec:
        return Fraction(spec["up"]), spec["label"], spec["label_en"]
    out.find("UP_ABILITY_UNKNOWN", where + "/id", value=aid, choices=list(t.abilities))
    return None


def _stat_bonus(ab, spec, t: UpTables, where: str, out: Evaluation) -> tuple[Fraction, str, str] | None:
    """能力値ボーナス: 技量/格闘/射撃 8, 10 or 12 per +1 for one, two or all three of them."""
    prices = t.raw["stat_bonus_attack_prices"]
    total = Fraction(0)
    texts, texts_en = [], []
    bonuses = ab.get("bonuses") or []
    if not bonuses or not isinstance(bonuses, list):
        out.find("UP_ABILITY_VALUE", where + "/bonuses", value=bonuses or "",
                 **both("name", spec["label"], spec["label_en"]))
        return None
    for k, b in enumerate(bonuses):
        bw = f"{where}/bonuses/{k}"
        if not isinstance(b, Mapping):
            out.find("UP_STAT_BONUS_INVALID", bw, stats=[], value=b)
            return None
        stats = b.get("stats") or []
        stats = [table_key(s) for s in stats] if isinstance(stats, list) else [table_key(stats)]
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
            out.find("UP_STAT_BONUS_MIXED", bw, **both("stats", [t.pilot_stats[s]["label"] for s in stats],
                                                       [t.pilot_stats[s]["label_en"] for s in stats]))
            return None
        total += amount * per
        texts.append(f"{''.join(t.pilot_stats[s]['label'] for s in stats)}+{amount} × {per}")
        texts_en.append(f"{'/'.join(t.pilot_stats[s]['label_en'] for s in stats)} +{amount} × {per}")
    return total, " + ".join(texts), " + ".join(texts_en)


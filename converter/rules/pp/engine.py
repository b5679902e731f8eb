"""The `pp` cost engine: prices a character document item by item (seed 003, キャラクター作成).

Pure Python (standard library only). Every front end — CLI, template reference values, xlwings
UDFs, audit — calls :func:`price_character`. Robust to malformed documents: an item it cannot
price yields a finding and is skipped, so a schema error never hides the other findings.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterable

from ...core.pointers import pointer
from ..options import evaluates
from ..tables_file import both
from ...core.evaluation import Evaluation, Roll
from .machine import as_int, as_list, check_evasion_modifier, check_machine, machine_derived
from .skills import SkillDef, SkillEntryError, SkillList, attribute_id, name_key, parse_entry, skill_list
from .tables import ATTRIBUTE_IDS, Ladder, PpTables, tables


# --- the seed's arithmetic, public for reference values and UDFs -------------------------------

def ladder_terms(start: int, end: int, per: int) -> list[int]:
    """What each point from ``start`` to ``end`` costs when a new value v costs per × v.

    Going down refunds what the values given up cost (seed 003 only goes down from 1 to 0).
    """
    if end >= start:
        return [per * v for v in range(start + 1, end + 1)]
    return [-per * v for v in range(start, end, -1)]


def attribute_cost(value: int, t: PpTables | None = None) -> int:
    """PP for an attribute at ``value``: from 1, each point costs the new value; 1→0 refunds 1."""
    lad = (t or tables()).attribute_ladder
    return sum(ladder_terms(lad.start, value, lad.per))


def skill_cost(level: int, t: PpTables | None = None) -> int:
    """PP for a skill at ``level``: from 0, each level costs twice the new level (3 → 12)."""
    lad = (t or tables()).skill_ladder
    return sum(ladder_terms(lad.start, level, lad.per))


def specialization_cost(level: int, skill_level: int, t: PpTables | None = None) -> int:
    """PP for a sub-category at ``level`` over its skill's ``skill_level``: each new level costs
    the new level (half a whole skill's price). Nothing when it is not above the skill."""
    lad = (t or tables()).specialization_ladder
    return sum(ladder_terms(skill_level, level, lad.per)) if level > skill_level else 0


def combat_boost_cost(value: int, t: PpTables | None = None) -> int:
    """PP for a combat boost of ``value``: it starts at 3, each further point costs 5."""
    t = t or tables()
    return max(0, value - t.combat_boost_start) * t.combat_boost_price


def dice_pool(dice: int | None, bonus: int, lang: str = "ja") -> str:
    """A roll as the sheet shows it: N d10, the skill level added to each die (Ⅱ. 行為判定③)."""
    n = "?" if dice is None else str(dice)
    if not bonus:
        return f"{n}D10"
    return f"{n}D10 (+{bonus} each)" if lang == "en" else f"{n}D10（各+{bonus}）"


# --- the engine ----------------------------------------------------------------------------------

@evaluates("pp")
def price_character(doc: Mapping[str, Any], opts: Mapping[str, str], *,
                    skills: Iterable[SkillDef] | SkillList | None = None) -> Evaluation:
    """Price a character: one cost line per priced item, derived values, and rule findings.

    ``skills`` is a group's own skill list (e.g. from ``--skills FILE``); it adds to the seed's
    skills and to the sheet's own ``skill_list``.
    """
    t = tables()
    out = Evaluation(declared=as_int(doc.get("declared_total")))
    out.budget = _budget(doc, t, out)

    known = skill_list(_sheet_skill_list(doc, out), skills or ())
    attrs = _price_attributes(doc, t, opts, out)
    levels = _price_skills(doc, t, opts, known, attrs, out)
    _price_combat_boost(doc, t, opts, out)
    _price_feats(doc, t, opts, out)

    terms = {f"attribute:{k}": v for k, v in attrs.items()}
    terms.update({f"skill:{k}": v for k, v in levels.items()})
    _initiative(t, "personal", terms, "/derived/initiative", out)
    machine = doc.get("machine")
    if isinstance(machine, Mapping):
        out.findings.extend(check_machine(machine, t))
        out.findings.extend(check_evasion_modifier(machine, t))
        for d in machine_derived(machine, levels, t):
            out.derived[d.pointer] = d
        _unit_initiative(machine, t, terms, out)

    _totals(out)
    return out


def _budget(doc: Mapping[str, Any], t: PpTables, out: Evaluation) -> int | None:
    """総ＰＰ: the sheet's, else the seed's general 50."""
    if doc.get("budget") is None:
        return t.default_budget
    budget = as_int(doc.get("budget"))
    if budget is None:
        out.find("PP_VALUE_NOT_INTEGER", "/budget", **both("label", "総ＰＰ", "Budget"),
                 value=doc.get("budget"))
    return budget


def _ladder_text(terms: list[int], what: str, lang: str = "ja") -> str:
    if len(terms) == 1 and terms[0] < 0:
        return f"{-terms[0]} refunded" if lang == "en" else f"{-terms[0]}点返却"
    return f"{what}: " + "+".join(map(str, terms))


def _ladder_texts(terms: list[int], what: str, what_en: str) -> dict[str, str]:
    """A ladder's rule text in Japanese (``rule``) and English (``rule_en``), for ``out.add``."""
    return {"rule": _ladder_text(terms, what), "rule_en": _ladder_text(terms, what_en, "en")}


_OFF_TABLE = ("表外", "off the table")


# --- ■能力値 -------------------------------------------------------------------------------------

def _price_attributes(doc, t: PpTables, opts, out: Evaluation) -> dict[str, int]:
    """Each attribute from 1: the new value per point; 0 refunds 1 (warning). Valid values out."""
    raw = doc.get("attributes") if isinstance(doc.get("attributes"), Mapping) else {}
    lad: Ladder = t.attribute_ladder
    valid: dict[str, int] = {}
    for aid in ATTRIBUTE_IDS:
        where = pointer("attributes", aid)
        label = t.attribute_label(aid)
        label_en = t.attribute_label(aid, "en")
        labels = both("label", label, label_en)
        value = as_int(raw.get(aid, lad.start))  # absent: the start value (the schema reports it)
        if value is None:
            out.find("PP_VALUE_NOT_INTEGER", where, **labels, value=raw.get(aid))
            out.skip(where)
            continue
        if value < lad.minimum:
            out.find("PP_ATTRIBUTE_BELOW_MINIMUM", where, **labels, value=value, min=lad.minimum)
            out.skip(where)
            continue
        if value > lad.maximum:
            out.find("PP_ATTRIBUTE_MAX", where, **labels, value=value, max=lad.maximum)
        if value < lad.start:
            out.find("PP_ATTRIBUTE_ZERO", where, **labels, value=value,  # option attribute_zero
                     refund=-sum(ladder_terms(lad.start, value, lad.per)))
        valid[aid] = value
        meaning = t.attribute_meanings.get(value)
        meaning_en = t.attribute_meanings_en.get(value)
        out.derive(f"/derived/attributes/{aid}/meaning", f"{label}の意味", meaning,
                   label_en=f"{label_en}: meaning", value_en=meaning_en)
        # 能力値と同じ数だけのダイス
        out.derive(f"/derived/attributes/{aid}/dice", f"{label}のダイス", value, Roll(value, 10),
                   label_en=f"{label_en}: dice")
        terms = ladder_terms(lad.start, value, lad.per)
        if terms:
            texts = _ladder_texts(terms, "新しい値ごと", "each new value")
            out.add(where, f"{label}{lad.start}→{value}（{meaning or _OFF_TABLE[0]}）", texts["rule"],
                    sum(terms), rule_en=texts["rule_en"],
                    item_en=f"{label_en} {lad.start}→{value} ({meaning_en or _OFF_TABLE[1]})")
    return valid


# --- ■技能 ---------------------------------------------------------------------------------------

def _sheet_skill_list(doc, out: Evaluation) -> list[SkillDef]:
    """The group's list written on the sheet itself (``skill_list``)."""
    defs = []
    for i, raw in enumerate(as_list(doc.get("skill_list"))):
        try:
            defs.append(parse_entry(raw, "sheet"))
        except SkillEntryError as exc:
            out.find("PP_SKILL_LIST_ENTRY", pointer("skill_list", i), **exc.texts())
    return defs


def _price_skills(doc, t: PpTables, opts, known: SkillList, attrs: Mapping[str, int],
                  out: Evaluation) -> dict[str, int]:
    """Each skill from 0 at twice the new level, then its specializations. Levels by id out."""
    lad = t.skill_ladder
    levels: dict[str, int] = {}
    seen: dict[str, int] = {}
    for i, s in enumerate(as_list(doc.get("skills"))):
        where = pointer("skills", i)
        if not isinstance(s, Mapping) or not isinstance(s.get("name"), str):
            out.skip(where)  # the schema says what is wrong with it
            continue
        name = s["name"]
        d = known.resolve(name)
        if d is None:
            out.find("PP_SKILL_UNKNOWN", where + "/name", name=name)  # option unknown_skills
        label = d.label if d else name.strip()
        label_en = d.label_in("en") if d else label
        key = (d.id or name_key(d.label)) if d else name_key(name)
        names = both("name", label, label_en)
        if key in seen:
            out.find("PP_SKILL_DUPLICATE", where + "/name", **names, first=seen[key])
        seen.setdefault(key, i)

        level = as_int(s.get("level", lad.start))
        if level is None:
            out.find("PP_VALUE_NOT_INTEGER", where + "/level", **both("label", f"〈{label}〉", label_en),
                     value=s.get("level"))
            out.skip(where + "/level")
            continue
        if level < lad.start:
            out.find("PP_SKILL_BELOW_ZERO", where + "/level", **names, value=level)
            out.skip(where + "/level")
            continue
        if level > lad.maximum:
            out.find("PP_SKILL_MAX", where + "/level", **names, value=level, max=lad.maximum)
        if d is not None and d.id:
            levels[d.id] = max(levels.get(d.id, 0), level)
        meaning = t.skill_meanings.get(level)
        meaning_en = t.skill_meanings_en.get(level)
        terms = ladder_terms(lad.start, level, lad.per)
        if terms:
            texts = _ladder_texts(terms, f"新しいレベル×{lad.per}", f"new level × {lad.per}")
            out.add(where + "/level", f"〈{label}〉{lad.start}→{level}（{meaning or _OFF_TABLE[0]}）",
                    texts["rule"], sum(terms), rule_en=texts["rule_en"],
                    item_en=f"{label_en} {lad.start}→{level} ({meaning_en or _OFF_TABLE[1]})")

        attribute = _skill_attribute(s, d, where, out)
        if attribute is None and s.get("attribute") is None:  # no dice to roll: ask for them
            out.find("PP_SKILL_NO_ATTRIBUTE", where + "/attribute", **both("skill", label, label_en))
        dice = attrs.get(attribute) if attribute else None
        at = f"/derived/skills/{i}"
        skill = f"〈{label}〉"
        out.derive(f"{at}/id", f"{skill}の技能ID", d.id if d else None, label_en=f"{label_en}: skill id")
        out.derive(f"{at}/label", f"{skill}の技能名", label, label_en=f"{label_en}: skill name",
                   value_en=label_en)
        out.derive(f"{at}/meaning", f"{skill}の意味", meaning, label_en=f"{label_en}: meaning",
                   value_en=meaning_en)
        out.derive(f"{at}/attribute", f"{skill}の能力値", attribute, label_en=f"{label_en}: attribute")
        out.derive(f"{at}/dice", f"{skill}のダイス数", dice, label_en=f"{label_en}: number of dice")
        out.derive(f"{at}/bonus", f"{skill}の各ダイスへの修正", level,
                   label_en=f"{label_en}: bonus on each die")
        out.derive(f"{at}/pool", f"{skill}の判定", dice_pool(dice, level),
                   None if dice is None else Roll(dice, 10, 0, level), label_en=f"{label_en}: roll",
                   value_en=dice_pool(dice, level, "en"))
        _price_specializations(s, d, label, label_en, level, dice, t, opts, where, at, out)
    return levels


def _skill_attribute(s: Mapping[str, Any], d: SkillDef | None, where: str,
                     out: Evaluation) -> str | None:
    """The attribute giving the dice: the sheet's choice, else the list's."""
    chosen = s.get("attribute")
    if chosen is None:
        return d.attribute if d else None
    aid = attribute_id(chosen) if isinstance(chosen, str) else None
    if aid is None:
        out.find("PP_SKILL_ATTRIBUTE", where + "/attribute", value=chosen,
                 choices=list(ATTRIBUTE_IDS))
    return aid


def _price_specializations(s, d: SkillDef | None, label: str, label_en: str, level: int,
                           dice: int | None, t: PpTables, opts, where: str, derived_at: str,
                           out: Evaluation) -> None:
    """＊技能の専門化: a sub-category above the skill's level, the new level per level."""
    lad = t.specialization_ladder
    skills = both("skill", label, label_en)
    seen: set[str] = set()
    bought = 0
    for j, sp in enumerate(as_list(s.get("specializations"))):
        spw = f"{where}/specializations/{j}"
        if not isinstance(sp, Mapping) or not isinstance(sp.get("name"), str):
            out.skip(spw)
            continue
        sname = sp["name"].strip()
        known = d.specialization(sname) if d else None
        if d is not None and known is None:
            out.find("PP_SPECIALIZATION_UNKNOWN", spw + "/name", **skills, name=sname,
                     **both("choices", [x.label for x in d.specializations] or ["—"],
                            [x.label_in("en") for x in d.specializations] or ["—"]))  # option unknown_skills
        sname_en = known.label_in("en") if known else sname
        sname = known.label if known else sname
        names = {**skills, **both("name", sname, sname_en)}
        if name_key(sname) in seen:
            out.find("PP_SPECIALIZATION_DUPLICATE", spw + "/name", **names)
        seen.add(name_key(sname))
        slevel = as_int(sp.get("level"))
        if slevel is None:
            out.find("PP_VALUE_NOT_INTEGER", spw + "/level",
                     **both("label", f"〈{label}〉（{sname}）", f"{label_en} ({sname_en})"),
                     value=sp.get("level"))
            out.skip(spw + "/level")
            continue
        if slevel > lad.maximum:
            out.find("PP_SPECIALIZATION_MAX", spw + "/level", **names, value=slevel, max=lad.maximum)
        at = f"{derived_at}/specializations/{j}"
        spec_label = f"〈{label}〉（{sname}）"
        spec_en = f"{label_en} ({sname_en})"
        bonus = max(slevel, level)
        out.derive(f"{at}/id", f"{spec_label}の小分類ID", known.id if known else None,
                   label_en=f"{spec_en}: sub-category id")
        out.derive(f"{at}/bonus", f"{spec_label}の各ダイスへの修正", bonus,
                   label_en=f"{spec_en}: bonus on each die")
        out.derive(f"{at}/pool", f"{spec_label}の判定", dice_pool(dice, bonus),
                   None if dice is None else Roll(dice, 10, 0, bonus), label_en=f"{spec_en}: roll",
                   value_en=dice_pool(dice, bonus, "en"))
        if slevel <= level:
            out.find("PP_SPECIALIZATION_NOT_ABOVE", spw + "/level", **names, value=slevel, level=level)
            continue
        bought += 1
        if bought > 1:  # option specializations_per_skill
            out.find("PP_SPECIALIZATION_SECOND", spw, **names)
        terms = ladder_terms(level, slevel, lad.per)
        texts = _ladder_texts(terms, "新しいレベルごと", "each new level")
        out.add(spw + "/level", f"〈{label}〉（{sname}）{level}→{slevel}", texts["rule"], sum(terms),
                item_en=f"{spec_en} {level}→{slevel}", rule_en=texts["rule_en"])


# --- ■コンバット・ブースト、■特技 -------------------------------------------------------------------

def _price_combat_boost(doc, t: PpTables, opts, out: Evaluation) -> None:
    """Starts at 3; each point more costs 5 PP. Lowering it is not in the rules."""
    start, price = t.combat_boost_start, t.combat_boost_price
    raw = doc.get("combat_boost", start)
    value = as_int(raw)
    label, label_en = t.raw["combat_boost"]["label"], t.raw["combat_boost"]["label_en"]
    if value is None:
        out.find("PP_VALUE_NOT_INTEGER", "/combat_boost", **both("label", label, label_en), value=raw)
        out.skip("/combat_boost")
        return
    out.derive("/derived/combat_boost", label, value, label_en=label_en)
    if value < start:
        out.find("PP_COMBAT_BOOST_BELOW_START", "/combat_boost", value=value, start=start)
        return
    if value == start:
        return
    out.find("PP_COMBAT_BOOST_RAISED", "/combat_boost", value=value, start=start)
    out.add("/combat_boost", f"{label} {start}→{value}", f"+{value - start} × {price}",
            combat_boost_cost(value, t), item_en=f"{label_en} {start}→{value}")


def _price_feats(doc, t: PpTables, opts, out: Evaluation) -> None:
    """特技 (optional rule): 5 PP each; the seed lists none, so any name goes. A table that does
    not use the rule (「使用しなくてもよい」) is warned of the feats listed, and they cost nothing."""
    feats = as_list(doc.get("feats"))
    in_use = opts["feats"] == "used"
    if feats:  # option feats
        out.find("PP_FEATS_NOT_IN_USE", "/feats", count=len(feats))
    seen: set[str] = set()
    for i, feat in enumerate(feats):
        name = feat.get("name") if isinstance(feat, Mapping) else None
        if not isinstance(name, str):
            out.skip(pointer("feats", i))  # the schema says what is wrong with it
            continue
        if name_key(name) in seen:
            out.find("PP_FEAT_DUPLICATE", pointer("feats", i, "name"), name=name)
        seen.add(name_key(name))
        if in_use:
            out.add(pointer("feats", i), f"特技「{name}」", f"特技１つ {t.feat_price}", t.feat_price,
                    item_en=f"Feat '{name}'", rule_en=f"one feat {t.feat_price}")
        else:
            out.add(pointer("feats", i), f"特技「{name}」", "選択ルール「特技」不使用 0", 0,
                    item_en=f"Feat '{name}'", rule_en="optional feat rule not in use: 0")


# --- ■イニシアティブ値 ------------------------------------------------------------------------------

def _initiative(t: PpTables, kind: str, terms: Mapping[str, int], key: str, out: Evaluation) -> None:
    """An initiative value from the tables' terms; a skill not taken counts 0; an invalid
    attribute or machine figure leaves it out."""
    total = 0
    for term in t.initiative[kind]:
        if term in terms:
            total += terms[term]
        elif term.startswith("skill:"):
            continue
        else:
            return
    out.derive(key, t.initiative_labels[kind], total, label_en=t.initiative_labels_en[kind])


def _unit_initiative(machine: Mapping[str, Any], t: PpTables, terms: Mapping[str, int],
                     out: Evaluation) -> None:
    """ユニット戦闘: with the machine's スピード and メインシステム修正; once per alternative speed
    (「イニシアティブ値が変化する可能性のある機体は、その条件を併記の上それぞれの値を記入」)."""
    figures = {}
    for f in t.machine_fields:
        value = as_int(machine.get(f.id, f.default))
        if value is not None and f.type == "integer":
            figures[f"machine:{f.id}"] = value
    _initiative(t, "unit", {**terms, **figures}, "/derived/unit_initiative", out)
    for i, alt in enumerate(as_list(machine.get("alt_speeds"))):
        speed = as_int(alt.get("speed")) if isinstance(alt, Mapping) else None
        if speed is not None:
            _initiative(t, "unit", {**terms, **figures, "machine:speed": speed},
                        f"/derived/machine/alt_speeds/{i}/unit_initiative", out)


# --- totals -------------------------------------------------------------------------------------

def _totals(out: Evaluation) -> None:
    if out.budget is not None:
        if out.total > out.budget:
            out.find("PP_OVER_BUDGET", "/budget", total=out.total, budget=out.budget,
                     over=out.total - out.budget)
        elif out.total < out.budget:
            out.find("PP_UNDER_BUDGET", "/budget", total=out.total, budget=out.budget,
                     remainder=out.budget - out.total)
    if out.declared is not None and out.declared != out.total and out.complete:
        out.find("PP_TOTAL_MISMATCH", "/declared_total", declared=out.declared, computed=out.total)

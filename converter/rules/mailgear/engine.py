"""The `mailgear` engine: checks a pilot and the pilot's mail gear, and derives what the sheet shows.

Seed 001 has no point costs, so the answer's cost lines stay empty and there is no budget; the
work is in the findings and in ``Evaluation.derived``, whose keys are JSON pointers to where a sheet
may write the same value (``/derived/move``, ``/equipment/2/derived/damage``): a written value is
compared with the computed one.

Pure Python (standard library only). Every front end calls :func:`price_pilot`. Robust to
malformed documents: what cannot be read yields a finding and is skipped.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from typing import Any, Mapping

from ...core.findings import Finding
from ...core import pointers
from ...core.pointers import pointer
from ..options import evaluates
from ..tables_file import both
from ...core.evaluation import Evaluation, Roll
from .catalog import Catalog, as_catalog, missing_table
from ...core.coerce import as_int, as_key, as_list, as_mapping
from .tables import MailgearTables, Skill, name_key, tables


# --- 判定 (roll) text -------------------------------------------------------------------------------

def skill_bonus(level: int, t: MailgearTables | None = None) -> str:
    """A skill level used as a roll bonus: +1..+3, and ＋１ｄ at level 4 (seed 001, スキルの説明)."""
    t = t or tables()
    return "+1d" if level == t.rolls["die_at_level"] else f"+{level}"


def roll_bonus(dice: int, fixed: int) -> str:
    """What is added to 2d: ``+5``, ``+1d+3``, ``+1d``, ``+0``."""
    text = f"+{dice}d" if dice else ""
    return text + (f"{fixed:+d}" if fixed or not dice else "")


def roll_expression(dice: int, fixed: int, t: MailgearTables | None = None) -> str:
    """The whole roll, as dice rollers read it: 2d + ``dice`` more, e.g. ``3d6+3`` (seed: 「３ｄ」)."""
    t = t or tables()
    return f"{t.rolls['base_dice'] + dice}d{t.rolls['die']}" + (f"{fixed:+d}" if fixed else "")


# --- names in findings: the tables' label in Japanese and in English (..tables_file.both) -------------

def _label(skill: Skill) -> dict[str, str]:
    return both("label", skill.label, skill.label_en)


def _stat_label(t: MailgearTables, sid: str) -> dict[str, str]:
    """A gear stat's label (an unknown id as it was written)."""
    return both("label", t.stat_labels.get(sid, sid), t.stat_labels_en.get(sid, sid))


def _table_label(t: MailgearTables, table: str) -> dict[str, str]:
    spec = t.catalog_tables[table]
    return both("label", spec["label"], spec["label_en"])


# --- what the engine reads from the document --------------------------------------------------------

@dataclass
class Item:
    """One equipment entry as the engine uses it (sheet values, filled from the catalog)."""

    index: int
    kind: str | None
    name: str
    slots: int = 1
    hold: str | None = None
    bands: list[str] = field(default_factory=list)
    extra_damage: int = 0
    effects: list[tuple[str, str, int]] = field(default_factory=list)  # ("skill"|"stat", id, amount)
    counted: bool = True  # False for a third identical option: its effects are ignored

    @property
    def where(self) -> str:
        return pointer("equipment", self.index)


@dataclass
class Learned:
    """A skill as the sheet lists it: where (its index) and the learned level."""

    index: int
    level: int


class _Run:
    """One document's check: the tables, options, catalog and the answer being built."""

    def __init__(self, doc: Mapping[str, Any], opts: Mapping[str, str], cat: Catalog | None) -> None:
        self.doc = doc
        self.opts = opts
        self.cat = cat
        self.t = tables()
        self.out = Evaluation(priced=False)
        self.labels: dict[str, tuple[str, str]] = {}  # derived key → label (ja, en), for mismatches
        self.forms: dict[str, set[str]] = {}  # derived key → every accepted written form

    def find(self, code: str, where: str = "", **params: Any) -> None:
        self.out.findings.append(Finding(code, where, params))

    def catalog_table(self, table: str, where: str) -> Catalog | None:
        """The catalog when ``table`` is there to check against; if not, one info finding naming it."""
        if self.cat is not None and self.cat.has(table):
            return self.cat
        self.out.findings.append(missing_table(table, where))
        return None

    def derive(self, key: str, label: str, value: Any, *forms: str, roll: Roll | None = None,
               label_en: str = "") -> None:
        self.out.derive(key, label, value, roll, label_en=label_en)
        self.labels[key] = (label, label_en or label)
        self.forms[key] = {_written(value), *(_written(f) for f in forms)}


@evaluates("mailgear")
def price_pilot(doc: Mapping[str, Any], opts: Mapping[str, str], *,
                catalog: Catalog | Mapping[str, Any] | None = None) -> Evaluation:
    """Check a pilot sheet and derive its values. No point costs: ``lines`` stay empty.

    ``catalog`` is the group's catalog (a :class:`Catalog` or its data); without it,
    each check that needs one is skipped with one MG_CATALOG_TABLE_MISSING info finding.
    """
    run = _Run(doc, opts, as_catalog(catalog))
    _check_pilot(run)
    learned = _learned_skills(run)
    items = _equipment(run)
    stats = _gear_stats(run, items)
    effective = _effective_skills(run, learned, items)
    _derive_values(run, stats, effective, items)
    _compare_written(run)
    return run.out


# --- パイロット -------------------------------------------------------------------------------------

def _check_pilot(run: _Run) -> None:
    """経験 against the level ladder (catalog). The level-up history is not checked (not claimed)."""
    pilot = as_mapping(run.doc.get("pilot"))
    cat = run.catalog_table("levels", "/pilot/level")
    if cat is None:
        return
    level, exp = pilot.get("level"), as_int(pilot.get("experience"))
    letters = [v for v in cat.ladder_values("levels") if isinstance(v, str)]
    if level not in letters:
        run.find("MG_LEVEL_UNKNOWN", "/pilot/level", value=level, choices=letters)
    elif exp is not None:
        expected = cat.ladder_value("levels", exp)
        if expected != level:
            run.find("MG_LEVEL_MISMATCH", "/pilot/level", level=level, experience=exp,
                     expected=expected if expected is not None else "—")


# --- スキル ----------------------------------------------------------------------------------------

def _learned_skills(run: _Run) -> dict[str, Learned]:
    """The skills the pilot learned: each one of the 24, once, within its maximum (seed 001)."""
    t = run.t
    out: dict[str, Learned] = {}
    for i, entry in enumerate(as_list(run.doc.get("skills"))):
        where = pointer("skills", i)
        entry = as_mapping(entry)
        raw_id, name = entry.get("id"), entry.get("name")
        if raw_id is not None:
            sid = raw_id if as_key(raw_id) in t.skills else None
            if sid is None:
                run.find("MG_SKILL_UNKNOWN", where + "/id", value=raw_id)
                continue
            if name is not None and t.skill_id(name) != sid:
                run.find("MG_SKILL_ID_NAME_MISMATCH", where + "/name", name=name,
                         **_label(t.skills[sid]))
        else:
            sid = t.skill_id(name)
            if sid is None:
                run.find("MG_SKILL_UNKNOWN", where + ("/name" if name is not None else ""), value=name)
                continue
        skill = t.skills[sid]
        level = as_int(entry.get("level"))
        if level is None or level < 1:
            run.find("MG_SKILL_LEVEL_INVALID", where + "/level", **_label(skill),
                     value=entry.get("level"))
            continue
        if sid in out:
            run.find("MG_SKILL_DUPLICATE", where, **_label(skill), first=out[sid].index)
            continue
        if level > skill.max_level:
            # 「どんな方法を使っても、それを上回ることはありません」
            run.find("MG_SKILL_OVER_MAX", where + "/level", **_label(skill), value=level,
                     max=skill.max_level)
        out[sid] = Learned(i, level)
    return out


def _effective_skills(run: _Run, learned: dict[str, Learned], items: list[Item]) -> dict[str, int]:
    """Learned level plus counted option bonuses, never above the maximum (seed 001, オプション:
    鉄壁 Lv4 with Ａ．Ｇ．Ｓ does not become Lv5). Each skill shown with its level and roll bonus."""
    t = run.t
    bonuses: dict[str, list[tuple[Item, int]]] = {}
    for item in items:
        if item.counted:
            for kind, target, amount in item.effects:
                if kind == "skill":
                    bonuses.setdefault(target, []).append((item, amount))
    out: dict[str, int] = {}
    for sid, skill in t.skills.items():
        if sid not in learned and sid not in bonuses:
            continue
        base = min(learned[sid].level, skill.max_level) if sid in learned else 0
        extra = sum(amount for _, amount in bonuses.get(sid, []))
        level = min(base + extra, skill.max_level)
        if sid not in learned:
            first = bonuses[sid][0][0]
            run.find("MG_OPTION_SKILL_NOT_LEARNED", first.where, name=first.name, **_label(skill))
        if base + extra > skill.max_level and extra:
            where = pointer("skills", learned[sid].index) if sid in learned else bonuses[sid][0][0].where
            run.find("MG_SKILL_CAPPED", where, **_label(skill), learned=base, bonus=extra,
                     max=skill.max_level, cut=base + extra - skill.max_level,
                     items=[item.name for item, _ in bonuses[sid]])
        out[sid] = level
        run.derive(f"/derived/skills/{sid}", skill.label, level, label_en=skill.label_en)
        run.derive(f"/derived/skill_bonuses/{sid}", f"{skill.label}（判定ボーナス）",
                   skill_bonus(level, t), label_en=f"{skill.label_en} (roll bonus)")
    return out


# --- 装備 -----------------------------------------------------------------------------------------

_ITEM_FIELDS = {"weapon": ("bands", "extra_damage", "energy", "slots"),
                "option": ("effects", "slots", "energy", "durability", "uses")}
_TABLE_OF = {"weapon": "weapons", "option": "options"}


def _equipment(run: _Run) -> list[Item]:
    """Six slots for weapons and options together, two arms, at most two copies of an option
    counting (seed 001, 武器の選択／オプションの選択)."""
    t = run.t
    entries = as_list(run.doc.get("equipment"))
    kinds = {as_key(as_mapping(e).get("kind")) for e in entries}
    tables_ok = {kind: run.catalog_table(_TABLE_OF[kind], "/equipment")
                 for kind in _TABLE_OF if kind in kinds}
    items: list[Item] = []
    used_slots = 0
    held: dict[str, Item] = {}
    copies: dict[str, int] = {}
    for i, raw in enumerate(entries):
        entry = as_mapping(raw)
        where = pointer("equipment", i)
        kind = as_key(entry.get("kind"))
        name = as_key(entry.get("name")) or ""
        merged = dict(entry)
        cat = tables_ok.get(kind) if kind in _TABLE_OF else None
        if kind is not None and cat is not None:
            merged = _with_catalog(run, cat, entry, kind, where)
        item = Item(i, kind if kind in t.kinds else None, name)
        slots = as_int(merged.get("slots", 1))
        if slots is None or slots < 1:
            run.find("MG_ITEM_FIELD_INVALID", where + "/slots", name=name, field="slots",
                     value=merged.get("slots"))
            slots = 1
        item.slots = slots
        used_slots += slots
        if item.kind is None:
            run.find("MG_ITEM_FIELD_INVALID", where + "/kind", name=name, field="kind",
                     value=entry.get("kind"))
            continue
        _read_hold(run, item, merged.get("arm"), held)
        if item.kind == "weapon":
            _read_weapon(run, item, merged)
        else:
            _read_effects(run, item, merged)
            key = name_key(name)
            copies[key] = copies.get(key, 0) + 1
            if copies[key] > t.option_copies:
                # 「３つ装備したとしても＋３レベルにはなりません」: the copy adds nothing but keeps its
                # slot (counted above); a warning, or an error under option_copies=error.
                item.counted = False
                run.find("MG_OPTION_COPIES", where, name=name, copy=copies[key],  # option option_copies
                         max=t.option_copies)
        items.append(item)
    if used_slots > t.slots:
        run.find("MG_SLOTS_OVER", "/equipment", used=used_slots, max=t.slots)
    run.derive("/derived/slots_used", "使用スロット", used_slots, label_en="Slots used")
    return items


def _read_hold(run: _Run, item: Item, hold: Any, held: dict[str, Item]) -> None:
    """An item in hand takes its arm(s); an arm holds one item (「腕は２本しかありません」)."""
    if hold is None:
        return
    t = run.t
    if as_key(hold) not in t.hold_arms:
        run.find("MG_ITEM_FIELD_INVALID", item.where + "/arm", name=item.name, field="arm", value=hold)
        return
    taken = sorted(arm for arm in t.hold_arms[hold] if arm in held)
    if taken:
        run.find("MG_ARMS_OVER", item.where + "/arm", name=item.name,
                 **both("arm", t.hold_labels[hold], t.hold_labels_en[hold]),
                 other=held[taken[0]].name, arms=t.arm_count)
        return
    item.hold = hold
    for arm in t.hold_arms[hold]:
        held[arm] = item


def _read_weapon(run: _Run, item: Item, entry: Mapping[str, Any]) -> None:
    bands = entry.get("bands")
    good = [b for b in as_list(bands) if as_key(b) in run.t.bands]
    if not good or len(good) != len(as_list(bands)):
        run.find("MG_ITEM_FIELD_INVALID", item.where + "/bands", name=item.name, field="bands",
                 value=bands)
    item.bands = list(dict.fromkeys(good))
    extra = as_int(entry.get("extra_damage", 0))
    if extra is None:
        run.find("MG_ITEM_FIELD_INVALID", item.where + "/extra_damage", name=item.name,
                 field="extra_damage", value=entry.get("extra_damage"))
    item.extra_damage = extra or 0


def _read_effects(run: _Run, item: Item, entry: Mapping[str, Any]) -> None:
    t = run.t
    effects = entry.get("effects")
    if effects is None:
        run.find("MG_OPTION_EFFECTS_UNKNOWN", item.where, name=item.name)
        return
    for k, eff in enumerate(as_list(effects)):
        eff = as_mapping(eff)
        if "skill" in eff:
            sid, amount = t.skill_id(eff.get("skill")), as_int(eff.get("levels"))
            if sid is not None and amount is not None and amount >= 1:
                item.effects.append(("skill", sid, amount))
                continue
        elif "stat" in eff:
            sid, amount = t.stat_id(eff.get("stat")), as_int(eff.get("amount"))
            if sid is not None and amount is not None:
                item.effects.append(("stat", sid, amount))
                continue
        elif isinstance(eff.get("text"), str):
            continue  # kept on the sheet; no value to derive
        run.find("MG_ITEM_FIELD_INVALID", f"{item.where}/effects/{k}", name=item.name,
                 field="effects", value=dict(eff))


def _with_catalog(run: _Run, cat: Catalog, entry: Mapping[str, Any], kind: str,
                  where: str) -> dict[str, Any]:
    """The entry with what the sheet left out taken from the catalog; differences are warned."""
    table = _TABLE_OF[kind]
    found = cat.lookup(table, entry.get("name"))
    merged = dict(entry)
    if found is None:
        run.find("MG_CATALOG_UNKNOWN_ITEM", where + "/name", name=entry.get("name"),
                 **_table_label(run.t, table))
        return merged
    _, spec = found
    for key in _ITEM_FIELDS[kind]:
        if key not in spec:
            continue
        if key not in entry:
            merged[key] = spec[key]
        elif _same(key, entry[key], spec[key]) is False:
            run.find("MG_CATALOG_MISMATCH", f"{where}/{key}", item=entry.get("name"),
                     **both("field", key, key), sheet=entry[key], catalog=spec[key])
    return merged


def _same(key: str, a: Any, b: Any) -> bool:
    """Sheet and catalog agree: bands in any order; effects by what they do (text is prose)."""
    if key == "bands" and isinstance(a, list) and isinstance(b, list):
        return sorted(map(str, a)) == sorted(map(str, b))
    if key == "effects":
        return _effect_keys(a) == _effect_keys(b)
    return a == b


def _effect_keys(effects: Any) -> list[tuple[str, Any, Any]]:
    t = tables()
    out = []
    for eff in as_list(effects):
        eff = as_mapping(eff)
        if "skill" in eff:
            out.append(("skill", t.skill_id(eff.get("skill")) or eff.get("skill"), eff.get("levels")))
        elif "stat" in eff:
            out.append(("stat", t.stat_id(eff.get("stat")) or eff.get("stat"), eff.get("amount")))
    return sorted(out, key=repr)


# --- メイルギア --------------------------------------------------------------------------------------

def _gear_stats(run: _Run, items: list[Item]) -> dict[str, int | None]:
    """Base stats (sheet, else catalog), plus 専用機 boosts and options' stat effects."""
    t = run.t
    gear = as_mapping(run.doc.get("gear"))
    written = as_mapping(gear.get("stats"))
    from_catalog = _model_stats(run, gear, written)
    stats: dict[str, int | None] = {}
    for sid in t.stat_ids:
        value = as_int(written.get(sid)) if sid in written else from_catalog.get(sid)
        if value is None:
            run.find("MG_STAT_INVALID", f"/gear/stats/{sid}", **_stat_label(t, sid),
                     value=written.get(sid))
            run.out.skip(f"/gear/stats/{sid}")
        stats[sid] = value
    for sid in _custom_boosts(run, gear):
        value = stats[sid]
        if value is not None:
            stats[sid] = value + t.custom_boosts[sid]
    for item in items:
        for kind, sid, amount in item.effects if item.counted else ():
            value = stats[sid] if kind == "stat" else None
            if value is not None:
                stats[sid] = value + amount
    for sid, value in stats.items():
        if value is not None:
            run.derive(f"/derived/stats/{sid}", t.stat_labels[sid], value,
                       label_en=t.stat_labels_en[sid])
    return stats


def _model_stats(run: _Run, gear: Mapping[str, Any], written: Mapping[str, Any]) -> dict[str, int]:
    """The catalog's stats for the gear's model and rank (letters without +); checks 階級 → rank."""
    t = run.t
    rank = as_key(gear.get("rank")) or ""
    ranks = run.catalog_table("gear_ranks", "/gear/rank")
    if ranks is not None:
        points = as_int(as_mapping(run.doc.get("pilot")).get("rank_points"))
        expected = ranks.ladder_value("gear_ranks", points) if points is not None else rank
        if expected != rank:
            run.find("MG_GEAR_RANK_MISMATCH", "/gear/rank", rank=rank, rank_points=points,
                     expected=expected if expected is not None else "—")
    cat = run.catalog_table("models", "/gear/model")
    if cat is None:
        return {}
    found = cat.lookup("models", gear.get("model"))
    if found is None:
        run.find("MG_CATALOG_UNKNOWN_ITEM", "/gear/model", name=gear.get("model"),
                 **_table_label(t, "models"))
        return {}
    base = rank.rstrip(t.custom_mark)
    stats = as_mapping(as_mapping(found[1].get("ranks")).get(base))
    if not stats:
        run.find("MG_MODEL_RANK_MISSING", "/gear/rank", model=gear.get("model"), rank=base,
                 choices=list(as_mapping(found[1].get("ranks"))))
        return {}
    out = {sid: v for sid, v in stats.items() if as_int(v) is not None}
    for sid, value in out.items():
        if sid in written and written[sid] != value:
            run.find("MG_CATALOG_MISMATCH", f"/gear/stats/{sid}", item=gear.get("model"),
                     **both("field", t.stat_labels.get(sid, sid), t.stat_labels_en.get(sid, sid)),
                     sheet=written[sid], catalog=value)
    return out


def _custom_boosts(run: _Run, gear: Mapping[str, Any]) -> list[str]:
    """専用機: exactly three different items of センサー〜キャパシティ (seed 001, 専用機について).

    Returns the boosts to apply: the valid, different ones, at most three, in sheet order.
    """
    t = run.t
    rank = as_key(gear.get("rank")) or ""
    by_rank = rank.endswith(t.custom_mark)
    custom = gear.get("custom")
    # an empty rank is its own error (the schema's 必須の項目「ランク」); the flag is said as the
    # sheet shows it (○/×), never Python's True
    if isinstance(custom, bool) and rank and custom != by_rank:
        run.find("MG_CUSTOM_RANK_MISMATCH", "/gear/custom", rank=rank, custom_ja="○" if custom else "×",
                 custom_en="yes" if custom else "no")
    is_custom = custom if isinstance(custom, bool) else by_rank
    boosts = as_list(gear.get("boosts"))
    if not is_custom:
        if boosts:
            run.find("MG_CUSTOM_BOOST_NOT_CUSTOM", "/gear/boosts", rank=rank)
        return []
    chosen: list[str] = []
    for k, b in enumerate(boosts):
        where = f"/gear/boosts/{k}"
        if as_key(b) not in t.custom_boosts:
            run.find("MG_CUSTOM_BOOST_INELIGIBLE", where, value=b,
                     **(_stat_label(t, b) if isinstance(b, str) else both("label", b, b)),
                     **both("choices", [t.stat_labels[s] for s in t.custom_boosts],
                            [t.stat_labels_en[s] for s in t.custom_boosts]))
        elif b in chosen:
            run.find("MG_CUSTOM_BOOST_DUPLICATE", where, **_stat_label(t, b))
        else:
            chosen.append(b)
    if len(boosts) != t.custom_count:
        run.find("MG_CUSTOM_BOOST_COUNT", "/gear/boosts", count=len(boosts), required=t.custom_count)
    return chosen[:t.custom_count]


# --- 派生値 ----------------------------------------------------------------------------------------

def _derive_values(run: _Run, stats: Mapping[str, int | None], effective: Mapping[str, int],
                   items: list[Item]) -> None:
    """Every derived value with every skill applied; rolls as bonus text, 武運 as an expression."""
    t = run.t
    parts: dict[str, tuple[int, int]] = {}
    for d in t.derived.values():
        base = stats.get(d.stat) if d.stat else 0
        if base is None:
            continue
        dice, fixed = 0, base
        for skill in t.skills_aimed_at(d):
            if skill.target == "all_rolls" and not _talent_counts(run, d.id):
                continue
            level = effective.get(skill.id, 0)
            if _as_die(run, d.id, d.kind, skill, level):
                dice += 1
            else:
                fixed += level * skill.per_level
        parts[d.id] = (dice, fixed)
        key = f"/derived/{d.id}"
        sides = t.rolls["die"]
        if d.kind == "value":
            run.derive(key, d.label, fixed, label_en=d.label_en)
        elif d.id == "fortune":
            # 「武運の値は、[２ｄ＋ミラクル]によって決定し、ミッション開始時に毎回決定し直します」: an expression.
            run.derive(key, d.label, roll_expression(dice, fixed, t), roll_bonus(dice, fixed),
                       roll=Roll(t.rolls["base_dice"] + dice, sides, fixed), label_en=d.label_en)
        else:
            run.derive(key, d.label, roll_bonus(dice, fixed), roll_expression(dice, fixed, t),
                       roll=Roll(dice, sides, fixed), label_en=d.label_en)
    for item in items:
        if item.kind != "weapon":
            continue
        if "damage" in parts:
            dice, fixed = parts["damage"]
            fixed += item.extra_damage  # 「[２ｄ＋壊し屋＋出力＋武器の追加ダメージ]」
            damage = t.derived["damage"]
            run.derive(f"{item.where}/derived/damage", f"{item.name}: {damage.label}",
                       roll_bonus(dice, fixed), roll_expression(dice, fixed, t),
                       roll=Roll(dice, t.rolls["die"], fixed), label_en=f"{item.name}: {damage.label_en}")
        for band in item.bands:
            hit = t.bands[band].hit
            if hit in parts:
                dice, fixed = parts[hit]
                run.derive(f"{item.where}/derived/{hit}", f"{item.name}: {t.derived[hit].label}",
                           roll_bonus(dice, fixed), roll_expression(dice, fixed, t),
                           roll=Roll(dice, t.rolls["die"], fixed),
                           label_en=f"{item.name}: {t.derived[hit].label_en}")


def _talent_counts(run: _Run, derived_id: str) -> bool:
    """Whether 天賦の才 (「全ての判定にレベルの値を足す」) is added to the roll ``derived_id``.

    Option natural_talent: ``rolls_and_fortune`` (default) every roll, 武運 too, since 武運決定 is
    a 判定 (the seed excepts it by name where it means to: 「判定（武運判定を除く）」); ``rolls``
    every roll but 武運; ``separate`` none (the level shows with the skill only)."""
    reading = run.opts["natural_talent"]
    return reading == "rolls_and_fortune" or (reading == "rolls" and derived_id != "fortune")


def _as_die(run: _Run, derived_id: str, kind: str, skill: Skill, level: int) -> bool:
    """Whether ``skill`` adds ＋１ｄ here: a roll, a per-level-1 skill, at level 4."""
    if kind != "roll" or skill.per_level != 1 or level != run.t.rolls["die_at_level"]:
        return False
    # Option miracle_four=plus: 武運 is [２ｄ＋ミラクル] read literally, ミラクル 4 adds 4.
    return not (derived_id == "fortune" and run.opts["miracle_four"] == "plus")


# --- written values --------------------------------------------------------------------------------

def _written(value: Any) -> str:
    """A value as compared with what a sheet wrote: width, case, spaces, d6/d and a leading + alike."""
    text = unicodedata.normalize("NFKC", str(value)).casefold().replace(" ", "").replace("d6", "d")
    return text[1:] if text.startswith("+") else text


def _compare_written(run: _Run) -> None:
    """A value the sheet wrote (``derived`` objects) that differs from the computed one."""
    for key, forms in run.forms.items():
        written = pointers.get(run.doc, key)
        if written is None or isinstance(written, (Mapping, list)):
            continue
        if _written(written) not in forms:
            run.find("MG_DERIVED_MISMATCH", key, **both("label", *run.labels[key]), declared=written,
                     computed=run.out.value(key))

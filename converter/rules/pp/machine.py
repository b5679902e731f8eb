"""The machine block of a `pp` sheet: described and type-checked, never priced (seed 003 has no
costs for machines). Each check is a small generator of findings; the fields come from the tables.
"""
from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any, Iterator

from ...core.evaluation import Derived
from ...core.findings import Finding
from ...core.pointers import pointer
from ..tables_file import both
from .skills import name_key
from .tables import Field, PpTables
from ...core.coerce import as_int, as_list

# What a field's type needs, in each language (PP_MACHINE_TYPE's expected_ja / expected_en).
_EXPECTED = {"integer": ("整数", "a whole number"), "number": ("数値", "a number"),
             "boolean": ("true/false", "true or false"), "string": ("文字列", "text"),
             "pair": ("２つの整数", "two whole numbers"), "enum": ("選択肢の１つ", "one of the choices"),
             "enum_list": ("選択肢のリスト", "a list of the choices")}


def _expected(kind: str) -> dict[str, str]:
    ja, en = _EXPECTED[kind]
    return {"expected_ja": ja, "expected_en": en}


def _label(f: Field) -> dict[str, str]:
    """The field's name in a finding, in each language (label_ja, label_en)."""
    return both("label", f.label, f.label_en)


def _parts(f: Field) -> Iterator[tuple[str, dict[str, str]]]:
    """Each figure of a pair field: its id, and its name in each language (回避修正（回避）)."""
    for (pid, plabel, _), plabel_en in zip(f.parts, f.parts_en, strict=True):
        yield pid, both("label", f"{f.label}（{plabel}）", f"{f.label_en} ({plabel_en})")


def check_machine(machine: Mapping[str, Any], t: PpTables) -> Iterator[Finding]:
    """Every type, range and choice problem of the machine block, under ``/machine``."""
    yield from check_fields(machine, t.machine_fields, "/machine", t)
    for i, w in enumerate(as_list(machine.get("weapons"))):
        if isinstance(w, Mapping):
            yield from check_fields(w, t.weapon_fields, pointer("machine", "weapons", i), t)
    for i, alt in enumerate(as_list(machine.get("alt_speeds"))):
        if isinstance(alt, Mapping) and "speed" in alt:
            yield from check_value(t.machine_field("speed"), alt["speed"],
                                   pointer("machine", "alt_speeds", i, "speed"), t)


def check_fields(block: Mapping[str, Any], fields: list[Field], where: str,
                 t: PpTables) -> Iterator[Finding]:
    """The fields present in ``block`` checked against their specs (absence is the schema's)."""
    for f in fields:
        if f.id in block:
            yield from check_value(f, block[f.id], f"{where}/{f.id}", t)


def check_value(f: Field, value: Any, where: str, t: PpTables) -> Iterator[Finding]:
    """One field's value: its type, its minimum, its choices."""
    if value is None:
        if not f.nullable:
            yield Finding("PP_MACHINE_TYPE", where, {**_label(f), "value": "null",
                                                     **_expected(f.type)})
        return
    if f.type == "pair":
        if not isinstance(value, Mapping):
            yield Finding("PP_MACHINE_TYPE", where, {**_label(f), "value": _shown(value),
                                                     **_expected("pair")})
            return
        for pid, labels in _parts(f):
            if pid in value and as_int(value[pid]) is None:
                yield Finding("PP_MACHINE_TYPE", f"{where}/{pid}",
                              {**labels, "value": _shown(value[pid]), **_expected("integer")})
        return
    if f.type in ("enum", "enum_list"):
        yield from _check_choices(f, value, where, t)
        return
    ok = {"integer": as_int(value) is not None,
          "number": isinstance(value, (int, float)) and not isinstance(value, bool),
          "boolean": isinstance(value, bool),
          "string": isinstance(value, str)}[f.type]
    if not ok:
        yield Finding("PP_MACHINE_TYPE", where, {**_label(f), "value": _shown(value),
                                                 **_expected(f.type)})
    elif f.minimum is not None and value < f.minimum:
        yield Finding("PP_MACHINE_MINIMUM", where, {**_label(f), "value": value,
                                                    "limit": f.minimum})


def _shown(value: Any) -> str:
    """A value as JSON, so "2" (text) and 2 (a number) read differently in a message."""
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def _check_choices(f: Field, value: Any, where: str, t: PpTables) -> Iterator[Finding]:
    choices = t.choices(f.table or "")
    values = value if f.type == "enum_list" else [value]
    if f.type == "enum_list" and not isinstance(value, list):
        yield Finding("PP_MACHINE_TYPE", where, {**_label(f), "value": _shown(value),
                                                 **_expected(f.type)})
        return
    for k, v in enumerate(values):
        at = f"{where}/{k}" if f.type == "enum_list" else where
        if isinstance(v, (list, dict)):  # a list or object where a choice goes: never one
            v = _shown(v)
        elif v in choices:
            continue
        spelled = _spelling(f.table or "", v, t)
        if spelled:
            yield Finding("PP_MACHINE_CHOICE_SPELLING", at, {**_label(f), "value": v,
                                                             "expected": spelled})
        else:
            yield Finding("PP_MACHINE_CHOICE", at, {**_label(f), "value": v,
                                                    "choices": list(choices)})


def _spelling(table: str, value: Any, t: PpTables) -> str | None:
    """The id a differently spelled choice means (Ｄ, d, 大破 → D), if any."""
    if not isinstance(value, str):
        return None
    key = name_key(value)
    return next((row["id"] for row in t.raw[table]
                 if key in {name_key(row["id"]), name_key(row["label"]), *map(name_key, row.get("synonyms", ()))}),
                None)


# --- 回避修正: two figures the seed defines as sums ------------------------------------------------

EVASION = "evasion_modifier"


def evasion_sums(machine: Mapping[str, Any], t: PpTables) -> dict[str, int]:
    """Each 回避修正 figure whose terms are whole numbers, as the sum the seed defines: dodge =
    メインシステムの回避修正＋機動性 (②回避判定), parry = メインシステムの回避修正＋作業性 (②－ａ「受け」)."""
    f = t.machine_field(EVASION)
    out: dict[str, int] = {}
    for pid, _, _ in f.parts:
        values = [as_int(machine.get(term)) for term in f.sum_of(pid)]
        whole = [v for v in values if v is not None]
        if values and len(whole) == len(values):
            out[pid] = sum(whole)
    return out


def check_evasion_modifier(machine: Mapping[str, Any], t: PpTables) -> Iterator[Finding]:
    """A typed 回避修正 figure that differs from its sum is a warning at that figure. A sheet that
    does not record a term (an older one: no メインシステムの回避修正) keeps its typed figures as
    written, and an info says they were not checked: the report names what it took on trust."""
    f = t.machine_field(EVASION)
    typed = machine.get(EVASION)
    if not isinstance(typed, Mapping):
        return
    fields = {x.id: x for x in t.machine_fields}
    terms = list(dict.fromkeys(term for pid, _, _ in f.parts for term in f.sum_of(pid)))
    missing = [fields[term] for term in terms if term not in machine]
    if missing:
        yield Finding("PP_EVASION_MODIFIER_UNCHECKED", f"/machine/{missing[0].id}",
                      both("missing", "・".join(x.label for x in missing),
                           ", ".join(x.label_en for x in missing)))
    sums = evasion_sums(machine, t)
    for pid, labels in _parts(f):
        value = as_int(typed.get(pid))
        if value is None or pid not in sums or value == sums[pid]:
            continue
        parts = [(fields[term], as_int(machine[term])) for term in f.sum_of(pid)]
        yield Finding("PP_EVASION_MODIFIER_MISMATCH", f"/machine/{EVASION}/{pid}", {
            **labels,
            **both("sum", " ＋ ".join(f"{x.label} {v}" for x, v in parts),
                   " + ".join(f"{x.label_en} {v}" for x, v in parts)),
            "value": value, "expected": sums[pid]})


def machine_derived(machine: Mapping[str, Any], skill_levels: Mapping[str, int],
                    t: PpTables) -> list[Derived]:
    """What the machine sheet shows beside its figures: both 回避修正 sums, damage gauges per
    weapon, a melee weapon's evasion target, the explosion's penetration."""
    out: list[Derived] = []
    f = t.machine_field(EVASION)
    sums = evasion_sums(machine, t)
    for pid, labels in _parts(f):
        if pid in sums:
            out.append(Derived(f"/derived/machine/{EVASION}/{pid}", labels["label_ja"], sums[pid],
                               label_en=labels["label_en"]))
    evasion = next(f for f in t.weapon_fields if f.id == "evasion_target")
    workability = as_int(machine.get("workability"))
    for i, w in enumerate(as_list(machine.get("weapons"))):
        if not isinstance(w, Mapping):
            continue
        at = pointer("derived", "machine", "weapons", i)
        damage = w.get("damage")
        dc = t.damage_classes.get(damage) if isinstance(damage, str) else None  # a list: reported
        if dc is not None:
            # ④ダメージ決定: Ｌ１個、Ｍ２個、Ｓ５個、Ｄ１０個
            out.append(Derived(f"{at}/gauges", f"{_name(w, i)}: ダメージゲージ", dc.gauges,
                               label_en=f"{_name(w, i, 'en')}: damage gauges"))
        base = as_int(w.get("evasion_target"))
        if base is None:
            continue
        if w.get("melee") is True:
            # ②回避判定: 格闘兵器なら「操縦者の＜機動格闘＞」＋「機体の作業性」＋「武器の回避目標値」
            if workability is not None:
                out.append(Derived(f"{at}/evasion_target", f"{_name(w, i)}: {evasion.label}",
                                   skill_levels.get("mobile_melee", 0) + workability + base,
                                   label_en=f"{_name(w, i, 'en')}: {evasion.label_en}"))
        else:
            out.append(Derived(f"{at}/evasion_target", f"{_name(w, i)}: {evasion.label}", base,
                               label_en=f"{_name(w, i, 'en')}: {evasion.label_en}"))
    weight = machine.get("weight")
    if isinstance(weight, (int, float)) and not isinstance(weight, bool) and weight >= 0:
        # ■機体の破壊: 「機体重量（トン数、端数切り上げ）＋１Ｄ１０」を貫通力としたダメージ
        out.append(Derived("/derived/machine/explosion_penetration", "機体の破壊: 貫通力",
                           f"{math.ceil(weight)}+{t.raw['explosion']['dice']}",
                           label_en="Machine destruction: penetration"))
    return out


def _name(weapon: Mapping[str, Any], index: int, lang: str = "ja") -> str:
    name = weapon.get("name")
    if isinstance(name, str) and name:
        return name
    return f"weapon {index + 1}" if lang == "en" else f"武器{index + 1}"

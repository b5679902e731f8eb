"""The `pp` rules sheet: meanings, cost figures, skill lists and dropdowns from the rule tables.

The input sheets' formulas look these up by defined name, so the workbook prices a character
with the figures the engine reads (one source: ``rules/pp/tables.toml``). The skill lists are
the seed's, the document's own ``skill_list`` and a group's list given as context (``--skills``):
they fill the skill dropdown and the table that resolves a typed name to its skill.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Mapping

from ...core.errors import OutputError
from ...rules.pp.skills import (SkillDef, SkillList, name_key, parse_entry, seed_skills,
                               skill_list)
from ...rules.pp.tables import ATTRIBUTE_IDS, tables
from ..layout import a1
from ..rules_sheet import RulesSheetWriter
from ..system_sheet import FALSE, TRUE

SOURCE_LABELS = {"seed": "本文", "sheet": "シート", "context": "卓のリスト"}
JOIN = "、"


def sheet_key(name: str) -> str:
    """The key the sheet's 照合 cells fold a typed name to (the tables' ``[name_key]``)."""
    return tables().names.excel_value(name)


def skill_keys(skills: SkillList) -> list[tuple[str, SkillDef]]:
    """The rules sheet's 照合キー rows: (key, skill) for every name of every listed skill, the key
    as the sheet folds a typed name (a value, from the one name-key specification). Each name's
    key, and its engine key's, so that a name typed in NFKC's own form (1 for a list's ①) is
    found too; the first row of a key wins, as the engine's list keeps a name's first skill."""
    rows, seen = [], set()
    for d in skills:
        for n in d.names():
            for k in (sheet_key(n), sheet_key(name_key(n))):
                if k and k not in seen:
                    seen.add(k)
                    rows.append((k, d))
    return rows


@lru_cache(maxsize=1)
def pp_lists() -> dict[str, list[tuple[Any, str]]]:
    """The fixed dropdowns: list id → [(document value, label shown)]."""
    t = tables()
    return {
        "attributes": [(a, t.attributes[a].label) for a in ATTRIBUTE_IDS],
        "damage": [(d, d) for d in t.damage_classes],
        "engagements": list(t.engagements.items()),
        "bool": [(True, TRUE), (False, FALSE)],
    }


def label_of(list_id: str, value: Any) -> str:
    return dict(pp_lists()[list_id])[value]


@dataclass(frozen=True)
class SkillSources:
    """The skill lists a workbook knows, each as given, and merged as the engine merges them."""

    sheet: tuple[SkillDef, ...] = ()
    context: tuple[SkillDef, ...] = ()

    @property
    def merged(self) -> SkillList:
        return skill_list(self.sheet, self.context)

    def rows(self) -> Iterable[tuple[str, SkillDef]]:
        for d in seed_skills():
            yield "seed", d
        for d in self.sheet:
            yield "sheet", d
        for d in self.context:
            yield "context", d


def skill_sources(doc: Mapping[str, Any] | None, context: Mapping[str, Any]) -> SkillSources:
    """The document's ``skill_list`` (entries the engine cannot read are left to its findings)
    and the context's ``skills`` (SkillDefs, names or entries; a bad entry stops the writer)."""
    sheet = []
    raw_list = doc.get("skill_list") if doc else None
    for raw in raw_list if isinstance(raw_list, list) else []:
        try:
            sheet.append(parse_entry(raw, "sheet"))
        except ValueError:
            continue
    return SkillSources(tuple(sheet), tuple(context_skills(context)))


def context_skills(context: Mapping[str, Any]) -> list[SkillDef]:
    raw = context.get("skills") if context else None
    if raw is None:
        return []
    out = []
    for i, entry in enumerate(raw):
        if isinstance(entry, SkillDef):
            out.append(entry)
            continue
        try:
            out.append(parse_entry(entry, "context"))
        except ValueError as exc:
            raise OutputError(f"skill list entry {i + 1}: {exc}") from None
    return out


def write_rules_sheet(wb, ws, sheet: str, options: Mapping[str, str], fmt: dict[str, Any],
                      sources: SkillSources) -> None:
    """Write the tables, lists and options to ``ws`` (an XlsxWriter worksheet) and name them."""
    t = tables()
    raw = t.raw
    rs = RulesSheetWriter(wb, ws, sheet, fmt)

    # Cost figures, one named cell each (rules.attribute.per, rules.skill.max, ...).
    al, sl, spl = t.attribute_ladder, t.skill_ladder, t.specialization_ladder
    rows = [
        ("attribute", "能力値", al.start, al.minimum, al.maximum, al.per, "新しい値×単価（1→0 は 1 返却）"),
        ("skill", "技能", sl.start, sl.start, sl.maximum, sl.per, "新しいレベル×単価"),
        ("specialization", "専門化", None, spl.minimum, spl.maximum, spl.per, "技能レベルより上の新しいレベル×単価"),
        ("combat_boost", "コンバット・ブースト", t.combat_boost_start, t.combat_boost_start, None,
         t.combat_boost_price, "初期値から１点ごとに単価"),
        ("feat", "特技", None, None, None, t.feat_price, "１つごとに単価（選択ルール）"),
        ("budget", "総ＰＰ", raw["budget"]["default"], None, None, None,
         f"空欄なら初期値（一般人はおよそ {raw['budget']['ordinary_person']}）"),
    ]
    first = rs.row + 2
    rs.block("costs", ["項目", "初期値", "下限", "上限", "単価", "規則"],
             [[label, start, lo, hi, per, rule] for _, label, start, lo, hi, per, rule in rows])
    for i, (key, *_rest) in enumerate(rows):
        for j, what in enumerate(("start", "min", "max", "per"), start=1):
            rs.names[f"rules.{key}.{what}"] = f"{rs.q}!{a1(first + i, j, True)}"

    rs.block("attribute_meanings", ["能力値", "意味"],
             [[v, m] for v, m in sorted(t.attribute_meanings.items())])
    rs.block("skill_meanings", ["技能レベル", "意味"],
             [[v, m] for v, m in sorted(t.skill_meanings.items())])
    rs.block("damage_classes", ["破壊力", "表記", "ゲージ"],
             [[d.id, d.label, d.gauges] for d in t.damage_classes.values()])

    # The lists as given (a group's list is read back from here), then the merged lookup.
    attr_label = {a: t.attributes[a].label for a in ATTRIBUTE_IDS}
    rs.block("skills", ["技能名", "既定の能力値", "小分類", "別名", "出典"],
             [[d.label, attr_label.get(d.attribute or "", ""), JOIN.join(s.label for s in d.specializations),
               JOIN.join(d.synonyms), SOURCE_LABELS[src]] for src, d in sources.rows()])
    merged = sources.merged
    rs.block("skill_names", ["照合キー", "技能名", "既定の能力値"],
             [[k, d.label, attr_label.get(d.attribute or "", "")] for k, d in skill_keys(merged)])

    specs: list[str] = []
    for d in merged:
        specs.extend(s.label for s in d.specializations if s.label not in specs)
    lists = dict(pp_lists())
    lists["skills"] = [(d.label, d.label) for d in merged]
    lists["specializations"] = [(s, s) for s in specs]
    col = rs.lists(lists)
    rs.options("pp", options, col)
    rs.define()


def read_context_skills(rd) -> list[SkillDef]:
    """The group's list (出典 卓のリスト) as the rules sheet holds it."""
    out = []
    n = rd.named.length("rules.skills.1")
    for i in range(n):
        if rd.raw("rules.skills.5", i) != SOURCE_LABELS["context"]:
            continue
        label = rd.raw("rules.skills.1", i)
        if not isinstance(label, str) or not name_key(label):
            continue
        attr = rd.raw("rules.skills.2", i)
        specs = _split(rd.raw("rules.skills.3", i))
        synonyms = _split(rd.raw("rules.skills.4", i))
        entry: dict[str, Any] = {"name": label, "synonyms": synonyms, "specializations": specs}
        if attr:
            entry["attribute"] = attr
        try:
            out.append(parse_entry(entry, "workbook"))
        except ValueError:
            continue
    return out


def _split(value: Any) -> list[str]:
    if not isinstance(value, str):
        return []
    return [p.strip() for p in value.split(JOIN) if p.strip()]

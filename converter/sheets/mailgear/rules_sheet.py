"""The `mailgear` rules sheet: seed 001's fixed tables and the dropdown lists, from tables.toml.

Formulas on the pilot sheet look these ranges up by defined name (``rules.skills``,
``rules.skill_names``, ``rules.stats``, ``list.*``, ``mailgear.options.*``), so the workbook
works with the same figures as the engine.
"""
from __future__ import annotations

from functools import lru_cache
from typing import Any

from ...rules.mailgear.tables import tables
from .formulas import excel_key
from ..rules_sheet import RulesSheetWriter
from ..system_sheet import FALSE, TRUE


@lru_cache(maxsize=1)
def mailgear_lists() -> dict[str, list[tuple[Any, str]]]:
    """Every enumeration of the `mailgear` sheet: list id → [(document value, label shown)]."""
    t = tables()
    return {
        "skills": [(k, s.label) for k, s in t.skills.items()],
        "stats": [(k, t.stat_labels[k]) for k in t.stat_ids],
        "boost_stats": [(k, t.stat_labels[k]) for k in t.custom_boosts],
        "kinds": list(t.kinds.items()),
        "holds": list(t.hold_labels.items()),
        "bands": [(k, b.label) for k, b in t.bands.items()],
        "bool": [(True, TRUE), (False, FALSE)],
    }


def label_of(list_id: str, value: Any) -> str:
    return dict(mailgear_lists()[list_id])[value]


def skill_names() -> list[tuple[str, str]]:
    """(a name a sheet may use, the skill's label): ids, labels and synonyms, first one wins."""
    t = tables()
    out: dict[str, tuple[str, str]] = {}
    for sid, spec in t.raw["skills"].items():
        for name in [spec["label"], sid, *spec.get("synonyms", [])]:
            out.setdefault(excel_key(name), (name, spec["label"]))
    return list(out.values())


def write_rules_sheet(wb, ws, sheet: str, options: dict[str, str], fmt: dict[str, Any]) -> None:
    """Write seed 001's tables and the lists to ``ws`` and name them."""
    t = tables()
    rs = RulesSheetWriter(wb, ws, sheet, fmt)
    targets = {**t.stat_labels, **{k: d.label for k, d in t.derived.items()}, "all_rolls": "全ての判定"}
    rs.block("skills", ["スキル", "最大レベル", "対象", "１レベルあたり", "効果"],
             [[s.label, s.max_level, targets.get(s.target, "") if s.target else "",
               s.per_level if s.target else "", s.effect] for s in t.skills.values()])
    # Names a sheet may give a skill; the third column is the name as compared, computed here
    # from the one name-key specification (the sheet folds a typed name to the same key).
    rs.block("skill_names", ["名前", "スキル", "照合"], [[n, label, excel_key(n)] for n, label in skill_names()])
    rs.block("stats", ["性能", "専用機の強化"],
             [[t.stat_labels[k], t.custom_boosts.get(k, "")] for k in t.stat_ids])
    rs.block("derived", ["派生値", "種類", "元の性能", "本文"],
             [[d.label, "判定" if d.kind == "roll" else "値", t.stat_labels.get(d.stat, "") if d.stat else "",
               d.seed] for d in t.derived.values()])
    rs.block("bands", ["距離", "名前", "最小", "最大"],
             [[b.label, b.name, b.min, b.max] for b in t.bands.values()])
    rs.block("equipment", ["項目", "値"],
             [["スロット", t.slots], ["腕", t.arm_count], ["同じオプションが効果を持つ数", t.option_copies],
              ["専用機の強化項目数", t.custom_count], ["判定ボーナスが＋１ｄになるレベル", t.rolls["die_at_level"]]])
    col = rs.lists(mailgear_lists())
    rs.options("mailgear", options, col)
    ws.set_column(0, 0, 24)
    ws.set_column(4, 4, 40)
    rs.define()

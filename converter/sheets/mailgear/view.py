"""A `mailgear` document as the sheet lays it out, and back.

The sheet shows a skill by its label (or the name the document gave), an item's range bands as
four ○ columns and its effects as one skill, one stat and one text column. Where that cannot say
exactly what the document says (a synonym, bands out of order, two text effects, a malformed
entry), the one mechanism of ``sheets/kept.py`` keeps the difference in the data sheet.
"""
from __future__ import annotations

import json
from typing import Any, Mapping

from ...core.errors import OutputError
from ...rules.mailgear.tables import tables

BANDS = ("cr", "sr", "mr", "lr")
EFFECT_COLUMNS = ("effect_skill", "effect_levels", "effect_stat", "effect_amount", "effect_text")
NO_EFFECTS = "なし"  # 効果（文章） of an option whose effects are known to be none (``[]``)
TEXT_JOIN = "／"
_ITEM_KEYS = ("name", "kind", "slots", "arm", "extra_damage", "energy", "durability", "uses", "notes")


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _text(value: Any) -> str:
    return value if isinstance(value, str) else _json(value)


# --- スキル ----------------------------------------------------------------------------------------

def skill_row(entry: Any) -> dict[str, Any]:
    """A skill as its table row: the label of its id, else the name written, and the level."""
    t = tables()
    if not isinstance(entry, Mapping):
        return {"skill": _text(entry)}
    sid, name = entry.get("id"), entry.get("name")
    if isinstance(sid, str) and sid in t.skills:
        shown: Any = t.skills[sid].label
    elif name is not None:
        shown = name if isinstance(name, str) else _json(name)
    else:
        shown = sid if sid is None or isinstance(sid, str) else _json(sid)
    row = {"skill": shown}
    if "level" in entry:
        row["level"] = entry["level"]
    return row


def skill_entry(row: Mapping[str, Any]) -> dict[str, Any]:
    """A table row read back: a label from the list is the skill's id; other text a name."""
    t = tables()
    out: dict[str, Any] = {}
    text = row.get("skill")
    if text is not None:
        by_label = {s.label: k for k, s in t.skills.items()}
        if text in by_label:
            out["id"] = by_label[text]
        else:
            out["name"] = text
    if "level" in row:
        out["level"] = row["level"]
    return out


# --- 装備 ---------------------------------------------------------------------------------------

def item_row(entry: Any) -> dict[str, Any]:
    """An equipment entry as its table row (bands as ○ columns, effects as three columns)."""
    if not isinstance(entry, Mapping):
        return {"name": _text(entry)}
    t = tables()
    row: dict[str, Any] = {k: entry[k] for k in _ITEM_KEYS if k in entry}
    if "bands" in entry:
        bands = entry["bands"] if isinstance(entry["bands"], list) else []
        for b in BANDS:
            row[f"band_{b}"] = b in bands
    if "effects" in entry:
        effects = entry["effects"] if isinstance(entry["effects"], list) else [entry["effects"]]
        texts: list[str] = []
        for eff in effects:
            if isinstance(eff, Mapping) and "skill" in eff and "effect_skill" not in row:
                sid = t.skill_id(eff["skill"]) if isinstance(eff["skill"], str) else None
                row["effect_skill"] = sid or eff["skill"]
                if "levels" in eff:
                    row["effect_levels"] = eff["levels"]
            elif isinstance(eff, Mapping) and "stat" in eff and "effect_stat" not in row:
                sid = t.stat_id(eff["stat"]) if isinstance(eff["stat"], str) else None
                row["effect_stat"] = sid or eff["stat"]
                if "amount" in eff:
                    row["effect_amount"] = eff["amount"]
            elif isinstance(eff, Mapping) and set(eff) == {"text"} and isinstance(eff["text"], str):
                texts.append(eff["text"])
            else:
                texts.append(_json(eff))
        if texts:
            row["effect_text"] = TEXT_JOIN.join(texts)
        elif not any(k in row for k in EFFECT_COLUMNS):
            row["effect_text"] = NO_EFFECTS
    if "derived" in entry:
        row["derived"] = entry["derived"]
    return row


def item_entry(row: Mapping[str, Any]) -> dict[str, Any]:
    """A table row read back into an equipment entry."""
    out: dict[str, Any] = {k: row[k] for k in _ITEM_KEYS if k in row}
    marks = {b: row.get(f"band_{b}") for b in BANDS}
    if any(v is not None for v in marks.values()):
        out["bands"] = [b for b in BANDS if marks[b] is True]
    effects: list[Any] = []
    if "effect_skill" in row or "effect_levels" in row:
        effects.append({k: row[c] for k, c in (("skill", "effect_skill"), ("levels", "effect_levels"))
                        if c in row})
    if "effect_stat" in row or "effect_amount" in row:
        effects.append({k: row[c] for k, c in (("stat", "effect_stat"), ("amount", "effect_amount"))
                        if c in row})
    text = row.get("effect_text")
    if text is not None and not (text == NO_EFFECTS and not effects):
        effects.append({"text": text})
    if effects or text is not None:
        out["effects"] = effects
    return out


def check_items(doc: Mapping[str, Any], table: str = "equipment", where: str = "装備",
                whose: str = "document") -> None:
    """The sheet computes one skill and one stat effect per item: more is an OutputError."""
    entries = doc.get(table)
    for i, entry in enumerate(entries if isinstance(entries, list) else []):
        effects = entry.get("effects") if isinstance(entry, Mapping) else None
        if not isinstance(effects, list):
            continue
        for kind, label in (("skill", "スキル"), ("stat", "性能")):
            n = sum(1 for e in effects if isinstance(e, Mapping) and kind in e)
            if n > 1:
                raise OutputError(f"{where} {i + 1}: the sheet computes one {label} effect per item, the "
                                  f"{whose} has {n} (/{table}/{i}/effects)")


# --- the document as laid out ------------------------------------------------------------------

def boosts_shown(boosts: Any) -> list[Any]:
    """専用機 boosts as the boost cells show them (ids; anything else as text)."""
    return [b if isinstance(b, str) else _json(b) for b in (boosts if isinstance(boosts, list) else [])]


def shown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document as the sheet lays it out."""
    view = dict(doc)
    view["skills"] = [skill_row(e) for e in (doc.get("skills") if isinstance(doc.get("skills"), list) else [])]
    view["equipment"] = [item_row(e) for e in
                         (doc.get("equipment") if isinstance(doc.get("equipment"), list) else [])]
    gear = doc.get("gear")
    if isinstance(gear, Mapping) and "boosts" in gear:
        view["gear"] = {**gear, "boosts": boosts_shown(gear["boosts"])}
    return view

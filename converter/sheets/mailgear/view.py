"""A `mailgear` document as the sheet lays it out, and back.

The sheet shows a skill by its label (or the name the document gave), an item's range bands as
four ○ columns and its effects as one skill, one stat and one text column on the item's row; a
second (third, ...) skill or stat effect is a row of the 追加効果 table, which names the item by
its row (the catalog's オプションの追加効果 names the option). Where that cannot say exactly what the
document says (a synonym, bands out of order, two text effects, a malformed entry), the one
mechanism of ``sheets/kept.py`` keeps the difference in the data sheet.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, TypeGuard

from ...rules.mailgear.tables import tables

BANDS = ("cr", "sr", "mr", "lr")
EFFECT_COLUMNS = ("effect_skill", "effect_levels", "effect_stat", "effect_amount", "effect_text")
NO_EFFECTS = "なし"  # 効果（文章） of an option whose effects are known to be none (``[]``)
TEXT_JOIN = "／"
ITEM_EFFECTS = "item_effects"  # the 追加効果 table's rows in the sheet's view (never in a document)
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

def _effect_cells(eff: Mapping[str, Any]) -> dict[str, Any]:
    """A skill or stat effect as its cells (``effect_skill``/``effect_levels`` or
    ``effect_stat``/``effect_amount``): the id of a known name, else the name as written."""
    t = tables()
    if "skill" in eff:
        sid = t.skill_id(eff["skill"]) if isinstance(eff["skill"], str) else None
        cells = {"effect_skill": sid or eff["skill"]}
        if "levels" in eff:
            cells["effect_levels"] = eff["levels"]
    else:
        sid = t.stat_id(eff["stat"]) if isinstance(eff["stat"], str) else None
        cells = {"effect_stat": sid or eff["stat"]}
        if "amount" in eff:
            cells["effect_amount"] = eff["amount"]
    return cells


def _split_effects(entry: Mapping[str, Any]) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """An entry's effects as its row's cells (the first skill effect, the first stat effect, the
    texts joined) and the further skill or stat effects, one row each (追加効果)."""
    effects = entry["effects"] if isinstance(entry["effects"], list) else [entry["effects"]]
    row: dict[str, Any] = {}
    more: list[dict[str, Any]] = []
    texts: list[str] = []
    for eff in effects:
        if isinstance(eff, Mapping) and ("skill" in eff or "stat" in eff):
            cells = _effect_cells(eff)
            if any(k in row for k in cells):
                more.append(cells)
            else:
                row.update(cells)
        elif isinstance(eff, Mapping) and set(eff) == {"text"} and isinstance(eff["text"], str):
            texts.append(eff["text"])
        else:
            texts.append(_json(eff))
    if texts:
        row["effect_text"] = TEXT_JOIN.join(texts)
    elif not row:
        row["effect_text"] = NO_EFFECTS
    return row, more


def item_row(entry: Any) -> dict[str, Any]:
    """An equipment entry as its table row (bands as ○ columns, effects as three columns; further
    skill and stat effects are :func:`extra_effects`)."""
    if not isinstance(entry, Mapping):
        return {"name": _text(entry)}
    row: dict[str, Any] = {k: entry[k] for k in _ITEM_KEYS if k in entry}
    if "bands" in entry:
        bands = entry["bands"] if isinstance(entry["bands"], list) else []
        for b in BANDS:
            row[f"band_{b}"] = b in bands
    if "effects" in entry:
        row.update(_split_effects(entry)[0])
    if "derived" in entry:
        row["derived"] = entry["derived"]
    return row


def extra_effects(entry: Any) -> list[dict[str, Any]]:
    """The skill and stat effects of an entry beyond its row's one of each (追加効果 rows)."""
    if not isinstance(entry, Mapping) or "effects" not in entry:
        return []
    return _split_effects(entry)[1]


def effect_entries(row: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The skill and stat effects one row's effect cells give (a skill first)."""
    effects: list[dict[str, Any]] = []
    if "effect_skill" in row or "effect_levels" in row:
        effects.append({k: row[c] for k, c in (("skill", "effect_skill"), ("levels", "effect_levels"))
                        if c in row})
    if "effect_stat" in row or "effect_amount" in row:
        effects.append({k: row[c] for k, c in (("stat", "effect_stat"), ("amount", "effect_amount"))
                        if c in row})
    return effects


def item_entry(row: Mapping[str, Any], more: Sequence[Mapping[str, Any]] = ()) -> dict[str, Any]:
    """A table row read back into an equipment entry; ``more``: its 追加効果 rows."""
    out: dict[str, Any] = {k: row[k] for k in _ITEM_KEYS if k in row}
    marks = {b: row.get(f"band_{b}") for b in BANDS}
    if any(v is not None for v in marks.values()):
        out["bands"] = [b for b in BANDS if marks[b] is True]
    effects = effect_entries(row)
    for extra in more:
        effects += effect_entries(extra)
    text = row.get("effect_text")
    if text is not None and not (text == NO_EFFECTS and not effects):
        effects.append({"text": text})
    if effects or text is not None:
        out["effects"] = effects
    return out


def item_effect_rows(items: list[Any]) -> list[dict[str, Any]]:
    """The 追加効果 table: each further effect with the row of its item (1 = the first row)."""
    return [{"item": i + 1, **cells} for i, entry in enumerate(items) for cells in extra_effects(entry)]



def is_number(value: Any) -> TypeGuard[int | float]:
    """A number as a cell holds one (a bool is not)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool)

# --- the document as laid out ------------------------------------------------------------------

def boosts_shown(boosts: Any) -> list[Any]:
    """専用機 boosts as the boost cells show them (ids; anything else as text)."""
    return [b if isinstance(b, str) else _json(b) for b in (boosts if isinstance(boosts, list) else [])]


def shown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The document as the sheet lays it out."""
    view = dict(doc)
    skills, items = doc.get("skills"), doc.get("equipment")
    view["skills"] = [skill_row(e) for e in (skills if isinstance(skills, list) else [])]
    items = items if isinstance(items, list) else []
    view["equipment"] = [item_row(e) for e in items]
    view[ITEM_EFFECTS] = item_effect_rows(items)
    gear = doc.get("gear")
    if isinstance(gear, Mapping) and "boosts" in gear:
        view["gear"] = {**gear, "boosts": boosts_shown(gear["boosts"])}
    return view

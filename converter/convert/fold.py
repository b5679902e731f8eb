"""Folding an edited conversion back onto its carried source: only the fields the GM changed in
B are converted back, and only their counterparts in A change.

A changed field of B is named by rows of the direction B → A; the rows' other side names its
counterparts in A. A weapon keeps its place: B's weapon i is the model's weapon i, which came from
the weapon A's lift read at ``Weapon.source`` (up's 撃ち分け variants take no place in B), so a
counterpart under B's weapon i lands on that weapon of A. Any other ``*`` (skills, engagements)
names the whole list: a pilot's skills convert as a table. A single counterpart is taken only
where the edit moved it (B as edited and B as converted, each converted afresh, differ there), and
a stat of B that sets a field of every weapon of A goes back to the weapons it came from only.
Standard library only.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping as MappingType, Sequence

from ..core.pointers import parse, pointer
from .leaves import Leaves, leaves, matches
from .mapping import Row

#: where each system keeps its weapons (mailgear writes weapons before options)
WEAPON_LISTS = {"up": "/weapons", "mailgear": "/equipment", "pp": "/machine/weapons"}
#: the lists whose items are matched by identity (a skill's id or name), not by place
IDENTITY_LISTS = {"mailgear": ("/skills",), "pp": ("/skills", "/feats")}


@dataclass
class Fold:
    """The source with the edits folded in, what changed in it, and the edits with no counterpart."""

    document: dict[str, Any]
    changed: list[str] = field(default_factory=list)  # pointers of A that took a new value (or went)
    lost: list[str] = field(default_factory=list)  # pointers of B whose edit has nowhere to go in A


def _weapon_index(ptr: str, system: str) -> int | None:
    """The index of the weapon ``ptr`` lies in, if it lies in one."""
    base = parse(WEAPON_LISTS[system])
    parts = parse(ptr)
    if parts[: len(base)] == base and len(parts) > len(base) and parts[len(base)].isdigit():
        return int(parts[len(base)])
    return None


def _bound(pattern: str, system: str, index: int | None) -> str:
    """``pattern`` with its weapon's ``*`` bound to ``index`` (other ``*`` left to name the list)."""
    prefix = WEAPON_LISTS[system] + "/*"
    if index is not None and pattern.startswith(prefix):
        return f"{WEAPON_LISTS[system]}/{index}{pattern[len(prefix):]}"
    return pattern


def _home(ptr: str, system: str, homes: Sequence[str]) -> str | None:
    """Where a leaf of the fresh A lands in the carried A: the same pointer, but a weapon's
    leaves under the weapon its lift came from (None: a weapon A does not have)."""
    index = _weapon_index(ptr, system)
    if index is None:
        return ptr
    if index >= len(homes):
        return None
    rest = parse(ptr)[len(parse(WEAPON_LISTS[system])) + 1:]
    return homes[index] + pointer(*rest) if rest else homes[index]


def fold(original: MappingType[str, Any], fresh: MappingType[str, Any], edited: Sequence[str],
         rows: Sequence[Row], b_system: str, a_system: str, homes: Sequence[str],
         unedited: MappingType[str, Any] | None = None, strength: Sequence[Any] = (),
         identity: Callable[[Any], str | None] | None = None) -> Fold:
    """``original`` (the carried A) with the counterparts of the ``edited`` fields of B taken from
    ``fresh`` (B as edited, converted into A afresh); ``homes`` are the source pointers of A's
    lifted weapons, in the model's order.

    ``unedited`` (B as it was converted, converted into A afresh) tells what the edit moved: a
    single counterpart is taken only where ``fresh`` differs from it (so rounding on the way
    never rewrites a field the edit did not reach), and a gear or pilot stat of B whose
    counterparts lie in every weapon of A (mailgear's CR..LR, up's accuracy) goes back only to the
    weapons that stat came from: those the edit moved whose value the unedited way back kept
    (else the nearest to it), never to every weapon reaching the band. ``strength`` ranks the
    weapons of ``unedited`` (their accuracy in pips, 誘導 included): of those kept, the band's best.
    ``identity`` names a list item (a skill, a feat): the lists of IDENTITY_LISTS fold by it."""
    patterns: list[str] = []
    edit_of: dict[str, list[str]] = {}  # each pattern's edits
    lost = []
    for ptr in edited:
        named = [r for r in rows if any(matches(p, ptr) for p in r.sources) and r.targets]
        if not named:
            lost.append(ptr)
            continue
        index = _weapon_index(ptr, b_system)
        for t in (_bound(t, a_system, index) for r in named for t in r.targets):
            patterns.append(t)
            edit_of.setdefault(t, []).append(ptr)
    before, after = leaves(original), leaves(fresh)
    base = leaves(unedited).values if unedited is not None else None
    values = dict(before.values)
    changed: list[str] = []
    wanted = {}
    spread: dict[str, tuple[str, Any]] = {}  # a weapon leaf moved by a stat of B: fresh pointer -> home, value
    for ptr, value in after.values.items():
        home = _home(ptr, a_system, homes)
        hits = [p for p in patterns if matches(p, ptr)]
        if home is None or not hits:
            continue
        if base is None or any(_listed(p, a_system) for p in hits):
            wanted[home] = value
        elif ptr in base and _same(base[ptr], value):
            continue  # the edit did not move it
        elif all(_spread(p, a_system) for p in hits):
            spread[ptr] = (home, value)
        else:
            wanted[home] = value
    wanted.update(_origins(spread, before.values, base or {},
                           {p: strength[i] for p in spread if (i := _weapon_index(p, a_system)) is not None
                            and i < len(strength) and strength[i] is not None}))
    for home in [h for h in wanted if _under_scalar(h, before.values)]:
        # a counterpart inside what A holds as a plain value (a pp character's machine: null)
        del wanted[home]
        there = _fresh_of(home, a_system, homes)
        lost.extend(e for p in patterns if matches(p, there) for e in edit_of[p] if e not in lost)
    # a counterpart the fresh A no longer has goes, when the edit took it (the unedited way back
    # had it: a pp feat no mailgear skill carried stays)
    for ptr in list(values):
        there = _fresh_of(ptr, a_system, homes)
        if ptr not in wanted and there not in after.values and any(matches(p, there) for p in patterns) \
                and not _unplaced(ptr, a_system, homes) and (base is None or there in base):
            del values[ptr]
            changed.append(ptr)
    for ptr in list(values):  # and with it the rest of a list's item the fresh list no longer has
        if ptr not in wanted and not _unplaced(ptr, a_system, homes) \
                and _item_gone(ptr, patterns, a_system, after.values) \
                and (base is None or not _item_gone(ptr, patterns, a_system, base)):
            del values[ptr]
            changed.append(ptr)
    for ptr, value in wanted.items():
        if ptr not in values or not _same(values[ptr], value):
            values[ptr] = value
            changed.append(ptr)
    shapes = {home: kind for ptr, kind in after.shapes.items()
              if (home := _home(ptr, a_system, homes)) is not None}
    shapes.update(before.shapes)
    order = list(before.values) + [p for p in wanted if p not in before.values]
    document = Leaves({p: values[p] for p in order if p in values}, shapes).rebuild()
    if identity is not None and unedited is not None:
        for where in IDENTITY_LISTS.get(a_system, ()):
            if any(_listed(p, a_system) and p.startswith(where + "/") for p in patterns):
                changed = _by_identity(document, changed, where, original, fresh, unedited, identity)
    return Fold(document, changed, lost)


def _items(doc: Any, where: str) -> list[Any]:
    node = doc
    for part in parse(where):
        node = node.get(part) if isinstance(node, dict) else None
    return node if isinstance(node, list) else []


def _by_identity(document: dict[str, Any], changed: list[str], where: str, original: MappingType[str, Any],
                 fresh: MappingType[str, Any], unedited: MappingType[str, Any],
                 identity: Callable[[Any], str | None]) -> list[str]:
    """The list at ``where`` (a pilot's skills, a character's feats) folded item by item, matched
    by identity (``identity``: an item's name or key), not by place: an item the edit did not move
    (fresh and the unedited way back agree on it) stays as A had it; one it moved takes only the
    fields it moved; one it added comes last; one it removed goes. A's order is kept, so reordering
    or inserting in B changes only the item concerned."""
    def keyed(items: list[Any]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for item in items:
            key = identity(item)
            if key is not None:
                out.setdefault(key, item)
        return out

    was = _items(original, where)
    now, then = keyed(_items(fresh, where)), keyed(_items(unedited, where))
    merged, seen = [], set()
    for item in was:
        key = identity(item)
        if key is None or key in seen:
            merged.append(item)
            continue
        seen.add(key)
        if key in then and key not in now:
            continue  # the edit removed it
        if key in then and _same_item(now[key], then[key]) or key not in now:
            merged.append(item)  # the edit did not reach it
            continue
        base = then.get(key, {}) if isinstance(then.get(key), dict) else {}
        moved = {f: v for f, v in now[key].items() if f not in base or not _same_item(base[f], v)} \
            if isinstance(now[key], dict) else {}
        gone = [f for f in base if isinstance(now[key], dict) and f not in now[key]]
        merged.append({**{f: v for f, v in item.items() if f not in gone}, **moved} if isinstance(item, dict)
                      else now[key])
    merged += [item for key, item in now.items() if key not in seen and key not in then]
    parts = parse(where)
    parent: Any = document
    for part in parts[:-1]:
        parent = parent.setdefault(part, {})
    before = {p: v for p, v in leaves(was).values.items()}
    if merged or parts[-1] in parent:
        parent[parts[-1]] = merged
    after = leaves(merged).values
    inside = [c for c in changed if not (c == where or c.startswith(where + "/"))]
    return inside + [where + p for p in dict.fromkeys([*before, *after])
                     if p not in before or p not in after or not _same_item(before[p], after[p])]


def _same_item(x: Any, y: Any) -> bool:
    return json.dumps(x, sort_keys=True, ensure_ascii=False) == json.dumps(y, sort_keys=True, ensure_ascii=False)


def _item_gone(ptr: str, patterns: Sequence[str], system: str, fresh: MappingType[str, Any]) -> bool:
    """Whether ``ptr`` lies in an item of a list that comes back whole (a pp character's skills)
    at a place the fresh list does not reach: its other fields (notes) go with the item."""
    parts = parse(ptr)
    for pattern in patterns:
        if not _listed(pattern, system) or pattern.startswith(WEAPON_LISTS[system] + "/"):
            continue
        want = parse(pattern)
        star = want.index("*") if "*" in want else -1
        if star < 0 or len(parts) <= star or parts[:star] != want[:star] or not parts[star].isdigit():
            continue
        item = pointer(*parts[: star + 1])
        if not any(p == item or p.startswith(item + "/") for p in fresh):
            return True
    return False


def _unplaced(ptr: str, system: str, homes: Sequence[str]) -> bool:
    """Whether ``ptr`` lies in an item of A's weapon list no lifted weapon came from (a mailgear
    option among the weapons): the fresh A's list has no place for it, so it stays as it is."""
    return _weapon_index(ptr, system) is not None and not any(ptr == h or ptr.startswith(h + "/") for h in homes)


def _under_scalar(ptr: str, values: MappingType[str, Any]) -> bool:
    """Whether a proper prefix of ``ptr`` is a leaf (a value, not a container) of ``values``."""
    parts = parse(ptr)
    return any(pointer(*parts[:k]) in values for k in range(1, len(parts)))


def _same(x: Any, y: Any) -> bool:
    return (type(x), x) == (type(y), y)


def _spread(pattern: str, system: str) -> bool:
    """Whether ``pattern`` names one field of every weapon (an unbound weapon ``*``, no other)."""
    prefix = WEAPON_LISTS[system] + "/*"
    return pattern.startswith(prefix) and "*" not in pattern[len(prefix):]


def _listed(pattern: str, system: str) -> bool:
    """Whether ``pattern`` names a whole list (a ``*`` not a weapon's): such a list comes back whole."""
    parts = parse(pattern)
    base = parse(WEAPON_LISTS[system])
    if parts[: len(base)] == base and len(parts) > len(base):
        parts = parts[len(base) + 1:]
    return "*" in parts or "**" in parts


def _origins(spread: dict[str, tuple[str, Any]], original: MappingType[str, Any],
             base: MappingType[str, Any], strength: MappingType[str, Any]) -> dict[str, Any]:
    """Of the weapon leaves a stat's edit moved, those the stat came from: the ones the unedited
    way back kept as they were in A, the best of them (taking the fresh value); if none, those nearest in A to what
    it gave, moved by as much as the edit moved it (the target may have to snap it to a step)."""
    kept = {ptr: (home, value) for ptr, (home, value) in spread.items()
            if home in original and ptr in base and _same(original[home], base[ptr])}
    if kept:  # of those, the band's best (a weapon's own offset may travel with it: 「命中-1」)
        if all(ptr in strength for ptr in kept):
            top = max(strength[ptr] for ptr in kept)
            return {home: value for ptr, (home, value) in kept.items() if strength[ptr] == top}
        return {home: value for home, value in kept.values()}
    if not spread:
        return {}
    gaps = {ptr: abs(original[h] - base[ptr]) for ptr, (h, _) in spread.items()
            if _number(original.get(h)) and _number(base.get(ptr))}
    if not gaps:
        return {home: value for home, value in spread.values()}
    near = min(gaps.values())
    return {spread[ptr][0]: original[spread[ptr][0]] + (spread[ptr][1] - base[ptr])
            for ptr, gap in gaps.items() if gap == near}


def _number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


def _fresh_of(ptr: str, system: str, homes: Sequence[str]) -> str:
    """The fresh A's pointer for a leaf of the carried A (the inverse of ``_home``)."""
    for index, home in enumerate(homes):
        if ptr == home or ptr.startswith(home + "/"):
            return f"{WEAPON_LISTS[system]}/{index}{ptr[len(home):]}"
    return ptr

"""Folding an edited conversion back onto its carried source: only the fields the GM changed in
B are converted back, and only their counterparts in A change.

A changed field of B is named by rows of the direction B → A; the rows' other side names its
counterparts in A. A weapon keeps its place: B's weapon i is the model's weapon i, which came from
the weapon A's lift read at ``Weapon.source`` (up's 撃ち分け variants take no place in B), so a
counterpart under B's weapon i lands on that weapon of A. Any other ``*`` (skills, engagements)
names the whole list: a pilot's skills convert as a table. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping as MappingType, Sequence

from ..core.pointers import parse, pointer
from .leaves import Leaves, leaves, matches
from .mapping import Row

#: where each system keeps its weapons (mailgear writes weapons before options)
WEAPON_LISTS = {"up": "/weapons", "mailgear": "/equipment", "pp": "/machine/weapons"}


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
         rows: Sequence[Row], b_system: str, a_system: str, homes: Sequence[str]) -> Fold:
    """``original`` (the carried A) with the counterparts of the ``edited`` fields of B taken from
    ``fresh`` (B as edited, converted into A afresh); ``homes`` are the source pointers of A's
    lifted weapons, in the model's order."""
    patterns: list[str] = []
    lost = []
    for ptr in edited:
        named = [r for r in rows if any(matches(p, ptr) for p in r.sources) and r.targets]
        if not named:
            lost.append(ptr)
            continue
        index = _weapon_index(ptr, b_system)
        patterns.extend(_bound(t, a_system, index) for r in named for t in r.targets)
    before, after = leaves(original), leaves(fresh)
    values = dict(before.values)
    changed: list[str] = []
    wanted = {}
    for ptr, value in after.values.items():
        home = _home(ptr, a_system, homes)
        if home is not None and any(matches(p, ptr) for p in patterns):
            wanted[home] = value
    for ptr in list(values):  # a counterpart the fresh A no longer has goes
        if ptr not in wanted and any(matches(p, _fresh_of(ptr, a_system, homes)) for p in patterns):
            del values[ptr]
            changed.append(ptr)
    for ptr, value in wanted.items():
        if ptr not in values or (type(values[ptr]), values[ptr]) != (type(value), value):
            values[ptr] = value
            changed.append(ptr)
    shapes = {home: kind for ptr, kind in after.shapes.items()
              if (home := _home(ptr, a_system, homes)) is not None}
    shapes.update(before.shapes)
    order = list(before.values) + [p for p in wanted if p not in before.values]
    document = Leaves({p: values[p] for p in order if p in values}, shapes).rebuild()
    return Fold(document, changed, lost)


def _fresh_of(ptr: str, system: str, homes: Sequence[str]) -> str:
    """The fresh A's pointer for a leaf of the carried A (the inverse of ``_home``)."""
    for index, home in enumerate(homes):
        if ptr == home or ptr.startswith(home + "/"):
            return f"{WEAPON_LISTS[system]}/{index}{ptr[len(home):]}"
    return ptr

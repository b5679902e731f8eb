"""The common model: what each system lifts its document into and lowers from.

Values keep their unit: a :class:`Measure` is a source value with its system and quantity, scaled
once, when a system lowers it (``mapping.Mapping.rescale``). What only one system has stays in the
source's leaves, carried whole. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .leaves import Leaves, leaves

#: the reach bands every system shares (pp's engagement names; mailgear's CR..LR; up's distances)
BANDS = ("close", "short", "medium", "long", "extreme")


@dataclass(frozen=True)
class Measure:
    """A source value in its own unit: ``quantity`` names its anchors, ``field`` the anchor row
    when a system has several for one quantity (pp's durability and toughness)."""

    value: float
    system: str
    quantity: str
    field: str = ""


@dataclass
class Weapon:
    """One weapon: reach as shared bands; damage as a mean (up, mailgear) or a class (pp);
    accuracy in its source's terms (up %, a pp hit target; mailgear's lives on the gear)."""

    name: str
    melee: bool
    bands: tuple[str, ...]
    damage: Measure
    accuracy: Measure | None = None
    penetration: Measure | None = None
    guided: bool = False
    usage: dict[str, Any] | None = None
    notes: str | None = None
    text: list[str] = field(default_factory=list)  # what the target can only say in words
    source: str = ""  # the source pointer of the weapon


@dataclass
class Machine:
    name: str
    stats: dict[str, Measure] = field(default_factory=dict)  # durability, energy, armor, power, mobility, move, guard
    bands: dict[str, Measure] = field(default_factory=dict)  # mailgear's CR..LR by shared band
    size: str | None = None  # up's size ladder
    size_modifier: int | None = None  # pp
    weapons: list[Weapon] = field(default_factory=list)
    shield: bool = False
    barrier: bool = False
    no_manipulator: bool = False
    text: list[str] = field(default_factory=list)  # what the target can only say in words


@dataclass
class Pilot:
    """A pilot or character: skill levels by the source system's own skill ids or names."""

    name: str | None
    system: str
    player: str | None = None
    skills: dict[str, int] = field(default_factory=dict)
    pool: int | None = None  # mailgear ミラクル level, pp combat boost
    perks: list[tuple[str, int | None]] = field(default_factory=list)  # pp 特技 (name, level)
    perk_sources: list[str] = field(default_factory=list)  # each perk's source pointer
    labels: dict[str, str] = field(default_factory=dict)  # a skill id's label, as users read it
    came_from: dict[str, str] = field(default_factory=dict)  # pp skill → the mailgear skill it names
    text: list[str] = field(default_factory=list)


@dataclass
class Sheet:
    """One document lifted: its pilot and machine, its notes and extra, and every leaf."""

    system: str
    leaves: Leaves
    pilot: Pilot | None = None
    machine: Machine | None = None
    notes: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    #: the words the lift made of a source field (by pointer) for a target to write in notes: the
    #: account claims the field reached the target only when these words are there
    said: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, system: str, doc: Any) -> "Sheet":
        """The sheet a lift starts from: the document's leaves, its notes (said as they are), extra."""
        sheet = cls(system, leaves(doc), notes=doc.get("notes"), extra=dict(doc.get("extra") or {}))
        sheet.notes_of("", doc.get("notes"))
        return sheet

    def notes_of(self, ptr: str, notes: Any) -> str | None:
        """An item's own notes (``ptr`` the item), said as they are: they travel into notes."""
        if isinstance(notes, str) and notes:
            self.say(f"{ptr}/notes", notes)
            return notes
        return None

    def say(self, ptr: str, text: str) -> str:
        """Record ``text`` as what ``ptr`` becomes in words, and give it back."""
        self.said[ptr] = text
        return text

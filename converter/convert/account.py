"""The account of one conversion: every source field and every target field with its kind
(exact, scaled, approximated, dropped, defaulted, derived), the row that says how and on what
authority, the anchors used, and the GM's decisions for the direction. Standard library only.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Mapping as MappingType

from .leaves import Leaves, matches
from .mapping import KINDS, Anchor, Mapping, Row

#: why a field has the kind it has when no row of the direction names it (a gap in the table,
#: which the tests forbid for every document the strategies generate)
UNLISTED = {"source": "dropped", "target": "defaulted"}
#: the kinds that claim something of the source reached the target
CARRYING = ("exact", "scaled", "approximated")


@dataclass(frozen=True)
class Entry:
    side: str  # source | target
    pointer: str
    kind: str
    row: Row | None  # None: no row names the field (``listed`` is False)
    value: Any = None

    @property
    def listed(self) -> bool:
        return self.row is not None

    def to_dict(self, lang: str) -> dict[str, Any]:
        out = {"pointer": self.pointer, "kind": self.kind, "value": self.value}
        if self.row is not None:
            out.update({"how": self.row.how(lang), "source": self.row.source,
                        "with": list(self.row.targets if self.side == "source" else self.row.sources)})
        return out


@dataclass
class Account:
    source_system: str
    target_system: str
    source: list[Entry] = field(default_factory=list)
    target: list[Entry] = field(default_factory=list)
    anchors: list[Anchor] = field(default_factory=list)
    decisions: list[dict[str, str]] = field(default_factory=list)

    def counts(self, side: str) -> dict[str, int]:
        got = Counter(e.kind for e in (self.source if side == "source" else self.target))
        return {k: got[k] for k in KINDS if got[k]}

    def unlisted(self) -> list[Entry]:
        return [e for e in self.source + self.target if not e.listed]

    def anchors_for(self, entry: Entry) -> list[Anchor]:
        """The anchors the entry's row reads or writes: those whose field is one of the row's
        fields or holds one (``/weapons/*/damage`` for ``/weapons/*/damage/fixed``)."""
        if entry.row is None:
            return []
        fields = (*entry.row.sources, *entry.row.targets)
        return [a for a in self.anchors if any(f == a.field or f.startswith(a.field + "/") for f in fields)]

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {"from": self.source_system, "to": self.target_system,
                "counts": {"source": self.counts("source"), "target": self.counts("target")},
                "source": [e.to_dict(lang) for e in self.source],
                "target": [e.to_dict(lang) for e in self.target],
                "anchors": [{"quantity": a.quantity, "system": a.system, "field": a.field,
                             "values": list(a.values), "source": a.source} for a in self.anchors],
                "decisions": [d["en" if lang == "en" else "ja"] for d in self.decisions]}


def _row_for(rows: list[Row], ptr: str, side: str, empty: bool) -> Row | None:
    """The first row naming ``ptr``; an empty list or object is named by any row naming what
    it would hold (``/feats`` empty by ``/feats/*/name``)."""
    for row in rows:
        for pattern in (row.sources if side == "source" else row.targets):
            if matches(pattern, ptr) or empty and pattern.startswith(ptr + "/"):
                return row
    return None


def build(mapping: Mapping, source_system: str, target_system: str, source: Leaves,
          target: Leaves, said: MappingType[str, str] | None = None,
          placed: MappingType[str, str | None] | None = None) -> Account:
    """Each leaf of both documents with the first row of the direction that names it; a source
    leaf's row claims it was carried only when it reached the target (``reached``), else the leaf
    is dropped (the row still says where it would have gone)."""
    rows = mapping.direction(source_system, target_system)
    systems = tuple(dict.fromkeys((source_system, target_system)))
    account = Account(source_system, target_system,
                      anchors=[a for a in mapping.anchors if a.system in systems and len(systems) > 1],
                      decisions=mapping.decisions.get(f"{source_system}_{target_system}", []))
    for side, got in (("source", source), ("target", target)):
        for ptr, value in got.values.items():
            row = _row_for(rows, ptr, side, isinstance(value, (list, dict)))
            kind = row.kind if row else UNLISTED[side]
            if side == "source" and row is not None and kind in CARRYING and said is not None \
                    and not reached(ptr, row, target, said, value, placed or {}):
                kind = "dropped"
            entry = Entry(side, ptr, kind, row, value)
            (account.source if side == "source" else account.target).append(entry)
    return account


def _said(ptr: str, said: MappingType[str, str]) -> str | None:
    """The text the lift made of ``ptr`` (or of the nearest item holding it)."""
    while ptr:
        if ptr in said:
            return said[ptr]
        ptr = ptr.rsplit("/", 1)[0]
    return None


#: the lists whose items a source weapon is placed in
ITEMS = ("/weapons/", "/equipment/", "/machine/weapons/")


def reached(ptr: str, row: Row, target: Leaves, said: MappingType[str, str], value: Any = None,
            placed: MappingType[str, str | None] | None = None) -> bool:
    """Whether the source leaf ``ptr`` is in the target: a field the row writes is there (for a
    weapon's field, in the item the weapon was placed in); a name is in one of them; when the row
    writes only notes, the words the lift made of the leaf are in them."""
    written = [p for p in target.values if any(matches(t, p) for t in row.targets)]
    item = next((src for src in placed or {} if ptr.startswith(src + "/")), None)
    if item is not None:
        home = (placed or {})[item]
        if home is None:  # the weapon found no place in the target
            return False
        mine = [p for p in written if p.startswith(home + "/")]
        if mine and not home.startswith(ITEMS):
            return True  # a feat become a skill (by id): its place is the evidence
        written = mine or [p for p in written if not p.startswith(ITEMS)]
    if not written:
        return False
    texts = [p for p in written if p.rsplit("/", 1)[-1] in ("name", "model", "pilot", "notes")]
    if ptr.rsplit("/", 1)[-1] == "name" and isinstance(value, str) and value.strip() and texts:
        return any(isinstance(target.values[p], str) and value in target.values[p] for p in texts)
    if not all(t.rsplit("/", 1)[-1] == "notes" for t in row.targets):
        return True
    text = _said(ptr, said)
    return text is not None and any(isinstance(target.values[p], str) and text in target.values[p]
                                    for p in written)


def folded(mapping: Mapping, source_system: str, target_system: str, source: Leaves, target: Leaves,
           edited: list[str], changed: list[str], kept: Row) -> Account:
    """The account of edits folded back onto a carried source: the edited fields of B and their
    counterparts in A by the direction's rows, every other field ``kept`` as it was carried."""
    account = build(mapping, source_system, target_system, source, target)
    for entries, named in ((account.source, set(edited)), (account.target, set(changed))):
        entries[:] = [e if e.pointer in named else Entry(e.side, e.pointer, "exact", kept, e.value) for e in entries]
    return account


def identity(system: str, doc_leaves: Leaves, why: Row) -> Account:
    """The account of a document returned as it was (the same system, or its carried source)."""
    account = Account(system, system)
    for ptr, value in doc_leaves.values.items():
        account.source.append(Entry("source", ptr, "exact", why, value))
        account.target.append(Entry("target", ptr, "exact", why, value))
    return account

"""What homemade sheets call each field: the template layouts' labels and synonyms joined with
``labels.toml``, as matching keys.

A label matches after :func:`label_key`: NFKC, case folded, without spaces, brackets, middle dots
and a trailing colon, so 「【ＨＰ】：」, 「ＨＰ」 and 「hp」 are one label. Enumerations (サイズ, 種類,
スキル, ...) are the system sheet's dropdown lists, matched by label or by value the same way.
"""
from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from typing import Any

_DROP = re.compile(r"[\s\u3000【】〈〉＜＞<>()（）「」『』\[\]［］・･:：。、,，/／_＿\-‐－]+")


def label_key(text: Any) -> str:
    """The form two labels are compared in; "" for what is not text."""
    if not isinstance(text, str):
        return ""
    return _key(text)


@lru_cache(maxsize=4096)
def _key(text: str) -> str:
    """Remembered (a bounded number): each text cell is asked about several times (detection,
    regions, fields), and a folder's sheets repeat the same labels."""
    return _DROP.sub("", unicodedata.normalize("NFKC", text)).casefold()


@dataclass(frozen=True)
class LabelSpec:
    """A field (``target``: a document pointer) or a table's column (``target``: the key in each
    row): the labels that name it and how its value reads."""

    target: str
    kind: str
    labels: frozenset[str]
    list_id: str | None = None
    item: str | None = None  # kind "levels": the key of each entry's name ("name" or "id")
    keep_unknown: bool = False  # an enum value no list has is kept as written, for the engine to name


@dataclass(frozen=True)
class TableSpec:
    id: str
    pointer: str
    anchor: str  # the column every row must have
    columns: tuple[LabelSpec, ...]


@dataclass(frozen=True)
class SystemLabels:
    system: str
    fields: tuple[LabelSpec, ...]
    tables: tuple[TableSpec, ...]
    detect: dict[str, float]  # label key → weight
    min_score: float
    lists: dict[str, dict[str, Any]]  # list id → label key or value key → document value
    # compound labels: (field, its unit's keys, its words' keys)
    compound: tuple[tuple[str, frozenset[str], frozenset[str]], ...] = ()

    def compound_field(self, key: str) -> str | None:
        """The field a label no field has is made of (「使用ＵＰ総計」: /declared_total): the unit
        once and only that field's words; None when no field, or more than one, fits."""
        return _compound_field(self.compound, key) if self.compound else None

    @property
    def all_keys(self) -> frozenset[str]:
        """Every label of the system: a cell holding one is a label, never a value."""
        keys: set[str] = set()
        for f in self.fields:
            keys |= f.labels
        for t in self.tables:
            for c in t.columns:
                keys |= c.labels
        return frozenset(keys)


@lru_cache(maxsize=None)
def _data() -> dict[str, Any]:
    """labels.toml, parsed once (it is asked for on every workbook imported; nobody changes it)."""
    return tomllib.loads(resources.files(__package__).joinpath("labels.toml").read_text("utf-8"))


@lru_cache(maxsize=None)
def system_labels(system: str) -> SystemLabels:
    """The labels of ``system``: labels.toml's, joined with its template layout's."""
    from ..sheets.system_sheet import system_sheet

    data = _data()[system]
    sheet = system_sheet(system)
    layout_labels: dict[str, set[str]] = {}
    for f in sheet.layout.fields:
        layout_labels.setdefault(f.pointer, set()).update(label_key(x) for x in (f.label, *f.synonyms))
    # A field's kind and list: labels.toml's, else the template's (int, enum of a list, ...).
    kinds = {f.pointer: f.kind for f in sheet.layout.fields}
    lists_of = {f.pointer: f.list for f in sheet.layout.fields}
    fields = []
    for pointer, spec in data.get("fields", {}).items():
        keys = {label_key(x) for x in spec["labels"]} | layout_labels.pop(pointer, set())
        fields.append(LabelSpec(pointer, spec.get("kind", kinds.get(pointer, "text")), frozenset(keys - {""}),
                                spec.get("list", lists_of.get(pointer)), spec.get("item")))
    for pointer, keys in layout_labels.items():  # the template's other fields, as it types them
        fields.append(LabelSpec(pointer, kinds[pointer], frozenset(keys - {""}), lists_of[pointer]))
    tables = tuple(
        TableSpec(tid, spec["pointer"], spec["anchor"],
                  tuple(LabelSpec(key, c.get("kind", "text"), frozenset(label_key(x) for x in c["labels"]),
                                  c.get("list"), keep_unknown=bool(c.get("keep_unknown")))
                        for key, c in spec["columns"].items()))
        for tid, spec in data.get("tables", {}).items())
    detect = {label_key(k): float(v) for k, v in data["detect"]["labels"].items()}
    lists: dict[str, dict[str, Any]] = {}
    for list_id, pairs in sheet.lists().items():
        table: dict[str, Any] = {}
        for value, label in pairs:
            for key in (label_key(str(label)), label_key(str(value))):
                if key:
                    table.setdefault(key, value)
        for word, value in data.get("values", {}).get(list_id, {}).items():
            if label_key(word):
                table.setdefault(label_key(word), value)
        lists[list_id] = table
    compound = tuple((target, frozenset(label_key(u) for u in spec["unit"]),
                      frozenset(label_key(w) for w in spec["words"]))
                     for target, spec in data.get("compound", {}).items())
    return SystemLabels(system, tuple(fields), tables, detect, float(data["detect"]["min_score"]), lists,
                        compound)


@lru_cache(maxsize=4096)
def _compound_field(compound: tuple[tuple[str, frozenset[str], frozenset[str]], ...], key: str) -> str | None:
    """Remembered (a pure function): every text cell of every sheet that is no label is asked."""
    fits = {target for target, units, words in compound
            if any(key.count(u) == 1 and _segments(key.replace(u, "", 1), words) for u in units)}
    return fits.pop() if len(fits) == 1 else None


def _segments(text: str, words: frozenset[str]) -> bool:
    """Whether ``text`` is one or more of ``words`` one after another."""
    ok = [True] + [False] * len(text)
    for end in range(1, len(text) + 1):
        ok[end] = any(ok[start] and text[start:end] in words for start in range(max(0, end - 8), end))
    return bool(text) and ok[-1]


def with_labels(spec: SystemLabels, extra: dict[str, tuple[str, ...]]) -> SystemLabels:
    """``spec`` with more labels for some fields (a layout profile's own words)."""
    if not extra:
        return spec
    fields = tuple(replace(f, labels=f.labels | {label_key(x) for x in extra.get(f.target, ())})
                   for f in spec.fields)
    return replace(spec, fields=fields)


def legacy_systems() -> list[str]:
    """The systems labels.toml describes."""
    return [k for k in _data() if k != "kinds"]


@lru_cache(maxsize=None)
def kind_words(kind: str) -> tuple[str, str]:
    """What a kind of value is called, in Japanese and English."""
    words = _data()["kinds"].get(kind, {"ja": kind, "en": kind})
    return words["ja"], words["en"]

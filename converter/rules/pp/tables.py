"""Typed access to the `pp` rule tables in ``tables.toml`` (seed 003).

Every name has its Japanese ``label`` (the seed's term) and its English ``label_en``; the meaning
tables have ``meaning`` and ``meaning_en``."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core.names import NameKey
from ..tables_file import load_tables

ATTRIBUTE_IDS = ("body", "reflex", "sense", "mind", "social")


@dataclass(frozen=True)
class Ladder:
    """A value bought point by point: each new point costs ``per`` × the new value."""

    start: int
    minimum: int
    maximum: int
    per: int


@dataclass(frozen=True)
class Attribute:
    id: str
    label: str
    synonyms: tuple[str, ...]
    description: str
    label_en: str = ""


@dataclass(frozen=True)
class Field:
    """One described field of the machine block or of a weapon (no cost: seed 003 has none)."""

    id: str
    label: str
    type: str  # string, integer, number, boolean, pair, enum, enum_list
    required: bool = False
    minimum: int | None = None
    nullable: bool = False
    default: Any = None
    table: str | None = None  # enum / enum_list: the table holding the choices
    parts: tuple[tuple[str, str, str], ...] = ()  # pair: (id, label, description) of each figure
    description: str = ""
    unit: str = ""
    label_en: str = ""
    parts_en: tuple[str, ...] = ()  # pair: each figure's label in English
    # pair: the fields each figure is the sum of (回避修正: メインシステムの回避修正＋機動性), or ()
    parts_sum: tuple[tuple[str, ...], ...] = ()
    required_unless: str | None = None  # required, unless this other field is given

    def sum_of(self, part: str) -> tuple[str, ...]:
        """The fields whose sum the figure ``part`` is (empty: a figure of its own)."""
        return next((terms for (pid, _, _), terms in zip(self.parts, self.parts_sum, strict=True)
                     if pid == part), ())


@dataclass(frozen=True)
class DamageClass:
    id: str
    label: str
    gauges: int
    synonyms: tuple[str, ...]


def _field(raw: dict[str, Any]) -> Field:
    return Field(raw["id"], raw["label"], raw["type"], raw.get("required", False),
                 raw.get("minimum"), raw.get("nullable", False), raw.get("default"),
                 raw.get("table"), tuple((p["id"], p["label"], p.get("description", ""))
                                                for p in raw.get("parts", ())),
                 raw.get("description", ""), raw.get("unit", ""), raw["label_en"],
                 tuple(p["label_en"] for p in raw.get("parts", ())),
                 tuple(tuple(p.get("sum", ())) for p in raw.get("parts", ())),
                 raw.get("required_unless"))


class PpTables:
    """The seed's tables, indexed the way the engine, schema and sheets need them."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.names = NameKey.from_table(raw["name_key"])
        self.raw = raw
        self.default_budget: int = raw["budget"]["default"]
        a, s, sp = raw["attribute_rules"], raw["skill_rules"], raw["specialization_rules"]
        self.attribute_ladder = Ladder(a["start"], a["minimum"], a["maximum"], a["price_per_new_value"])
        self.skill_ladder = Ladder(s["start"], s["start"], s["maximum"], s["price_per_new_level"])
        # A specialization starts at its skill's level; the engine passes that as the start.
        self.specialization_ladder = Ladder(0, sp["minimum"], sp["maximum"],
                                            sp["price_per_new_level"])
        self.attributes = {x["id"]: Attribute(x["id"], x["label"], tuple(x.get("synonyms", ())),
                                              x.get("description", ""), x["label_en"])
                           for x in raw["attributes"]}
        self.attribute_meanings = {r["value"]: r["meaning"] for r in raw["attribute_meanings"]["rows"]}
        self.attribute_meanings_en = {r["value"]: r["meaning_en"]
                                      for r in raw["attribute_meanings"]["rows"]}
        self.skill_meanings = {r["value"]: r["meaning"] for r in raw["skill_meanings"]["rows"]}
        self.skill_meanings_en = {r["value"]: r["meaning_en"] for r in raw["skill_meanings"]["rows"]}
        self.seed_skills: list[dict[str, Any]] = raw["skills"]
        self.combat_boost_start: int = raw["combat_boost"]["start"]
        self.combat_boost_price: int = raw["combat_boost"]["price"]
        self.feat_price: int = raw["feats"]["price"]
        self.initiative: dict[str, Any] = raw["initiative"]
        self.initiative_labels: dict[str, str] = raw["initiative"]["labels"]
        self.initiative_labels_en: dict[str, str] = raw["initiative"]["labels_en"]
        self.machine_fields = [_field(f) for f in raw["machine_fields"]]
        self.weapon_fields = [_field(f) for f in raw["weapon_fields"]]
        self.damage_classes = {d["id"]: DamageClass(d["id"], d["label"], d["gauges"],
                                                    tuple(d.get("synonyms", ())))
                               for d in raw["damage_classes"]}
        self.engagements = {e["id"]: e["label"] for e in raw["engagements"]}

    def choices(self, table: str) -> dict[str, str]:
        """id → label of a table an ``enum`` field points at."""
        return {row["id"]: row["label"] for row in self.raw[table]}

    def machine_field(self, field_id: str) -> Field:
        """The machine block's field ``field_id`` (e.g. speed, which alt_speeds reuse)."""
        return next(f for f in self.machine_fields if f.id == field_id)

    def attribute_label(self, attribute_id: str, lang: str = "ja") -> str:
        """An attribute as the sheet names it: 【肉体】; in English, Body."""
        if lang == "en":
            return self.attributes[attribute_id].label_en
        return f"【{self.attributes[attribute_id].label}】"


@lru_cache(maxsize=1)
def tables() -> PpTables:
    return PpTables(load_tables("pp"))

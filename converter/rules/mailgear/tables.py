"""Typed access to the `mailgear` rule tables in ``tables.toml`` (seed 001).

Every name has its Japanese ``label`` (the seed's term) and its English ``label_en``."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...core.names import NameKey
from ..tables_file import load_tables

def name_key(name: str) -> str:
    """A name as compared (the tables' ``[name_key]``: width, case, ・ . - and spaces ignored)."""
    return _names().python(name)


@lru_cache(maxsize=1)
def _names() -> NameKey:
    return NameKey.from_table(load_tables("mailgear")["name_key"])


@dataclass(frozen=True)
class Skill:
    """One of the 24 skills: its cap and what its level is added to."""

    id: str
    label: str
    max_level: int
    target: str | None  # a stat id, a derived id, "all_rolls", or None (no sheet value)
    per_level: int
    effect: str
    label_en: str = ""


@dataclass(frozen=True)
class Derived:
    """A value the sheet shows, built from a gear stat and the skills aimed at it."""

    id: str
    label: str
    kind: str  # "value" or "roll"
    stat: str | None
    seed: str
    label_en: str = ""


@dataclass(frozen=True)
class Band:
    """A range band: the distances it covers and the derived hit value it uses."""

    id: str
    label: str
    name: str
    min: int
    max: int
    hit: str


class MailgearTables:
    """The seed's fixed tables, indexed the way the engine, schemas and sheets need them."""

    def __init__(self, raw: dict[str, Any]) -> None:
        self.names = NameKey.from_table(raw["name_key"])
        self.raw = raw
        self.stat_ids: tuple[str, ...] = tuple(raw["stats"])
        self.stat_labels = {k: v["label"] for k, v in raw["stats"].items()}
        self.stat_labels_en = {k: v["label_en"] for k, v in raw["stats"].items()}
        self.custom_boosts = {k: v["custom_boost"] for k, v in raw["stats"].items()
                              if "custom_boost" in v}
        self.skills = {k: Skill(k, v["label"], v["max_level"], v.get("target"),
                                v.get("per_level", 1), v["effect"], v["label_en"])
                       for k, v in raw["skills"].items()}
        self.derived = {k: Derived(k, v["label"], v["kind"], v.get("stat"), v["seed"], v["label_en"])
                        for k, v in raw["derived"].items()}
        self.bands = {k: Band(k, v["label"], v["name"], v["min"], v["max"], v["hit"])
                      for k, v in raw["bands"].items()}
        self.slots: int = raw["equipment"]["slots"]
        self.option_copies: int = raw["equipment"]["option_copies"]
        self.kinds: dict[str, str] = dict(raw["equipment"]["kinds"])
        holds = raw["equipment"]["holds"]
        self.hold_labels: dict[str, str] = {k: v["label"] for k, v in holds.items()}
        self.hold_labels_en: dict[str, str] = {k: v["label_en"] for k, v in holds.items()}
        self.hold_arms: dict[str, frozenset[str]] = {k: frozenset(v["arms"]) for k, v in holds.items()}
        self.arm_count = len(frozenset().union(*self.hold_arms.values()))
        self.rolls: dict[str, int] = dict(raw["rolls"])
        self.custom_mark: str = raw["custom"]["rank_mark"]
        self.custom_count: int = raw["custom"]["boosts"]
        self.catalog_tables: dict[str, dict[str, str]] = dict(raw["catalog_tables"])
        self._skill_names, self._stat_names = ({name_key(name): sid for sid, spec in raw[kind].items()
                                                for name in [sid, spec["label"], *spec.get("synonyms", [])]}
                                               for kind in ("skills", "stats"))

    def skill_id(self, name: Any) -> str | None:
        """The skill a sheet means by ``name`` (id, label or synonym), or None."""
        return self._skill_names.get(name_key(name)) if isinstance(name, str) else None

    def stat_id(self, name: Any) -> str | None:
        """The gear stat a sheet means by ``name`` (id, label or synonym), or None."""
        return self._stat_names.get(name_key(name)) if isinstance(name, str) else None

    def skills_aimed_at(self, derived: Derived) -> list[Skill]:
        """The skills added to ``derived``: aimed at its stat, at it, or (rolls) at every roll;
        whether one aimed at every roll counts here is the option natural_talent's."""
        targets = {derived.id} | ({derived.stat} if derived.stat else set())
        if derived.kind == "roll":
            targets.add("all_rolls")
        return [s for s in self.skills.values() if s.target in targets]


@lru_cache(maxsize=1)
def tables() -> MailgearTables:
    return MailgearTables(load_tables("mailgear"))

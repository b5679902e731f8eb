"""Skill lists: the seed's eight skills plus a group's own list (a sheet's or a file's).

Seed 003 names eight skills but not the full list, so a group brings its own. A list entry is a
name, or a table with ``name`` and optionally ``synonyms``, ``specializations`` and ``attribute``.
A file may be JSON, TOML or plain text (one name per line; ``name: spec, spec`` adds
specializations; ``#`` starts a comment). Errors name the file and the line.
Standard library only (Pyodide).
"""
from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass, replace
from functools import lru_cache
from collections.abc import Mapping
from typing import Any, Iterable, Iterator

from ...core.errors import InputError
from ...core.names import NameKey
from ..tables_file import load_tables
from .tables import PpTables, tables

ENTRY_KEYS = ("name", "synonyms", "specializations", "attribute", "notes")
_SPEC_SPLIT = re.compile(r"[,、，]")


class SkillListError(InputError):
    """A group's skill list cannot be read; its finding names the file and the line."""


class SkillEntryError(ValueError):
    """One list entry is malformed: ``code`` and ``params`` say how, in the catalog's words."""

    def __init__(self, message: str, code: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    def texts(self) -> dict[str, str]:
        """The problem in each language, for a finding that carries it as a detail."""
        from ...core.findings import Finding

        f = Finding(self.code, "", self.params)
        return {"detail_ja": f.message("ja"), "detail_en": f.message("en")}


def name_key(name: str) -> str:
    """The form two spellings of one name share (the tables' ``[name_key]``: NFKC, no brackets,
    no spaces), so 〈知識／戦術〉, ＜知識/戦術＞ and 知識/戦術 are one skill."""
    return _names().python(name)


@lru_cache(maxsize=1)
def _names() -> NameKey:
    return NameKey.from_table(load_tables("pp")["name_key"])


@dataclass(frozen=True)
class Specialization:
    label: str
    id: str | None = None
    label_en: str = ""  # the seed's sub-categories; a group's are named as the group wrote them

    def label_in(self, lang: str = "ja") -> str:
        return self.label_en if lang == "en" and self.label_en else self.label


@dataclass(frozen=True)
class SkillDef:
    """A skill a list knows: its label, other spellings, sub-categories and dice attribute."""

    label: str
    id: str | None = None  # the seed's skills have an English id; a group's usually not
    synonyms: tuple[str, ...] = ()
    specializations: tuple[Specialization, ...] = ()
    attribute: str | None = None  # attribute id whose value is the number of dice
    source: str = "seed"  # seed, sheet, or the file it came from
    label_en: str = ""  # the seed's skills; a group's own are named as the group wrote them

    def label_in(self, lang: str = "ja") -> str:
        return self.label_en if lang == "en" and self.label_en else self.label

    def names(self) -> Iterator[str]:
        yield self.label
        yield from self.synonyms

    def specialization(self, name: str) -> Specialization | None:
        key = name_key(name)
        return next((s for s in self.specializations if name_key(s.label) == key), None)


class SkillList:
    """Skills by name; a later list adds to an earlier one (a known name gains sub-categories)."""

    def __init__(self, defs: Iterable[SkillDef] = ()) -> None:
        self._defs: list[SkillDef] = []
        self._by_key: dict[str, int] = {}
        self.extend(defs)

    def extend(self, defs: Iterable[SkillDef]) -> "SkillList":
        for d in defs:
            at = next((self._by_key[k] for k in map(name_key, d.names()) if k in self._by_key), None)
            if at is None:
                at = len(self._defs)
                self._defs.append(d)
            else:
                self._defs[at] = _merge(self._defs[at], d)
            for k in map(name_key, self._defs[at].names()):
                self._by_key.setdefault(k, at)
        return self

    def resolve(self, name: str) -> SkillDef | None:
        """The skill ``name`` means, however it is spelled; None if no list has it."""
        at = self._by_key.get(name_key(name))
        return None if at is None else self._defs[at]

    def __iter__(self) -> Iterator[SkillDef]:
        return iter(self._defs)

    def __len__(self) -> int:
        return len(self._defs)


def _merge(old: SkillDef, new: SkillDef) -> SkillDef:
    specs = old.specializations + tuple(s for s in new.specializations
                                        if old.specialization(s.label) is None)
    synonyms = old.synonyms + tuple(s for s in new.names() if name_key(s) not in
                                    {name_key(n) for n in old.names()})
    return replace(old, synonyms=synonyms, specializations=specs,
                   attribute=old.attribute or new.attribute)


def seed_skills(t: PpTables | None = None) -> list[SkillDef]:
    """The eight skills seed 003 names, from the tables."""
    t = t or tables()
    return [SkillDef(s["label"], s["id"], tuple(s.get("synonyms", ())),
                     tuple(Specialization(x["label"], x.get("id"), x["label_en"])
                           for x in s.get("specializations", ())),
                     s.get("attribute"), "seed", s["label_en"])
            for s in t.seed_skills]


def skill_list(*groups: Iterable[SkillDef]) -> SkillList:
    """The seed's skills followed by each group list in turn."""
    out = SkillList(seed_skills())
    for g in groups:
        out.extend(g)
    return out


# --- entries ---------------------------------------------------------------------------------

def attribute_id(value: str, t: PpTables | None = None) -> str | None:
    """An attribute id from its id, label or synonym (体, 【肉体】, body); None if none."""
    t = t or tables()
    key = name_key(value)
    return next((a.id for a in t.attributes.values()
                 if key in {a.id, name_key(a.label), *map(name_key, a.synonyms)}), None)


def parse_entry(raw: Any, source: str) -> SkillDef:
    """One list entry (a name or a table) as a SkillDef; ValueError says what is wrong."""
    if isinstance(raw, str):
        raw = {"name": raw}
    if not isinstance(raw, Mapping):
        raise SkillEntryError(f"an entry must be a name or a table, not {type(raw).__name__}",
                              "SKILL_ENTRY_SHAPE")
    unknown = sorted(set(raw) - set(ENTRY_KEYS))
    if unknown:
        raise SkillEntryError(f"unknown key(s) {', '.join(unknown)} (known: {', '.join(ENTRY_KEYS)})",
                              "SKILL_ENTRY_KEYS", keys=unknown, known=list(ENTRY_KEYS))
    name = raw.get("name")
    if not isinstance(name, str) or not name_key(name):
        raise SkillEntryError("an entry needs a non-empty name", "SKILL_ENTRY_NO_NAME")
    lists = {}
    for key in ("synonyms", "specializations"):
        value = raw.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and name_key(v) for v in value):
            raise SkillEntryError(f"{name}: {key} must be a list of non-empty names", "SKILL_ENTRY_LIST",
                                  name=name, key=key)
        lists[key] = value
    attribute = raw.get("attribute")
    if attribute is not None:
        if not isinstance(attribute, str) or attribute_id(attribute) is None:
            choices = ", ".join(tables().attributes)
            raise SkillEntryError(f"{name}: attribute {attribute!r} is not an attribute ({choices})",
                                  "SKILL_ENTRY_ATTRIBUTE", name=name, value=attribute,
                                  choices=list(tables().attributes))
        attribute = attribute_id(attribute)
    return SkillDef(name.strip(), None, tuple(s.strip() for s in lists["synonyms"]),
                    tuple(Specialization(s.strip()) for s in lists["specializations"]),
                    attribute, source)


def parse_text(text: str, source: str) -> list[SkillDef]:
    """One skill per line; ``name: spec, spec`` adds sub-categories; ``#`` starts a comment."""
    out: list[SkillDef] = []
    first: dict[str, int] = {}
    for lineno, line in enumerate(text.splitlines(), start=1):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, sep, rest = line.replace("：", ":").partition(":")
        specs = [s.strip() for s in _SPEC_SPLIT.split(rest)] if sep else []
        where = f"{source}: line {lineno}"
        if not name_key(name):
            raise SkillListError(f"{where}: no skill name before the colon", "SKILL_LIST_NO_NAME",
                                 file=source, line=lineno)
        if any(not name_key(s) for s in specs):
            raise SkillListError(f"{where}: an empty specialization in {rest.strip()!r}",
                                 "SKILL_LIST_EMPTY_SPECIALIZATION", file=source, line=lineno, text=rest.strip())
        key = name_key(name)
        if key in first:
            raise SkillListError(f"{where}: {name.strip()} is listed twice (first on line {first[key]})",
                                 "SKILL_LIST_DUPLICATE", file=source, line=lineno, entry="", name=name.strip(),
                                 first=first[key])
        first[key] = lineno
        out.append(parse_entry({"name": name, "specializations": specs}, source))
    return out


def parse_json(text: str, source: str) -> list[SkillDef]:
    """A JSON list of entries, or an object whose ``skills`` is that list."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise SkillListError(f"{source}: line {exc.lineno}, column {exc.colno}: "
                             f"not valid JSON: {exc.msg}", "INPUT_NOT_JSON", file=source,
                             line=exc.lineno, column=exc.colno) from exc
    entries = data.get("skills") if isinstance(data, dict) else data
    if not isinstance(entries, list):
        raise SkillListError(f"{source}: line 1: expected a list of skills, "
                             f"or an object with \"skills\": [...]", "SKILL_LIST_NO_LIST", file=source)
    lines = _json_entry_lines(text, isinstance(data, dict))
    return _parse_entries(entries, source, lambda i: lines[i] if i < len(lines) else None)


def parse_toml(text: str, source: str) -> list[SkillDef]:
    """``skills = ["…", …]`` or ``[[skills]]`` tables with ``name = "…"``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        place = re.search(r"line (\d+), column (\d+)", str(exc))
        raise SkillListError(f"{source}: not valid TOML: {exc}", "SKILL_LIST_NOT_TOML", file=source,
                             line=int(place.group(1)) if place else "?",
                             column=int(place.group(2)) if place else "?") from exc
    entries = data.get("skills")
    if not isinstance(entries, list):
        raise SkillListError(f"{source}: line 1: expected skills = [...] or [[skills]] tables",
                             "SKILL_LIST_NO_LIST", file=source)
    headers = [n for n, line in enumerate(text.splitlines(), start=1)
               if re.match(r"\s*\[\[\s*skills\s*\]\]", line)]
    array_line = next((n for n, line in enumerate(text.splitlines(), start=1)
                       if re.match(r"\s*skills\s*=", line)), None)
    return _parse_entries(entries, source,
                          lambda i: headers[i] if i < len(headers) else array_line)


def _parse_entries(entries: list[Any], source: str, line_of) -> list[SkillDef]:
    out: list[SkillDef] = []
    first: dict[str, int] = {}
    for i, raw in enumerate(entries):
        line = line_of(i)
        where = f"{source}: " + (f"line {line} " if line else "") + f"(entry {i + 1})"
        try:
            d = parse_entry(raw, source)
        except SkillEntryError as exc:
            raise SkillListError(f"{where}: {exc}", "SKILL_LIST_ENTRY", file=source, line=line or "?",
                                 entry=f" #{i + 1}", **exc.texts()) from None
        key = name_key(d.label)
        if key in first:
            raise SkillListError(f"{where}: {d.label} is listed twice (first as entry {first[key]})",
                                 "SKILL_LIST_DUPLICATE", file=source, line=line or "?", entry=f" #{i + 1}",
                                 name=d.label, first=f"#{first[key]}")
        first[key] = i + 1
        out.append(d)
    return out


def _json_entry_lines(text: str, wrapped: bool) -> list[int]:
    """The line each entry of the skills array starts on (for messages)."""
    decoder = json.JSONDecoder()
    m = re.search(r'"skills"\s*:\s*\[', text) if wrapped else re.search(r"\[", text)
    if m is None:
        return []
    pos = m.end()
    lines: list[int] = []
    while True:
        while pos < len(text) and text[pos] in " \t\r\n,":
            pos += 1
        if pos >= len(text) or text[pos] == "]":
            return lines
        lines.append(text.count("\n", 0, pos) + 1)
        try:
            _, pos = decoder.raw_decode(text, pos)
        except json.JSONDecodeError:
            return lines


_PARSERS = {".json": parse_json, ".toml": parse_toml}


def parse_skill_list(text: str, source: str, suffix: str = "") -> list[SkillDef]:
    """A group's skill list from the text of a .json, .toml or text file (by ``suffix``; any
    other is text). Errors name ``source`` and the line."""
    return _PARSERS.get(suffix.lower(), parse_text)(text, source)

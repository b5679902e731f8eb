"""Findings: what a check says about a document, as plain data with a stable code.

Checks yield findings; the driver adds where they happened. Every code is listed once, in
``catalog.toml`` or a system's ``rules/<system>/catalog.toml``, with its severity, a Japanese and
English message template, and a fix hint (what the user can do) in each language.
"""
from __future__ import annotations

import enum
import tomllib
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping

LANGS = ("ja", "en")


class CatalogError(LookupError):
    """A finding code is missing from the catalog, or an entry is broken: a packaging or
    programming bug, reported as one (not a MechasheetError, which carries a finding and so
    needs the catalog). Re-exported by ``core.errors``."""


class Severity(str, enum.Enum):
    """How much a finding matters: only errors make a document invalid."""

    ERROR = "error"
    WARNING = "warning"
    INFO = "info"


@dataclass(frozen=True)
class CatalogEntry:
    code: str
    severity: Severity
    title: str
    ja: str
    en: str
    hint_ja: str  # what to do about it: one short sentence, with the message's placeholders
    hint_en: str
    needs_complete: bool = False  # only meaningful when every item was evaluated (a total)

    def template(self, lang: str, hint: bool = False) -> str:
        """The message (with ``hint``, the fix hint) template in ``lang``; Japanese if unknown."""
        lang = lang if lang in LANGS else "ja"
        return getattr(self, f"hint_{lang}" if hint else lang)


#: the texts every catalog entry must have, none of them empty
_TEXTS = ("title", "ja", "en", "hint_ja", "hint_en")


@lru_cache(maxsize=1)
def catalog() -> dict[str, CatalogEntry]:
    """Every finding code with its severity and message templates (read once)."""
    raw = tomllib.loads(resources.files(__package__).joinpath("catalog.toml").read_text("utf-8"))
    # Each system may ship its own codes beside its tables (rules/<system>/catalog.toml).
    rules = resources.files("converter.rules")
    for folder in sorted(rules.iterdir(), key=lambda p: p.name):
        extra = folder.joinpath("catalog.toml")
        if folder.is_dir() and extra.is_file():
            for code, entry in tomllib.loads(extra.read_text("utf-8")).items():
                if code in raw:
                    raise CatalogError(f"rules/{folder.name}/catalog.toml: code {code} defined twice")
                raw[code] = entry
    return {code: catalog_entry(code, entry) for code, entry in raw.items()}


def catalog_entry(code: str, entry: Mapping[str, Any]) -> CatalogEntry:
    """One entry from its catalog.toml table. A missing or empty text (a message, a hint) or an
    unknown severity is a :class:`CatalogError`: a broken catalog is a packaging bug."""
    try:
        texts = {key: entry[key] for key in _TEXTS}
        severity = Severity(entry["severity"])
    except (KeyError, ValueError) as exc:
        raise CatalogError(f"catalog.toml: entry {code!r} is incomplete: {exc}") from exc
    empty = [key for key, text in texts.items() if not isinstance(text, str) or not text.strip()]
    if empty:
        raise CatalogError(f"catalog.toml: entry {code!r} has no text for {', '.join(empty)}")
    return CatalogEntry(code, severity, needs_complete=bool(entry.get("needs_complete", False)),
                        **texts)


class _Blank(dict):
    """Format mapping that leaves unknown fields visible instead of raising."""

    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


@dataclass(frozen=True)
class Finding:
    """One thing a check found: code, where (JSON pointer, cell) and the values for its message."""

    code: str
    pointer: str = ""
    params: Mapping[str, Any] = field(default_factory=dict)
    cell: str = ""
    severity: Severity | None = None  # None: the catalog's severity for the code

    @property
    def entry(self) -> CatalogEntry:
        try:
            return catalog()[self.code]
        except KeyError as exc:
            raise CatalogError(f"finding code {self.code!r} is not in catalog.toml") from exc

    @property
    def level(self) -> Severity:
        return self.severity or self.entry.severity

    def message(self, lang: str = "ja") -> str:
        """What was found, in ``lang``, with the params filled in."""
        return self._render(self.entry.template(lang), lang)

    def hint(self, lang: str = "ja") -> str:
        """What to do about it, in ``lang``, with the params filled in as in :meth:`message`."""
        return self._render(self.entry.template(lang, hint=True), lang)

    def _render(self, template: str, lang: str) -> str:
        lang = lang if lang in LANGS else "ja"  # the template's language decides how values read
        return template.format_map(_Blank({k: _show(v, lang) for k, v in self.params.items()}))

    def at(self, prefix: str = "", cell: str | None = None) -> "Finding":
        """The same finding placed under ``prefix`` (a JSON pointer) and/or at ``cell``."""
        return replace(self, pointer=prefix + self.pointer,
                       cell=self.cell if cell is None else cell)

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {"code": self.code, "severity": self.level.value, "pointer": self.pointer,
                "cell": self.cell, "message": self.message(lang), "hint": self.hint(lang)}


_NOTHING = {"ja": "（空欄）", "en": "(blank)"}


def _show(value: Any, lang: str) -> str:
    """A message parameter as a user reads it: lists joined, whole floats whole, a missing value
    said in words (never Python's None)."""
    if value is None:
        return _NOTHING.get(lang, _NOTHING["ja"])
    if isinstance(value, (list, tuple)):
        sep = "、" if lang == "ja" else ", "
        return sep.join(_show(v, lang) for v in value)
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


def has_errors(findings: Iterable[Finding]) -> bool:
    return any(f.level is Severity.ERROR for f in findings)


"""The texts mechasheet prints besides findings (help, report words), in Japanese and English,
read from ``texts.toml``: one mechanism for every front end. Standard library only."""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources

LANGS = ("ja", "en")


@lru_cache(maxsize=2)
def texts(lang: str) -> dict[str, str]:
    """Every text in ``lang`` (Japanese for a language it does not have), by key."""
    raw = tomllib.loads(resources.files(__package__).joinpath("texts.toml").read_text("utf-8"))
    lang = lang if lang in LANGS else "ja"
    return {key: entry.get(lang, entry["ja"]) for key, entry in raw.items()}

"""Loading a system's rule tables (TOML data shipped inside the package).

Standard library only: the rules must import under Pyodide (xlwings Lite).
"""
from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any

from ..core.errors import RuleTableError


@lru_cache(maxsize=None)
def load_tables(system: str) -> dict[str, Any]:
    """The parsed ``tables.toml`` of ``system`` (cached; treat it as read-only)."""
    try:
        # Read through the rules package, so that loading one system's tables (say, to check a
        # --rule name) never imports that system's engine.
        text = resources.files(__package__).joinpath(system, "tables.toml").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError) as exc:
        raise RuleTableError(f"no rule tables for system {system!r}") from exc
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RuleTableError(f"rules/{system}/tables.toml: {exc}") from exc


def both(name: str, ja: Any, en: Any) -> dict[str, Any]:
    """A name a finding takes from the tables, in both languages: ``{name}_ja`` and ``{name}_en``
    as keyword parameters. The catalog's Japanese texts name the first, its English texts the
    second, so each message is in one language; a value the user typed, an id or a number reads
    the same in both and stays one parameter."""
    return {f"{name}_ja": ja, f"{name}_en": en}

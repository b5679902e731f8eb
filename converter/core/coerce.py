"""Reading values from a document or catalog that may hold anything (hand-edited JSON, a sheet).

Shared by every system's engine (standard library only).

The checks never raise on a malformed value: they read it with these and report what they got.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def as_int(value: Any) -> int | None:
    """A whole number (``3`` or ``3.0``), or None for anything else (bools included)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def as_mapping(value: Any) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def as_list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def as_key(value: Any) -> str | None:
    """A value usable as a table key (a string), or None (a list or dict would not even hash)."""
    return value if isinstance(value, str) else None

"""Pieces every system's schema generator uses (standard library only)."""
from __future__ import annotations

from typing import Any


def enum_schema(values: list[Any], labels: dict[Any, str] | None = None, **extra: Any) -> dict[str, Any]:
    """``{"enum": values}`` with the Japanese labels as ``x-labels`` (a sheet's dropdown text)."""
    out: dict[str, Any] = {"enum": values, **extra}
    if labels:
        out["x-labels"] = labels
    return out

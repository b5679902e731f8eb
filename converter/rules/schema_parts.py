"""Pieces every system's schema generator uses (standard library only)."""
from __future__ import annotations

from typing import Any


def enum_schema(values: list[Any], labels: dict[Any, str] | None = None, **extra: Any) -> dict[str, Any]:
    """``{"enum": values}`` with the Japanese labels as ``x-labels`` (a sheet's dropdown text)."""
    out: dict[str, Any] = {"enum": values, **extra}
    if labels:
        out["x-labels"] = labels
    return out


def schema_head(system: str, title: str) -> dict[str, Any]:
    """The opening keys of a generated document schema (2020-12; where it comes from)."""
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": f"https://mechasheet.invalid/schemas/{system}.schema.json",
        "title": title,
        "description": (f"Generated from converter/rules/{system}/tables.toml by "
                        f"`mechasheet schema {system}`. Do not edit."),
        "type": "object",
    }


def identity_properties(system: str, fmt: int) -> dict[str, Any]:
    """``system`` and ``format``: every document says what it is and which version wrote it;
    ``rules``: the rules readings it was made under (the options of docs/rules-*.md), as a sheet's ルール
    cells hold them; ``approvals``: what the GM accepted."""
    from .options import option_declarations

    readings = {name: enum_schema(list(decl["values"]), dict(decl["values"]), title=decl["label"])
                for name, decl in option_declarations(system).items()}
    return {"system": {"const": system},
            "format": {"type": "integer", "minimum": 1, "maximum": fmt},
            "rules": {"type": "object", "title": "ルール選択（選択ルールの読み方）",
                      "properties": readings, "additionalProperties": False},
            "approvals": approvals_schema()}


def approvals_schema() -> dict[str, Any]:
    """``approvals``: findings the GM accepts for this document (the sheet's GM承認 table), each
    named by its code, its pointer or both; the audit shows them as info lines with who approved."""
    text = {"type": "string"}
    return {"type": "array", "title": "GM承認（監査で認める指摘）",
            "items": {"type": "object", "properties": {"code": text, "pointer": text, "by": text, "note": text},
                      "additionalProperties": False}}

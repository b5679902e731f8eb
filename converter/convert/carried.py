"""The source document carried inside the converted one, so that A → B → A gives A back.

It travels under one reserved key of the target's ``extra`` (every schema accepts any
``extra``; a workbook keeps it in its hidden data sheet) with a fingerprint of the converted
document: unchanged, the way back returns the carried source; edited, the conversion runs afresh
and names the fields that changed. Standard library only.
"""
from __future__ import annotations

import copy
import hashlib
import json
from typing import Any, Mapping

KEY = "mechasheet:conversion"


def without_key(doc: Mapping[str, Any]) -> dict[str, Any]:
    """``doc`` without the reserved key (and without an ``extra`` left empty by removing it)."""
    out = dict(doc)
    extra = out.get("extra")
    if isinstance(extra, dict) and KEY in extra:
        rest = {k: v for k, v in extra.items() if k != KEY}
        if rest:
            out["extra"] = rest
        else:
            del out["extra"]
    return out


def fingerprint(doc: Mapping[str, Any]) -> str:
    """SHA-256 of the canonical JSON of ``doc`` without the reserved key."""
    text = json.dumps(without_key(doc), ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def carried(doc: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """What ``doc`` carries, if it was converted by mechasheet."""
    extra = doc.get("extra")
    held = extra.get(KEY) if isinstance(extra, dict) else None
    if isinstance(held, dict) and isinstance(held.get("source"), dict) and isinstance(held.get("fingerprint"), str):
        return held
    return None


def attach(target: dict[str, Any], source: Mapping[str, Any], account: Mapping[str, Any]) -> None:
    """Put the source, the target's fingerprint and the account under the reserved key."""
    held = {"from": source.get("system"), "fingerprint": fingerprint(target), "source": copy.deepcopy(dict(source)),
            "account": account}
    target.setdefault("extra", {})[KEY] = held


def unedited(doc: Mapping[str, Any]) -> bool:
    held = carried(doc)
    return held is not None and held["fingerprint"] == fingerprint(doc)

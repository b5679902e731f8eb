"""CCFOLIA (ココフォリア): a piece as the clipboard character JSON of CCFOLIA's Clipboard API
(``{"kind": "character", "data": {...}}``), pasted onto a room's board.

CCFOLIA replaces ``{label}`` in a palette command with the piece's status or param of that label,
so the palette's variables travel as params and ``commands`` holds the command lines only."""
from __future__ import annotations

import json
from typing import Any

from .model import Piece


def clipboard(piece: Piece) -> dict[str, Any]:
    """The clipboard object of ``piece``."""
    params = [{"label": p.label, "value": p.value} for p in piece.params]
    params += [{"label": v.name, "value": v.value} for v in piece.variables]
    return {"kind": "character", "data": {
        "name": piece.name,
        "memo": piece.memo,
        "initiative": piece.initiative,
        "externalUrl": "",
        "status": [{"label": s.label, "value": s.value, "max": s.max} for s in piece.status],
        "params": params,
        "commands": "\n".join(line.text for line in piece.lines),
    }}


def clipboard_text(piece: Piece) -> str:
    """The JSON text to paste (one line, as a clipboard tool takes it)."""
    return json.dumps(clipboard(piece), ensure_ascii=False, separators=(",", ":"))

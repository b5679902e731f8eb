"""JSON documents: reading one from disk, and writing one atomically."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from ..core.errors import InputError, OutputError


def read_input_text(path: str | Path, error: type[InputError] = InputError) -> str:
    """The text of an input file (UTF-8, a BOM allowed); ``error`` naming the file if unreadable."""
    p = Path(path)
    try:
        return p.read_text(encoding="utf-8-sig")
    except FileNotFoundError as exc:
        raise error(f"{p}: no such file") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise error(f"{p}: cannot read: {exc}") from exc


def load_json_document(path: str | Path) -> dict[str, Any]:
    """A document read from a JSON file; InputError (exit 2) naming the file if it cannot be."""
    p = Path(path)
    return parse_json_document(read_input_text(p), str(p))


def parse_json_document(text: str, name: str) -> dict[str, Any]:
    """A document parsed from ``text``; InputError naming ``name`` if it is no JSON object."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})") from exc
    if not isinstance(doc, dict):
        raise InputError(f"{name}: a document must be a JSON object, not {type(doc).__name__}")
    return doc


def dump_document(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def write_atomic(path: str | Path, data: bytes | str, force: bool = False) -> Path:
    """Write ``data`` to ``path`` through a temporary file and a rename, never half a file.

    An existing file is replaced only with ``force``.
    """
    p = Path(path)
    if p.exists() and not force:
        raise OutputError(f"{p}: already exists (use --force to replace it)")
    p.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=p.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, p)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{p}: cannot write: {exc}") from exc
        raise
    return p

"""A Source: what a reader yields for one input, whatever its kind (JSON, our workbook, legacy).

The checker takes Sources and never knows how they were read; readers (``converter.io``) yield
them. Standard library only.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Any, Callable

from .findings import Finding

DOCUMENT, CATALOG, UNREADABLE = "document", "catalog", "unreadable"
#: one of our own reports (check, audit, import) found among the inputs: read, not checked
REPORT = "report"


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a Source came from: the reader's kind (``json``, ``workbook``, later ``legacy``),
    the template version a workbook names, the legacy profile that read it."""

    kind: str
    template: str | None = None
    profile: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"kind": self.kind}
        if self.template is not None:
            out["template"] = self.template
        if self.profile is not None:
            out["profile"] = self.profile
        return out


@dataclass
class Source:
    """One input as read: a document (or a catalog, or nothing when unreadable), the cell of each
    pointer, the engine's extra inputs the file holds (``context``: a catalog sheet, a skill list),
    the rules readings the file holds (``options``, with their cells), and the reader's findings."""

    path: str
    origin: Origin
    kind: str = DOCUMENT
    document: dict[str, Any] | None = None
    cells: dict[str, str] = field(default_factory=dict)
    context: dict[str, Any] = field(default_factory=dict)
    options: dict[str, str] = field(default_factory=dict)
    option_cells: dict[str, str] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)


def unreadable(path: str, reason: str, origin_kind: str = "file", finding: Finding | None = None) -> Source:
    """The Source of a file that cannot be read at all: one finding, the error's own (not JSON,
    encrypted, too large, ...) or INPUT_UNREADABLE with the reason."""
    found = finding if finding is not None else Finding("INPUT_UNREADABLE", "", {"reason": reason})
    return Source(path, Origin(origin_kind), UNREADABLE, findings=[found])


#: what a file name must not show raw: control characters (an ESC recolours a terminal, a newline
#: splits a report line), line and paragraph separators, bidirectional overrides (a name that
#: reads backwards), and lone surrogates (bytes of a name not in UTF-8, kept by surrogateescape)
_UNSHOWABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def shown_name(name: "str | bytes | os.PathLike[str]") -> str:
    """A file name as text that is safe to print and to write as UTF-8: a byte of a name not in
    UTF-8 (Shift_JIS from an old archive, carried as surrogateescape) as ``\\udc83`` (as a JSON
    report writes it, which reads back as the same name), a control character as ``\\x1b``
    (``\\n``, ``\\t``), any other lone surrogate as ``\\ud800``. A
    name with none of them is returned as it is. The file itself is still opened by its real
    name (``os.fsencode`` gives back its bytes): this is only how it is shown."""
    text = os.fsdecode(name) if isinstance(name, (bytes, os.PathLike)) else name
    if not _UNSHOWABLE.search(text):
        return text
    return _UNSHOWABLE.sub(_escape, text)


def _escape(match: "re.Match[str]") -> str:
    ch = match.group()
    code = ord(ch)
    if ch in "\n\t\r":
        return {"\n": "\\n", "\t": "\\t", "\r": "\\r"}[ch]
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def scrub_text(value: Any, pointer: str = "") -> tuple[Any, list[str]]:
    """``value`` (a document, or any JSON value) with every lone surrogate in its texts and keys
    replaced by U+FFFD, and the JSON pointers where one was. JSON's ``"\\ud800"`` escape parses
    to a string no UTF-8 writer (a workbook, a zip, a report) can encode; read this way, a
    document is safe to write everywhere, and the finding names the field to fix."""
    found: list[str] = []
    return _scrub(value, pointer, found), found


_SURROGATE = re.compile("[\ud800-\udfff]")


def _scrub(value: Any, pointer: str, found: list[str]) -> Any:
    if isinstance(value, str):
        if _SURROGATE.search(value):
            found.append(pointer)
            return _SURROGATE.sub("\ufffd", value)
        return value
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            key = k
            if isinstance(k, str) and _SURROGATE.search(k):
                key = _SURROGATE.sub("\ufffd", k)
                found.append(f"{pointer}/{_pointer_token(key)}")
            out[key] = _scrub(v, f"{pointer}/{_pointer_token(key)}", found)
        return out
    if isinstance(value, list):
        return [_scrub(v, f"{pointer}/{i}", found) for i, v in enumerate(value)]
    return value


def _pointer_token(key: str) -> str:
    return key.replace("~", "~0").replace("/", "~1")


#: ``reader(path, *, scan_first) -> Source``, raising InputError for a file it cannot read;
#: ``scan_first=False`` lets a workbook's sheets reach the native reader unscanned (a worker only)
Reader = Callable[..., Source]

#: suffix (lower case) → its reader, filled by :func:`register`. The registry is here, in the
#: core, so that the package composing reading (``converter/__init__.py``) registers readers
#: without importing ``converter.io``, and io dispatches without importing a front end.
READERS: dict[str, Reader] = {}


def register(reader: Reader, *suffixes: str) -> None:
    """``reader`` reads files with these suffixes (``converter.io.read_source`` dispatches)."""
    for suffix in suffixes:
        READERS[suffix.lower()] = reader

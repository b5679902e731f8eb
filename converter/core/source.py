"""A Source: what a reader yields for one input, whatever its kind (JSON, our workbook, legacy).

The checker takes Sources and never knows how they were read; readers (``converter.io``) yield
them. Standard library only.
"""
from __future__ import annotations

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

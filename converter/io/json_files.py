"""The JSON reader: a document, or a group's catalog (mailgear), from a ``.json`` file.

A catalog is checked against its schema, which io does not import: the reader is given the
function that builds a checked catalog (``catalog_from``) when it is registered.
"""
from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any, Callable, Mapping

from ..core.findings import Finding
from ..core.source import CATALOG, REPORT, Origin, Source, shown_name
from ..rules.options import document_readings
from .files import MAX_DOCUMENT_BYTES, decode_text, parse_json_document, read_input, read_stream
from .sources import STDIN

SUFFIXES = (".json",)

#: ``catalog_from(raw, source=name)``: a catalog checked against its schema and its rules
CatalogFrom = Callable[..., Any]


def read(path: Path, *, catalog_from: CatalogFrom, scan_first: bool = True) -> Source:
    """The file as a Source (``-``: standard input, named ``<stdin>``); InputError (an
    unreadable Source) when it is no JSON object. A file saved in UTF-16 or Shift_JIS is read,
    with an info finding naming its encoding; a text holding a lone surrogate is read with U+FFFD
    in its place, a warning naming the field. ``scan_first`` is for workbooks: unused here."""
    replaced: list[str] = []
    if str(path) == STDIN:
        stream = getattr(sys.stdin, "buffer", None)  # a text stream put in its place has none
        if stream is None:
            text, encoding = sys.stdin.read(MAX_DOCUMENT_BYTES + 1), None
            if len(text) > MAX_DOCUMENT_BYTES:
                read_stream(io.BytesIO(text.encode("utf-8", "surrogatepass")), MAX_DOCUMENT_BYTES, "<stdin>")
        else:
            text, encoding = decode_text(read_stream(stream, MAX_DOCUMENT_BYTES, "<stdin>"), "<stdin>")
        name = "<stdin>"
    else:
        text, encoding = read_input(path)
        name = str(path)
    source = _source(parse_json_document(text, name, replaced), name, catalog_from)
    if encoding is not None:
        source.findings.append(Finding("INPUT_ENCODING", "", {"encoding": encoding}))
    for pointer in replaced:
        source.findings.append(Finding("INPUT_TEXT_NOT_CHARACTER", pointer, {"pointer": shown_name(pointer)}))
    return source


def _source(data: dict[str, Any], name: str, catalog_from: CatalogFrom) -> Source:
    if is_catalog(data):
        return Source(name, Origin("json"), CATALOG, context={"catalog": catalog_from(data, source=name)})
    if is_own_report(data):
        kind = data.get("kind") if isinstance(data.get("kind"), str) else "check"
        return Source(name, Origin("json"), REPORT, findings=[Finding("INPUT_OWN_REPORT", "", {"kind": kind})])
    return Source(name, Origin("json"), document=data, options=document_readings(data))


def is_catalog(data: Mapping[str, Any]) -> bool:
    """A group's catalog (mailgear), not a document: it has ``catalog`` and no ``system``."""
    return "catalog" in data and "system" not in data


def is_own_report(data: Mapping[str, Any]) -> bool:
    """One of our reports (``check --format json``, ``audit -o X.json``, ``import-report.json``),
    not a document: no ``system``, a ``summary`` and a list of ``files``. A GM who audits a folder
    twice finds the first run's report in it; it is named as such, never checked as a sheet."""
    return ("system" not in data and isinstance(data.get("files"), list)
            and isinstance(data.get("summary"), dict) and "format" in data)

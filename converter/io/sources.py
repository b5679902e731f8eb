"""The reader registry: which reader takes a file, folders searched for inputs.

A reader is a function ``read(path, *, scan_first) -> Source``, registered for its suffixes by
the package that composes reading (``converter/__init__.py``, into ``core.source.READERS``: JSON
here in io, our workbooks from ``converter.sheets.source``); adding a reader adds a registration
and touches nothing else.
A file no reader can read becomes an unreadable Source, so one bad file never stops a folder.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Iterable, Iterator

from ..core.errors import InputError
from ..core.source import READERS, Reader, Source, unreadable

#: what a folder is searched for (``check``, ``audit``): JSON and our workbooks
INPUT_SUFFIXES = (".json", ".xlsx", ".xlsm")
# Folders of known-bad examples, of homemade sheets (read by `mechasheet import`, not by check)
# and of conversions (documents repeating their sources' names): skipped when a parent folder is
# searched, read when named.
SKIPPED_FOLDERS = ("broken", "legacy", "converted")


STDIN = "-"


def reader_for(path: str | Path) -> Reader:
    """The reader a file's suffix names; the JSON reader when none does (``-`` included)."""
    return READERS.get(Path(path).suffix.lower()) or READERS[".json"]


def read_source(path: str | Path, *, scan_first: bool = True) -> Source:
    """The Source of one file, read by the reader its suffix names (JSON when none does);
    ``-`` is a JSON document on standard input. With ``scan_first=False`` a workbook's sheets
    go to the native reader before their reach is scanned: only in a disposable worker."""
    name = "<stdin>" if str(path) == STDIN else str(Path(path))
    try:
        return reader_for(path)(Path(path), scan_first=scan_first)
    except InputError as exc:
        return unreadable(name, str(exc), finding=exc.finding)


def read_sources(paths: Iterable[str | Path]) -> Iterator[Source]:
    """The Source of every file named and of every input inside the folders named."""
    for p in expand_paths(paths):
        yield read_source(p)


def expand_paths(paths: Iterable[str | Path], suffixes: tuple[str, ...] = INPUT_SUFFIXES,
                 skipped: tuple[str, ...] = SKIPPED_FOLDERS) -> list[Path]:
    """Files named, and the files with one of ``suffixes`` inside folders named (sorted,
    recursive), each once.

    In a folder, hidden entries and sub-folders named in ``skipped`` (``broken``, ``legacy``, ``converted``) are
    passed over; name them directly to read them. A file named twice (or found again in a folder) is read once."""
    out: list[Path] = []
    for raw in paths:
        p = Path(raw)
        if str(raw) == STDIN:
            out.append(p)
        elif p.is_dir():
            out.extend(sorted(q for q in p.rglob("*")
                              if q.is_file() and q.suffix.lower() in suffixes
                              and not any(part.startswith(".") or part in skipped
                                          for part in q.relative_to(p).parts[:-1])
                              and not q.name.startswith((".", "~$"))))
        else:
            out.append(p)
    return _once(out)


def _once(paths: list[Path]) -> list[Path]:
    """``paths`` without repeats (the same file by any spelling, a link to it included: one
    file on disk), first occurrence kept."""
    seen: set[object] = set()
    out = []
    for p in paths:
        text = str(p)
        key: object = text
        if text != STDIN:
            try:
                st = os.stat(text)  # one call, where resolving walked every part of the path
                key = (st.st_dev, st.st_ino)
            except (OSError, ValueError):
                pass
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def input_files(paths: Iterable[str | Path], suffixes: tuple[str, ...] | None = None,
          required: bool = False) -> list[Path]:
    """The files named (folders searched: ``io.expand_paths``); with ``required``, none found is
    an InputError (NO_DOCUMENTS, exit 2)."""
    files = expand_paths(paths) if suffixes is None else expand_paths(paths, suffixes)
    if required and not files:
        names = [str(p) for p in paths]
        raise InputError("no documents found in: " + ", ".join(names), "NO_DOCUMENTS", paths=names)
    return files

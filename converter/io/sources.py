"""The reader registry: which reader takes a file, folders searched for inputs.

Each reader is a module with ``SUFFIXES`` and ``read(path) -> Source``; adding a reader (a legacy
profile) adds a line to :data:`READERS` and touches nothing else. A file no reader can read
becomes an unreadable Source, so one bad file never stops a folder.
"""
from __future__ import annotations

import os

import importlib
from pathlib import Path
from typing import Iterable, Iterator

from ..core.errors import InputError
from ..core.source import Source, unreadable

#: reader module → the suffixes it takes (lower case)
READERS = {"converter.io.json_files": (".json",), "converter.io.workbooks": (".xlsx", ".xlsm")}
INPUT_SUFFIXES = tuple(s for suffixes in READERS.values() for s in suffixes)
# Folders of known-bad examples, of homemade sheets (read by `mechasheet import`, not by check)
# and of conversions (documents repeating their sources' names): skipped when a parent folder is
# searched, read when named.
SKIPPED_FOLDERS = ("broken", "legacy", "converted")


STDIN = "-"


def read_source(path: str | Path) -> Source:
    """The Source of one file, read by the reader its suffix names (JSON when none does);
    ``-`` is a JSON document on standard input."""
    if str(path) == STDIN:
        from .json_files import read_stdin

        try:
            return read_stdin()
        except InputError as exc:
            return unreadable("<stdin>", str(exc), finding=exc.finding)
    p = Path(path)
    module = next((m for m, suffixes in READERS.items() if p.suffix.lower() in suffixes),
                  "converter.io.json_files")
    try:
        return importlib.import_module(module).read(p)
    except InputError as exc:
        return unreadable(str(p), str(exc), finding=exc.finding)


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

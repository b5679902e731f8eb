"""The reader registry: which reader takes a file, folders searched for inputs.

A reader is a function ``read(path, *, scan_first) -> Source``, registered for its suffixes by
the package that composes reading (``converter/__init__.py``, into ``core.source.READERS``: JSON
here in io, our workbooks from ``converter.sheets.source``); adding a reader adds a registration
and touches nothing else.
A file no reader can read becomes an unreadable Source, so one bad file never stops a folder.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator

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
    return [p for p, _ in _once(_walk(paths, suffixes, skipped))]


@dataclass(frozen=True)
class Found:
    """The inputs of a run, and what its folders held that the command itself wrote earlier."""

    files: list[Path]
    #: found in a folder named (never named itself): an earlier run's output, not read, and said
    skipped: list[Path] = field(default_factory=list)


def find_inputs(paths: Iterable[str | Path], suffixes: tuple[str, ...] = INPUT_SUFFIXES, *,
                ours: Callable[[Path], bool] | None = None, required: bool = False) -> Found:
    """The files named and found in folders (:func:`expand_paths`), less the files found in a
    folder that ``ours`` says this command wrote (an earlier import's roster, an audit's
    annotated copies): one rule for every command that writes beside its inputs. A file named
    directly is always read, wherever it lies; what is skipped is returned, for the command to
    say. With ``required``, no file at all is an InputError (NO_DOCUMENTS)."""
    paths = list(paths)
    files: list[Path] = []
    skipped: list[Path] = []
    for p, named in _once(_walk(paths, suffixes, SKIPPED_FOLDERS)):
        (skipped if not named and ours is not None and ours(p) else files).append(p)
    if required and not files:
        _none_found(paths)
    return Found(files, skipped)


def inside(path: str | Path, folder: str | Path) -> bool:
    """Whether ``path`` lies in ``folder``, both resolved (links followed); False when either
    cannot be resolved."""
    try:
        return Path(path).resolve().is_relative_to(Path(folder).resolve())
    except (OSError, RuntimeError, ValueError):
        return False


def _walk(paths: Iterable[str | Path], suffixes: tuple[str, ...],
          skipped: tuple[str, ...]) -> list[tuple[Path, bool]]:
    """Each file named (True) or found in a folder named (False), in order."""
    out: list[tuple[Path, bool]] = []
    for raw in paths:
        p = Path(raw)
        if str(raw) == STDIN:
            out.append((p, True))
        elif p.is_dir():
            out.extend((q, False) for q in sorted(q for q in p.rglob("*")
                                                  if q.is_file() and q.suffix.lower() in suffixes
                                                  and not any(part.startswith(".") or part in skipped
                                                              for part in q.relative_to(p).parts[:-1])
                                                  and not q.name.startswith((".", "~$"))))
        else:
            out.append((p, True))
    return out


def _once(found: list[tuple[Path, bool]]) -> list[tuple[Path, bool]]:
    """``found`` without repeats (the same file by any spelling, a link to it included: one
    file on disk), first occurrence kept; named if any occurrence was named."""
    seen: dict[object, int] = {}
    out: list[tuple[Path, bool]] = []
    for p, named in found:
        text = str(p)
        key: object = text
        if text != STDIN:
            try:
                st = os.stat(text)  # one call, where resolving walked every part of the path
                key = (st.st_dev, st.st_ino)
            except (OSError, ValueError):
                pass
        if key in seen:
            if named:
                out[seen[key]] = (out[seen[key]][0], True)
            continue
        seen[key] = len(out)
        out.append((p, named))
    return out


def _none_found(paths: list[str | Path]) -> None:
    names = [str(p) for p in paths]
    raise InputError("no documents found in: " + ", ".join(names), "NO_DOCUMENTS", paths=names)


def input_files(paths: Iterable[str | Path], suffixes: tuple[str, ...] | None = None,
          required: bool = False) -> list[Path]:
    """The files named (folders searched: ``io.expand_paths``); with ``required``, none found is
    an InputError (NO_DOCUMENTS, exit 2)."""
    paths = list(paths)
    files = expand_paths(paths) if suffixes is None else expand_paths(paths, suffixes)
    if required and not files:
        _none_found(paths)
    return files

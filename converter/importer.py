"""Importing folders of sheets: every workbook read (our templates by name, homemade layouts by
their labels), each character or unit checked, written as a JSON document, and listed.

Each workbook is read in a worker process (the runner's pool: memory and time limits, a file that
crashes its reader costs only itself); documents come back in input order and are written here,
so names that collide get a suffix deterministically. Reading (``converter.legacy``) and checking
(``converter.check``) meet here, as they do in the runner for ``check``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from .check import CheckReport, FileReport, check_source
from .check.checker import run_set_checks
from .core.findings import Finding
from .core.source import UNREADABLE, Origin
from .io.files import dump_document, write_atomic
from .io.sources import expand_paths
from .legacy.profile import Profile
from .legacy.sources import SUFFIXES, ImportRecord, read_import
from .runner import Limits, Task, run_in_workers

REPORT_NAME = "import-report.json"
EXIT_ALL, EXIT_SOME, EXIT_NONE = 0, 1, 2


@dataclass
class Entry:
    """One character or unit imported (or one file that could not be): its check report, where
    it came from, its document and what was written for it."""

    report: FileReport
    record: ImportRecord
    outputs: list[str] = field(default_factory=list)

    @property
    def imported(self) -> bool:
        return self.report.kind != UNREADABLE

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {**self.report.to_dict(lang), "import": {**self.record.to_dict(), "outputs": self.outputs}}


@dataclass
class ImportReport:
    entries: list[Entry]
    check: CheckReport  # the same file reports, with the set checks run over them

    @property
    def files(self) -> int:
        return len({e.record.file for e in self.entries})

    @property
    def exit_code(self) -> int:
        failed = {e.record.file for e in self.entries if not e.imported}
        if not failed:
            return EXIT_ALL
        return EXIT_NONE if len(failed) == self.files else EXIT_SOME

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        head = self.check.to_dict(lang)
        head["files"] = [e.to_dict(lang) for e in self.entries]
        return head

    def roster(self):
        """The run as a pandas DataFrame (:mod:`converter.roster`)."""
        from .roster import roster_frame

        return roster_frame(self.entries)


def import_one(path: Path, system: str | None, options: Mapping[str, str],
               profile: Profile | None = None) -> list[Entry]:
    """Every character or unit in one workbook, read and checked; never raises for what it holds."""
    out = []
    for source, record in read_import(path, system, profile):
        out.append(Entry(check_source(source, options, {}), record))
    return out


def _crashed(path: Path, reason: str) -> list[Entry]:
    report = FileReport(str(path), None, [Finding("INPUT_CRASHED", "", {"reason": reason})], UNREADABLE,
                        Origin("legacy"))
    return [Entry(report, ImportRecord(str(path)))]


def import_files(paths: Iterable[str | Path], outdir: str | Path | None = None, *, system: str | None = None,
                 profile: Profile | None = None,
                 options: Mapping[str, str] | None = None, jobs: int = 1, templates: bool = False,
                 force: bool = False, on_entry: Callable[[Entry], None] | None = None,
                 limits: Limits = Limits()) -> ImportReport:
    """Import every workbook named (folders searched for .xlsx .xlsm .xls .xlsb .ods).

    With ``outdir``: a JSON document per character or unit, named after it (``-2``, ``-3`` when
    names collide), with ``templates`` also our filled template of its system, then
    ``import-report.json`` and the roster (``roster.csv``, ``roster.xlsx``). Inputs are never
    replaced; every file is written whole or not at all."""
    out = Path(outdir) if outdir is not None else None
    files = [p for p in expand_paths(paths, SUFFIXES)
             if not (out is not None and _inside(p, out)) and not _earlier_output(p)]
    options = dict(options or {})
    inputs = [str(p) for p in files]
    taken: set[str] = set()
    results: list[list[Entry] | None] = [None] * len(files)
    entries: list[Entry] = []
    emitted = 0

    def done(index: int, got: list[Entry]) -> None:
        nonlocal emitted
        results[index] = got
        while emitted < len(files) and results[emitted] is not None:
            for entry in results[emitted]:
                if out is not None and entry.imported and entry.report.document is not None:
                    entry.outputs = _write_entry(entry, out, taken, templates, force, inputs)
                entries.append(entry)
                if on_entry is not None:
                    on_entry(entry)
            emitted += 1

    task = Task(partial(import_one, system=system, options=options, profile=profile), _crashed)
    if files:
        run_in_workers(files, list(range(len(files))), task, max(1, min(jobs, len(files))), limits, done)
    check = CheckReport([e.report for e in entries], options=options)
    run_set_checks(check)
    report = ImportReport(entries, check)
    if out is not None:
        write_atomic(out / REPORT_NAME, json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n",
                     force=force, inputs=inputs)
        from .roster import write_roster

        write_roster(report.roster(), out, force=force, inputs=inputs)
    return report


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies in ``folder`` (an earlier run's output is not imported again)."""
    try:
        path.resolve().relative_to(folder.resolve())
    except (ValueError, OSError):
        return False
    return True


def _earlier_output(path: Path) -> bool:
    """A roster or filled template an earlier import wrote (its folder holds the report)."""
    return (path.parent / REPORT_NAME).exists() or (
        path.parent.name == "templates" and (path.parent.parent / REPORT_NAME).exists())


_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def document_name(doc: Mapping[str, Any], fallback: str) -> str:
    """A file name for a document: its character's or unit's name, made safe for any file system."""
    pilot = doc.get("pilot")
    name = doc.get("name") or (pilot.get("name") if isinstance(pilot, Mapping) else None) or fallback
    name = _UNSAFE.sub("_", str(name)).strip(" .") or "document"
    return name[:80]


def _write_entry(entry: Entry, out: Path, taken: set[str], templates: bool, force: bool,
                 inputs: list[str]) -> list[str]:
    doc = entry.report.document or {}
    stem = document_name(doc, f"{Path(entry.record.file).stem}-{entry.record.sheet or ''}")
    name, n = stem, 1
    while name.casefold() in taken:
        n += 1
        name = f"{stem}-{n}"
    taken.add(name.casefold())
    written = [str(write_atomic(out / f"{name}.json", dump_document(doc), force=force, inputs=inputs))]
    if templates and doc.get("system"):
        from .sheets import sheet_bytes

        written.append(str(write_atomic(out / "templates" / f"{name}.xlsx", sheet_bytes(doc), force=force,
                                        inputs=inputs)))
    return written

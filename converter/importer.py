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
from array import array
from collections import deque
from contextlib import nullcontext
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping

from .check import CheckReport, FileReport, check_source
from .check.checker import ordered, run_set_checks
from .core.findings import Finding, Severity
from .core.source import UNREADABLE, Origin
from .io.files import AtomicWrites, Inputs, dump_document, write_atomic
from .io.sources import expand_paths
from .legacy.profile import Profile
from .legacy.sources import SUFFIXES, ImportRecord, read_import
from .runner import Limits, Task, run_in_workers, share_readings, slimmed

REPORT_NAME = "import-report.json"
EXIT_ALL, EXIT_SOME, EXIT_NONE = 0, 1, 2


@dataclass(slots=True)
class Entry:
    """One character or unit imported (or one file that could not be): its check report, where
    it came from, its document and what was written for it."""

    report: FileReport
    record: ImportRecord
    outputs: list[str] = field(default_factory=list)
    # A streamed run's entry: its roster row but the counts of findings (roster.FIXED), taken
    # before the report was slimmed (the slim report no longer holds the document and totals).
    row: tuple[Any, ...] | None = None

    @property
    def imported(self) -> bool:
        return self.report.kind != UNREADABLE

    def to_dict(self, lang: str = "ja") -> dict[str, Any]:
        return {**self.report.to_dict(lang), "import": {**self.record.to_dict(), "outputs": self.outputs}}


@dataclass
class ImportReport:
    """A run's entries, in input order. After a ``streamed`` run each entry keeps only what the
    summary, the roster and the set checks need; the whole report is import-report.json."""

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


@dataclass
class Prepared:
    """An entry as a worker hands it over, its outputs ready to write: the parent only names
    them (names that collide get a suffix in input order) and writes, so that serialising
    documents (and filling templates) runs in the workers, side by side."""

    entry: Entry
    stem: str | None = None  # the name its files are given, before a suffix; None: nothing to write
    document: bytes | None = None  # the document's JSON text
    template: bytes | None = None  # our template of its system, filled
    text: bytes | None = None  # streamed: its object of import-report.json, before outputs and set checks
    findings: bytes | None = None  # streamed: its findings, pickled (in case the set checks add some)


@dataclass(frozen=True)
class _Plan:
    """What a worker prepares of each entry."""

    write: bool = False  # the document (an output folder was given)
    templates: bool = False
    streamed: bool = False


def _prepare(entries: list[Entry], plan: _Plan) -> list[Prepared]:
    out = []
    for entry in entries:
        got = Prepared(entry)
        doc = entry.report.document
        if plan.write and entry.imported and doc is not None:
            got.stem = document_name(doc, f"{Path(entry.record.file).stem}-{entry.record.sheet or ''}")
            got.document = dump_document(doc).encode("utf-8")
            if plan.templates and doc.get("system"):
                from .sheets import sheet_bytes

                got.template = sheet_bytes(doc)
        if plan.streamed:
            import pickle

            from .roster import fixed_row

            got.text = _json(entry.to_dict())
            got.findings = pickle.dumps(entry.report.findings)
            entry.row = fixed_row(entry)
            entry.report = slimmed(entry.report).printed()
            entry.record = replace(entry.record, unmapped={}, scores={})
        out.append(got)
    return out


def _import_prepared(path: Path, system: str | None, options: Mapping[str, str], profile: Profile | None,
                     plan: _Plan) -> list[Prepared]:
    """A worker's import of one workbook: its entries, their outputs prepared."""
    return _prepare(import_one(path, system, options, profile), plan)


def _crashed_prepared(path: Path, reason: str, plan: _Plan) -> list[Prepared]:
    return _prepare(_crashed(path, reason), plan)


def _prewarm_import() -> None:
    """What every worker needs, imported and built once before they are forked: the label
    readers, each system's labels and its schema validators (an imported sheet is seldom
    complete, so its findings are explained by jsonschema)."""
    from .legacy.labels import legacy_systems, system_labels
    from .schema import build_validators

    for system in legacy_systems():
        system_labels(system)
        build_validators(system)


WRITES_AHEAD = 64  # entries whose files may be in writing before the oldest must be done


def import_files(paths: Iterable[str | Path], outdir: str | Path | None = None, *, system: str | None = None,
                 profile: Profile | None = None,
                 options: Mapping[str, str] | None = None, jobs: int = 1, templates: bool = False,
                 force: bool = False, on_entry: Callable[[Entry], None] | None = None,
                 limits: Limits = Limits(), streamed: bool = False) -> ImportReport:
    """Import every workbook named (folders searched for .xlsx .xlsm .xls .xlsb .ods).

    With ``outdir``: a JSON document per character or unit, named after it (``-2``, ``-3`` when
    names collide), with ``templates`` also our filled template of its system, then
    ``import-report.json`` and the roster (``roster.csv``, ``roster.xlsx``). Inputs are never
    replaced; every file is written whole or not at all. ``on_entry`` receives each entry in
    input order once its files are written. With ``streamed`` (and ``outdir``), an entry keeps
    afterwards only what the summary, the roster and the set checks need (its report's object is
    kept in a temporary file until import-report.json is written), so memory stays flat however
    many files a folder holds; the files written are the same."""
    out = Path(outdir) if outdir is not None else None
    streamed = streamed and out is not None
    root = _resolved(out) if out is not None else None
    files = [p for p in expand_paths(paths, SUFFIXES)
             if not (root is not None and _inside(p, root)) and not _earlier_output(p)]
    options = dict(options or {})
    inputs = Inputs(files)
    plan = _Plan(write=out is not None, templates=templates, streamed=streamed)
    taken: set[str] = set()
    arrived: dict[int, list[Prepared]] = {}
    entries: list[Entry] = []
    waiting: deque[tuple[Entry, list[Any]]] = deque()  # entries whose files are being written
    spool = _Spool() if streamed else None
    shared: dict[str, Any] = {}
    emitted = 0

    def finish(block: bool) -> None:
        """Hand on the entries whose files are written, in order (an OutputError is raised here)."""
        while waiting and (block or len(waiting) > WRITES_AHEAD or all(f.done() for f in waiting[0][1])):
            entry, futures = waiting.popleft()
            for f in futures:
                f.result()
            entries.append(entry)
            if on_entry is not None:
                on_entry(entry)
            if streamed:
                share_readings(entry.report, shared)
                entry.report.findings = [_TALLY[f.level] for f in entry.report.findings]

    def emit(got: Prepared) -> None:
        entry, futures = got.entry, []
        if got.stem is not None and writer is not None:
            name, n = got.stem, 1
            while name.casefold() in taken:
                n += 1
                name = f"{got.stem}-{n}"
            taken.add(name.casefold())
            targets = [(out / f"{name}.json", got.document)]
            if got.template is not None:
                targets.append((out / "templates" / f"{name}.xlsx", got.template))
            for target, data in targets:
                futures.append(writer.submit(target, data))
                entry.outputs.append(str(target))
        if spool is not None:
            spool.add(_with_outputs(got.text, entry.outputs), got.findings)
        waiting.append((entry, futures))
        finish(block=False)

    def done(index: int, got: list[Prepared]) -> None:
        nonlocal emitted
        arrived[index] = got
        while emitted in arrived:
            for prepared in arrived.pop(emitted):
                emit(prepared)
            emitted += 1

    task = Task(partial(_import_prepared, system=system, options=options, profile=profile, plan=plan),
                partial(_crashed_prepared, plan=plan), _prewarm_import)
    with AtomicWrites(inputs, force) if out is not None else nullcontext() as writer:
        if files:
            run_in_workers(files, list(range(len(files))), task, max(1, min(jobs, len(files))), limits, done)
        finish(block=True)
    del files  # thousands of paths, not needed past here (the entries name their files)
    check = CheckReport([e.report for e in entries], options=options)
    run_set_checks(check)
    report = ImportReport(entries, check)
    if out is not None:
        if spool is not None:
            texts = spool.texts(entries)
        else:
            texts = (_json(e.to_dict()) for e in entries)
        write_atomic(out / REPORT_NAME, _report_pieces(check, texts), force=force, inputs=inputs)
        from .roster import write_roster

        write_roster(report.roster(), out, force=force, inputs=inputs)
    return report


# --- import-report.json, an entry at a time --------------------------------------------------------

def _json(obj: Any) -> bytes:
    """``obj`` as import-report.json writes it (indented), in UTF-8."""
    return json.dumps(obj, ensure_ascii=False, indent=2).encode("utf-8")


def _nested(text: bytes, depth: int) -> bytes:
    """Indented JSON text as it reads ``depth`` spaces in (json.dumps indents nested lines so)."""
    return text.replace(b"\n", b"\n" + b" " * depth)


_NO_OUTPUTS = b'"outputs": []\n  }\n}'  # how an entry's object ends before its files are named


def _with_outputs(text: bytes, outputs: list[str]) -> bytes:
    """An entry's object with the files written for it (the last key of its last member)."""
    if not outputs:
        return text
    assert text.endswith(_NO_OUTPUTS)
    return text[:-len(_NO_OUTPUTS)] + b'"outputs": ' + _nested(_json(outputs), 4) + b"\n  }\n}"


def _report_pieces(check: CheckReport, texts: Iterable[bytes]) -> Iterator[bytes]:
    """import-report.json as ``json.dumps(report, indent=2)`` writes it, each entry's object
    (``texts``, indented as alone) in its place: a folder's report is never whole in memory."""
    head = CheckReport(sets=check.sets, options=check.options).to_dict()
    head["summary"], head["valid"] = check.summary(), check.valid
    yield b"{"
    for k, (key, value) in enumerate(head.items()):
        yield (b"," if k else b"") + b"\n  " + _json(key) + b": "
        if key != "files":
            yield _nested(_json(value), 2)
            continue
        first = True
        for text in texts:
            yield (b"[\n    " if first else b",\n    ") + _nested(text, 4)
            first = False
        yield b"[]" if first else b"\n  ]"
    yield b"\n}\n"


#: what a streamed entry keeps of each finding: its level (one shared stand-in per level), which
#: is all the summary, the validity and the roster count; the findings are in the spool
_TALLY = {level: Finding("", severity=level) for level in Severity}


class _Spool:
    """A streamed run's entry objects and findings, in a temporary file until the report is
    written."""

    def __init__(self) -> None:
        import tempfile

        self.file = tempfile.TemporaryFile()
        self.sizes = array("Q")  # each entry's object, then its pickled findings

    def add(self, text: bytes, findings: bytes) -> None:
        self.file.write(text)
        self.file.write(findings)
        self.sizes.extend((len(text), len(findings)))

    def texts(self, entries: list[Entry]) -> Iterator[bytes]:
        """Each entry's object; where the set checks added findings, with them, in order."""
        import pickle

        self.file.seek(0)
        with self.file:
            for k, entry in enumerate(entries):
                text, findings = self.file.read(self.sizes[2 * k]), self.file.read(self.sizes[2 * k + 1])
                added = [f for f in entry.report.findings if f.code]
                if added:
                    entry.report.findings = ordered(pickle.loads(findings) + added)
                    obj = json.loads(text)
                    obj["valid"] = entry.report.valid
                    obj["findings"] = [f.to_dict() for f in entry.report.findings]
                    text = _json(obj)
                yield text


def _resolved(folder: Path) -> Path | None:
    try:
        return folder.resolve()
    except OSError:
        return None


def _inside(path: Path, folder: Path) -> bool:
    """Whether ``path`` lies in ``folder`` (resolved; an earlier run's output is not imported again)."""
    try:
        path.resolve().relative_to(folder)
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

"""Importing folders of sheets: every workbook read (our templates by name, homemade layouts by
their labels), each character or unit checked, written as a JSON document, and listed.

Each workbook is read in a worker process (``converter.batch``'s pool: memory and time limits, a file that
crashes its reader costs only itself); documents come back in input order and are written here,
so names that collide get a suffix deterministically. Once written, an entry is kept small (its
object in import-report.json: :class:`Imported`), and what the set checks read of it. Reading
(``converter.legacy``) and checking (``converter.check``) meet here, as they do in ``converter.batch``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from itertools import chain
from pathlib import Path
from collections.abc import Mapping
from typing import Any, Callable, Iterable

from ..check import CheckReport, FileReport, check_source
from ..check.checker import LEVEL_ORDER, run_set_checks, set_member
from ..check.report import tally
from ..check.text import TextOptions, render_file, render_findings
from ..core.findings import Finding, Severity
from ..core.source import UNREADABLE, Origin, shown_name
from ..core.texts import texts
from ..io.files import Inputs, dump_document, utf8, write_atomic
from ..legacy.profile import Profile
from ..legacy.sources import SUFFIXES, ImportRecord, read_import
from ..batch.pool import Limits, Task, in_input_order, run_in_workers
from ..io.sources import find_inputs
from .roster import roster_frame, roster_row, who, write_roster

REPORT_NAME = "import-report.json"
# 0 every file imported, no sheet with an error; 1 some file not imported, or an imported sheet
# with an error (it was written: the GM fixes it there); 2 no file imported
EXIT_ALL, EXIT_SOME, EXIT_NONE = 0, 1, 2
#: a system guessed from the labels with less confidence than this is said under its line
LOW_CONFIDENCE = 0.5


@dataclass(slots=True)
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

    def text(self, opts: TextOptions) -> str:
        """What ``mechasheet import`` prints of the entry: its line, a warning when the system
        was guessed on thin evidence, and its errors and warnings (errors only with ``quiet``,
        and then nothing for an entry without one); a failure with its findings."""
        t, path = texts(opts.lang), shown_name(self.report.path)  # an ESC in a name never reaches the terminal
        if not self.imported:
            return t["import_failed"].format(path=path) + "\n" + render_file(self.report, opts)
        shown = [f for f in self.report.findings
                 if f.level is Severity.ERROR or (f.level is Severity.WARNING and not opts.quiet)]
        if opts.quiet and not shown:
            return ""
        conf = self.record.confidence
        text = t["import_line"].format(path=path, system=self.report.system,
                                       confidence="—" if conf is None else f"{conf:g}",
                                       output=", ".join(self.outputs) or "—") + "\n"
        if self.unsure and not opts.quiet:
            text += t["import_low_confidence"].format(confidence=f"{conf:g}", threshold=f"{LOW_CONFIDENCE:g}",
                                                      path=path) + "\n"
        return text + render_findings(shown, opts)

    @property
    def unsure(self) -> bool:
        """Its system guessed from its labels with a confidence under LOW_CONFIDENCE."""
        conf = self.record.confidence
        return self.imported and conf is not None and conf < LOW_CONFIDENCE


@dataclass(frozen=True, slots=True)
class Imported:
    """What a run keeps of an entry once its files are written (its report is let go): its
    object in import-report.json as compact JSON, a sixth of the report in memory, and what the
    summary, the exit code and the roster need besides."""

    file: str  # the workbook
    imported: bool
    levels: tuple[Severity, ...]  # its findings', in order
    who: tuple[Any, Any]  # its name and player (the document is not kept)
    text: bytes
    unsure: bool = False  # its system guessed with a low confidence
    outputs: tuple[str, ...] = ()  # the files written for it

    @classmethod
    def of(cls, entry: Entry) -> "Imported":
        r = entry.report
        return cls(entry.record.file, entry.imported, tuple(f.level for f in r.findings),
                   who(r.document or {}, r.system), _compact(entry.to_dict()), entry.unsure,
                   tuple(entry.outputs))

    @property
    def data(self) -> dict[str, Any]:
        """Its object in import-report.json."""
        return json.loads(self.text)

    def with_findings(self, added: list[Finding]) -> "Imported":
        """With the set checks' findings about it, placed among its own by level as the checker
        orders a report's findings."""
        data = self.data
        own = zip(self.levels, data["findings"], strict=True)
        both = sorted([*own, *((f.level, f.to_dict()) for f in added)], key=lambda pair: LEVEL_ORDER[pair[0]])
        levels = tuple(level for level, _ in both)
        data["findings"], data["valid"] = [d for _, d in both], Severity.ERROR not in levels
        return replace(self, levels=levels, text=_compact(data))


def _compact(data: dict[str, Any]) -> bytes:
    return utf8(json.dumps(data, ensure_ascii=False, separators=(",", ":")))


@dataclass
class ImportReport:
    """A run's entries, in input order, kept small; the whole report is import-report.json."""

    entries: list[Imported]
    check: CheckReport  # the options; the set checks' summaries and findings, over what they read
    skipped: list[str] = field(default_factory=list)  # found in folders: an earlier import's outputs
    written: list[str] = field(default_factory=list)  # the report and the roster, once written

    @property
    def files(self) -> int:
        """The workbooks read."""
        return len({e.file for e in self.entries})

    @property
    def failed(self) -> int:
        """The workbooks that could not be imported."""
        return len({e.file for e in self.entries if not e.imported})

    @property
    def invalid(self) -> int:
        """The characters and units imported with an error."""
        return sum(1 for e in self.entries if e.imported and Severity.ERROR in e.levels)

    @property
    def exit_code(self) -> int:
        if self.failed and self.failed == self.files:
            return EXIT_NONE
        return EXIT_SOME if self.failed or self.invalid else EXIT_ALL

    def summary(self) -> dict[str, int]:
        return tally([e.levels for e in self.entries], self.check.sets)

    def summary_text(self, lang: str) -> str:
        """What ``mechasheet import`` closes with: what was passed over as an earlier import's
        output (by folder), the counts (each with its number), and every file written."""
        t = texts(lang)
        lines = []
        by_folder: dict[str, int] = {}
        for p in self.skipped:
            folder = Path(p).parent
            folder = folder.parent if folder.name == "templates" else folder
            by_folder[str(folder)] = by_folder.get(str(folder), 0) + 1
        lines += [t["import_skipped"].format(folder=shown_name(folder), n=n) for folder, n in by_folder.items()]
        lines.append(t["import_summary"].format(
            files=self.files, documents=sum(1 for e in self.entries if e.imported), failed=self.failed,
            invalid=self.invalid, unsure=sum(1 for e in self.entries if e.unsure),
            written=sum(len(e.outputs) for e in self.entries) + len(self.written)))
        lines += [t["import_written"].format(path=p) for p in self.written]  # each document: on its line
        return "".join(line + "\n" for line in lines)

    def to_dict(self, files: list[Any] | None = None) -> dict[str, Any]:
        """import-report.json as JSON data (``files``: the entries in another form, to encode)."""
        return self.check.to_dict(files=[e.data for e in self.entries] if files is None else files,
                                  summary=self.summary())

    def write(self, path: Path, force: bool, inputs: Inputs) -> None:
        """import-report.json, by json's encoder; each entry made JSON data only as the encoder
        reaches it, so the whole report (70 MB at 10,000 sheets) is never in memory at once."""
        encoder = json.JSONEncoder(ensure_ascii=False, indent=2, default=lambda e: e.data)
        write_atomic(path, chain(encoder.iterencode(self.to_dict(self.entries)), ["\n"]), force, inputs)

    def roster(self):
        """The run as a pandas DataFrame (:mod:`converter.imports.roster`)."""
        return roster_frame(roster_row(e.data, *e.who) for e in self.entries)


def build_import_report_schema() -> dict[str, Any]:
    """The JSON Schema of ``import-report.json``: the check report's, each file entry with its
    ``import`` object (schemas/import-report.schema.json, `mechasheet schema import-report`)."""
    import copy

    from ..check.report import build_report_schema

    schema = copy.deepcopy(build_report_schema())
    schema["$id"] = "https://mechasheet.invalid/schemas/import-report.schema.json"
    schema["title"] = "mechasheet: import report (import-report.json of mechasheet import)"
    schema["description"] = ("Generated by converter.imports.importer.build_import_report_schema "
                             "(`mechasheet schema import-report`). Do not edit.")
    entry = schema["properties"]["files"]["items"]
    nullable = lambda kind: {"type": [kind, "null"]}  # noqa: E731
    entry["required"] = [*entry["required"], "import"]
    entry["properties"]["import"] = {
        "type": "object",
        "required": ["file", "sheet", "region", "system", "confidence", "unmapped", "unmapped_cells", "outputs"],
        "properties": {
            "file": {"type": "string", "description": "the workbook"},
            "sheet": nullable("string"), "region": nullable("string"),
            "system": nullable("string"),
            "confidence": {"type": ["number", "null"], "minimum": 0, "maximum": 1,
                           "description": "how sure the system is (1: named, or our template)"},
            "unmapped": {"type": "integer", "minimum": 0, "description": "cells kept in extra.import"},
            "unmapped_cells": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]+[0-9]+$"}},
            "outputs": {"type": "array", "items": {"type": "string"}, "description": "files written"},
        },
        "additionalProperties": False,
    }
    return schema


def import_report_schema_text() -> str:
    return json.dumps(build_import_report_schema(), ensure_ascii=False, indent=2) + "\n"


def import_one(path: Path, system: str | None, options: Mapping[str, str],
               profile: Profile | None = None, *, scan_first: bool = True) -> list[Entry]:
    """Every character or unit in one workbook, read and checked; never raises for what it holds."""
    return [Entry(check_source(source, options, {}), record)
            for source, record in read_import(path, system, profile, scan_first=scan_first)]


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


def _import_prepared(path: Path, system: str | None, options: Mapping[str, str], profile: Profile | None,
                     write: bool = False, templates: bool = False, *, scan_first: bool = True) -> list[Prepared]:
    """A worker's import of one workbook: its entries, their outputs prepared (with ``write``,
    an output folder was given: the document; with ``templates`` too, the filled template)."""
    out = []
    for entry in import_one(path, system, options, profile, scan_first=scan_first):
        got = Prepared(entry)
        doc = entry.report.document
        if write and entry.imported and doc is not None:
            got.stem = document_name(doc, f"{Path(entry.record.file).stem}-{entry.record.sheet or ''}")
            got.document = utf8(dump_document(doc))
            if templates and doc.get("system"):
                from ..sheets import sheet_bytes

                got.template = sheet_bytes(doc)
        out.append(got)
    return out


def _crashed_prepared(path: Path, reason: str) -> list[Prepared]:
    return [Prepared(entry) for entry in _crashed(path, reason)]  # nothing to write


def import_files(paths: Iterable[str | Path], outdir: str | Path | None = None, *, system: str | None = None,
                 profile: Profile | None = None,
                 options: Mapping[str, str] | None = None, jobs: int = 1, templates: bool = False,
                 force: bool = False, on_entry: Callable[[Entry], None] | None = None,
                 on_found: Callable[[int], None] | None = None, limits: Limits | None = None,
                 required: bool = False) -> ImportReport:
    """Import every workbook named (folders searched for .xlsx .xlsm .xls .xlsb .ods; in them,
    an earlier import's roster and listed templates are passed over: ``report.skipped``).

    With ``outdir``: a JSON document per character or unit, named after it (``-2``, ``-3`` when
    names collide), with ``templates`` also our filled template of its system, then
    ``import-report.json`` and the roster (``roster.csv``, ``roster.xlsx``), these three refused
    before any workbook is read if they exist (without ``force``). Inputs are never replaced;
    every file is written whole or not at all. ``on_found`` receives the number of
    workbooks to read before any is; ``on_entry`` each whole entry in input order once its files
    are written (the report keeps it small). With ``required``, finding no workbook is an
    InputError."""
    paths = list(paths)
    out = Path(outdir) if outdir is not None else None
    found = find_inputs(paths, SUFFIXES, ours=earlier_output, required=required)
    files = found.files
    inputs = Inputs(files)
    if out is not None:
        refuse_outputs(out, inputs, force)
    if on_found is not None:
        on_found(len(files))
    options = dict(options or {})
    taken: set[str] = set()
    entries: list[Imported] = []
    members: list[tuple[int, FileReport]] = []  # (entry, what the set checks read of it)

    def hand_on(prepared: list[Prepared]) -> None:
        for got in prepared:
            if out is not None and got.stem is not None:
                assert got.document is not None
                name, n = got.stem, 1
                while True:
                    targets = [(out / f"{name}.json", got.document)]
                    if got.template is not None:
                        targets.append((out / "templates" / f"{name}.xlsx", got.template))
                    if name.casefold() not in taken and not _in_use([t for t, _ in targets], inputs, force):
                        break
                    n += 1
                    name = f"{got.stem}-{n}"
                taken.add(name.casefold())
                for target, data in targets:
                    write_atomic(target, data, force, inputs)
                    got.entry.outputs.append(str(target))
            if on_entry is not None:
                on_entry(got.entry)
            member = set_member(got.entry.report)
            if member is not None:
                members.append((len(entries), member))
            entries.append(Imported.of(got.entry))

    task = Task(partial(_import_prepared, system=system, options=options, profile=profile, write=out is not None,
                        templates=templates), _crashed_prepared)
    if files:
        run_in_workers(files, list(range(len(files))), task, jobs, limits or Limits(), in_input_order(hand_on))
    check = CheckReport([member for _, member in members], options=options)
    run_set_checks(check)
    for i, member in members:
        if member.findings:
            entries[i] = entries[i].with_findings(member.findings)
    report = ImportReport(entries, check, [str(p) for p in found.skipped])
    if out is not None:
        report.write(out / REPORT_NAME, force, inputs)
        report.written.append(str(out / REPORT_NAME))
        report.written += [str(p) for p in write_roster(report.roster(), out, force=force, inputs=inputs)]
    return report


def _in_use(targets: list[Path], inputs: Inputs, force: bool) -> bool:
    """Whether a name's files would replace an input, or (without ``force``) a file already
    there: the name is passed over for the next suffix, so that a document never stops the run
    halfway (the report and roster are refused before any work: :func:`refuse_outputs`)."""
    from ..core.errors import OutputError

    try:
        for target in targets:
            inputs.refuse(target, force)
    except OutputError:
        return True
    return False


#: what every import with an output folder writes there, whatever it reads
FIXED_OUTPUTS = (REPORT_NAME, "roster.csv", "roster.xlsx")


def refuse_outputs(out: Path, inputs: Inputs, force: bool) -> None:
    """An OutputError before any workbook is read for an output every run writes that is an
    input or (without ``force``) exists already: an earlier import's folder is refused, not
    filled with documents beside an old roster."""
    for name in FIXED_OUTPUTS:
        inputs.refuse(out / name, force)


def earlier_output(path: Path) -> bool:
    """A workbook an earlier import wrote, found in a folder: the roster beside its
    import-report.json, or a filled template that report lists. A stray report claims
    nothing: the folder's other workbooks are read."""
    if path.name == "roster.xlsx":
        return _report_outputs(path.parent / REPORT_NAME) is not None
    if path.parent.name == "templates":
        listed = _report_outputs(path.parent.parent / REPORT_NAME)
        return listed is not None and path.name in listed
    return False


#: the largest import-report.json read to learn what an earlier import wrote (70 MB at 10,000 sheets)
REPORT_READ_LIMIT = 512 * 1024 ** 2


def _report_outputs(report: Path) -> frozenset[str] | None:
    """The names of the filled templates the import report at ``report`` lists; None when it is
    no import report of ours. Read once for each version of the file (its size and time)."""
    try:
        st = report.stat()
    except OSError:
        return None
    if not report.is_file() or st.st_size > REPORT_READ_LIMIT:
        return None
    return _listed_templates(str(report), st.st_size, st.st_mtime_ns)


@lru_cache(maxsize=64)
def _listed_templates(report: str, size: int, mtime_ns: int) -> frozenset[str] | None:
    try:
        data = json.loads(Path(report).read_bytes())
        outputs = [o for e in data["files"] for o in e["import"]["outputs"]]
    except (OSError, ValueError, TypeError, KeyError, RecursionError):
        return None
    return frozenset(Path(o).name for o in outputs if isinstance(o, str) and Path(o).parent.name == "templates")


_UNSAFE = re.compile(r'[\\/:*?"<>|\x00-\x1f]+')


def document_name(doc: Mapping[str, Any], fallback: str) -> str:
    """A file name for a document: its character's or unit's name, made safe for any file system."""
    pilot = doc.get("pilot")
    name = doc.get("name") or (pilot.get("name") if isinstance(pilot, Mapping) else None) or fallback
    name = _UNSAFE.sub("_", str(name)).strip(" .") or "document"
    return name[:80]

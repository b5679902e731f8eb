"""Writing an audit: the annotated copies first (what each copy loses goes into the reports),
then each report by its name's suffix (.json, .xlsx, .html), every file whole or not at all and
never over an input."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Callable, Iterable

from ..core.collector import set_aside
from ..core.errors import OutputError
from ..core.findings import Finding
from ..core.preload import Preload
from ..io.files import PUBLISH_BATCH, Inputs, Publisher, Staged, write_atomic
from .report import AuditReport


def _json_bytes(report: AuditReport, lang: str) -> bytes:
    return json_report_text(report.to_dict(lang)).encode("utf-8")


def json_report_text(data: dict[str, Any]) -> str:
    """The report as JSON with one top-level key a line and one element of each list a line
    (a file, a roster row): as easy to read and diff as an indented dump, and written by
    json's C encoder (an indented dump is encoded in Python, several times slower)."""
    def dumps(value: Any) -> str:
        return json.dumps(value, ensure_ascii=False)

    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n".join("    " + dumps(item) for item in value)
            lines.append(f"  {dumps(key)}: [\n{items}\n  ]")
        else:
            lines.append(f"  {dumps(key)}: {dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _xlsx_bytes(report: AuditReport, lang: str) -> bytes:
    from .xlsx_report import xlsx_report_bytes

    return xlsx_report_bytes(report, lang)


def _html_bytes(report: AuditReport, lang: str) -> bytes:
    from .html_report import html_report_bytes

    return html_report_bytes(report, lang)


#: a report's writing time, relative (600 sheets: HTML ~0.5 s, its charts most of it; xlsx and
#: JSON ~0.25 s each)
REPORT_COST = {".html": 2.0, ".xlsx": 1.0, ".json": 1.0}

#: a report's suffix → what writes it
REPORT_KINDS: dict[str, Callable[[AuditReport, str], bytes]] = {
    ".json": _json_bytes, ".xlsx": _xlsx_bytes, ".html": _html_bytes}


def check_report_names(outputs: Iterable[str | Path]) -> list[Path]:
    """The reports asked for; an OutputError (AUDIT_REPORT_KIND) for a name no writer takes,
    before anything is read."""
    out = []
    for name in outputs:
        p = Path(name)
        if p.suffix.lower() not in REPORT_KINDS:
            raise OutputError(f"{p}: a report's name must end in .html, .xlsx or .json",
                              "OUTPUT_REPORT_KIND", path=str(p))
        out.append(p)
    return out


def annotated_name(path: str, root: Path, folder: Path) -> Path:
    """Where the annotated copy of the workbook at ``path`` goes: its place under the inputs'
    common folder ``root``, inside ``folder``, as .xlsx (an .xlsm's copy keeps .xlsm, with its
    macros)."""
    from .annotate import copy_suffix

    p = Path(path)
    try:
        relative = p.resolve().relative_to(root)
    except ValueError:
        relative = Path(p.name)
    return folder / relative.with_suffix(copy_suffix(p))


def write_annotated(report: AuditReport, folder: Path, lang: str = "ja", force: bool = False,
                    inputs: Inputs | None = None, jobs: int = 1) -> list[Path]:
    """An annotated copy of every workbook audited, under ``folder``, each made in a worker;
    each copy's losses (none for a package edited directly), or why it could not be made, are
    recorded on its file in the report."""
    from functools import partial

    from ..legacy.grid import SUFFIXES
    from ..batch.pool import Limits, Task, run_in_workers

    workbooks = [f for f in report.files if Path(f.path).suffix.lower() in SUFFIXES
                 and any(m.readable for m in f.members)]
    if not workbooks:
        return []
    inputs = inputs or Inputs(f.path for f in report.files)
    root = Path(os.path.commonpath([str(Path(f.path).resolve().parent) for f in workbooks]))
    plan: dict[str, tuple[list[Finding], Path]] = {}
    for audited in workbooks:
        target = annotated_name(audited.path, root, folder)
        inputs.refuse(target)
        if target.exists() and not force:
            raise OutputError(f"{target}: already exists (use --force to replace it)", "OUTPUT_EXISTS",
                              file=str(target))
        plan[audited.path] = ([f for m in audited.members for f in m.report.findings], target)

    publisher = Publisher()  # the copies staged in the workers, made durable and named here

    def done(index: int, got: tuple[list[Any], str | None, Staged | None]) -> None:
        losses, failure, staged = got
        audited = workbooks[index]
        audited.losses = losses
        if failure is None and staged is not None:
            audited.annotated = str(plan[audited.path][1])
            publisher.add(staged)
            if len(publisher.pending) >= PUBLISH_BATCH:
                _publish_copies(publisher, workbooks)
        else:
            audited.annotation_failed = failure

    task = Task(partial(_annotate_one, plan=plan, lang=lang, force=force), _annotation_crashed)
    paths = [Path(f.path) for f in workbooks]
    try:
        run_in_workers(paths, list(range(len(paths))), task, max(1, min(jobs, len(paths))), Limits(), done)
        _publish_copies(publisher, workbooks)
    finally:
        publisher.discard()  # what a failure left unnamed
    return [Path(f.annotated) for f in workbooks if f.annotated is not None]


def _publish_copies(publisher: Publisher, workbooks: list[Any]) -> None:
    """The staged copies on disk and named; a copy that could not be is said on its file."""
    failed = {str(staged.target): exc for staged, exc in publisher.flush()}
    if failed:
        for audited in workbooks:
            if audited.annotated in failed:
                audited.annotation_failed = str(failed[audited.annotated])
                audited.annotated = None


#: what each report's writer imports: loaded in the background while the files are audited
REPORT_LIBRARIES = {".xlsx": ("pandas", "xlsxwriter", "converter.audit.xlsx_report"),
                    ".html": ("pandas", "jinja2", "matplotlib.figure", "matplotlib.backends.backend_svg",
                              "converter.audit.html_report")}


class ReportLibraries(Preload):
    """The report writers' libraries (pandas, Jinja2, matplotlib: most of a second) and modules
    (``core.preload``), imported while the audit's workers read the files, then the HTML page's
    template compiled and a chart drawn once (its fonts), so that a forked report writer
    inherits them. Start it once the workers are forked (``audit_paths(on_started=...)``); join
    it before forking anything else (the annotated copies' workers, the reports' writers)."""

    def __init__(self, outputs: Iterable[Path]) -> None:
        suffixes = {p.suffix.lower() for p in outputs}
        super().__init__((n for s in suffixes for n in REPORT_LIBRARIES.get(s, ())),
                         then=_warm_page if ".html" in suffixes else None)


def _warm_page() -> None:
    from .html_report import page_template
    from .party_chart import warm_up

    page_template()
    warm_up()


_BEING_WRITTEN: tuple[AuditReport, list[Path], str, bool, Inputs] | None = None  # for forked writers


def write_reports(report: AuditReport, outputs: list[Path], lang: str = "ja", force: bool = False,
                  inputs: Inputs | None = None, jobs: int = 1) -> list[Path]:
    """Each report, written whole or not at all; with ``jobs`` > 1 several at once: the slowest
    (the HTML page, its charts) here, the others in forked processes meanwhile (600 sheets: the
    page about 0.4 s, the xlsx and JSON reports about 0.15 s each). Written here, the page
    costs less than in a child, which copies every page of the report it touches."""
    import multiprocessing

    inputs = inputs or Inputs()
    with set_aside():  # the audited folder, walked by no collection while its reports are made
        if jobs < 2 or len(outputs) < 2 or "fork" not in multiprocessing.get_all_start_methods():
            return [_write_report(report, p, lang, force, inputs) for p in outputs]
        return _write_side_by_side(report, outputs, lang, force, inputs, jobs)


def _write_side_by_side(report: AuditReport, outputs: list[Path], lang: str, force: bool, inputs: Inputs,
                        jobs: int) -> list[Path]:
    global _BEING_WRITTEN
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    _BEING_WRITTEN = (report, outputs, lang, force, inputs)
    try:
        slowest_first = sorted(range(len(outputs)), key=lambda i: -REPORT_COST[outputs[i].suffix.lower()])
        here, forked = slowest_first[0], slowest_first[1:]
        results: list[Any] = [None] * len(outputs)
        with ProcessPoolExecutor(min(jobs - 1, len(forked)), mp_context=multiprocessing.get_context("fork")) as pool:
            futures = {i: pool.submit(_write_forked, i) for i in forked}
            results[here] = _write_forked(here)
            for i, future in futures.items():
                results[i] = future.result()
    finally:
        _BEING_WRITTEN = None
    for outcome in results:  # the first failure, as the serial loop would have raised it
        if isinstance(outcome, tuple):
            message, code, params = outcome
            raise OutputError(message, code, **params)
    return results


def _write_report(report: AuditReport, path: Path, lang: str, force: bool, inputs: Inputs) -> Path:
    return write_atomic(path, REPORT_KINDS[path.suffix.lower()](report, lang), force=force, inputs=inputs)


def _write_forked(index: int) -> Path | tuple[str, str, dict[str, Any]]:
    """One report of those being written (in a forked child that inherited them, or here); an
    error comes back as data (an exception's code and parameters do not survive pickling)."""
    report, outputs, lang, force, inputs = _BEING_WRITTEN
    try:
        return _write_report(report, outputs[index], lang, force, inputs)
    except OutputError as exc:
        return str(exc), exc.code, dict(exc.params)


def _annotate_one(path: Path, *, plan: dict[str, tuple[list[Finding], Path]], lang: str,
                  force: bool, scan_first: bool = True) -> tuple[list[Any], str | None]:
    """A worker's annotated copy of the workbook at ``path``: its losses, or why it could not
    be made (a workbook that cannot be copied is said in the report, never a crash).
    ``scan_first`` (every worker task is given it) changes nothing here."""
    from .annotate import annotate

    findings, target = plan[str(path)]
    staged: list[Staged] = []
    try:
        return annotate(path, findings, target, lang, force=force, staged=staged), None, staged[0]
    except Exception as exc:
        for s in staged:
            Path(s.tmp).unlink(missing_ok=True)
        return [], f"{type(exc).__name__}: {exc}", None


def _annotation_crashed(path: Path, reason: str) -> tuple[list[Any], str | None, None]:
    return [], reason, None

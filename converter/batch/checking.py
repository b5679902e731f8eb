"""Checking many files: each file read and checked on its own, in the worker pool when asked
(``--jobs``) and always for a workbook, reports handed back in input order as soon as each is
ready, set checks at the end. Reading (``converter.io``) and checking (``converter.check``) meet
here and in the public API only.
"""
from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..check import CATALOG_SYSTEM, CheckReport, FileReport, check_source
from ..check.checker import run_set_checks
from ..core.findings import Finding
from ..core.source import CATALOG, UNREADABLE, Origin
from ..io import read_source
from ..io.sources import STDIN, input_files
from .pool import Limits, Task, in_input_order, run_in_workers


#: suffixes read in a worker process even with one job (native readers)
ISOLATED_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods")


def check_files(paths: Iterable[str | Path], options: Mapping[str, str] | None = None,
                context: Mapping[str, Any] | None = None, *, jobs: int = 1,
                on_report: Callable[[FileReport], None] | None = None,
                on_found: Callable[[int], None] | None = None, limits: Limits | None = None,
                catalog_file: str | None = None, required: bool = False, isolate: bool = True) -> CheckReport:
    """Every file named (folders searched) checked on its own, then the set checks.

    ``on_found`` receives the number of reports to come before any file is checked (a progress
    bar's total); ``on_report`` each report in input order as soon as it and the ones before it
    are done (to print as you go). ``catalog_file``: the file the context's catalog was read
    from (``--catalog``), reported first with the catalog's findings unless it is among the
    files checked. With ``required``, finding no file is an InputError. Without ``isolate``
    no file goes to a worker process (the browser page: Pyodide has none)."""
    paths = list(paths)
    files = input_files(paths, required=required)
    options = dict(options or {})
    context = {k: v for k, v in (context or {}).items() if v is not None}
    first = _catalog_report(catalog_file, context.get("catalog"), files)
    if on_found is not None:
        on_found(len(files) + len(first))
    reports: list[FileReport] = []

    def hand_on(report: FileReport) -> None:
        reports.append(report)
        if on_report is not None:
            on_report(report)

    for catalog_report in first:
        hand_on(catalog_report)
    done = in_input_order(hand_on)
    # Standard input belongs to this process (a worker's is closed); one JSON file is not worth a
    # worker; a workbook always is (its reader is native code).
    spread = jobs > 1 and len(files) > 1
    apart = [isolate and str(p) != STDIN and (spread or p.suffix.lower() in ISOLATED_SUFFIXES) for p in files]
    isolated = [i for i, away in enumerate(apart) if away]
    in_process = [i for i, away in enumerate(apart) if not away]

    def local(i: int) -> None:
        done(i, _guarded(files[i], options, context))

    if isolated:
        task = Task(partial(check_one, options=options, context=context), crashed)
        run_in_workers(files, isolated, task, jobs, limits or Limits(), done,
                       first_local=in_process, local=local)
    else:
        for i in in_process:
            local(i)
    report = CheckReport(reports, options=options)
    run_set_checks(report)
    return report


def _catalog_report(path: str | None, catalog: Any, files: list[Path]) -> list[FileReport]:
    """The catalog given as context, as a report of its own file (its findings once), unless
    that file is checked among the others."""
    if path is None or catalog is None or any(_same_file(path, f) for f in files):
        return []
    return [FileReport(path=path, system=CATALOG_SYSTEM, findings=list(catalog.findings), kind=CATALOG,
                       context={"catalog": catalog}, counted=False)]


def _same_file(a: str | Path, b: str | Path) -> bool:
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return False


def check_one(path: Path, options: Mapping[str, str], context: Mapping[str, Any], *,
              scan_first: bool = True) -> FileReport:
    """One file read and checked; never raises for what the file holds."""
    return check_source(read_source(path, scan_first=scan_first), options, context)


def _guarded(path: Path, options: Mapping[str, str], context: Mapping[str, Any]) -> FileReport:
    """A file checked in this process: a bug of ours on it is that file's INPUT_CRASHED, as in a
    worker, and the run goes on."""
    try:
        return check_one(path, options, context)
    except RecursionError:
        return crashed(path, "nested too deeply")
    except Exception as exc:
        return crashed(path, f"{type(exc).__name__}: {exc}")


def crashed(path: Path, reason: str) -> FileReport:
    """The report of a file whose reading stopped the worker (crash, time or memory limit)."""
    return FileReport(str(path), None, [Finding("INPUT_CRASHED", "", {"reason": reason})], UNREADABLE,
                      Origin("file"))



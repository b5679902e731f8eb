"""Checking many files: each file read and checked on its own, in worker processes when asked
(``--jobs``), reports handed back in input order as soon as each is ready, set checks at the end.

A workbook is always read in a worker process: the readers are native code (python-calamine), and
a damaged or hostile file that makes one abort, hang or eat memory must cost that file only, never
the run. Each worker has a memory limit; a file that takes longer than the time limit has its
worker killed. Either way that file's report is one INPUT_CRASHED finding and the run goes on.
Reading (``converter.io``) and checking (``converter.check``) meet here and in the public API only.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping, Sequence

from .check import CheckReport, FileReport, check_source
from .check.set_store import SetStore, run_all_set_checks
from .core.findings import Finding
from .core.identity_cache import IdentityCache
from .core.source import UNREADABLE, Origin
from .io import expand_paths, read_source
from .io.sources import STDIN
from .rules import get_system, system_ids

PREWARM_FROM = 8  # files: from here on, importing every engine before forking pays for itself
#: suffixes read in a worker process even with one job (native readers)
ISOLATED_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods")


@dataclass(frozen=True)
class Task:
    """What a worker does with each file, and what stands for a file it could not finish. Both
    are module-level functions (or partials of them), so that a spawned worker can receive them;
    ``prewarm`` builds, before the workers are forked, what each would otherwise build again."""

    run: Callable[..., Any]  # run(path, *, scan_first)
    crashed: Callable[[Path, str], Any]
    prewarm: Callable[[], None] | None = None


@dataclass(frozen=True)
class Limits:
    """What one file may cost before it is given up (named, documented, reported when hit)."""

    seconds: float = 60.0  # wall time to read and check one file
    memory_bytes: int = 4 * 1024 ** 3  # address space of a worker process


def default_jobs() -> int:
    """One worker per core this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_files(paths: Iterable[str | Path], options: Mapping[str, str] | None = None,
                context: Mapping[str, Any] | None = None, *, jobs: int = 1,
                on_report: Callable[[FileReport], None] | None = None,
                limits: Limits = Limits(), streamed: bool = False) -> CheckReport:
    """Every file named (folders searched) checked on its own, then the set checks.

    ``on_report`` receives each file's report in input order as soon as it and the ones before
    it are done (to print as you go). With ``streamed``, a report handed to ``on_report`` keeps
    afterwards only what the summary and the set checks need, so memory stays flat however many
    files a folder holds: a file with no finding is then counted by a shared placeholder (no
    path), and a document a set check compares whole waits on disk (``check.set_store``)."""
    found = expand_paths(paths)
    # Standard input belongs to this process (a worker's is closed); one JSON file is not worth a
    # worker; a workbook always is (its reader is native code).
    spread = jobs > 1 and len(found) > 1
    apart = [str(p) != STDIN and (spread or p.suffix.lower() in ISOLATED_SUFFIXES) for p in found]
    isolated = [i for i, away in enumerate(apart) if away]
    in_process = [i for i, away in enumerate(apart) if not away]
    files = [str(p) for p in found]  # names, not Paths: a few hundred bytes less a file
    del found, apart
    options = dict(options or {})
    context = {k: v for k, v in (context or {}).items() if v is not None}
    reports: list[FileReport | None] = [None] * len(files)
    emitted = 0
    catalogs: dict[str, Any] = {}
    shared_options: dict[str, Any] = {}
    kept = SetStore() if streamed else None  # a set's whole documents, on disk until the end
    placeholders: dict[str, FileReport] = {}  # streamed: one report for every printed clean file

    def done(index: int, report: FileReport) -> None:
        nonlocal emitted
        reports[index] = report
        while emitted < len(files) and reports[emitted] is not None:
            share_catalogs(reports[emitted], catalogs)
            if on_report is not None:
                on_report(reports[emitted])
            if kept is not None:
                share_readings(reports[emitted].printed(), shared_options)
                if not kept.keep(reports[emitted]):
                    reports[emitted] = _printed_clean(reports[emitted], placeholders)
            emitted += 1

    def local(i: int) -> None:
        done(i, _guarded(Path(files[i]), options, context))

    if isolated:
        task = Task(partial(_check_slimmed, options=options, context=context), crashed)
        run_in_workers(files, isolated, task, max(1, min(jobs, len(isolated))), limits, done,
                       first_local=in_process, local=local)
    else:
        for i in in_process:
            local(i)
    report = CheckReport([r for r in reports if r is not None], options=options)
    run_all_set_checks(report, kept)
    return report


def _printed_clean(report: FileReport, placeholders: dict[str, FileReport]) -> FileReport:
    """A printed report with no finding and nothing a set check reads: the summary only counts
    it, so one shared placeholder of its kind stands for it (memory flat in the number of files)."""
    if report.findings or report.document is not None or report.evaluation is not None:
        return report
    return placeholders.setdefault(report.kind, FileReport("", None, [], report.kind, report.origin))


def check_one(path: Path, options: Mapping[str, str], context: Mapping[str, Any], *,
              scan_first: bool = True) -> FileReport:
    """One file read and checked; never raises for what the file holds."""
    return check_source(read_source(path, scan_first=scan_first), options, context)


def _check_slimmed(path: Path, options: Mapping[str, str], context: Mapping[str, Any], *,
                   scan_first: bool = True) -> FileReport:
    """A worker's check of one file: the report slimmed before it crosses the pipe, a catalog
    this worker has sent already replaced by its key."""
    return sent_catalog(slimmed(check_one(path, options, context, scan_first=scan_first)))


def sent_catalog(report: FileReport) -> FileReport:
    """The report with its catalog ready to cross from this worker to the parent: whole the first
    time this worker sends it, by its key after (``share_catalogs`` takes it back)."""
    catalog = report.context.get("catalog")
    if catalog is not None and not isinstance(catalog, SentCatalog):
        key = _catalog_key(catalog)
        report.context["catalog"] = SentCatalog(key, None if key in _SENT_CATALOGS else catalog)
        _SENT_CATALOGS.add(key)
    return report


#: the catalogs this worker process has sent to the parent (a folder's mailgear sheets mostly
#: carry the same one: sent once per worker, then by key)
_SENT_CATALOGS: set[str] = set()


@dataclass(frozen=True)
class SentCatalog:
    """A catalog crossing the pipe: with the catalog the first time a worker sends it, by its key
    after (the parent has it by then: a worker's files go in input order)."""

    key: str
    catalog: Any | None


def _guarded(path: Path, options: Mapping[str, str], context: Mapping[str, Any]) -> FileReport:
    """A file checked in this process: a bug of ours on it is that file's INPUT_CRASHED, as in a
    worker, and the run goes on."""
    try:
        return slimmed(check_one(path, options, context))
    except RecursionError:
        return crashed(path, "nested too deeply")
    except Exception as exc:
        return crashed(path, f"{type(exc).__name__}: {exc}")


def slimmed(report: FileReport) -> FileReport:
    """The report without what neither the output nor the set checks need."""
    if report.system in system_ids():
        return report.slim(get_system(report.system).fields_for(report.document))
    return report.slim(())


def share_readings(report: FileReport, seen: dict[str, Any]) -> None:
    """The same readings and origin in every file of a folder: one object for all (a streamed
    run keeps each file's report to its end)."""
    report.options = seen.setdefault(repr(report.options), report.options)
    report.origin = seen.setdefault(repr(report.origin), report.origin)
    report.kind = seen.setdefault(report.kind, report.kind)
    if report.system is not None:
        report.system = seen.setdefault(report.system, report.system)


def share_catalogs(report: FileReport, seen: dict[str, Any]) -> None:
    """Workbooks carrying the same catalog sheet share one Catalog object, not a copy each: the
    first in input order (as reports are handed on), so that one job or several name the same.
    A worker's catalog sent by key was sent whole with an earlier file of that worker."""
    catalog = report.context.get("catalog")
    if isinstance(catalog, SentCatalog):
        report.context["catalog"] = (seen[catalog.key] if catalog.catalog is None
                                     else seen.setdefault(catalog.key, catalog.catalog))
    elif catalog is not None:
        report.context["catalog"] = seen.setdefault(_catalog_key(catalog), catalog)


def _catalog_key(catalog: Any) -> str:
    """Two catalogs with this same key are the same catalog: a digest of its content (its JSON,
    keys sorted), worked out once per content object (the workbooks of a folder carrying the
    same catalog sheet share the one read: ``sheets.mailgear.catalog_sheet``)."""
    return _KEYS.get(catalog.raw, _content_digest)


def _content_digest(raw: Any) -> str:
    import hashlib
    import json

    text = json.dumps(raw, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


_KEYS: IdentityCache[str] = IdentityCache(64)  # a catalog's content → its key


def crashed(path: Path, reason: str) -> FileReport:
    """The report of a file whose reading stopped the worker (crash, time or memory limit)."""
    return FileReport(str(path), None, [Finding("INPUT_CRASHED", "", {"reason": reason})], UNREADABLE,
                      Origin("file"))


# --- worker processes ----------------------------------------------------------------------------

def run_in_workers(files: Sequence[str | Path], indices: list[int], task: Task, jobs: int, limits: Limits,
                   done: Callable[[int, Any], None], first_local: list[int] = (),
                   local: Callable[[int], None] = lambda i: None,
                   started: Callable[[], None] | None = None) -> None:
    """Hand ``indices`` to ``jobs`` workers one file at a time, each running ``task``; while they
    work, handle the ``first_local`` files here. A worker that dies or overruns costs only its
    current file, which gets ``task.crashed``. A worker reads a sheet natively first
    (``task.run(path, scan_first=False)``); a file it died on is read once more with every sheet
    scanned first, which names what reaches too far instead of a crash. ``started`` is called
    once the workers are forked (the audit then begins loading its report libraries, which must
    neither hold the forking thread back nor be half-imported in a worker)."""
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    if ctx.get_start_method() == "fork" and len(indices) >= PREWARM_FROM:
        _prewarm({os.path.splitext(str(files[i]))[1].lower() for i in indices})
        if task.prewarm is not None:
            task.prewarm()
    queue = list(indices)
    careful: set[int] = set()  # files a worker died on, read again with every sheet scanned first
    workers: dict[Any, _Worker] = {}

    def replace(w: _Worker, retry: bool = False) -> _Worker:
        """A new worker for a dead or killed one; the files it had not begun go back first (with
        ``retry``, the one it died on before them)."""
        workers.pop(w.conn)
        queue[:0] = w.pending[0 if retry else 1:]
        fresh = _Worker.start(ctx, task, limits)
        workers[fresh.conn] = fresh
        fresh.fill(queue, files, careful)
        return fresh

    try:
        for _ in range(jobs):
            w = _Worker.start(ctx, task, limits)
            workers[w.conn] = w
        if started is not None:
            started()
        for w in workers.values():
            w.fill(queue, files, careful)
        for i in first_local:  # JSON documents while the workers read workbooks
            local(i)
        while queue or any(w.pending for w in workers.values()):
            for conn in wait(list(workers), timeout=1.0):
                w = workers[conn]
                try:
                    index, report = conn.recv()
                except (EOFError, OSError):  # the worker died on the file it was working on
                    w.process.join(5)
                    retry = bool(w.pending) and w.pending[0] not in careful
                    if retry:
                        careful.add(w.pending[0])
                    elif w.pending:
                        done(w.pending[0], task.crashed(Path(files[w.pending[0]]), _death(w.process.exitcode)))
                    replace(w, retry)
                    continue
                w.finished(index)
                done(index, report)
                w.fill(queue, files, careful)
            now = time.monotonic()
            for w in list(workers.values()):
                if w.pending and now - w.started > limits.seconds:
                    w.process.kill()
                    w.process.join()
                    done(w.pending[0], task.crashed(Path(files[w.pending[0]]), f"> {limits.seconds:g} s"))
                    replace(w)
    finally:
        for w in workers.values():
            w.stop()


def _prewarm(suffixes: set[str]) -> None:
    """Import what every worker will need before forking them, so they share it (copy on write)
    instead of each importing it again: the workbook reader and every system's engine."""
    import importlib

    if suffixes & set(ISOLATED_SUFFIXES):
        importlib.import_module("python_calamine")
        importlib.import_module("converter.sheets.reader")
        from .sheets.system_sheet import sheet_systems, system_sheet

        for system in sheet_systems():  # each sheet's layout, lists and reader modules
            system_sheet(system).lists()
    for system in system_ids():
        get_system(system)
    importlib.import_module("converter.schema").prewarm()


def _death(exitcode: int | None) -> str:
    import signal

    if exitcode is not None and exitcode < 0:
        try:
            return signal.Signals(-exitcode).name
        except ValueError:
            pass
    return f"exit {exitcode}"


IN_FLIGHT = 2  # files handed to a worker ahead, so it never waits for the next one


@dataclass
class _Worker:
    process: Any
    conn: Any
    pending: list[int] = field(default_factory=list)  # files sent, in order; the first is under way
    started: float = 0.0  # when the first pending file began

    @classmethod
    def start(cls, ctx, task: Task, limits: Limits) -> "_Worker":
        from .core.collector import set_aside

        parent, child = ctx.Pipe()
        process = ctx.Process(target=_serve, args=(child, task, limits), daemon=True)
        # Everything built so far (the prewarmed readers, engines and validators) is set aside
        # from the collector for the forked worker: its collections would otherwise walk those
        # objects and copy every page they touch (copy on write), for nothing.
        with set_aside():
            process.start()
        child.close()
        return cls(process, parent)

    def fill(self, queue: list[int], files: Sequence[str | Path], careful: set[int] = frozenset()) -> None:
        """Files from ``queue`` until IN_FLIGHT are pending (those in ``careful`` to be read with
        every sheet scanned first). A file the worker can no longer be sent (it died meanwhile:
        its death is read next) goes back to the front of ``queue``."""
        while queue and len(self.pending) < IN_FLIGHT:
            index = queue.pop(0)
            try:
                self.conn.send((index, str(files[index]), index in careful))
            except OSError:  # BrokenPipeError: the worker is gone
                queue.insert(0, index)
                return
            if not self.pending:
                self.started = time.monotonic()
            self.pending.append(index)

    def finished(self, index: int) -> None:
        """``index`` is done (the first pending); the next one has begun."""
        self.pending.remove(index)
        self.started = time.monotonic()

    def stop(self) -> None:
        try:
            self.conn.send(None)
        except (OSError, BrokenPipeError):
            pass
        self.process.join(2)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


def _serve(conn, task: Task, limits: Limits) -> None:
    """A worker: run the task on each file it is sent until told to stop."""
    import faulthandler
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    faulthandler.disable()  # a reader's crash is reported as the file's finding, not dumped
    try:  # nor does a native reader's dying message (a Rust backtrace) reach the user's terminal
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
        os.close(devnull)
    except OSError:
        pass
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limits.memory_bytes, limits.memory_bytes))
    except (ImportError, ValueError, OSError):
        pass
    while True:
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        index, path, careful = msg
        try:
            report = task.run(Path(path), scan_first=careful)
        except MemoryError:
            report = task.crashed(Path(path), f"> {limits.memory_bytes // 1024 ** 2} MB")
        except RecursionError:
            report = task.crashed(Path(path), "nested too deeply")
        except Exception as exc:  # a bug of ours on this file: reported, the run goes on
            report = task.crashed(Path(path), f"{type(exc).__name__}: {exc}")
        conn.send((index, report))

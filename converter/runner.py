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
from typing import Any, Callable, Collection, Iterable, Mapping, Sequence

from .check import CATALOG_SYSTEM, CheckReport, FileReport, check_source
from .check.checker import run_set_checks
from .core.errors import InputError
from .core.findings import Finding
from .core.source import CATALOG, UNREADABLE, Origin
from .io import expand_paths, read_source
from .io.sources import STDIN

#: suffixes read in a worker process even with one job (native readers)
ISOLATED_SUFFIXES = (".xlsx", ".xlsm", ".xls", ".xlsb", ".ods")


@dataclass(frozen=True)
class Task:
    """What a worker does with each file, and what stands for a file it could not finish. Both
    are module-level functions (or partials of them), so that a spawned worker can receive them."""

    run: Callable[..., Any]  # run(path, *, scan_first)
    crashed: Callable[[Path, str], Any]


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


def in_input_order(hand_on: Callable[[Any], None]) -> Callable[[int, Any], None]:
    """A ``done(index, result)`` for :func:`run_in_workers` that hands each result on in index
    order, as soon as it and those before it have arrived."""
    waiting: dict[int, Any] = {}
    handed = 0

    def done(index: int, result: Any) -> None:
        nonlocal handed
        waiting[index] = result
        while handed in waiting:
            hand_on(waiting.pop(handed))
            handed += 1

    return done


def input_files(paths: Iterable[str | Path], suffixes: tuple[str, ...] | None = None,
          required: bool = False) -> list[Path]:
    """The files named (folders searched: ``io.expand_paths``); with ``required``, none found is
    an InputError (NO_DOCUMENTS, exit 2)."""
    files = expand_paths(paths) if suffixes is None else expand_paths(paths, suffixes)
    if required and not files:
        names = [str(p) for p in paths]
        raise InputError("no documents found in: " + ", ".join(names), "NO_DOCUMENTS", paths=names)
    return files


def check_files(paths: Iterable[str | Path], options: Mapping[str, str] | None = None,
                context: Mapping[str, Any] | None = None, *, jobs: int = 1,
                on_report: Callable[[FileReport], None] | None = None,
                on_found: Callable[[int], None] | None = None, limits: Limits = Limits(),
                catalog_file: str | None = None, required: bool = False) -> CheckReport:
    """Every file named (folders searched) checked on its own, then the set checks.

    ``on_found`` receives the number of reports to come before any file is checked (a progress
    bar's total); ``on_report`` each report in input order as soon as it and the ones before it
    are done (to print as you go). ``catalog_file``: the file the context's catalog was read
    from (``--catalog``), reported first with the catalog's findings unless it is among the
    files checked. With ``required``, finding no file is an InputError."""
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
    apart = [str(p) != STDIN and (spread or p.suffix.lower() in ISOLATED_SUFFIXES) for p in files]
    isolated = [i for i, away in enumerate(apart) if away]
    in_process = [i for i, away in enumerate(apart) if not away]

    def local(i: int) -> None:
        done(i, _guarded(files[i], options, context))

    if isolated:
        task = Task(partial(check_one, options=options, context=context), crashed)
        run_in_workers(files, isolated, task, max(1, min(jobs, len(isolated))), limits, done,
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
                       context={"catalog": catalog})]


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


# --- worker processes ----------------------------------------------------------------------------

def run_in_workers(files: Sequence[str | Path], indices: list[int], task: Task, jobs: int, limits: Limits,
                   done: Callable[[int, Any], None], first_local: Sequence[int] = (),
                   local: Callable[[int], None] = lambda i: None,
                   started: Callable[[], None] | None = None) -> None:
    """Hand ``indices`` to ``jobs`` workers one file at a time, each running ``task``; while they
    work, handle the ``first_local`` files here. A worker that dies or overruns costs only its
    current file, which gets ``task.crashed``. A worker reads a sheet natively first
    (``task.run(path, scan_first=False)``); a file it died on is read once more with every sheet
    scanned first, which names what reaches too far instead of a crash. ``started`` is called
    once the workers are forked."""
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
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
                    index, report = w.conn.recv()
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
        parent, child = ctx.Pipe()
        process = ctx.Process(target=_serve, args=(child, task, limits), daemon=True)
        process.start()
        child.close()
        return cls(process, parent)

    def fill(self, queue: list[int], files: Sequence[str | Path], careful: Collection[int] = frozenset()) -> None:
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

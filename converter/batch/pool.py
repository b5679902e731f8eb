"""The worker pool: each file handed to a worker process with memory and time limits, results
handed back as each is ready.

A workbook is always read in a worker process: the readers are native code (python-calamine), and
a damaged or hostile file that makes one abort, hang or eat memory must cost that file only, never
the run. Each worker has a memory limit; a file that takes longer than the time limit has its
worker killed. Either way the task's ``crashed`` stands for that file and the run goes on.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection, Sequence


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


# --- worker processes ----------------------------------------------------------------------------

def run_in_workers(files: Sequence[str | Path], indices: list[int], task: Task, jobs: int, limits: Limits,
                   done: Callable[[int, Any], None], first_local: Sequence[int] = (),
                   local: Callable[[int], None] = lambda i: None) -> None:
    """Hand ``indices`` to ``jobs`` workers one file at a time, each running ``task``; while they
    work, handle the ``first_local`` files here. A worker that dies or overruns costs only its
    current file, which gets ``task.crashed``. A worker reads a sheet natively first
    (``task.run(path, scan_first=False)``); a file it died on is read once more with every sheet
    scanned first, which names what reaches too far instead of a crash."""
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

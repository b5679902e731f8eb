"""The worker pool: each file handed to a worker process with memory and time limits, results
handed back as each is ready.

A workbook is always read in a worker process: the readers are native code (python-calamine), and
a damaged or hostile file that makes one abort, hang or eat memory must cost that file only, never
the run. Each worker has a memory limit; a file that takes longer than the time limit has its
worker killed. Either way the task's ``crashed`` stands for that file and the run goes on.

A worker never outlives the run: on Linux it asks the kernel for SIGKILL when its parent dies
(``prctl(PR_SET_PDEATHSIG)``), and everywhere it holds no parent's end of any pipe (so a dead
parent is an end of input) and no standard output (so ``mechasheet import … | cat`` ends with
the parent). A SIGTERM to the parent ends the run as Ctrl-C does: the workers stopped, the
temporary file of a write under way removed (:func:`terminated_as_interrupt`).
"""
from __future__ import annotations

import os
import signal
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Collection, Iterator, Sequence


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


#: the most workers a run starts, whatever ``--jobs`` says (docs/limits.md); never more than files
MAX_JOBS = 32


def default_jobs() -> int:
    """One worker per core this process may use (at most MAX_JOBS)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(cores, MAX_JOBS))


def worker_count(jobs: int, files: int) -> int:
    """The workers a run of ``files`` files starts when asked for ``jobs``: at least one, at
    most one a file and at most MAX_JOBS (``--jobs 100000`` forked one worker per file)."""
    return max(1, min(jobs, files, MAX_JOBS))


class Terminated(KeyboardInterrupt):
    """A SIGTERM, raised where the main thread is, so that it unwinds as Ctrl-C does."""


@contextmanager
def terminated_as_interrupt() -> Iterator[None]:
    """Within: a SIGTERM raises :class:`Terminated` (workers stopped, a write under way
    removes its temporary file); once unwound, the process ends by SIGTERM, as the sender
    asked (its shell sees 143). Outside the main thread: nothing changes."""
    try:
        before = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    except Terminated:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.kill(os.getpid(), signal.SIGTERM)
        raise
    finally:
        signal.signal(signal.SIGTERM, before)


def _raise_terminated(signum: int, frame: Any) -> None:
    raise Terminated()


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
                   local: Callable[[int], None] = lambda i: None, *, isolate: bool = True) -> None:
    """Hand ``indices`` to ``jobs`` workers one file at a time, each running ``task``; while they
    work, handle the ``first_local`` files here. A worker that dies or overruns costs only its
    current file, which gets ``task.crashed``. A worker reads a sheet natively first
    (``task.run(path, scan_first=False)``); a file it died on is read once more with every sheet
    scanned first, which names what reaches too far instead of a crash. Without ``isolate``
    every file is run here, one after another (the browser page: Pyodide has no processes)."""
    if not isolate:
        for i in first_local:
            local(i)
        for i in indices:
            done(i, run_here(task, Path(files[i])))
        return
    import multiprocessing
    from multiprocessing.connection import wait

    ctx = multiprocessing.get_context("fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn")
    jobs = worker_count(jobs, len(indices))
    queue = list(indices)
    careful: set[int] = set()  # files a worker died on, read again with every sheet scanned first
    workers: dict[Any, _Worker] = {}

    def replace(w: _Worker, retry: bool = False) -> _Worker:
        """A new worker for a dead or killed one; the files it had not begun go back first (with
        ``retry``, the one it died on before them)."""
        workers.pop(w.conn)
        w.conn.close()
        queue[:0] = w.pending[0 if retry else 1:]
        fresh = _Worker.start(ctx, task, limits, others=tuple(workers))
        workers[fresh.conn] = fresh
        fresh.fill(queue, files, careful)
        return fresh

    ended = True  # False: leaving by an exception (Ctrl-C, SIGTERM), the workers ended at once
    try:
        for _ in range(jobs):
            w = _Worker.start(ctx, task, limits, others=tuple(workers))
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
    except BaseException:
        ended = False
        raise
    finally:
        for w in workers.values():
            w.stop(graceful=ended)


def run_here(task: Task, path: Path) -> Any:
    """``task`` run on ``path`` in this process, every sheet scanned first; a bug of ours on it
    is that file's ``task.crashed``, as in a worker, and the run goes on."""
    try:
        return task.run(path, scan_first=True)
    except RecursionError:
        return task.crashed(path, "nested too deeply")
    except Exception as exc:
        return task.crashed(path, f"{type(exc).__name__}: {exc}")


def _death(exitcode: int | None) -> str:
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
    def start(cls, ctx, task: Task, limits: Limits, others: tuple[Any, ...] = ()) -> "_Worker":
        """A worker process serving ``task``. A forked worker inherits the parent's end of its own
        pipe and of the ``others`` workers' pipes; it is handed them to close, so that the
        parent's death ends every pipe (a spawned worker inherits none)."""
        parent, child = ctx.Pipe()
        inherited = (*others, parent) if ctx.get_start_method() == "fork" else ()
        process = ctx.Process(target=_serve, args=(child, task, limits, os.getpid(), inherited), daemon=True)
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

    def stop(self, graceful: bool = True) -> None:
        """Told to stop once its files are done (``graceful``), or at once: SIGTERM, which a
        worker turns into an unwinding that removes a write's temporary file, then SIGKILL."""
        if graceful:
            try:
                self.conn.send(None)
            except (OSError, BrokenPipeError):
                pass
            self.process.join(2)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(1)
        if self.process.is_alive():
            self.process.kill()
            self.process.join()
        self.conn.close()


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def _die_with_parent(parent_pid: int) -> None:
    """SIGKILL from the kernel when the parent dies (Linux); a parent already gone ends this
    worker now. Elsewhere the closed pipe ends a waiting worker."""
    import sys

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        except (OSError, AttributeError):
            pass
    if os.getppid() != parent_pid:  # the parent died before the request was made
        os._exit(0)


def _serve(conn, task: Task, limits: Limits, parent_pid: int | None = None,
           inherited: tuple[Any, ...] = ()) -> None:
    """A worker: run the task on each file it is sent until told to stop (or its parent is
    gone). ``inherited``: the forked copies of the parent's pipe ends, closed at once (the parent
    keeps its own), so no worker holds open a pipe whose other end is its parent's."""
    import faulthandler

    if parent_pid is not None:
        _die_with_parent(parent_pid)
    for end in inherited:
        try:
            end.close()
        except OSError:
            pass
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    signal.signal(signal.SIGTERM, _raise_terminated)  # the parent's stop: unwind, removing temporaries
    faulthandler.disable()  # a reader's crash is reported as the file's finding, not dumped
    try:  # nor does a native reader's dying message (a Rust backtrace) reach the user's terminal,
        devnull = os.open(os.devnull, os.O_WRONLY)  # nor does a worker hold the run's output open
        os.dup2(devnull, 1)
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
        except Terminated:
            return
        except MemoryError:
            report = task.crashed(Path(path), f"> {limits.memory_bytes // 1024 ** 2} MB")
        except RecursionError:
            report = task.crashed(Path(path), "nested too deeply")
        except Exception as exc:  # a bug of ours on this file: reported, the run goes on
            report = task.crashed(Path(path), f"{type(exc).__name__}: {exc}")
        conn.send((index, report))

"""JSON documents: reading one from disk, and writing one atomically."""
from __future__ import annotations

import json
import os
import tempfile
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, NamedTuple, Union

from ..core.errors import InputError, OutputError

if TYPE_CHECKING:
    from concurrent.futures import Future


def read_input_text(path: str | Path, error: type[InputError] = InputError) -> str:
    """The text of an input file; ``error`` naming the file if unreadable (see read_input)."""
    return read_input(path, error)[0]


def read_input(path: str | Path, error: type[InputError] = InputError) -> tuple[str, str | None]:
    """(text, encoding) of an input file: UTF-8 (a BOM allowed; encoding None), else UTF-16 with a
    BOM, else Shift_JIS/CP932, which older Japanese tools save; ``error`` naming the file if it
    is none of these."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError as exc:
        raise error(f"{p}: no such file", "INPUT_NOT_FOUND", file=str(p)) from exc
    except IsADirectoryError as exc:
        raise error(f"{p}: is a folder, not a file", "INPUT_IS_FOLDER", file=str(p)) from exc
    except OSError as exc:
        raise error(f"{p}: cannot read: {exc.strerror or exc}", "INPUT_CANNOT_READ", file=str(p),
                    detail=exc.strerror or str(exc)) from exc
    return decode_text(data, str(p), error)


def decode_text(data: bytes, name: str, error: type[InputError] = InputError) -> tuple[str, str | None]:
    """``data`` as text, with the encoding named when it is not UTF-8 (see :func:`read_input`)."""
    import codecs

    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError as exc:
            raise error(f"{name}: damaged UTF-16 text ({exc.reason} at byte {exc.start}); "
                        "save it again as UTF-8", "INPUT_NOT_TEXT", file=name) from exc
    try:
        return data.decode("utf-8"), None
    except UnicodeDecodeError:
        pass
    if b"\x00" not in data:
        try:
            return data.decode("cp932"), "Shift_JIS (CP932)"
        except UnicodeDecodeError:
            pass
    raise error(f"{name}: not text in UTF-8, UTF-16 or Shift_JIS (is it a spreadsheet or another "
                "binary file?); save it as UTF-8 text", "INPUT_NOT_TEXT", file=name)


def load_json_document(path: str | Path) -> dict[str, Any]:
    """A document read from a JSON file; InputError (exit 2) naming the file if it cannot be."""
    p = Path(path)
    return parse_json_document(read_input_text(p), str(p))


def parse_json_document(text: str, name: str) -> dict[str, Any]:
    """A document parsed from ``text``; InputError naming ``name`` if it is no JSON object."""
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
                         "INPUT_NOT_JSON", file=name, line=exc.lineno, column=exc.colno) from exc
    except RecursionError as exc:
        raise InputError(f"{name}: JSON nested too deeply to be a document", "INPUT_TOO_DEEP", file=name) from exc
    if not isinstance(doc, dict):
        raise InputError(f"{name}: a document must be a JSON object, not {type(doc).__name__}",
                         "INPUT_NOT_OBJECT", file=name)
    return doc


def dump_document(doc: dict[str, Any]) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


TEMP_MARK = ".mechasheet-"  # our temporary files: ".<name>.mechasheet-<random>.tmp"
_RUN_STARTED = __import__("time").time()


class Inputs:
    """A run's input files, each resolved and identified (device, inode) once. Every output is
    checked against every input; resolving all of them again for each of a folder's thousands
    of documents made an import quadratic in the folder's size."""

    def __init__(self, paths: Iterable[str | Path] = ()) -> None:
        self._paths: list[str] = []
        self._by_path: dict[str, int] = {}  # resolved, as text (a folder's worth are kept)
        self._by_id: dict[tuple[int, int], int] = {}
        for raw in paths:
            src = Path(raw)
            self._by_path.setdefault(str(src.resolve()), len(self._paths))
            try:
                st = src.stat()
            except OSError:
                pass
            else:
                self._by_id.setdefault((st.st_dev, st.st_ino), len(self._paths))
            self._paths.append(str(raw))

    def refuse(self, output: str | Path) -> None:
        """OutputError when ``output`` is one of the inputs (the same file by any path or link),
        naming the first such input."""
        out = Path(output)
        hits = [self._by_path.get(str(out.resolve()))]
        try:
            st = out.stat()
        except OSError:
            pass
        else:
            hits.append(self._by_id.get((st.st_dev, st.st_ino)))
        found = [k for k in hits if k is not None]
        if found:
            src = Path(self._paths[min(found)])
            raise OutputError(f"{out}: is the input {src}; inputs are never replaced (choose another -o)",
                              "OUTPUT_IS_INPUT", file=str(out), input=str(src))


def refuse_inputs(output: str | Path, inputs: Iterable[str | Path]) -> None:
    """OutputError when ``output`` is one of ``inputs`` (the same file by any path or link):
    an input is never replaced, with or without --force."""
    Inputs(inputs).refuse(output)


#: what write_atomic writes: the whole text or bytes, or its pieces in order (a large report
#: need never be whole in memory)
Payload = Union[bytes, str, Iterable[Union[bytes, str]]]


def write_atomic(path: str | Path, data: Payload, force: bool = False,
                 inputs: Iterable[str | Path] | Inputs = ()) -> Path:
    """Write ``data`` to ``path`` whole or not at all, never replacing an input.

    The bytes go to a temporary file beside the target, then: with ``force``, a rename over any
    existing file; without, a hard link that fails if the target exists (exclusive: of several
    writers to a new path, exactly one succeeds). The file gets the mode the umask gives. Our
    temporary files left by a killed earlier run are removed first."""
    guard = inputs if isinstance(inputs, Inputs) else Inputs(inputs)
    return _write_atomic(Path(path), data, force, guard, _remove_stale_temporaries, _umask())


def _write_atomic(p: Path, data: Payload, force: bool, inputs: Inputs, sweep: Callable[[Path], None],
                  umask: int) -> Path:
    staged = _stage(p, data, force, inputs, sweep, umask, durable=True)
    _publish(staged)
    return p


class Staged(NamedTuple):
    """A file written to its temporary beside ``target`` and not yet named (:class:`Publisher`)."""

    tmp: str
    target: Path
    force: bool


def stage_atomic(path: str | Path, data: Payload, force: bool = False,
                 inputs: Iterable[str | Path] | Inputs = ()) -> Staged:
    """The first half of :func:`write_atomic`: ``data`` in a temporary file beside ``path``
    (every check made: never an input, not over an existing file without ``force``), not yet
    flushed to disk nor named; a :class:`Publisher` does both for many files at once."""
    guard = inputs if isinstance(inputs, Inputs) else Inputs(inputs)
    return _stage(Path(path), data, force, guard, _remove_stale_temporaries, _umask(), durable=False)


def _stage(p: Path, data: Payload, force: bool, inputs: Inputs, sweep: Callable[[Path], None],
           umask: int, durable: bool) -> Staged:
    inputs.refuse(p)
    if p.exists() and not force:
        raise OutputError(f"{p}: already exists (use --force to replace it)", "OUTPUT_EXISTS", file=str(p))
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"{p.parent}: cannot create the folder: {exc.strerror or exc}",
                          "OUTPUT_CANNOT_WRITE", file=str(p), detail=exc.strerror or str(exc)) from exc
    sweep(p)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}{TEMP_MARK}", suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise OutputError(f"{p}: cannot write in {p.parent}: {exc.strerror or exc}",
                          "OUTPUT_CANNOT_WRITE", file=str(p), detail=exc.strerror or str(exc)) from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            for piece in [data] if isinstance(data, (bytes, str)) else data:
                fh.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
            if durable:
                fh.flush()
                os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~umask)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, OSError):
            raise OutputError(f"{p}: cannot write: {exc.strerror or exc}", "OUTPUT_CANNOT_WRITE",
                              file=str(p), detail=exc.strerror or str(exc)) from exc
        raise
    return Staged(tmp, p, force)


def _publish(staged: Staged) -> None:
    """A staged file given its name: replacing what is there with ``force``, else exclusively."""
    tmp, p, force = staged
    try:
        if force:
            os.replace(tmp, p)
        else:
            _publish_exclusive(tmp, p)
    except BaseException as exc:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(exc, FileExistsError):
            raise OutputError(f"{p}: already exists (use --force to replace it)", "OUTPUT_EXISTS",
                              file=str(p)) from exc
        if isinstance(exc, OSError):
            raise OutputError(f"{p}: cannot write: {exc.strerror or exc}", "OUTPUT_CANNOT_WRITE",
                              file=str(p), detail=exc.strerror or str(exc)) from exc
        raise


PUBLISH_BATCH = 64  # files made durable together (one sync), then named: an import's, an audit's copies


class Publisher:
    """Staged files made durable together, then named, each whole or not at all as with
    :func:`write_atomic`: one flush of their file systems to disk for the lot instead of an
    fsync each. (On ext4 each fsync commits the journal, and the next file's creation waits for
    that commit: a folder of a thousand outputs spent over a millisecond a file on it.) A name
    appears only once its bytes are on disk; a staged file never published (a run stopped) stays
    a temporary, which the next write to that folder removes."""

    def __init__(self) -> None:
        self.pending: list[Staged] = []

    def add(self, staged: Staged) -> None:
        self.pending.append(staged)

    def flush(self) -> list[tuple[Staged, OutputError]]:
        """Every pending file on disk, then named in the order added; the ones that could not
        be named (the name taken meanwhile), with why, their temporaries removed."""
        pending, self.pending = self.pending, []
        if not pending:
            return []
        try:
            sync_to_disk({s.target.parent for s in pending}, [s.tmp for s in pending])
        except BaseException:
            self.pending = pending  # for discard(): none of them named
            raise
        failed = []
        for staged in pending:
            try:
                _publish(staged)
            except OutputError as exc:
                failed.append((staged, exc))
        return failed

    def discard(self) -> None:
        """The pending files removed, unnamed (the run failed before they were published)."""
        for staged in self.pending:
            Path(staged.tmp).unlink(missing_ok=True)
        self.pending = []


def sync_to_disk(folders: Iterable[Path], files: list[str]) -> None:
    """Everything written in ``folders``' file systems on disk: one syncfs(2) per file system
    where the C library has it (Linux), else an fsync of each of ``files``."""
    import ctypes

    try:
        syncfs = ctypes.CDLL(None, use_errno=True).syncfs
    except (AttributeError, OSError, TypeError):
        syncfs = None
    done: set[int] = set()
    for folder in folders:
        try:
            dev = os.stat(folder).st_dev
        except OSError:
            continue
        if dev in done or syncfs is None:
            continue
        try:
            fd = os.open(folder, os.O_RDONLY)
        except OSError:
            continue
        try:
            if syncfs(fd) == 0:
                done.add(dev)
        finally:
            os.close(fd)
    devices = done
    for name in files:
        try:
            if os.stat(name).st_dev in devices:
                continue
            with open(name, "rb+") as fh:
                os.fsync(fh.fileno())
        except OSError as exc:
            raise OutputError(f"{name}: cannot write: {exc.strerror or exc}", "OUTPUT_CANNOT_WRITE",
                              file=name, detail=exc.strerror or str(exc)) from exc


class AtomicWrites:
    """Many files written as :func:`write_atomic` writes one, their waits overlapping.

    A few threads write side by side. With ``batch`` (files), the written files are published
    together, ``batch`` at a time, as a :class:`Publisher` does (one sync, then each named);
    without, each is fsynced and named as it is written. Either way a file's name appears only
    once its bytes are on disk, and :meth:`result` is how to wait for one (it publishes what is
    staged rather than wait for a batch to fill). Each folder is listed once for our earlier
    temporaries, not once per file (a leftover older than this run was there before it began,
    so one listing sees them all). Use as a context manager: leaving it publishes what is left
    and waits for every write; after an error, writes not yet begun are cancelled and staged
    files discarded."""

    THREADS = 8

    def __init__(self, inputs: Iterable[str | Path] | Inputs = (), force: bool = False, batch: int = 0) -> None:
        from concurrent.futures import ThreadPoolExecutor

        self.inputs = inputs if isinstance(inputs, Inputs) else Inputs(inputs)
        self.force = force
        self.batch = batch
        self._umask = _umask()  # read here: reading it sets it, which threads must not race
        self._pool = ThreadPoolExecutor(self.THREADS, thread_name_prefix="mechasheet-write")
        self._lock = threading.Lock()
        self._flushing = threading.Lock()
        self._staged: list[tuple[Staged, "Future[Path]"]] = []
        self._staging: dict[int, "Future[Staged]"] = {}  # id of a published-future → its staging

    def submit(self, path: str | Path, data: Payload) -> "Future[Path]":
        """Start writing ``data`` to ``path``; the future gives the path once it is published,
        or raises OutputError."""
        if not self.batch:
            return self._pool.submit(_write_atomic, Path(path), data, self.force, self.inputs,
                                     _remove_stale_temporaries, self._umask)
        from concurrent.futures import Future

        published: Future[Path] = Future()
        staging = self._pool.submit(_stage, Path(path), data, self.force, self.inputs,
                                    _remove_stale_temporaries, self._umask, False)
        self._staging[id(published)] = staging
        staging.add_done_callback(lambda f: self._stage_done(f, published))
        return published

    def _stage_done(self, staging: "Future[Staged]", published: "Future[Path]") -> None:
        exc = staging.exception()
        if exc is not None:
            self._staging.pop(id(published), None)
            published.set_exception(exc)
            return
        with self._lock:
            self._staged.append((staging.result(), published))
            full = len(self._staged) >= self.batch
        if full:
            self.flush()

    def flush(self) -> None:
        """Every file staged so far on disk and named (their futures done)."""
        with self._flushing:
            with self._lock:
                taken, self._staged = self._staged, []
            if not taken:
                return
            publisher = Publisher()
            for staged, _ in taken:
                publisher.add(staged)
            try:
                failed = {id(staged): exc for staged, exc in publisher.flush()}
            except BaseException as exc:
                publisher.discard()
                for _, published in taken:
                    published.set_exception(exc)
                raise
            for staged, published in taken:
                self._staging.pop(id(published), None)
                if id(staged) in failed:
                    published.set_exception(failed[id(staged)])
                else:
                    published.set_result(staged.target)

    def result(self, published: "Future[Path]") -> Path:
        """The path once written and published (publishing what is staged, if need be)."""
        from concurrent.futures import wait

        staging = self._staging.get(id(published))
        if staging is not None:
            wait([staging])
            while not published.done():  # staged, or about to be (its callback running)
                self.flush()
                wait([published], timeout=0.01)
        return published.result()

    def __enter__(self) -> "AtomicWrites":
        return self

    def __exit__(self, kind, exc, tb) -> None:
        self._pool.shutdown(wait=True, cancel_futures=exc is not None)
        if exc is None:
            self.flush()
        else:
            with self._lock:
                taken, self._staged = self._staged, []
            for staged, published in taken:
                Path(staged.tmp).unlink(missing_ok=True)
                published.cancel()


def _publish_exclusive(tmp: str, target: Path) -> None:
    """Give ``tmp`` the name ``target`` only if no file has it (os.link fails on an existing
    name, atomically); where hard links are not supported, an O_EXCL copy."""
    try:
        os.link(tmp, target)
    except FileExistsError:
        raise
    except OSError:
        with open(target, "xb") as out, open(tmp, "rb") as src:
            out.write(src.read())
            out.flush()
            os.fsync(out.fileno())
    os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove_stale_temporaries(target: Path) -> None:
    """Our own temporary files for ``target`` older than this run (a killed write's leftovers):
    each folder listed once a process (a folder of a thousand copies was listed a thousand times)."""
    with _STALE_LOCK:
        folder = _STALE.get(target.parent)
        if folder is None:
            folder = _STALE[target.parent] = _stale_temporaries(target.parent)
        leftovers = folder.pop(target.name, [])
    for q in leftovers:
        try:
            q.unlink(missing_ok=True)
        except OSError:
            continue


#: per folder written to in this process, our temporaries older than the run not yet removed
_STALE: dict[Path, dict[str, list[Path]]] = {}
_STALE_LOCK = threading.Lock()


def _stale_temporaries(folder: Path) -> dict[str, list[Path]]:
    """Our temporary files in ``folder`` older than this run, by the name each was written for."""
    found: dict[str, list[Path]] = {}
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if not (name.startswith(".") and name.endswith(".tmp") and TEMP_MARK in name):
                    continue
                try:
                    if entry.stat().st_mtime >= _RUN_STARTED:
                        continue
                except OSError:
                    continue
                found.setdefault(name[1:name.rindex(TEMP_MARK)], []).append(Path(entry.path))
    except OSError:
        pass
    return found

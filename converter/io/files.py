"""JSON documents: reading one from disk, and writing one atomically."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any, Iterable, Union

from ..core.errors import InputError, OutputError


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

    The bytes go to a temporary file beside the target, flushed to disk (fsync of that file),
    then: with ``force``, a rename over any existing file; without, a hard link that fails if
    the target exists (exclusive: of several writers to a new path, exactly one succeeds). The
    file gets the mode the umask gives. Our temporary files for this target left by a killed
    earlier run are removed first."""
    p = Path(path)
    (inputs if isinstance(inputs, Inputs) else Inputs(inputs)).refuse(p)
    if p.exists() and not force:
        raise OutputError(f"{p}: already exists (use --force to replace it)", "OUTPUT_EXISTS", file=str(p))
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot(p, exc, f"{p.parent}: cannot create the folder") from exc
    _remove_stale_temporaries(p)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}{TEMP_MARK}", suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise _cannot(p, exc, f"{p}: cannot write in {p.parent}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            for piece in [data] if isinstance(data, (bytes, str)) else data:
                fh.write(piece.encode("utf-8") if isinstance(piece, str) else piece)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, 0o666 & ~_umask())
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
            raise _cannot(p, exc, f"{p}: cannot write") from exc
        raise
    return p


def _cannot(p: Path, exc: OSError, what: str) -> OutputError:
    """OUTPUT_CANNOT_WRITE for ``p``, saying ``what`` and the system's reason."""
    return OutputError(f"{what}: {exc.strerror or exc}", "OUTPUT_CANNOT_WRITE", file=str(p),
                       detail=exc.strerror or str(exc))


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
    """Our own temporary files for ``target`` older than this run: a killed write's leftovers."""
    prefix = f".{target.name}{TEMP_MARK}"
    try:
        with os.scandir(target.parent) as entries:
            stale = [Path(e.path) for e in entries if e.name.startswith(prefix) and e.name.endswith(".tmp")
                     and _older_than_run(e)]
    except OSError:
        return
    for q in stale:
        try:
            q.unlink(missing_ok=True)
        except OSError:
            continue


def _older_than_run(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.stat().st_mtime < _RUN_STARTED
    except OSError:
        return False

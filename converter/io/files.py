"""JSON documents: reading one from disk, and writing one atomically.

Every file a command reads whole (a JSON document, ``--catalog``, ``--house``, ``--profile``,
``--skills``) is opened by :func:`read_limited`: a regular file only (a FIFO, a device or a socket
is refused at once, never waited on) and never more than its cap (docs/limits.md).
"""
from __future__ import annotations

import codecs
import io
import json
import os
import re
import stat
import tempfile
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterable, Union

from ..core.errors import InputError, OutputError
from ..core.source import shown_name

# --- limits (docs/limits.md) ----------------------------------------------------------------------
MAX_DOCUMENT_BYTES = 32 * 2 ** 20  # a JSON document or catalog (a filled sheet's: ~50 KB)
MAX_SETTINGS_BYTES = 2 * 2 ** 20  # a house rules file, a layout profile, a skill list (a few KB)
MAX_INTEGER_DIGITS = 100  # an integer written with more digits is no number a sheet holds
_READ_CHUNK = 1 << 16


def open_regular(path: str | Path, error: type[InputError] = InputError) -> io.BufferedReader:
    """``path`` opened for reading, if it is a regular file (links followed); ``error`` naming
    the file otherwise. The open never blocks: a FIFO is opened without waiting for a writer and
    then refused, as are devices (``/dev/zero``) and sockets."""
    p = Path(path)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)
    name = shown_name(p)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError as exc:
        raise error(f"{name}: no such file", "INPUT_NOT_FOUND", file=name) from exc
    except IsADirectoryError as exc:
        raise error(f"{name}: is a folder, not a file", "INPUT_IS_FOLDER", file=name) from exc
    except (OSError, ValueError) as exc:
        detail = getattr(exc, "strerror", None) or str(exc)
        raise error(f"{name}: cannot read: {detail}", "INPUT_CANNOT_READ", file=name, detail=detail) from exc
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise error(f"{name}: is a folder, not a file", "INPUT_IS_FOLDER", file=name)
        if not stat.S_ISREG(mode):
            kind = _special_kind(mode)
            raise error(f"{name}: is a {kind}, not a regular file (refused: it could be endless or "
                        "never end)", "INPUT_SPECIAL_FILE", file=name, kind_en=kind, kind_ja=KIND_JA[kind])
        if flags & getattr(os, "O_NONBLOCK", 0) and hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


_SPECIAL_KINDS = ((stat.S_ISFIFO, "FIFO (named pipe)"), (stat.S_ISCHR, "character device"),
                  (stat.S_ISBLK, "block device"), (stat.S_ISSOCK, "socket"))


def _special_kind(mode: int) -> str:
    return next((kind for test, kind in _SPECIAL_KINDS if test(mode)), "special file")


def read_limited(path: str | Path, limit: int = MAX_DOCUMENT_BYTES,
                 error: type[InputError] = InputError) -> bytes:
    """The bytes of the regular file at ``path`` (:func:`open_regular`), refused past ``limit``
    bytes (INPUT_FILE_TOO_LARGE), whatever its size says: a file may grow while it is read."""
    with open_regular(path, error) as fh:
        size = os.fstat(fh.fileno()).st_size
        if size > limit:
            raise _too_large(path, limit, error)
        return read_stream(fh, limit, path, error)


def read_stream(fh: BinaryIO, limit: int, path: str | Path, error: type[InputError] = InputError) -> bytes:
    """At most ``limit`` bytes of a stream (standard input included); the file named in the
    error when there is more."""
    chunks, size = [], 0
    while chunk := fh.read(min(_READ_CHUNK, limit + 1 - size)):
        chunks.append(chunk)
        size += len(chunk)
        if size > limit:
            raise _too_large(path, limit, error)
    return b"".join(chunks)


def _too_large(path: str | Path, limit: int, error: type[InputError]) -> InputError:
    name = shown_name(path)
    return error(f"{name}: larger than {limit:,} bytes (the limit for this kind of file)",
                 "INPUT_FILE_TOO_LARGE", file=name, limit=f"{limit:,}")


def file_digest(path: str | Path) -> str | None:
    """SHA-256 of a regular file, read in chunks; None when it is no regular file or cannot be
    read (a FIFO named among a folder's files is never waited on)."""
    import hashlib

    try:
        with open_regular(path) as fh:
            return hashlib.file_digest(fh, "sha256").hexdigest()
    except (InputError, OSError):
        return None


def read_input(path: str | Path, error: type[InputError] = InputError,
               limit: int = MAX_DOCUMENT_BYTES) -> tuple[str, str | None]:
    """(text, encoding) of an input file: UTF-8 (a BOM allowed; encoding None), else UTF-16 with a
    BOM, else Shift_JIS/CP932, which older Japanese tools save; ``error`` naming the file if it
    is none of these, is no regular file, or is over ``limit`` bytes."""
    p = Path(path)
    return decode_text(read_limited(p, limit, error), shown_name(p), error)


#: what a file that is no text is, by its first bytes: (magic, what it is, what to do)
_BINARY_KINDS = (
    (b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1", "an Excel 97-2003 (.xls) workbook or another Office file"),
    (b"PK\x03\x04", "a zip package (an .xlsx, .xlsm, .xlsb or .ods workbook, or a zip)"),
    (b"PK\x05\x06", "an empty zip"),
    (b"%PDF", "a PDF file"),
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
)
#: the kinds above (and the special files) as a Japanese message names them
KIND_JA = {
    "FIFO (named pipe)": "FIFO（名前付きパイプ）", "character device": "キャラクターデバイス",
    "block device": "ブロックデバイス", "socket": "ソケット", "special file": "特殊ファイル",
    "an Excel 97-2003 (.xls) workbook or another Office file": "Excel 97-2003 形式（.xls）のブックか、ほかの Office ファイル",
    "a zip package (an .xlsx, .xlsm, .xlsb or .ods workbook, or a zip)": "zip パッケージ（.xlsx・.xlsm・.xlsb・.ods のブックか zip）",
    "an empty zip": "空の zip",
    "a PDF file": "PDF ファイル", "a PNG image": "PNG 画像", "a JPEG image": "JPEG 画像",
    "an HTML page (a spreadsheet saved as a web page?)": "HTML のページ（表計算ファイルを Web ページとして保存したもの？）",
    "an Excel 2003 XML spreadsheet": "Excel 2003 XML スプレッドシート",
}
_SPREADSHEET_SUFFIXES = (".xls", ".xlsx", ".xlsm", ".xlsb", ".ods", ".csv")


def sniff(head: bytes) -> str | None:
    """What a file is by its first bytes, when they say (a workbook, a zip, a PDF, HTML); None
    for anything else."""
    for magic, kind in _BINARY_KINDS:
        if head.startswith(magic):
            return kind
    text = head.lstrip(b"\xef\xbb\xbf \t\r\n").lower()
    if text.startswith((b"<html", b"<!doctype html", b"<head", b"<body", b"<table", b"<meta")):
        return "an HTML page (a spreadsheet saved as a web page?)"
    if text.startswith(b"<?xml"):
        if b"urn:schemas-microsoft-com:office:spreadsheet" in text:
            return "an Excel 2003 XML spreadsheet"
        if b"<html" in text:
            return "an HTML page (a spreadsheet saved as a web page?)"
    return None


def wrong_format(data: bytes, name: str, error: type[InputError] = InputError) -> InputError | None:
    """An error saying what the file is, by its content and its suffix, when it is clearly not
    a JSON or text file (a workbook named to ``check``, HTML saved as .xls); None otherwise."""
    kind = sniff(data[:4096])
    suffix = os.path.splitext(name)[1].lower()
    if kind is None and suffix in _SPREADSHEET_SUFFIXES and suffix != ".csv":
        kind = f"a {suffix} file that is neither a workbook mechasheet reads nor text"
    if kind is None:
        return None
    advice = ("a workbook made from a mechasheet template is read as .xlsx or .xlsm; any other "
              "spreadsheet (.xls, .ods, .xlsb, a homemade sheet): mechasheet import")
    return error(f"{name}: {kind}, not a JSON document; {advice}", "INPUT_WRONG_FORMAT", file=name,
                 kind_en=kind, kind_ja=KIND_JA.get(kind, f"{suffix} のファイル（ブックでもテキストでもない）"))


def decode_text(data: bytes, name: str, error: type[InputError] = InputError) -> tuple[str, str | None]:
    """``data`` as text, with the encoding named when it is not UTF-8 (see :func:`read_input`)."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE)):  # before UTF-16: FF FE 00 00
        raise error(f"{name}: text in UTF-32, which is not read; save it again as UTF-8",
                    "INPUT_ENCODING_UNSUPPORTED", file=name, encoding="UTF-32")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16"), "UTF-16"
        except UnicodeDecodeError as exc:
            raise error(f"{name}: damaged UTF-16 text ({exc.reason} at byte {exc.start}); "
                        "save it again as UTF-8", "INPUT_NOT_TEXT", file=name) from exc
    wrong = wrong_format(data, name, error)
    if wrong is not None:
        raise wrong
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


def load_toml(path: str | Path, invalid: Callable[[str, str], InputError],
              limit: int = MAX_SETTINGS_BYTES) -> dict[str, Any]:
    """A settings file in TOML (house rules, a layout profile): read as any input text (a regular
    file, at most ``limit`` bytes, UTF-8, or UTF-16/Shift_JIS as older editors save), then
    parsed; ``invalid(key, why)`` is the caller's error for what the TOML itself gets wrong,
    nesting too deep for the parser included (never a RecursionError)."""
    import tomllib

    text = read_input(path, InputError, limit)[0]
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise invalid("", str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from exc
    except RecursionError as exc:
        raise invalid("", "arrays or tables nested too deeply") from exc


def load_json_document(path: str | Path) -> dict[str, Any]:
    """A document read from a JSON file; InputError (exit 2) naming the file if it cannot be."""
    p = Path(path)
    return parse_json_document(read_input(p)[0], shown_name(p))


class _RefusedError(Exception):
    """A JSON text refused while it is parsed: ``code`` and params for the InputError."""

    def __init__(self, message: str, code: str, **params: object) -> None:
        super().__init__(message)
        self.code, self.params = code, params


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when a key is written twice: which one wins differs between
    readers (here the last, in a spreadsheet the first), so neither is guessed."""
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _RefusedError(f"the key {key!r} is written twice in one object", "INPUT_DUPLICATE_KEY",
                                    key=shown_name(key))
            seen.add(key)
    return out


def _integer(text: str) -> int:
    """A JSON integer; one longer than MAX_INTEGER_DIGITS is refused (Python would refuse past
    4,300 digits with advice about its own settings, and no sheet holds such a number)."""
    digits = len(text.lstrip("-"))
    if digits > MAX_INTEGER_DIGITS:
        raise _RefusedError(f"an integer with {digits:,} digits", "INPUT_NUMBER_TOO_LONG", digits=f"{digits:,}")
    return int(text)


_ESCAPED_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
_RAW_SURROGATE = re.compile("[\ud800-\udfff]")


def parse_json_document(text: str, name: str, replaced: list[str] | None = None) -> dict[str, Any]:
    """A document parsed from ``text``; InputError naming ``name`` if it is no JSON object, writes
    a key twice in one object, or holds an integer too long to be a number. A text holding a
    lone surrogate (``"\\ud800"``) is kept with U+FFFD in its place (:func:`lone_surrogates`),
    its JSON pointer added to ``replaced``."""
    name = shown_name(name)
    try:
        doc = json.loads(text, object_pairs_hook=_object, parse_int=_integer)
    except json.JSONDecodeError as exc:
        raise InputError(f"{name}: not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})",
                         "INPUT_NOT_JSON", file=name, line=exc.lineno, column=exc.colno) from exc
    except RecursionError as exc:
        raise InputError(f"{name}: JSON nested too deeply to be a document", "INPUT_TOO_DEEP", file=name) from exc
    except _RefusedError as exc:
        raise InputError(f"{name}: {exc}", exc.code, file=name, **exc.params) from exc
    except ValueError as exc:  # a float Python cannot hold, and what else json may raise
        raise InputError(f"{name}: not valid JSON ({exc})", "INPUT_NOT_JSON", file=name, line="-",
                         column="-") from exc
    if not isinstance(doc, dict):
        raise InputError(f"{name}: a document must be a JSON object, not {type(doc).__name__}",
                         "INPUT_NOT_OBJECT", file=name)
    if _ESCAPED_SURROGATE.search(text) or _RAW_SURROGATE.search(text):
        doc, found = lone_surrogates(doc, name)
        if replaced is not None:
            replaced.extend(found)
    return doc


def lone_surrogates(doc: dict[str, Any], name: str = "") -> tuple[dict[str, Any], list[str]]:
    """``doc`` with each lone surrogate in its texts replaced by U+FFFD, and where they were
    (JSON pointers). Such a text (``"\\ud800"`` in JSON) is no character: no UTF-8 writer (a
    workbook, a zip, a report) can write it. Callers with documents from elsewhere call this
    before writing one."""
    from ..core.source import scrub_text

    try:
        cleaned, found = scrub_text(doc)
    except RecursionError as exc:
        raise InputError(f"{name}: JSON nested too deeply to be a document", "INPUT_TOO_DEEP", file=name) from exc
    return cleaned, found


def utf8(text: str) -> bytes:
    """``text`` as UTF-8 for a file, a lone surrogate (a file name's byte not in UTF-8, carried by
    surrogateescape) written as its escape ``\\udc83``: inside a JSON string that escape reads
    back as the same name; in any other text it shows the name as :func:`shown_name` would."""
    return text.encode("utf-8", "backslashreplace")


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

    def refuse(self, output: str | Path, force: bool = True) -> None:
        """OutputError when ``output`` is one of the inputs (the same file by any path or link),
        naming the first such input, or (without ``force``) when a file (or link) has its name."""
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
        if not force and (out.exists() or out.is_symlink()):
            raise OutputError(f"{out}: already exists (use --force to replace it)", "OUTPUT_EXISTS", file=str(out))


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
    earlier run are removed first. Text is written as UTF-8; a lone surrogate (a file name's
    byte not in UTF-8, a ``"\\ud800"`` read from JSON) as its escape ``\\udc83``, never an abort."""
    p = Path(path)
    (inputs if isinstance(inputs, Inputs) else Inputs(inputs)).refuse(p, force)
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _cannot(p, exc, f"{p.parent}: cannot create the folder") from exc
    _remove_stale_temporaries(p)
    try:
        fd, tmp = tempfile.mkstemp(prefix=_temp_prefix(p), suffix=".tmp", dir=p.parent)
    except OSError as exc:
        raise _cannot(p, exc, f"{p}: cannot write in {p.parent}") from exc
    try:
        with os.fdopen(fd, "wb") as fh:
            for piece in [data] if isinstance(data, (bytes, str)) else data:
                fh.write(utf8(piece) if isinstance(piece, str) else piece)
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
    except (OSError, AttributeError):  # AttributeError: no os.link at all (Pyodide)
        with open(target, "xb") as out, open(tmp, "rb") as src:
            out.write(src.read())
            out.flush()
            os.fsync(out.fileno())
    os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


#: a file name's length limit in bytes (most file systems; the folder's own is asked first)
NAME_MAX = 255
_TEMP_RANDOM = 8 + len(".tmp")  # what mkstemp adds after the prefix


def _temp_prefix(target: Path) -> str:
    """``.<name>.mechasheet-`` for ``target``'s temporary file, the name cut (by bytes, at a
    character's end) so that the whole temporary name fits the folder's limit: a legal name of
    80 katakana (240 bytes) is still written."""
    try:
        limit = os.pathconf(target.parent, "PC_NAME_MAX") if hasattr(os, "pathconf") else NAME_MAX
    except (OSError, ValueError):
        limit = NAME_MAX
    room = min(limit, NAME_MAX) - len(TEMP_MARK) - 1 - _TEMP_RANDOM
    raw = os.fsencode(target.name)
    if len(raw) > room:
        cut = raw[:room]
        while cut and (cut[-1] & 0xC0) == 0x80:  # inside a UTF-8 character: back to its start
            cut = cut[:-1]
        if cut and cut[-1] >= 0xC0:  # a lead byte without its continuation
            cut = cut[:-1]
        raw = cut
    return f".{os.fsdecode(raw)}{TEMP_MARK}"


def _remove_stale_temporaries(target: Path) -> None:
    """Our own temporary files for ``target`` older than this run: a killed write's leftovers."""
    prefix = _temp_prefix(target)
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

"""Opening an .xlsx/.xlsm package safely, before any native reader sees it.

A workbook is a zip of XML parts. Before python-calamine reads a sheet, this module checks what
a damaged or hostile file could do to it: the zip's entry count, declared and actual sizes and
compression ratio; the XML (no DTD, so no entity bombs and no external entities); and how far
each sheet's cells reach, since calamine allocates the whole grid a sheet's cells span (one value
at XFD1048576 is a 16-billion-cell grid and an abort). Defined names are read straight from
``xl/workbook.xml``, each reference parsed once. Every limit is a named constant, and hitting one
is an error that names the file and the limit, never a silent cut.
"""
from __future__ import annotations

import posixpath
import re
import zipfile
from functools import lru_cache
from html import unescape
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, NoReturn

from ..core.errors import InputError
from .files import open_regular, sniff

# --- limits (docs/limits.md) ----------------------------------------------------------------------
MAX_ENTRIES = 5_000  # parts in the zip
MAX_PART_BYTES = 64 * 2 ** 20  # one part, uncompressed (a filled sheet's largest part: ~300 KB)
MAX_TOTAL_BYTES = 256 * 2 ** 20  # all parts, uncompressed
MAX_RATIO = 200  # uncompressed / compressed size of a part over RATIO_FLOOR bytes (zip bombs)
RATIO_FLOOR = 2 ** 20
MAX_NAMES = 20_000  # defined names (a template has about 300)
MAX_GRID_CELLS = 2_000_000  # rows × columns a sheet's cells may span before calamine reads it
EXCEL_ROWS, EXCEL_COLUMNS = 1_048_576, 16_384

SHARED_PARTS = ("xl/sharedStrings.xml", "xl/styles.xml")
PROLOG_BYTES = 64 * 1024  # where a DTD would stand in a part we do not parse ourselves
PROLOG_CHUNK = 1024  # read at a time until the root element starts
OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"  # legacy .xls, or an encrypted .xlsx
ZIP_MAGIC = b"PK\x03\x04"


class PackageError(InputError):
    """The package cannot be read safely: ``code`` says why (a finding code of the catalog),
    ``detail`` where and how much, in no language (part names, cells, numbers)."""

    def __init__(self, message: str, code: str = "INPUT_UNREADABLE", detail: str = "") -> None:
        super().__init__(message, code, detail=detail)
        self.detail = detail


@dataclass(frozen=True)
class Area:
    """A rectangle of cells, 0-based and inclusive: what a defined name points at."""

    sheet: str
    top: int
    left: int
    bottom: int
    right: int

    @property
    def rows(self) -> int:
        return self.bottom - self.top + 1

    def cell(self, index: int = 0) -> tuple[int, int]:
        """(row, column) of the ``index``-th cell down the first column."""
        return self.top + index, self.left

    def a1(self, index: int = 0) -> str:
        """``Sheet!C12`` of the ``index``-th cell down the first column (for findings)."""
        return f"{self.sheet}!{column_letters(self.left)}{self.top + index + 1}"


@dataclass
class Package:
    """An opened workbook package: its sheets (name → part), defined names, and what was refused."""

    path: Path
    zip: zipfile.ZipFile
    sheets: dict[str, str]  # sheet name → part name (xl/worksheets/sheet1.xml)
    names: dict[str, Area] = field(default_factory=dict)
    broken_names: dict[str, str] = field(default_factory=dict)  # name → its text (#REF!, a formula)
    properties: dict[str, str] = field(default_factory=dict)  # custom document properties
    parts: dict[str, bytes] = field(default_factory=dict, repr=False)  # the parts read so far

    def close(self) -> None:
        """Close the zip (every opening is its own: nothing is kept for a later one)."""
        self.zip.close()

    def read_part(self, name: str) -> bytes:
        """A part's bytes, refused past MAX_PART_BYTES whatever its header declares; read once."""
        data = self.parts.get(name)
        if data is None:
            data = self.parts[name] = read_capped(self.zip, name, self.path)
        return data

    def extent(self, sheet: str) -> tuple[int, int]:
        """(rows, columns) the sheet's cells span, from their references; refused past
        MAX_GRID_CELLS, before a native reader would allocate the grid."""
        data = self.read_part(self._part(sheet))
        rows = max(map(int, _ROW_REF.findall(data)), default=0)
        letters = max(set(_CELL_REF.findall(data)), key=lambda c: (len(c), c.upper()), default=b"A")
        cols = column_index(letters.decode("ascii")) + 1 if len(letters) <= 3 else EXCEL_COLUMNS + 1
        # Rows and cells written without a reference follow the previous one (rare: some other
        # writers): bound them by their count, counted only when there is one.
        if _BARE_ROW.search(data):
            rows += len(_ANY_ROW.findall(data))
        if _BARE_CELL.search(data):
            cols += len(_ANY_CELL.findall(data))
        self.check_reach(sheet, rows, cols)
        return rows, cols

    def check_reach(self, sheet: str, rows: int, cols: int) -> None:
        """PackageError when a sheet whose cells span ``rows`` × ``cols`` is beyond Excel's grid
        or past MAX_GRID_CELLS (from :meth:`extent`, or from the native reader's own figures)."""
        if rows > EXCEL_ROWS or cols > EXCEL_COLUMNS:
            raise PackageError(f"{self.path}: sheet {sheet!r} has a cell reference beyond Excel's grid "
                               f"(row {rows}, column {column_letters(cols - 1)})", "INPUT_DAMAGED",
                               f"{sheet}!{column_letters(cols - 1)}{rows}")
        if rows * cols > MAX_GRID_CELLS:
            raise PackageError(f"{self.path}: sheet {sheet!r} has cells as far as row {rows}, column "
                               f"{column_letters(max(cols - 1, 0))} ({rows * cols:,} cells to allocate; "
                               f"the limit is {MAX_GRID_CELLS:,})", "INPUT_TOO_LARGE",
                               f"{sheet}!{column_letters(max(cols - 1, 0))}{rows}: {rows * cols:,} > {MAX_GRID_CELLS:,}")

    def check_prolog(self, sheet: str) -> None:
        """A sheet the native reader will parse unscanned (``scan_first=False``): no DTD in its
        prolog, as for the shared parts."""
        _check_prolog(self.zip, self._part(sheet), self.path)

    def _part(self, sheet: str) -> str:
        part = self.sheets.get(sheet)
        if part is None:
            raise PackageError(f"{self.path}: no sheet named {sheet!r}", "INPUT_DAMAGED", sheet)
        return part


_ROOT_START = re.compile(rb"<[^?!]")  # the first element: the prolog (declaration, DTD) is over
_CELL_REF = re.compile(rb"<c\b[^>]*?\br=\"\$?([A-Za-z]+)\$?\d")
_ROW_REF = re.compile(rb"<row\b[^>]*?\br=\"(\d{1,9})\"")
_BARE_CELL = re.compile(rb"<c(?:\s(?![^>]*\br=)[^>]*)?/?>")
_BARE_ROW = re.compile(rb"<row(?:\s(?![^>]*\br=)[^>]*)?/?>")
_ANY_CELL = re.compile(rb"<c[\s/>]")
_ANY_ROW = re.compile(rb"<row[\s/>]")


def open_package(path: str | Path, *, contents: bool = True) -> Package:
    """The package at ``path``, checked; PackageError (an InputError) naming what is wrong.
    With ``contents=False`` only the zip is checked (limits, a workbook part) and no sheets,
    names or properties are read: for a caller that reads the parts it needs itself."""
    p = Path(path)
    fh = open_regular(p)  # a regular file only: a FIFO or a device is refused, never waited on
    try:
        head = fh.read(4096)
    except OSError as exc:
        fh.close()
        raise InputError(f"{p}: cannot read: {exc.strerror or exc}", "INPUT_CANNOT_READ", file=str(p),
                         detail=exc.strerror or str(exc)) from exc
    if not head.startswith(ZIP_MAGIC):
        fh.close()
        raise _not_a_package(p, head)
    try:
        fh.seek(0)
        zf: zipfile.ZipFile = _OwningZip(fh)
    except (zipfile.BadZipFile, OSError, ValueError) as exc:
        fh.close()
        raise PackageError(f"{p}: the workbook is damaged (not a complete zip: {exc})", "INPUT_DAMAGED",
                           "zip") from exc
    try:
        _check_entries(zf, p)
        if not contents:
            return Package(p, zf, {})
        sheets, names, broken = _workbook(zf, p)
        properties = _custom_properties(zf, p)
        for shared in SHARED_PARTS:  # parts a native reader parses beside the sheets: checked too
            if shared in zf.NameToInfo:
                _check_prolog(zf, shared, p)
    except BaseException:
        zf.close()
        raise
    return Package(p, zf, sheets, names, broken, properties)


class _OwningZip(zipfile.ZipFile):
    """A zip read from the file object it was opened on (opened as a regular file, never a
    FIFO): closing the zip closes the file."""

    def __init__(self, fh: Any) -> None:
        self._owned = fh  # first: a zip that fails to open is closed by __del__
        super().__init__(fh)

    def close(self) -> None:
        try:
            super().close()
        finally:
            self._owned.close()


def _not_a_package(p: Path, head: bytes) -> PackageError:
    """Why a file with a workbook's suffix is not a zip package, in words a user can act on."""
    if head.startswith(OLE_MAGIC):
        if "EncryptedPackage".encode("utf-16-le") in head or b"E\x00n\x00c\x00r\x00y\x00p\x00t" in head:
            return PackageError(f"{p}: the workbook is password-protected (encrypted); save a copy "
                                "without a password", "INPUT_ENCRYPTED", "EncryptedPackage")
        return PackageError(f"{p}: an Excel 97-2003 (.xls) workbook or an encrypted one; open it in a "
                            "spreadsheet and save it as .xlsx", "INPUT_LEGACY_FORMAT", "OLE2")
    text = head.lstrip().lower()
    if text.startswith((b"<html", b"<!doctype html", b"<?xml")) or b"<table" in text:
        return PackageError(f"{p}: an HTML or XML file named like a workbook; save it as .xlsx",
                            "INPUT_NOT_WORKBOOK", "HTML/XML")
    if head and all(32 <= b < 127 or b in (9, 10, 13) or b >= 0x80 for b in head[:512]):
        return PackageError(f"{p}: a text file (CSV?) named like a workbook; open it in a spreadsheet and "
                            "save it as .xlsx", "INPUT_NOT_WORKBOOK", "CSV/text")
    return PackageError(f"{p}: not an .xlsx workbook (no zip package)", "INPUT_NOT_WORKBOOK", "zip?")


def _check_entries(zf: zipfile.ZipFile, p: Path) -> None:
    infos = zf.infolist()
    if len(infos) != len(zf.NameToInfo):  # two entries of one name: which is read is a guess
        seen: set[str] = set()
        for info in infos:
            if info.filename in seen:
                raise PackageError(f"{p}: the package holds two parts named {info.filename} (refused: "
                                   "readers disagree on which one counts)", "INPUT_DAMAGED",
                                   f"{info.filename} ×2")
            seen.add(info.filename)
    if len(infos) > MAX_ENTRIES:
        raise PackageError(f"{p}: {len(infos):,} parts in the package (the limit is {MAX_ENTRIES:,})",
                           "INPUT_TOO_LARGE", f"zip: {len(infos):,} > {MAX_ENTRIES:,}")
    total = 0
    for info in infos:
        if info.flag_bits & 0x1:
            raise PackageError(f"{p}: the workbook is password-protected (encrypted part {info.filename})",
                               "INPUT_ENCRYPTED", info.filename)
        total += info.file_size
        if info.file_size > MAX_PART_BYTES:
            raise PackageError(f"{p}: part {info.filename} unpacks to {info.file_size:,} bytes (the limit is "
                               f"{MAX_PART_BYTES:,})", "INPUT_TOO_LARGE",
                               f"{info.filename}: {info.file_size:,} > {MAX_PART_BYTES:,}")
        if info.file_size > RATIO_FLOOR and info.file_size > MAX_RATIO * max(info.compress_size, 1):
            raise PackageError(f"{p}: part {info.filename} is compressed {info.file_size // max(info.compress_size, 1):,} "
                               f"to 1 (a zip bomb; the limit is {MAX_RATIO} to 1)", "INPUT_TOO_LARGE",
                               f"{info.filename}: {info.file_size // max(info.compress_size, 1):,}:1 > {MAX_RATIO}:1")
    if total > MAX_TOTAL_BYTES:
        raise PackageError(f"{p}: the parts unpack to {total:,} bytes (the limit is {MAX_TOTAL_BYTES:,})",
                           "INPUT_TOO_LARGE", f"zip: {total:,} > {MAX_TOTAL_BYTES:,}")
    if "xl/workbook.xml" not in zf.NameToInfo:
        raise PackageError(f"{p}: no xl/workbook.xml: not an Excel workbook (or a damaged one)",
                           "INPUT_NOT_WORKBOOK", "xl/workbook.xml")


def _check_prolog(zf: zipfile.ZipFile, name: str, p: Path) -> None:
    """A part only the native reader parses: no DTD in its prolog (where XML allows one; the
    native reader expands no entities, so the prolog is where a bomb would have to start)."""
    try:
        with zf.open(name) as fh:  # read up to the root element (a few dozen bytes in practice)
            head = fh.read(PROLOG_CHUNK)
            while len(head) < PROLOG_BYTES and not _ROOT_START.search(head):
                more = fh.read(PROLOG_CHUNK)
                if not more:
                    break
                head += more
    except KeyError as exc:  # a relationship naming a part the package lacks
        raise PackageError(f"{p}: part {name} is missing", "INPUT_DAMAGED", name) from exc
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:
        raise PackageError(f"{p}: part {name} is damaged ({exc})", "INPUT_DAMAGED", name) from exc
    except RuntimeError as exc:
        raise PackageError(f"{p}: part {name} is encrypted", "INPUT_ENCRYPTED", name) from exc
    refuse_dtd(head, p, name)


def refuse_dtd(data: bytes, p: Path, name: str) -> None:
    """PackageError when a part's bytes (or its prolog) declare a DTD or entities: never in a
    real part; entity bombs, XXE."""
    if b"<!DOCTYPE" in data or b"<!ENTITY" in data:
        raise PackageError(f"{p}: part {name} declares a DTD or entities (refused)", "INPUT_DAMAGED",
                           f"{name}: <!DOCTYPE>")


def read_capped(zf: zipfile.ZipFile, name: str, p: Path, limit: int = MAX_PART_BYTES) -> bytes:
    """A part's bytes, decompressed in chunks and refused past ``limit`` (a header may lie)."""
    try:
        with zf.open(name) as fh:
            chunks, size = [], 0
            while chunk := fh.read(1 << 16):
                size += len(chunk)
                if size > limit:
                    raise PackageError(f"{p}: part {name} unpacks past {limit:,} bytes", "INPUT_TOO_LARGE",
                                       f"{name}: > {limit:,}")
                chunks.append(chunk)
    except KeyError as exc:
        raise PackageError(f"{p}: part {name} is missing", "INPUT_DAMAGED", name) from exc
    except (zipfile.BadZipFile, OSError, EOFError, ValueError) as exc:  # CRC, truncation, bad data
        raise PackageError(f"{p}: part {name} is damaged ({exc})", "INPUT_DAMAGED", name) from exc
    except RuntimeError as exc:  # zipfile: an encrypted entry
        raise PackageError(f"{p}: part {name} is encrypted", "INPUT_ENCRYPTED", name) from exc
    data = b"".join(chunks)
    refuse_dtd(data, p, name)
    return data


# --- one safe opening for every reader (check, read, import, audit) -----------------------------

def check_spreadsheet(path: str | Path) -> None:
    """What ``check`` refuses, refused before a homemade spreadsheet reaches the native reader
    (``import``): a file that is no regular file; for .xlsx/.xlsm the package's limits, a DTD in
    any sheet, a sheet XML that is not well-formed (half written), a cell beyond the limits; for
    .xls, .xlsb and .ods content that is not that format (HTML saved as .xls)."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in (".xlsx", ".xlsm"):
        package = open_package(p)
        try:
            for sheet, part in package.sheets.items():
                package.extent(sheet)  # the whole part read: DTD refused, far cells refused
                parse_xml(package.read_part(part), p, part)  # well-formed, or INPUT_DAMAGED
        finally:
            package.close()
        return
    with open_regular(p) as fh:
        head = fh.read(4096)
    if suffix == ".xls" and not head.startswith(OLE_MAGIC):
        raise _wrong_content(p, head, "an Excel 97-2003 (.xls) workbook")
    if suffix in (".xlsb", ".ods") and not head.startswith(ZIP_MAGIC):
        raise _wrong_content(p, head, f"a {suffix} workbook (a zip package)")


def _wrong_content(p: Path, head: bytes, expected: str) -> PackageError:
    """INPUT_NOT_WORKBOOK saying what the file is by its content, not what its suffix says."""
    kind = sniff(head) or ("a text file (CSV?)" if head and b"\x00" not in head[:512] else "unknown bytes")
    return PackageError(f"{p}: named like {expected}, but its content is {kind}; open it in a "
                        "spreadsheet and save it as .xlsx", "INPUT_NOT_WORKBOOK", f"{p.suffix}: {kind}")


def native_workbook(path: str | Path) -> Any:
    """python-calamine's workbook for ``path``; a file name that is not valid UTF-8 (Shift_JIS
    bytes from an old archive), which calamine cannot take as a path, is given as an open file."""
    import python_calamine

    text = str(path)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        with open_regular(path) as fh:
            return python_calamine.CalamineWorkbook.from_filelike(fh)
    return python_calamine.CalamineWorkbook.from_path(text)


# --- XML, without DTDs ----------------------------------------------------------------------------

def parse_xml(data: bytes, p: Path, part: str, start: Callable[[str, dict[str, str]], None] | None = None,
              end: Callable[[str], None] | None = None, text: Callable[[str], None] | None = None) -> None:
    """Stream ``data`` through expat with handlers; a DTD (the door to entity bombs and external
    entities, never in a real workbook part) or malformed XML is refused as damaged."""
    import xml.parsers.expat

    parser = xml.parsers.expat.ParserCreate(namespace_separator="}")

    def refuse(*_: Any) -> NoReturn:
        raise PackageError(f"{p}: part {part} declares a DTD or entities (refused)", "INPUT_DAMAGED",
                           f"{part}: <!DOCTYPE>")

    parser.StartDoctypeDeclHandler = refuse
    parser.EntityDeclHandler = refuse
    parser.ExternalEntityRefHandler = refuse
    if start is not None:
        parser.StartElementHandler = lambda tag, attrs: start(tag.rsplit("}", 1)[-1], attrs)
    if end is not None:
        parser.EndElementHandler = lambda tag: end(tag.rsplit("}", 1)[-1])
    if text is not None:
        parser.CharacterDataHandler = text
    try:
        parser.Parse(data, True)
    except xml.parsers.expat.ExpatError as exc:
        raise PackageError(f"{p}: part {part} is not well-formed XML ({exc})", "INPUT_DAMAGED",
                           f"{part}: {exc.lineno}:{exc.offset}") from exc


_SHEET = re.compile(r"<(?:\w+:)?sheet\s([^>]*?)/?>")
_DEFINED_NAME = re.compile(r"<(?:\w+:)?definedName\s([^>]*?)(?:/>|>(.*?)</(?:\w+:)?definedName>)", re.S)
_ATTRIBUTE = re.compile(r"([\w:]+)\s*=\s*(?:\"([^\"]*)\"|'([^']*)')")


def _text(text: str) -> str:
    """XML text or an attribute value with the five predefined entities resolved."""
    return unescape(text) if "&" in text else text


def _attributes(raw: str) -> dict[str, str]:
    return {k: _text(a if a else b) for k, a, b in _ATTRIBUTE.findall(raw)}


def _workbook(zf: zipfile.ZipFile, p: Path) -> tuple[dict[str, str], dict[str, Area], dict[str, str]]:
    """From ``xl/workbook.xml``: sheet name → its part (through the workbook's relationships),
    the global defined names and the area each points at, and apart, by their text, the names
    that point at no single area (``#REF!``, a formula, several areas).

    The part was refused if it declares a DTD (read_capped), so its text holds only XML's own
    five entities; its two kinds of element are found with regular expressions, several times
    faster than a parser's callbacks for a template's ~300 names."""
    targets: dict[str, str] = {}

    def rel(tag: str, attrs: dict[str, str]) -> None:
        if tag == "Relationship" and "Id" in attrs:
            target = attrs.get("Target", "")
            if attrs.get("TargetMode") == "External":
                return  # a link out of the package (a URL): never a sheet
            part = posixpath.normpath(target.lstrip("/") if target.startswith("/") else f"xl/{target}")
            if part.startswith("../") or part == ".." or "\\" in part or ":" in part:
                raise PackageError(f"{p}: the workbook's relationship {attrs['Id']} points outside the "
                                   f"package ({target})", "INPUT_DAMAGED",
                                   f"xl/_rels/workbook.xml.rels: {attrs['Id']} → {target}")
            targets[attrs["Id"]] = part

    if "xl/_rels/workbook.xml.rels" in zf.NameToInfo:
        parse_xml(read_capped(zf, "xl/_rels/workbook.xml.rels", p), p, "xl/_rels/workbook.xml.rels", rel)
    data = read_capped(zf, "xl/workbook.xml", p)
    try:
        ids, names, broken = _workbook_part(data)
    except _TooManyNames:
        raise PackageError(f"{p}: more than {MAX_NAMES:,} defined names", "INPUT_TOO_LARGE",
                           f"definedName > {MAX_NAMES:,}") from None
    sheets = {name: targets[rid] for name, rid in ids if rid in targets}
    return sheets, dict(names), dict(broken)


class _TooManyNames(Exception):
    pass


@lru_cache(maxsize=16)  # every sheet of one template version has the same workbook part
def _workbook_part(data: bytes) -> tuple[tuple[tuple[str, str | None], ...], dict[str, Area], dict[str, str]]:
    """``xl/workbook.xml``'s sheets (name, relationship id) and defined names, parsed once per
    distinct text: a folder filled from one template repeats the same ~300 names in every file.
    Callers copy the dictionaries (the cached ones are shared)."""
    text = data.decode("utf-8", "replace")
    ids = []
    for raw in _SHEET.findall(text):
        attrs = _attributes(raw)
        rid = next((v for k, v in attrs.items() if k.endswith(":id") or k == "id"), None)
        if "name" in attrs:
            ids.append((attrs["name"], rid))
    names: dict[str, Area] = {}
    broken: dict[str, str] = {}
    for count, (attributes, body) in enumerate(_DEFINED_NAME.findall(text)):
        if count >= MAX_NAMES:
            raise _TooManyNames()
        name = _attributes(attributes).get("name")
        if name is None or "localSheetId" in attributes:  # a sheet's own name (print areas): not ours
            continue
        ref = _text(body).strip()
        area = parse_reference(ref)
        if area is None:
            broken[name] = ref
        else:
            names[name] = area
    return tuple(ids), names, broken


_REFERENCE = re.compile(r"^=?(?:'((?:[^']|'')+)'|([^'!]+))!\$?([A-Za-z]{1,3})?\$?(\d+)?"
                        r"(?::\$?([A-Za-z]{1,3})?\$?(\d+)?)?$")


@lru_cache(maxsize=65536)  # the same template's references recur in every file of a folder
def parse_reference(ref: str) -> Area | None:
    """``'武装'!$B$5:$B$24`` → Area; whole columns and rows are bounded by the sheet's size;
    None for ``#REF!``, formulas, several areas."""
    m = _REFERENCE.match(ref)
    if m is None:
        return None
    sheet = m.group(1).replace("''", "'") if m.group(1) is not None else m.group(2)
    c1, r1, c2, r2 = m.group(3), m.group(4), m.group(5), m.group(6)
    if (c1 is None and r1 is None) or "#REF" in sheet:
        return None
    if m.group(5) is None and m.group(6) is None:
        c2, r2 = c1, r1
    left, right = (column_index(c1) if c1 else 0), (column_index(c2) if c2 else EXCEL_COLUMNS - 1)
    top, bottom = (int(r1) - 1 if r1 else 0), (int(r2) - 1 if r2 else EXCEL_ROWS - 1)
    if not (0 <= top <= bottom < EXCEL_ROWS and 0 <= left <= right < EXCEL_COLUMNS):
        return None
    return Area(sheet, top, left, bottom, right)


def _custom_properties(zf: zipfile.ZipFile, p: Path) -> dict[str, str]:
    """docProps/custom.xml: name → text value (our templates name themselves there)."""
    if "docProps/custom.xml" not in zf.NameToInfo:
        return {}
    out: dict[str, str] = {}
    current: list[Any] = [None, []]

    def start(tag: str, attrs: dict[str, str]) -> None:
        if tag == "property":
            current[0], current[1] = attrs.get("name"), []

    def text(data: str) -> None:
        if current[0] is not None:
            current[1].append(data)

    def end(tag: str) -> None:
        if tag == "property" and current[0] is not None:
            out[current[0]] = "".join(current[1]).strip()
            current[0] = None

    parse_xml(read_capped(zf, "docProps/custom.xml", p), p, "docProps/custom.xml", start, end, text)
    return out


@lru_cache(maxsize=4096)
def column_index(letters: str) -> int:
    """``A`` → 0, ``AA`` → 26."""
    n = 0
    for ch in letters.upper():
        n = n * 26 + ord(ch) - 64
    return n - 1


@lru_cache(maxsize=4096)
def column_letters(index: int) -> str:
    """0 → ``A``, 26 → ``AA``."""
    out = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        out = chr(65 + rest) + out
    return out

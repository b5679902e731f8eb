"""A few cells near the top of a worksheet, read from the first rows of its XML.

A reader that wants a handful of cells of a sheet it reads nothing else of (the rules readings in
rows 2 to 9 of a template's ルール sheet, whose price tables make it the largest sheet of an up
workbook) need not have python-calamine parse the whole sheet: the part is unpacked only up to the
first row past the cells wanted. This reads only what it can say exactly as python-calamine would
(text, shared or inline; booleans; blanks) and answers None for anything else (a number, a formula,
an error, a row or cell written without its reference, a prefixed namespace, an escape it does not
decode), so the caller reads the sheet whole as before; ``tests/test_sheet_head.py`` holds it to
python-calamine's values. The part's prolog is refused if it declares a DTD, as for every part.
"""
from __future__ import annotations

import re
import zlib
from html import unescape
from typing import Any

from .xlsx_package import (_BARE_CELL, _BARE_ROW, _ROW_REF, Package, PackageError, column_letters,
                           refuse_dtd)

MAX_HEAD_BYTES = 256 * 1024  # unpacked XML looked through before giving up (the sheet is read whole)
_CHUNK = 16 * 1024

_TYPE = re.compile(rb'\st="(\w+)"')
_VALUE = re.compile(rb"<v>([^<]*)</v>")
_TEXT = re.compile(rb"<t(?:\s[^>]*)?>([^<]*)</t>|<t(?:\s[^>]*)?/>")
_PHONETIC = re.compile(rb"<rPh\b.*?</rPh>", re.S)
_UNSURE = (b"_x", b"\r", b"<f", b"&#")  # Excel's _xHHHH_ escapes, CR, formulas, character refs

SHARED_STRINGS = "xl/sharedStrings.xml"


class _Unsure(Exception):
    """The head cannot say a cell's value as python-calamine would: read the sheet whole."""


def head_cells(package: Package, sheet: str, cells: list[tuple[int, int]]) -> dict[tuple[int, int], Any] | None:
    """The values (None when blank) of ``cells`` ((row, column), zero-based) of ``sheet``, read
    from its first rows only; None when that cannot be done exactly (then read the sheet whole)."""
    part = package.sheets.get(sheet)
    info = package.zip.NameToInfo.get(part) if part else None
    if info is None or not cells or info.compress_type not in (0, 8):
        return None
    last_row = max(r for r, _ in cells)
    try:
        head = _head(package, part, last_row)
        if head is None:
            return None
        got = {cell: _cell_value(package, head, cell) for cell in cells}
    except _Unsure:
        return None
    return {cell: None if value == "" else value for cell, value in got.items()}


def _head(package: Package, part: str, last_row: int) -> bytes | None:
    """The part's XML up to the first row past ``last_row`` (zero-based) or the end of its cells;
    None where its rows or cells are not written plainly, each with its reference, in order."""
    data = b""
    try:
        with package.zip.open(part) as fh:
            while True:
                chunk = fh.read(_CHUNK)
                data += chunk
                refuse_dtd(data[:65536], package.path, part)
                end = _past(data, last_row)
                if end is not None:
                    data = data[:end]
                    break
                if not chunk or len(data) > MAX_HEAD_BYTES:
                    return None
    except PackageError:
        raise
    except (KeyError, OSError, EOFError, ValueError, RuntimeError, zlib.error):
        return None  # the whole read names what is wrong
    start = data.find(b"<sheetData")
    if start < 0 or b":sheetData" in data or b":c " in data[start:]:
        return None
    body = data[start:]
    if _BARE_CELL.search(body) or _BARE_ROW.search(body):
        return None
    numbers = [int(n) for n in _ROW_REF.findall(body)]
    if any(b <= a for a, b in zip(numbers, numbers[1:])):
        return None
    return body


def _past(data: bytes, last_row: int) -> int | None:
    """Where the rows after ``last_row`` begin in ``data`` (or its cells end), if it reaches there
    (a row written without its reference is passed over here and refused by :func:`_head`)."""
    end = data.find(b"</sheetData>")
    for found in _ROW_REF.finditer(data, 0, end if end >= 0 else len(data)):
        if int(found.group(1)) - 1 > last_row:
            return found.start()
    return end if end >= 0 else None


def _cell_value(package: Package, head: bytes, cell: tuple[int, int]) -> Any:
    row, col = cell
    ref = b' r="' + f"{column_letters(col)}{row + 1}".encode() + b'"'
    at = head.find(ref)
    if at < 0:
        return None  # the head holds every row up to past this one: the cell is blank
    start = head.rfind(b"<c", 0, at)
    if start < 0 or head.find(b">", start, at) >= 0 or head[start + 2:start + 3] not in (b" ", b"\t", b"\n"):
        raise _Unsure
    close = head.find(b">", at)
    if close < 0:
        raise _Unsure
    attrs = head[start:close]
    if attrs.endswith(b"/"):
        return None
    end = head.find(b"</c>", close)
    if end < 0:
        raise _Unsure
    content = head[close + 1:end]
    if any(mark in content for mark in _UNSURE):
        raise _Unsure
    kind = _TYPE.search(attrs)
    kind = kind.group(1) if kind else b"n"
    if kind == b"s":
        value = _VALUE.search(content)
        if value is None or not value.group(1).strip().isdigit():
            raise _Unsure
        return _shared_string(package, int(value.group(1)))
    if kind == b"inlineStr":
        return _text_of(content)
    if kind == b"b":
        value = _VALUE.search(content)
        if value is None or value.group(1) not in (b"0", b"1"):
            raise _Unsure
        return value.group(1) == b"1"
    if not content.strip():
        return None
    raise _Unsure  # a number (python-calamine applies its format: a date), an error, a formula


def _text_of(xml: bytes) -> str:
    """The text of a string item (``<si>`` or ``<is>``): its runs' ``<t>`` joined, phonetic
    readings left out, as python-calamine gives it."""
    if b"<rPh" in xml:
        xml = _PHONETIC.sub(b"", xml)
    if any(mark in xml for mark in _UNSURE):
        raise _Unsure
    text = b"".join(m.group(1) or b"" for m in _TEXT.finditer(xml)).decode("utf-8")
    text = unescape(text) if "&" in text else text
    if text != text.strip():
        raise _Unsure  # how whitespace around a text is kept differs between readers
    return text


def _shared_string(package: Package, index: int) -> str:
    items = package.shared_items
    if items is None:
        if SHARED_STRINGS not in package.zip.NameToInfo:
            raise _Unsure
        data = package.read_part(SHARED_STRINGS)
        if re.search(rb"<si\s*/>|:si\b", data):
            raise _Unsure
        items = data.split(b"</si>")[:-1]
        package.shared_items = items
    if index >= len(items):
        raise _Unsure
    item = items[index]
    start = item.rfind(b"<si")
    if start < 0:
        raise _Unsure
    return _text_of(item[start:])

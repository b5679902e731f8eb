"""The formulas a worksheet holds, read straight from its XML through the safe package opener.

A part comes through :meth:`~converter.io.xlsx_package.Package.read_part` (size limits; a part
that declares a DTD is refused before any parsing), so its text holds only XML's five predefined
entities. Formula cells are found with one regular expression anchored on ``<f`` (a cell's first
child when it has one), several times faster than a parser's callbacks over every cell; in a
sheet whose formula cells are written without their reference (``<c>`` with no ``r``, allowed
and rare) every cell is placed by counting, through expat. A shared formula's later cells
(Excel's ``<f t="shared" si="0"/>``) are its first cell's formula moved to them, when asked; an
array formula (``t="array"``) holds for every cell of its range. A cell's typed value is looked
up only where it is asked for (a computed cell whose formula is gone), so an unchanged sheet
costs one scan.
"""
from __future__ import annotations

import re
from functools import lru_cache
from dataclasses import dataclass
from html import unescape
from typing import Any, Mapping

from ..io.xlsx_package import Package, column_index, parse_xml
from ..io.formula_text import normal, translate

_FORMULA_CELL = re.compile(
    rb'<c\s(?:r="([A-Z]{1,3})(\d+)")?([^>]*?)>\s*<f(\s[^>]*?)?(?:/>|>([^<]*)</f>)\s*(?:<v(?:\s[^>]*)?>([^<]*)</v>|<v\s*/>)?')
_REFERENCE = re.compile(rb'\br="\$?([A-Za-z]{1,3})\$?(\d+)"')
_AFTER_F = (b" ", b">", b"/")  # <f ...>, <f>, <f/>; not <formula> (conditional formats)
_TYPE = re.compile(rb'\bt="(\w+)"')
_ATTR = re.compile(rb'([\w:]+)\s*=\s*"([^"]*)"')
_CELL_REF = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)$")


class CellFormula:
    """One cell's formula as the sheet means it, and its cached result; both decoded from the
    XML only when asked for (most cells are only compared as bytes). A shared formula's later
    cell keeps its run's first formula and how far it moved (``shared``), moved when asked."""

    __slots__ = ("raw", "_formula", "_kind", "_value", "_shared")

    def __init__(self, formula: str | None, kind: str, value: str | bytes | None, raw: bytes = b"",
                 shared: tuple[str, int, int] | None = None) -> None:
        self.raw = raw  # the formula as the XML writes it (escaped), b"" when expanded here
        self._formula = formula
        self._kind = kind
        self._value = value
        self._shared = shared  # (first formula of the run, rows down, columns right)

    @property
    def formula(self) -> str:
        if self._formula is None:
            self._formula = moved(*self._shared) if self._shared else decoded_formula(self.raw)
        return self._formula

    def normal(self) -> str:
        """The formula in normal form (:func:`~converter.io.formula_text.normal`)."""
        return moved_normal(*self._shared) if self._shared else normal(self.formula)

    @property
    def value(self) -> Any:
        """The cached result: a number, text, bool, or "" when none was saved."""
        raw = self._value
        return _cached(self._kind, decoded_formula(raw) if isinstance(raw, bytes) else raw)


@lru_cache(maxsize=16384)  # a folder's workbooks of one template move the same formulas
def moved(formula: str, rows: int, columns: int) -> str:
    """``formula`` moved ``rows`` down and ``columns`` right (:func:`~converter.io.formula_text.translate`)."""
    return translate(formula, rows, columns)


@lru_cache(maxsize=16384)
def moved_normal(formula: str, rows: int, columns: int) -> str:
    """:func:`moved`, in normal form (a template's cells, a shared formula's later cells)."""
    return normal(moved(formula, rows, columns))


@dataclass(frozen=True)
class TypedCell:
    """What a cell without a formula holds: a typed value, or None when it is empty."""

    value: Any


@lru_cache(maxsize=1024)  # a run's later cells repeat one element (` t="shared" si="3"`)
def _attributes(raw: bytes | None) -> Mapping[str, str]:
    if not raw:
        return {}
    return {k.decode(): unescape(v.decode("utf-8", "replace")) for k, v in _ATTR.findall(raw)}


@lru_cache(maxsize=4096)
def _column(letters: bytes) -> int:
    return column_index(letters.decode())


def decoded_formula(raw: bytes | None) -> str:
    """A formula's (or value's) text as the XML escapes it, decoded."""
    if not raw:
        return ""
    text = raw.decode("utf-8", "replace")
    return unescape(text) if "&" in text else text


def _position(ref: str) -> tuple[int, int] | None:
    m = _CELL_REF.match(ref)
    if m is None:
        return None
    return int(m.group(2)) - 1, column_index(m.group(1).upper())


def _cached(kind: str, raw: str | None) -> Any:
    """A formula's cached ``<v>`` as the value it stands for (t="str" text, "b" bool, "e" error)."""
    if raw is None or raw == "":
        return ""
    if kind in ("str", "e", "inlineStr"):
        return raw
    if kind == "b":
        return raw.strip() == "1"
    try:
        number = float(raw)
    except ValueError:
        return raw
    return int(number) if number.is_integer() else number


class SheetFormulas:
    """The formula cells of one worksheet, by (row, column), zero-based; typed values on demand."""

    def __init__(self, package: Package, sheet: str) -> None:
        self.package = package
        self.sheet = sheet
        self.part = package.sheets.get(sheet)
        self._data = package.read_part(self.part) if self.part else b""
        self.cells: dict[tuple[int, int], CellFormula] = {}
        self._shared: dict[str, tuple[int, int, str]] = {}  # si → master (row, column, text)
        self._pending: list[tuple[int, int, str, str, Any]] = []  # shared children before their master
        if self._data and (b"<c>" in self._data or not self._scan()):
            self.cells.clear()
            self._shared.clear()
            self._pending.clear()
            self._scan_counting()

    def _scan(self) -> bool:
        """The formula cells found by their references; False at a formula cell written without
        one (only such a cell needs the cells before it counted)."""
        data = self._data
        at = data.find(b"<f")
        while at >= 0:  # each formula, then its cell's start: a few hundred jumps, not a full scan
            m = _FORMULA_CELL.match(data, data.rfind(b"<c ", 0, at)) if data[at + 2:at + 3] in _AFTER_F else None
            at = data.find(b"<f", at + 2)
            if m is None:
                continue
            letters, number, cell, f, text, value = m.groups()
            if letters is None:  # the reference not first among the attributes (other writers)
                ref = _REFERENCE.search(cell)
                if ref is None:
                    return False
                letters, number = ref.group(1).upper(), ref.group(2)
            kind = _TYPE.search(cell) if b't="' in cell else None
            at_cell = (int(number) - 1, _column(letters))
            kind_name = kind.group(1).decode() if kind else "n"
            if f is None:  # a plain formula: kept as bytes until compared
                self.cells[at_cell] = CellFormula(None, kind_name, value, text or b"")
            else:
                self._add(at_cell, kind_name, _attributes(f), decoded_formula(text), value)
        self._finish()
        return True

    def _scan_counting(self) -> None:
        """The same, through expat, placing cells and rows written without a reference."""
        state: dict[str, Any] = {"row": -1, "col": -1, "cell": None, "f": None, "text": None}

        def start(tag: str, attrs: dict[str, str]) -> None:
            if tag == "row":
                state["row"] = int(attrs["r"]) - 1 if "r" in attrs else state["row"] + 1
                state["col"] = -1
            elif tag == "c":
                at = _position(attrs.get("r", "")) if "r" in attrs else None
                if at is None:
                    at = (state["row"], state["col"] + 1)
                state["row"], state["col"] = at
                state["cell"], state["f"], state["v"] = (at, attrs.get("t", "n")), None, None
            elif tag in ("f", "v") and state["cell"] is not None:
                state[tag], state["text"] = (dict(attrs) if tag == "f" else ""), []

        def text(data: str) -> None:
            if state["text"] is not None:
                state["text"].append(data)

        def end(tag: str) -> None:
            if tag == "f" and state["text"] is not None:
                state["ftext"], state["text"] = "".join(state["text"]), None
            elif tag == "v" and state["text"] is not None:
                state["v"], state["text"] = "".join(state["text"]), None
            elif tag == "c" and state["cell"] is not None:
                if state["f"] is not None:
                    at, kind = state["cell"]
                    self._add(at, kind, state["f"], state.get("ftext", ""), state["v"])
                state["cell"], state["f"], state["ftext"] = None, None, ""

        parse_xml(self._data, self.package.path, self.part or self.sheet, start, end, text)
        self._finish()

    def _add(self, at: tuple[int, int], kind: str, f: Mapping[str, str], text: str,
             value: str | bytes | None) -> None:
        ftype = f.get("t", "normal")
        if ftype == "shared":
            si = f.get("si", "")
            if text:
                self._shared[si] = (at[0], at[1], text)
            elif si in self._shared:
                row, col, first = self._shared[si]
                self.cells[at] = CellFormula(None, kind, value, shared=(first, at[0] - row, at[1] - col))
                return
            else:  # a child before its master: resolved once the sheet is read
                self._pending.append((at[0], at[1], si, kind, value))
                return
        elif ftype == "array" and f.get("ref") and ":" in f["ref"]:
            first, _, last = f["ref"].partition(":")
            a, b = _position(first), _position(last)
            if a is not None and b is not None:
                for r in range(a[0], b[0] + 1):
                    for c in range(a[1], b[1] + 1):
                        if (r, c) != at:
                            self.cells.setdefault((r, c), CellFormula(text, "n", None))
        self.cells[at] = CellFormula(text, kind, value)

    def _finish(self) -> None:
        for row, col, si, kind, value in self._pending:
            if si in self._shared:
                mr, mc, text = self._shared[si]
                self.cells[(row, col)] = CellFormula(None, kind, value, shared=(text, row - mr, col - mc))
        self._pending.clear()

    def typed(self, row: int, col: int, strings: "SharedStrings") -> TypedCell:
        """The value typed in a cell that holds no formula (None: empty or absent)."""
        from ..io.xlsx_package import column_letters

        ref = f'r="{column_letters(col)}{row + 1}"'.encode()
        at = self._data.find(b"<c " + ref)
        if at < 0:
            at = self._data.find(ref)
            if at < 0:
                return TypedCell(None)
            at = self._data.rfind(b"<c", 0, at)
        end_tag = self._data.find(b">", at)
        if self._data[end_tag - 1:end_tag] == b"/":
            return TypedCell(None)
        close = self._data.find(b"</c>", end_tag)
        body = self._data[end_tag + 1:close]
        kind = _attributes(self._data[at + 2:end_tag]).get("t", "n")
        if kind == "inlineStr":
            texts = re.findall(rb"<t(?:\s[^>]*)?>([^<]*)</t>", body)
            return TypedCell(unescape(b"".join(texts).decode("utf-8", "replace")) or None)
        m = re.search(rb"<v(?:\s[^>]*)?>([^<]*)</v>", body)
        if m is None:
            return TypedCell(None)
        raw = unescape(m.group(1).decode("utf-8", "replace"))
        if kind == "s":
            return TypedCell(strings.get(int(raw)) if raw.strip().isdigit() else raw)
        value = _cached(kind, raw)
        return TypedCell(None if value == "" else value)


class SharedStrings:
    """The workbook's shared strings, parsed only when a typed text must be shown."""

    def __init__(self, package: Package) -> None:
        self.package = package
        self._strings: list[str] | None = None

    def get(self, index: int) -> str | None:
        if self._strings is None:
            self._strings = self._read()
        return self._strings[index] if 0 <= index < len(self._strings) else None

    def _read(self) -> list[str]:
        name = "xl/sharedStrings.xml"
        if name not in self.package.zip.NameToInfo:
            return []
        out: list[str] = []
        state: dict[str, Any] = {"si": None, "t": False, "rph": 0}

        def start(tag: str, _: dict[str, str]) -> None:
            if tag == "si":
                state["si"] = []
            elif tag == "rPh":  # phonetic guide (furigana): not part of the text
                state["rph"] += 1
            elif tag == "t" and state["si"] is not None and not state["rph"]:
                state["t"] = True

        def end(tag: str) -> None:
            if tag == "si":
                out.append("".join(state["si"] or []))
                state["si"] = None
            elif tag == "rPh":
                state["rph"] -= 1
            elif tag == "t":
                state["t"] = False

        def text(data: str) -> None:
            if state["t"]:
                state["si"].append(data)

        parse_xml(self.package.read_part(name), self.package.path, name, start, end, text)
        return out

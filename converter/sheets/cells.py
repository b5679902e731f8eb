"""Cell values by defined name, read as the sheet's own formulas read them.

One rule for typed values (docs/templates.md, 入力の読み方): a number cell counts only a number,
a ○ cell only ○ (× and blank are "no"), a list cell only a label of its list (case aside, as
``MATCH``). What the formulas would not count -- ``５`` or ``'12`` stored as text, ``1,000``, a
lone space, ``〇`` or ``はい`` for ○, ``Ｍ`` for M -- is a finding with its cell (``シート名!C12``),
the same the template shows in red, and the raw text stays in the document so nothing typed is
lost. Accepting them instead cannot be made to agree: LibreOffice refuses ``"５"+1`` where
Gnumeric computes 6, and ``VALUE("1,000")`` depends on the locale.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from ..core.findings import Finding

_TRUE, _FALSE = "○", "×"  # what the formulas compare with (system_sheet.TRUE, FALSE)
# What an Excel function's argument may say for ○ and × (a reader without a workbook).
_LOOSE_TRUE = {"○", "〇", "◯", "はい", "true", "yes", "y", "1", "✓", "✔", "有", "あり", "o", True}
_LOOSE_FALSE = {"×", "✕", "x", "いいえ", "false", "no", "n", "0", "-", "－", "無", "なし", False}


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


# Kinds whose cells hold free text: only there is a cell of spaces blank (a number, ○ or list
# cell holding a space is not blank to the formulas, so it is a finding).
_TEXT_KINDS = ("text", "suggest", "stat_list", "enum_list")

LONG_AREA = 1_000  # rows: a longer area is read only as far as its sheet has cells


class NamedCells:
    """A workbook's defined names mapped to cells, and the cells' (cached) values.

    The package is opened safely first (``converter.io.xlsx_package``: zip limits, no DTDs, names
    read straight from ``xl/workbook.xml``, each reference parsed once); values come from
    python-calamine, which reads cached formula results fast, one sheet at a time and only the
    sheets a name points into, each after its cells' reach was checked (STYLE: fast by design).

    With ``scan_first`` (the default) each sheet's reach is scanned before calamine sees it;
    without, calamine reads it first and its reach is checked from calamine's own figures: only
    in a disposable worker process, since a sheet reaching far enough makes calamine abort."""

    def __init__(self, path: Path, package: Any, book: Any, *, scan_first: bool = True) -> None:
        self.path = path
        self.package = package
        self.names = package.names  # name → Area
        self.broken = package.broken_names  # name → its text (#REF!, a formula)
        self.scan_first = scan_first
        self._book = book
        self._grids: dict[str, list[list[Any]]] = {}

    @classmethod
    def open(cls, path: Path, *, scan_first: bool = True) -> "NamedCells":
        from ..io.xlsx_package import PackageError, native_workbook, open_package

        package = open_package(path)
        try:
            book = native_workbook(path)  # a name not in UTF-8 too (issue 33)
        except Exception as exc:  # python-calamine raises its own error types for broken files
            package.close()
            raise PackageError(f"{path}: the workbook is damaged ({type(exc).__name__}: {exc})",
                               "INPUT_DAMAGED", type(exc).__name__) from exc
        return cls(path, package, book, scan_first=scan_first)

    def close(self) -> None:
        self.package.close()
        self._book.close()

    def has_sheet(self, sheet: str) -> bool:
        return sheet in self.package.sheets

    def grid(self, sheet: str) -> list[list[Any]]:
        """The values of ``sheet`` (read once, when first needed; its reach checked first)."""
        if sheet not in self._grids:
            if sheet not in self.package.sheets:
                self._grids[sheet] = []
            else:
                from ..io.xlsx_package import PackageError

                if self.scan_first:
                    self.package.extent(sheet)  # PackageError before calamine would allocate too much
                else:  # calamine first, its figures checked below
                    self.package.check_prolog(sheet)
                try:
                    native = self._book.get_sheet_by_name(sheet)
                except Exception as exc:
                    raise PackageError(f"{self.path}: sheet {sheet!r} is damaged ({type(exc).__name__}: "
                                       f"{exc})", "INPUT_DAMAGED", sheet) from exc
                end = native.end
                if end is not None:
                    self.package.check_reach(sheet, end[0] + 1, end[1] + 1)
                self._grids[sheet] = native.to_python(skip_empty_area=False)
        return self._grids[sheet]

    def destination(self, name: str) -> Any:
        """The Area a name points at, or None."""
        return self.names.get(name)

    def raw(self, name: str, index: int | None = None) -> Any:
        area = self.names.get(name)
        if area is None:
            return None
        return self.raw_at(area, index)

    def raw_at(self, area: Any, index: int | None = None) -> Any:
        """The value of the ``index``-th cell of ``area`` (None when blank or past its end)."""
        if index is None:
            index = 0
        elif index >= area.bottom - area.top + 1:
            return None
        grid = self._grids.get(area.sheet)
        if grid is None:
            grid = self.grid(area.sheet)
        row = area.top + index
        if row >= len(grid):
            return None
        cells = grid[row]
        if area.left >= len(cells):
            return None
        value = cells[area.left]
        return None if value == "" else value

    def length(self, name: str) -> int:
        """Rows of the name's area that can hold a value: a name stretched to the sheet's last row
        (B:B, B5:B1048576) ends where the sheet's cells end."""
        area = self.names.get(name)
        if area is None:
            return 0
        if area.rows <= LONG_AREA:
            return area.rows
        return max(0, min(area.rows, len(self.grid(area.sheet)) - area.top))

    def cell_ref(self, name: str, index: int | None = None) -> str:
        area = self.names.get(name)
        return "" if area is None else area.a1(index or 0)


class CellReader:
    """Converts named cells to document values, collecting findings and pointer → cell."""

    def __init__(self, named: NamedCells, lists: dict[str, list[tuple[Any, str]]],
                 absent: frozenset[str] = frozenset()) -> None:
        self.named = named
        self.lists = lists
        self.absent = absent  # names a sheet of its template version does not have
        self.findings: list[Finding] = []
        self.cells: dict[str, str] = {}
        self._reported: set[str] = set()  # damaged names and deleted sheets already named
        self._usable: set[str] = set()
        self._columns: dict[str, list[tuple[list[list[Any]], int, int]]] = {}
        self._choice_tables: dict[str, dict[Any, Any]] = {}  # list id → choices by key
        # cells read straight from their area (not through a reader of its own: the Excel functions')
        self._direct = isinstance(named, NamedCells) and type(named).raw is NamedCells.raw
        # No workbook: an Excel function's own argument (=UP_STAT_COST(" M ","HP","２４０")), not
        # a sheet cell the formulas read, so taken as meant: full width, ids, はい.
        self.lenient = named is None
        self._loose: dict[str, dict[str, Any]] = {}

    def raw(self, name: str, index: int | None = None) -> Any:
        return self.named.raw(name, index)

    def blank_row(self, table, index: int) -> bool:
        """Whether every input cell of the table's ``index``-th row is blank (or only spaces):
        one look at each cell, without reading the row (most rows of a table are empty)."""
        for grid, top, left in self._input_cells(table):
            r = top + index
            if r < len(grid) and left < len(grid[r]):
                v = grid[r][left]
                if v is not None and v != "" and not (isinstance(v, str) and not v.strip()):
                    return False
        return True

    def filled_rows(self, table, count: int) -> list[int]:
        """The indices below ``count`` of the table's rows with an input cell not blank (nor only
        spaces), in order: each column looked at once, not row by row (most rows are empty)."""
        filled: set[int] = set()
        for grid, top, left in self._input_cells(table):
            for r in range(top, min(top + count, len(grid))):
                cells = grid[r]
                if left < len(cells):
                    v = cells[left]
                    if v is not None and v != "" and not (isinstance(v, str) and not v.strip()):
                        filled.add(r - top)
        return sorted(filled)

    def _input_cells(self, table) -> list[tuple[list[list[Any]], int, int]]:
        """(grid, top row, column) of each input column of ``table``, wherever its name now is."""
        cached = self._columns.get(table.id)
        if cached is None:
            cached = []
            for col in table.columns:
                area = None if col.computed else self.named.names.get(table.column_name(col.key))
                if area is not None and self.named.has_sheet(area.sheet):
                    cached.append((self.named.grid(area.sheet), area.top, area.left))
            self._columns[table.id] = cached
        return cached

    def rows(self, table) -> int:
        name = table.column_name(table.columns[0].key)
        return self.named.length(name) if self.usable(name, table.pointer) else 0

    def usable(self, name: str, pointer: str) -> bool:
        """Whether the template's name ``name`` still points at a cell of a sheet that exists. A
        name the workbook lost (SHEET_NAME_MISSING), one pointing nowhere (``#REF!``:
        SHEET_NAME_BROKEN) or into a deleted sheet (SHEET_MISSING) is an error at the field it
        held, once: the sheet is not valid, never read as empty."""
        if name in self._usable:
            return True
        area = self.named.names.get(name)
        if area is not None and self.named.has_sheet(area.sheet):
            self._usable.add(name)
            return True
        if area is None and name in self.absent and name not in self.named.broken:
            return False  # added by a later template version: this older sheet has no such cell
        key = f"sheet:{area.sheet}" if area is not None else name
        if key not in self._reported:
            self._reported.add(key)
            if area is not None:
                self.findings.append(Finding("SHEET_MISSING", pointer, {"sheet": area.sheet, "name": name}))
            elif name in self.named.broken:
                self.findings.append(Finding("SHEET_NAME_BROKEN", pointer,
                                             {"name": name, "text": self.named.broken[name]}))
            else:
                self.findings.append(Finding("SHEET_NAME_MISSING", pointer, {"name": name}))
        return False

    def cell_of(self, name: str, index: int | None = None) -> str:
        return self.named.cell_ref(name, index)

    def value(self, name: str, kind: str, pointer: str, *, index: int | None = None,
              list_id: str | None = None) -> Any:
        if name not in self._usable and not self.usable(name, pointer):
            return None
        area = self.named.names.get(name) if self._direct else None
        if area is None:  # a reader of its own (the Excel functions' grids), or no such name
            raw, cell = self.raw(name, index), self.cell_of(name, index)
        else:
            raw, cell = self.named.raw_at(area, index), area.a1(index or 0)
        if cell and pointer not in self.cells:
            self.cells[pointer] = cell
        if raw is None or (isinstance(raw, str) and not raw.strip() and kind in _TEXT_KINDS):
            return None
        if kind in ("text", "suggest"):
            if isinstance(raw, float) and raw.is_integer():
                return str(int(raw))
            return str(raw) if not isinstance(raw, str) else raw
        if kind == "int":
            return self.to_int(raw, pointer, cell)
        if kind == "number":
            return self.to_number(raw, pointer, cell)
        if kind == "bool":
            return self.to_bool(raw, pointer, cell)
        if kind in ("enum", "enum_int"):
            return self.to_enum(raw, list_id or "", pointer, cell)
        if kind in ("stat_list", "enum_list"):
            parts = [p for p in re.split(r"[・,、/／\s]+", nfkc(str(raw))) if p]
            return [self.to_enum(p.strip("【】[]"), list_id or "pilot_stats", pointer, cell) for p in parts]
        return raw

    def to_int(self, raw: Any, pointer: str, cell: str) -> Any:
        """A whole number; anything else is kept as typed, with its finding."""
        if raw is None or raw == "":
            return None
        if isinstance(raw, bool):
            self.findings.append(Finding("SHEET_NOT_INTEGER", pointer, {"value": raw}, cell))
            return raw
        if isinstance(raw, int):
            return raw
        if isinstance(raw, float):
            if raw.is_integer():
                return int(raw)
            self.findings.append(Finding("SHEET_NOT_INTEGER", pointer, {"value": raw}, cell))
            return raw
        if self.lenient:
            number = text_number(re.sub(r"(UP|ＵＰ|点|%)$", "", nfkc(str(raw)), flags=re.I))
            if isinstance(number, int):
                return number
            self.findings.append(Finding("SHEET_NOT_INTEGER", pointer, {"value": raw}, cell))
            return str(raw)
        self._text_in_number_cell(raw, pointer, cell, whole=True)
        return str(raw)

    def to_number(self, raw: Any, pointer: str = "", cell: str = "") -> Any:
        """A number (whole numbers as int); anything else is kept as typed, with its finding."""
        if isinstance(raw, bool):
            self.findings.append(Finding("SHEET_NOT_INTEGER", pointer, {"value": raw}, cell))
            return raw
        if isinstance(raw, (int, float)):
            return int(raw) if float(raw).is_integer() else raw
        self._text_in_number_cell(raw, pointer, cell, whole=False)
        return raw

    def _text_in_number_cell(self, raw: Any, pointer: str, cell: str, *, whole: bool) -> None:
        """The finding for text where a number goes: ``SHEET_NUMBER_AS_TEXT`` when the text
        reads as a number (``５``, ``'12``, ``1,000``, `` 3``: the formulas still do not count
        it), else ``SHEET_NOT_INTEGER`` (a word, a space)."""
        number = text_number(str(raw))
        if number is not None and (not whole or float(number).is_integer()):
            self.findings.append(Finding("SHEET_NUMBER_AS_TEXT", pointer,
                                         {"value": raw, "number": number}, cell))
        else:
            self.findings.append(Finding("SHEET_NOT_INTEGER", pointer, {"value": raw}, cell))

    def to_bool(self, raw: Any, pointer: str, cell: str) -> Any:
        """○ is True and × False, as the formulas compare them; anything else (〇, はい, TRUE) is
        kept as typed, with its finding."""
        if raw == _TRUE:
            return True
        if raw == _FALSE:
            return False
        if self.lenient:
            text = raw if isinstance(raw, bool) else nfkc(str(raw)).lower()
            if text in _LOOSE_TRUE:
                return True
            if text in _LOOSE_FALSE:
                return False
        self.findings.append(Finding("SHEET_NOT_BOOL", pointer, {"value": raw}, cell))
        return raw if isinstance(raw, bool) else str(raw)

    def to_enum(self, raw: Any, list_id: str, pointer: str, cell: str) -> Any:
        """The list's value for a label (or value) typed as the list has it, case aside: what
        ``MATCH(cell, list, 0)`` finds. A number list's entry typed as text (``"１０"``) is
        ``SHEET_NUMBER_AS_TEXT``; any other value not in the list ``SHEET_ENUM_UNKNOWN``."""
        if isinstance(raw, float) and raw.is_integer():
            raw = int(raw)
        key = raw.lower() if isinstance(raw, str) else raw
        value = self._choices(list_id).get(key, _UNLISTED)
        if value is _UNLISTED and self.lenient:
            value = self._loose_choices(list_id).get(nfkc(str(raw)).lower(), _UNLISTED)
        if value is not _UNLISTED:
            return value
        items = self.lists.get(list_id, [])
        number = text_number(raw) if isinstance(raw, str) else None
        if number is not None and any(label == number or label == str(number) for _, label in items):
            self.findings.append(Finding("SHEET_NUMBER_AS_TEXT", pointer, {"value": raw, "number": number}, cell))
            return raw
        self.findings.append(Finding("SHEET_ENUM_UNKNOWN", pointer,
                                     {"value": raw, "choices": [label for _, label in items]}, cell))
        return raw

    def _choices(self, list_id: str) -> dict[Any, Any]:
        """A list's choices by how a cell compares with them in ``MATCH`` (text case aside, a
        number list's labels as numbers), the first item winning where two compare alike;
        built once per list a reader meets."""
        table = self._choice_tables.get(list_id)
        if table is None:
            table = self._choice_tables[list_id] = {}
            for value, label in reversed(self.lists.get(list_id, [])):
                shown = int(label) if isinstance(label, str) and re.fullmatch(r"-?\d+", label) else label
                table[shown.lower() if isinstance(shown, str) else shown] = value
        return table

    def _loose_choices(self, list_id: str) -> dict[str, Any]:
        """A list's choices by label or value once widths and case are set aside (NFKC, lower
        case): how an Excel function takes its argument."""
        table = self._loose.get(list_id)
        if table is None:
            table = self._loose[list_id] = {}
            for value, label in reversed(self.lists.get(list_id, [])):
                table[nfkc(str(value)).lower()] = value
                table[nfkc(str(label)).lower()] = value
        return table


def text_number(text: str) -> int | float | None:
    """The number a text reads as once widths, a leading ``'``, thousands commas and spaces are
    set aside (``１２``, ``'12``, ``1,000``, `` 3 ``), or None: what a player meant, named in
    the finding that the cell holds text."""
    folded = nfkc(text).lstrip("'").replace(",", "").replace("−", "-").replace(" ", "")
    if not re.fullmatch(r"[-+]?(\d+(\.\d*)?|\.\d+)", folded):
        return None
    f = float(folded)
    return int(f) if f.is_integer() else f


_UNLISTED = object()

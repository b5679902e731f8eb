"""Cell values by defined name, converted leniently into document values.

A player types ``１２`` or ``'12`` or picks ``○``; the reader takes each as the document value it
means, and reports what it cannot take as a finding with the cell (``シート名!C12``), keeping the
raw text in the document so nothing typed is lost.
"""
from __future__ import annotations

import re
import unicodedata
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.findings import Finding
from .layout import col_index

_TRUE = {"○", "〇", "◯", "はい", "true", "yes", "y", "1", "✓", "✔", "有", "あり", "o"}
_FALSE = {"×", "✕", "x", "いいえ", "false", "no", "n", "0", "-", "－", "無", "なし"}


def nfkc(text: str) -> str:
    return unicodedata.normalize("NFKC", text).strip()


class NamedCells:
    """A workbook's defined names mapped to cells, and the cells' (cached) values.

    Names come from openpyxl (read-only: it parses the workbook part, not every sheet); values
    from python-calamine, which reads cached formula results fast (STYLE: fast by design)."""

    def __init__(self, path: Path, names: dict[str, list[tuple[str, str]]],
                 grids: dict[str, list[list[Any]]]) -> None:
        self.path = path
        self.names = names
        self.grids = grids

    @classmethod
    def open(cls, path: Path) -> "NamedCells":
        import openpyxl  # heavy: only when reading a workbook
        import python_calamine
        from zipfile import BadZipFile

        if not path.exists():
            raise InputError(f"{path}: no such file")
        try:
            wb = openpyxl.load_workbook(path, read_only=True)
            names: dict[str, list[tuple[str, str]]] = {}
            for name, dn in wb.defined_names.items():
                try:
                    names[name] = list(dn.destinations)
                except (AttributeError, ValueError):
                    continue
            wb.close()
            book = python_calamine.CalamineWorkbook.from_path(str(path))
            grids = {sheet: book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
                     for sheet in book.sheet_names}
        except (BadZipFile, KeyError, OSError, ValueError) as exc:
            raise InputError(f"{path}: not an .xlsx workbook ({exc})") from exc
        except Exception as exc:  # python-calamine raises its own error types for broken files
            raise InputError(f"{path}: cannot read the workbook ({type(exc).__name__}: {exc})") from exc
        return cls(path, names, grids)

    def destination(self, name: str) -> tuple[str, str] | None:
        dest = self.names.get(name)
        return dest[0] if dest else None

    def _value(self, sheet: str, row: int, col: int) -> Any:
        grid = self.grids.get(sheet)
        if grid is None or row >= len(grid) or col >= len(grid[row]):
            return None
        value = grid[row][col]
        return None if value == "" else value

    def raw(self, name: str, index: int | None = None) -> Any:
        dest = self.destination(name)
        if dest is None:
            return None
        sheet, ref = dest
        first = ref.replace("$", "").split(":")[0]
        col = col_index(re.sub(r"\d", "", first))
        row = int(re.sub(r"\D", "", first)) - 1 + (index or 0)
        if index is not None and index >= self.length(name):
            return None
        return self._value(sheet, row, col)

    def length(self, name: str) -> int:
        dest = self.destination(name)
        if dest is None:
            return 0
        ref = dest[1].replace("$", "")
        if ":" not in ref:
            return 1
        a, b = ref.split(":")
        return int(re.sub(r"\D", "", b)) - int(re.sub(r"\D", "", a)) + 1

    def cell_ref(self, name: str, index: int | None = None) -> str:
        dest = self.destination(name)
        if dest is None:
            return ""
        sheet, ref = dest
        ref = ref.replace("$", "").split(":")[0]
        if index:
            col = re.sub(r"\d", "", ref)
            row = int(re.sub(r"\D", "", ref)) + index
            ref = f"{col}{row}"
        return f"{sheet}!{ref}"


class CellReader:
    """Converts named cells to document values, collecting findings and pointer → cell."""

    def __init__(self, named: NamedCells, lists: dict[str, list[tuple[Any, str]]]) -> None:
        self.named = named
        self.lists = lists
        self.findings: list[Finding] = []
        self.cells: dict[str, str] = {}

    def raw(self, name: str, index: int | None = None) -> Any:
        return self.named.raw(name, index)

    def rows(self, table) -> int:
        return self.named.length(table.column_name(table.columns[0].key))

    def cell_of(self, name: str, index: int | None = None) -> str:
        return self.named.cell_ref(name, index)

    def value(self, name: str, kind: str, pointer: str, *, index: int | None = None,
              list_id: str | None = None) -> Any:
        raw = self.raw(name, index)
        cell = self.cell_of(name, index)
        if cell:
            self.cells.setdefault(pointer, cell)
        if raw is None or (isinstance(raw, str) and not raw.strip()):
            return None
        if kind in ("text", "suggest"):
            if isinstance(raw, float) and raw.is_integer():
                return str(int(raw))
            return str(raw) if not isinstance(raw, str) else raw
        if kind == "int":
            return self.to_int(raw, pointer, cell)
        if kind == "number":
            return self.to_number(raw)
        if kind == "bool":
            return self.to_bool(raw, pointer, cell)
        if kind in ("enum", "enum_int"):
            return self.to_enum(raw, list_id or "", pointer, cell)
        if kind in ("stat_list", "enum_list"):
            parts = [p for p in re.split(r"[・,、/／\s]+", nfkc(str(raw))) if p]
            return [self.to_enum(p.strip("【】[]"), list_id or "pilot_stats", pointer, cell) for p in parts]
        return raw

    def to_int(self, raw: Any, pointer: str, cell: str) -> Any:
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
        text = nfkc(str(raw)).replace(",", "").lstrip("'").replace("−", "-").replace("＋", "+")
        text = re.sub(r"(UP|ＵＰ|点|%)$", "", text, flags=re.I).strip()
        try:
            return int(text)
        except ValueError:
            try:
                f = float(text)
                if f.is_integer():
                    return int(f)
            except ValueError:
                pass
        self.findings.append(Finding("SHEET_NOT_INTEGER", pointer, {"value": raw}, cell))
        return str(raw)

    def to_number(self, raw: Any) -> Any:
        """A number (whole numbers as int); text that is no number is kept for the check to name."""
        if isinstance(raw, bool):
            return raw
        if isinstance(raw, (int, float)):
            return int(raw) if float(raw).is_integer() else raw
        text = nfkc(str(raw)).replace(",", "").lstrip("'").replace("−", "-")
        try:
            f = float(text)
        except ValueError:
            return raw
        return int(f) if f.is_integer() else f

    def to_bool(self, raw: Any, pointer: str, cell: str) -> Any:
        if isinstance(raw, bool):
            return raw
        text = nfkc(str(raw)).lower()
        if raw in ("○", "〇", "◯") or text in _TRUE:
            return True
        if text in _FALSE or raw in ("×", "✕"):
            return False
        self.findings.append(Finding("SHEET_NOT_BOOL", pointer, {"value": raw}, cell))
        return str(raw)

    def to_enum(self, raw: Any, list_id: str, pointer: str, cell: str) -> Any:
        items = self.lists.get(list_id, [])
        if isinstance(raw, float) and raw.is_integer():
            raw = int(raw)
        key = nfkc(str(raw)).lower()
        for value, label in items:
            if key in (nfkc(label).lower(), nfkc(str(value)).lower()):
                return value
        self.findings.append(Finding("SHEET_ENUM_UNKNOWN", pointer,
                                     {"value": raw, "choices": [label for _, label in items]}, cell))
        return raw

"""A sheet without formulas (pasted values, a hand-made copy of our template) with every
computed cell set to the engine's value, and each cell that changed listed (``mechasheet
recompute``).

The sheet is read as any of ours (by its defined names); the engine's value of every computed
cell is what the writer stores as the formula's cached result, so this module writes no rule:
it builds the filled template of the document read and copies those results into a copy of the
input (openpyxl keeps the rest of the workbook as it was). A cell that still holds a formula
computes itself and is left alone. The input is never touched.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.findings import Finding
from ..io.xlsx_package import Area


@dataclass(frozen=True)
class Change:
    """One computed cell whose value the engine changed."""

    cell: str  # シート名!F3
    name: str  # the template's defined name (up.totals.computed)
    old: Any
    new: Any


@dataclass
class Recomputed:
    """The recomputed copy (bytes), its changed cells, and what reading the sheet found."""

    data: bytes
    changes: list[Change] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)


def recompute(path: str | Path) -> Recomputed:
    """The workbook at ``path`` with every computed cell holding the engine's value."""
    import openpyxl

    from ..io.xlsx_package import open_package
    from . import sheet_bytes
    from .reader import read_workbook

    p = Path(path)
    if p.suffix.lower() not in (".xlsx", ".xlsm"):
        raise InputError(f"{p}: recompute reads .xlsx and .xlsm workbooks of our templates")
    got = read_workbook(p)
    # The written total is one of the cells recomputed, not a figure to keep (the writer keeps a
    # document's differing total as typed).
    doc = {k: v for k, v in got.document.items() if k != "declared_total"}
    built = sheet_bytes(doc, got.options, got.context)
    engine = _computed_values(built)
    package = open_package(p)
    try:
        own_names = dict(package.names)
    finally:
        package.close()
    book = openpyxl.load_workbook(p, keep_vba=p.suffix.lower() == ".xlsm")
    changes: list[Change] = []
    for name, area, new_values in engine:
        # A named cell the user moved is where its name now points; any other where it was.
        where = own_names.get(name, area) if name else area
        if where.sheet not in book.sheetnames:
            continue
        ws = book[where.sheet]
        for i, new in enumerate(new_values[:where.rows]):
            cell = ws.cell(row=where.top + i + 1, column=where.left + 1)
            old = cell.value
            if isinstance(old, str) and old.startswith("="):
                continue  # a formula computes itself
            if _same(old, new):
                continue
            cell.value = new
            changes.append(Change(f"{where.sheet}!{cell.coordinate}", name, old, new))
    out = io.BytesIO()
    book.save(out)
    return Recomputed(out.getvalue(), changes, list(got.findings))


def _computed_values(built: bytes) -> list[tuple[str, Area, list[Any]]]:
    """Every formula cell of the built sheet with its cached result (the engine's value; None
    for an empty result): by defined name where one covers it, else by its place."""
    import openpyxl
    import python_calamine

    from .reader import opened

    book = openpyxl.load_workbook(io.BytesIO(built))
    values = python_calamine.CalamineWorkbook.from_filelike(io.BytesIO(built))
    grids = {ws.title: values.get_sheet_by_name(ws.title).to_python(skip_empty_area=False)
             for ws in book.worksheets}

    def value(sheet: str, r: int, c: int) -> Any:
        grid = grids[sheet]
        v = grid[r][c] if r < len(grid) and c < len(grid[r]) else None
        return None if v == "" else _whole(v)

    formulas = {(ws.title, c.row - 1, c.column - 1) for ws in book.worksheets
                for row in ws.iter_rows() for c in row if c.data_type == "f"}
    out: list[tuple[str, Area, list[Any]]] = []
    with opened(built) as named:
        for name, area in named.names.items():
            if (area.sheet, area.top, area.left) not in formulas:
                continue
            rows = range(area.top, area.bottom + 1)
            formulas -= {(area.sheet, r, area.left) for r in rows}
            out.append((name, area, [value(area.sheet, r, area.left) for r in rows]))
    for sheet, r, c in sorted(formulas):
        out.append(("", Area(sheet, r, c, r, c), [value(sheet, r, c)]))
    return out


def _whole(value: Any) -> Any:
    return int(value) if isinstance(value, float) and value.is_integer() else value


def _same(old: Any, new: Any) -> bool:
    """Whether a cell already shows ``new`` (3 and 3.0 alike; empty and None alike)."""
    if old in (None, "") and new in (None, ""):
        return True
    if isinstance(old, (int, float)) and isinstance(new, (int, float)) and not isinstance(old, bool):
        return float(old) == float(new)
    return old == new


def recompute_file(path: str | Path, output: str | Path, force: bool = False) -> tuple[Recomputed, Path]:
    """`mechasheet recompute`: the recomputed copy of ``path`` written at ``output`` (never over
    the input); what was done and where it went."""
    from ..io.files import refuse_inputs, write_atomic

    refuse_inputs(output, [path])
    done = recompute(path)
    return done, write_atomic(output, done.data, force, inputs=[path])


def changes_text(done: Recomputed, written: Path, lang: str, form: str = "text") -> str:
    """What ``mechasheet recompute`` prints: each changed cell (old → new), then where the copy
    went; or both as JSON (``form`` "json")."""
    import json

    from ..core.texts import texts

    if form == "json":
        changes = [{"cell": c.cell, "name": c.name, "old": c.old, "new": c.new} for c in done.changes]
        return json.dumps({"output": str(written), "changes": changes}, ensure_ascii=False, indent=2,
                          default=str) + "\n"
    t = texts(lang)

    def shown(value: Any) -> str:
        return t["recompute_empty"] if value in (None, "") else str(value)

    lines = [t["recompute_change"].format(cell=c.cell, name=c.name, old=shown(c.old), new=shown(c.new))
             for c in done.changes]
    return "".join(line + "\n" for line in lines) + t["recompute_written"].format(path=written, n=len(done.changes)) + "\n"

"""The formulas each template version writes, kept as data: where they are and what they say.

A workbook names its template (``up/2``); the audit compares its computed cells with that
version's formulas. The installed package ships no templates, so each version's formulas are a
compact map in ``formulas_<system>_<version>.toml`` beside this module: one entry per computed
cell, or per run of rows whose formulas repeat one row's pattern (a table's computed column),
with the defined name that finds it in a workbook whose rows moved, or the nearest name above it
(its anchor). The current versions' maps are generated from the writer
(``python -m converter.audit.template_formulas``; a test holds them to it); older versions' maps
were generated once from that version's template in the repository's history, named in each
file's ``source``.
"""
from __future__ import annotations

import json
import tempfile
import tomllib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from ..io.xlsx_package import column_index, column_letters, open_package
from ..io.formula_text import normal, row_pattern
from .sheet_formulas import SheetFormulas, moved, moved_normal

SYSTEMS = ("up", "pp", "mailgear")


@dataclass(frozen=True)
class Entry:
    """A computed cell of the template, or ``rows`` cells down a column repeating ``pattern``."""

    sheet: str
    row: int  # zero-based, of the first cell
    col: int
    rows: int
    pattern: str  # the first cell's formula; translated by i rows it is the i-th cell's
    name: str = ""  # the defined name of the cell or the column's range, if any
    anchor: str = ""  # else the nearest defined name above it, which moves with it
    index: int = 0  # the first cell's row within the named range (a column kept cell by cell)

    def formula(self, index: int = 0, rows: int = 0, columns: int = 0) -> str:
        """The ``index``-th cell's formula, moved ``rows`` down and ``columns`` right."""
        return moved(self.pattern, index + rows, columns)

    def expected(self, index: int = 0, rows: int = 0, columns: int = 0) -> str:
        """:meth:`formula` in normal form (cached: every workbook of a folder asks the same)."""
        return moved_normal(self.pattern, index + rows, columns)

    def written(self, index: int = 0, rows: int = 0, columns: int = 0) -> bytes:
        """:meth:`formula` as our writer puts it in the sheet's XML: a cell holding exactly
        these bytes needs no decoding to be found unchanged."""
        return _written(self.pattern, index + rows, columns)


@lru_cache(maxsize=16384)
def _written(pattern: str, rows: int, columns: int) -> bytes:
    from xml.sax.saxutils import escape

    return escape(moved(pattern, rows, columns)).encode("utf-8")


@dataclass(frozen=True)
class FormulaMap:
    """One template version's computed cells."""

    template: str
    source: str
    entries: tuple[Entry, ...]
    anchors: dict[str, tuple[str, int, int]]  # anchor name → (sheet, row, column) in the template

    @property
    def cells(self) -> int:
        return sum(e.rows for e in self.entries)


def map_file(template: str) -> str:
    """``up/2`` → ``formulas_up_2.toml``."""
    system, _, version = template.partition("/")
    return f"formulas_{system}_{version}.toml"


@lru_cache(maxsize=None)
def formula_map(template: str) -> FormulaMap | None:
    """The committed map of ``template`` (``up/1``), or None for a version no map covers."""
    system, _, version = template.partition("/")
    if system not in SYSTEMS or not version.isdigit():
        return None
    res = resources.files(__package__).joinpath(map_file(template))
    if not res.is_file():
        return None
    return parse_map(res.read_text("utf-8"))


def parse_map(text: str) -> FormulaMap:
    raw = tomllib.loads(text)
    entries = tuple(Entry(sheet, *_cell(cell), rows, pattern, name, anchor, *index)
                    for sheet, cell, rows, pattern, name, anchor, *index in raw["cells"])
    anchors = {name: (sheet, *_cell(cell)) for name, (sheet, cell) in raw.get("anchors", {}).items()}
    return FormulaMap(raw["template"], raw["source"], entries, anchors)


def _cell(ref: str) -> tuple[int, int]:
    letters = ref.rstrip("0123456789")
    return int(ref[len(letters):]) - 1, column_index(letters)


def build_map(data: bytes, source: str) -> FormulaMap:
    """The map of a template given as .xlsx bytes: its formula cells, rows that repeat a pattern
    folded into one entry (a defined column range first, so the table's name finds it)."""
    with tempfile.TemporaryDirectory(prefix="mechasheet-") as tmp:
        path = Path(tmp) / "template.xlsx"
        path.write_bytes(data)
        package = open_package(path)
        try:
            template = package.properties.get("mechasheet.template", "")
            formulas = {(sheet, r, c): cell.formula for sheet in package.sheets
                        for (r, c), cell in SheetFormulas(package, sheet).cells.items()}
            names = dict(package.names)
        finally:
            package.close()
    entries: list[Entry] = []
    done: set[tuple[str, int, int]] = set()
    singles = {(a.sheet, a.top, a.left): n for n, a in sorted(names.items()) if a.rows == 1 and a.left == a.right}
    for name, area in sorted(names.items()):  # computed columns of tables
        if area.rows < 2 or area.left != area.right:
            continue
        cells = [(area.sheet, area.top + i, area.left) for i in range(area.rows)]
        if all(c in formulas for c in cells) and not done.intersection(cells):
            run = _run([formulas[c] for c in cells])
            if run is not None and run[1] == len(cells):
                entries.append(Entry(area.sheet, area.top, area.left, area.rows, run[0], name))
            else:  # rows that differ otherwise (a row's own number written in): cell by cell
                entries.extend(Entry(*c, 1, formulas[c], name, "", i) for i, c in enumerate(cells))
            done.update(cells)
    for key in sorted(formulas, key=lambda k: (k[0], k[2], k[1])):  # the rest, down each column
        if key in done:
            continue
        if key in singles:
            entries.append(Entry(*key, 1, formulas[key], singles[key]))
            done.add(key)
            continue
        sheet, r, c = key
        column: list[str] = []
        while (sheet, r + len(column), c) in formulas and (sheet, r + len(column), c) not in done \
                and (sheet, r + len(column), c) not in singles:
            column.append(formulas[(sheet, r + len(column), c)])
        pattern, rows = _run(column) or (column[0], 1)
        entries.append(Entry(sheet, r, c, rows, pattern, "", _anchor(names, sheet, r, c)))
        done.update((sheet, r + i, c) for i in range(rows))
    entries.sort(key=lambda e: (e.sheet, e.row, e.col))
    used = {e.anchor for e in entries if e.anchor}
    anchors = {n: (names[n].sheet, names[n].top, names[n].left) for n in sorted(used)}
    return FormulaMap(template, source, tuple(entries), anchors)


def _run(formulas: list[str]) -> tuple[str, int] | None:
    """(pattern, how many of ``formulas`` from the first it gives), or None for none past one."""
    if len(formulas) < 2:
        return None
    pattern = row_pattern(formulas[0], formulas[1])
    if pattern is None:
        return None
    rows = 2
    while rows < len(formulas) and moved_normal(pattern, rows, 0) == normal(formulas[rows]):
        rows += 1
    return pattern, rows


def _anchor(names: dict[str, Any], sheet: str, row: int, col: int) -> str:
    """The defined name on ``sheet`` nearest above (or at) the cell: it moves with the cell when
    rows are inserted above both."""
    best: tuple[int, int, str] | None = None
    for name, area in names.items():
        if area.sheet != sheet or area.top > row or area.rows > 1000:
            continue
        key = (row - area.top, abs(col - area.left), name)
        if best is None or key < best:
            best = key
    return "" if best is None else best[2]


def dump_map(fmap: FormulaMap) -> str:
    """The map as the TOML text committed beside this module."""
    lines = [
        f"# The computed cells of template {fmap.template}: converter/audit/template_formulas.py",
        "# reads this file; docs/audit.md says how it is made. Each cell entry: sheet, first cell,",
        "# rows, the first cell's formula (translated i rows down: the i-th row's), its defined",
        "# name, else the nearest defined name above it (its anchor); a cell of a named column kept",
        "# cell by cell adds its row within the name's range.",
        f"template = {_q(fmap.template)}",
        f"source = {_q(fmap.source)}",
        "cells = [",
    ]
    for e in fmap.entries:
        index = f", {e.index}" if e.index else ""
        lines.append(f"  [{_q(e.sheet)}, {_q(column_letters(e.col) + str(e.row + 1))}, {e.rows}, "
                     f"{_q(e.pattern)}, {_q(e.name)}, {_q(e.anchor)}{index}],")
    lines.append("]")
    lines.append("")
    lines.append("[anchors]")
    for name, (sheet, r, c) in fmap.anchors.items():
        lines.append(f"{_q(name)} = [{_q(sheet)}, {_q(column_letters(c) + str(r + 1))}]")
    return "\n".join(lines) + "\n"


def _q(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's)."""
    return json.dumps(text, ensure_ascii=False)


def current_map(system: str) -> FormulaMap:
    """The current version's map, built from the writer's template (what the committed file must
    equal)."""
    from ..sheets import template_bytes
    from ..sheets.layout import load_layout

    template = load_layout(system).template
    return build_map(template_bytes(system), f"converter.sheets.template_bytes({system!r}): template {template}")


def main(argv: list[str] | None = None) -> None:
    """Write the current versions' maps beside this module (after a template changes); with a
    template file and a line naming where it came from, that file's map (an older version's,
    once: ``git show <commit>:templates/up.xlsx > up-1.xlsx``)."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    here = Path(__file__).resolve().parent
    maps = ([build_map(Path(args[0]).read_bytes(), args[1])] if args
            else [current_map(system) for system in SYSTEMS])
    for fmap in maps:
        (here / map_file(fmap.template)).write_text(dump_map(fmap), encoding="utf-8")
        print(f"{map_file(fmap.template)}: {len(fmap.entries)} entries, {fmap.cells} cells")


if __name__ == "__main__":
    main()

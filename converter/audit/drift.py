"""Formula drift: computed cells of our template whose formula a player replaced or edited.

A workbook names its template version (``up/2``); that version's formulas
(:mod:`~converter.audit.template_formulas`) say what every computed cell should hold. Each is
found by its defined name (or the nearest name above it), so rows inserted above or inside a
table move it without noise; a cell holding a typed value or nothing is
``AUDIT_FORMULA_REPLACED``, a different formula ``AUDIT_FORMULA_ALTERED``. Formulas compare in
normal form (:func:`~converter.io.formula_text.normal`), so a sheet saved again by Excel or
LibreOffice has no drift. Only when something drifted is the workbook read as a document and
written again, for the value the template's formula gives there (the engine's, as the writer
caches it) and the field's pointer. An unchanged sheet costs one forward byte search of its
computed cells (:func:`_unchanged_sheets`); only another sheet's formulas are parsed.
"""
from __future__ import annotations

import copy
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from ..core.findings import Finding
from ..io.xlsx_package import Area, Package, column_letters, open_package
from ..io.formula_text import masked, normal
from .sheet_formulas import SharedStrings, SheetFormulas, decoded_formula, moved_normal
from .template_formulas import Entry, FormulaMap, formula_map

TEMPLATE_NAME = "mechasheet.template"


@dataclass(frozen=True)
class _Drift:
    """One drifted cell, before its values and pointer are known."""

    replaced: bool  # a typed value or nothing where the formula was; else another formula
    entry: Entry
    index: int  # row of the entry's run (0 for a single cell)
    sheet: str
    row: int
    col: int
    formula: str  # the template's formula, moved to where the cell is
    found: Any  # the typed value (None: empty), or the altered formula ("=...")
    value: Any  # what the cell gives: the typed value, or the altered formula's cached result

    @property
    def cell(self) -> str:
        return f"{self.sheet}!{column_letters(self.col)}{self.row + 1}"


def workbook_template(package: Package) -> str:
    """The template a workbook names (``up/2``), as the reader finds it; "" for none."""
    return _named(package, TEMPLATE_NAME)


def _named(package: Package, name: str) -> str:
    """What a workbook says under ``name``: its custom property, else the defined name's cell
    (the hidden data sheet); "" for none."""
    named = package.properties.get(name)
    if named:
        return named
    area = package.names.get(name)
    if area is None or area.sheet not in package.sheets:
        return ""
    typed = SheetFormulas(package, area.sheet).typed(area.top, area.left, SharedStrings(package)).value
    return str(typed).strip() if typed is not None else ""


def formula_drift(path: Path, document: Mapping[str, Any] | None = None, *,
                  options: Mapping[str, str] | None = None,
                  context: Mapping[str, Any] | None = None) -> list[Finding]:
    """The drift findings of a workbook made from one of our templates (none for any other
    workbook), and ``AUDIT_TEMPLATE_OLD`` when its template version is older than today's. A
    flavoured sheet (computed cells calling our Excel functions, ``sheets/xlwings_flavour.py``)
    is not compared with the native formulas: one ``AUDIT_TEMPLATE_FLAVOUR`` says so.

    ``document`` (else the workbook's own), ``options`` and ``context`` (else the workbook's)
    are what the template's values are computed from, only when a cell drifted. A damaged
    package raises the safe opener's InputError, as reading it does."""
    if Path(path).suffix.lower() not in (".xlsx", ".xlsm"):  # .xls, .ods, .xlsb: never our template
        return []
    package = open_package(path)
    try:
        template = workbook_template(package)
        fmap = formula_map(template) if template else None
        if fmap is None:
            return []
        findings = _template_age(template)
        flavour = _flavour(package)
        if flavour:
            return [*findings, Finding("AUDIT_TEMPLATE_FLAVOUR", "", {"template": template, "formulas": flavour})]
        drifts = _drifts(package, fmap)
    finally:
        package.close()
    if drifts:
        findings.extend(_findings(Path(path), fmap, drifts, document, options, context))
    return findings


def _flavour(package: Package) -> str:
    """The flavour a workbook names (``xlwings``); "" for the native formulas."""
    from ..sheets.xlwings_flavour import FLAVOUR_PROPERTY

    return _named(package, FLAVOUR_PROPERTY)


def _template_age(template: str) -> list[Finding]:
    from ..sheets.layout import load_layout

    system, _, version = template.partition("/")
    current = load_layout(system).template
    if int(version) >= load_layout(system).template_version:
        return []
    return [Finding("AUDIT_TEMPLATE_OLD", "", {"template": template, "current": current})]


def _place(entry: Entry, fmap: FormulaMap, package: Package) -> tuple[str, int, int, int] | None:
    """(sheet, row, column, rows) where the entry is in this workbook: by its name, else its
    anchor's move, else where the template put it; None when its sheet is gone."""
    area: Area | None = package.names.get(entry.name) if entry.name else None
    if area is not None and area.left == area.right and entry.index < area.rows:
        return area.sheet, area.top + entry.index, area.left, area.rows if entry.rows > 1 else 1
    sheet, row, col = entry.sheet, entry.row, entry.col
    anchor = package.names.get(entry.anchor) if entry.anchor else None
    if anchor is not None and entry.anchor in fmap.anchors:
        _, arow, acol = fmap.anchors[entry.anchor]
        sheet, row, col = anchor.sheet, row + anchor.top - arow, col + anchor.left - acol
    return (sheet, row, col, entry.rows) if sheet in package.sheets else None


def _drifts(package: Package, fmap: FormulaMap) -> list[_Drift]:
    """Every computed cell whose formula is not the template's (in normal form)."""
    sheets: dict[str, SheetFormulas] = {}
    strings = SharedStrings(package)  # parsed only if a typed text is asked for
    out: list[_Drift] = []
    places = [(entry, _place(entry, fmap, package)) for entry in fmap.entries]
    # Rows inserted anywhere rewrite references across the workbook, in cells that stayed too.
    moved = any(p is not None and (p[1] != e.row or p[2] != e.col or p[3] != e.rows) for e, p in places)
    clean = set() if moved else _unchanged_sheets(package, fmap, places)
    for entry, placed in places:
        if placed is None or placed[0] in clean:
            continue
        sheet, top, col, rows = placed
        formulas = sheets.get(sheet)
        if formulas is None:
            formulas = sheets[sheet] = SheetFormulas(package, sheet)
        down, right = top - entry.row, col - entry.col
        grown = rows > entry.rows  # rows inserted into the table: they come without formulas
        for i in range(rows):
            got = formulas.cells.get((top + i, col))
            if got is not None:
                if got.raw and got.raw == entry.written(i, down, right):
                    continue
                if got.normal() == entry.expected(i, down, right):
                    continue
                if moved and masked(got.formula) == masked(entry.pattern):
                    continue  # references rewritten around inserted rows, nothing else
                out.append(_Drift(False, entry, i, sheet, top + i, col,
                                  "=" + entry.formula(i, down, right), "=" + got.formula, got.value))
                continue
            typed = formulas.typed(top + i, col, strings).value
            if typed is None and grown:
                continue
            out.append(_Drift(True, entry, i, sheet, top + i, col,
                              "=" + entry.formula(i, down, right), typed, typed))
    return out


def _unchanged_sheets(package: Package, fmap: FormulaMap,
                      places: list[tuple[Entry, tuple[str, int, int, int] | None]]) -> set[str]:
    """The sheets whose every computed cell holds the template's formula (the common case), seen
    by a forward byte search of the sheet's XML (:func:`_sheet_holds`) without a parse of its
    formulas; any other sheet is read formula by formula. Only for a workbook whose computed
    cells stand where the template put them, on sheets of the template's names."""
    if any(p is not None and p[0] != e.sheet for e, p in places):  # a sheet renamed
        return set()
    return {sheet for sheet, wanted in _written_cells(fmap.template)
            if sheet in package.sheets and _sheet_holds(package.read_part(package.sheets[sheet]), wanted)}


_Wanted = tuple[int, int, bytes, Entry, int, "tuple[int, int] | None"]


def _sheet_holds(data: bytes, wanted: tuple[_Wanted, ...]) -> bool:
    """Whether each computed cell of the sheet's XML, found by a forward search in sheet order,
    holds its template formula. A shared formula's cell (our writer's and Excel's
    ``<f t="shared" si="0"/>``) holds its run's first formula moved to it: when that first cell
    holds our text exactly, the run's other cells are seen by their element alone."""
    find = data.find
    masters: dict[bytes, tuple[int, int, str]] = {}  # a shared formula's index → its first cell
    runs: dict[tuple[int, int], bytes] = {}  # a run's first cell, holding our text → its cells' element
    pos = 0
    for row, col, tag, entry, i, first in wanted:
        at = find(tag, pos)
        end = find(b">", at) if at >= 0 else -1
        if end < 0:
            return False
        pos = end + 1
        if not _cell_holds(data, pos, row, col, entry, i, first, runs, masters):
            return False
    return True


def _cell_holds(data: bytes, body: int, row: int, col: int, entry: Entry, i: int, first: tuple[int, int] | None,
                runs: dict[tuple[int, int], bytes], masters: dict[bytes, tuple[int, int, str]]) -> bool:
    """Whether the formula element at ``body`` (a computed cell's) is the template's."""
    startswith = data.startswith
    if first is not None:
        run = runs.get(first)
        if run is not None and startswith(run, body):
            return True
    written = entry.written(i)
    if startswith(b"<f>", body) and startswith(written, body + 3) and startswith(b"</f>", body + 3 + len(written)):
        return True
    if startswith(b'<f t="shared" ref="', body):
        head_end = data.find(b">", body)
        index = _SHARED_INDEX.search(data, body, head_end)
        if index and startswith(written, head_end + 1) and startswith(b"</f>", head_end + 1 + len(written)):
            runs[(row, col)] = b'<f t="shared" si="%s"/>' % index.group(1)
            masters[index.group(1)] = (row, col, entry.formula(i))
            return True
    return _formula_at(data, body, row, col, masters) == entry.expected(i)


_SHARED_INDEX = re.compile(rb'\bsi="(\d+)"')


def _formula_at(data: bytes, at: int, row: int, col: int, masters: dict[bytes, tuple[int, int, str]]) -> str | None:
    """The normal form of the formula element starting at ``at`` (the cell at ``row``, ``col``),
    a shared one's moved from its first cell; None when there is none this search can read."""
    if data.startswith(b"<f>", at):
        close = data.find(b"</f>", at)
        return normal(decoded_formula(data[at + 3:close])) if close >= 0 else None
    if not data.startswith(b'<f t="shared"', at):
        return None
    head_end = data.find(b">", at)
    index = _SHARED_INDEX.search(data, at, head_end)
    if head_end < 0 or index is None:
        return None
    if data[head_end - 1:head_end] == b"/":  # a later cell of the run
        master = masters.get(index.group(1))
        return None if master is None else moved_normal(master[2], row - master[0], col - master[1])
    close = data.find(b"</f>", head_end)
    if close < 0:
        return None
    text = decoded_formula(data[head_end + 1:close])
    masters[index.group(1)] = (row, col, text)
    return normal(text)


@lru_cache(maxsize=None)
def _written_cells(template: str) -> tuple[tuple[str, tuple[_Wanted, ...]], ...]:
    """Per sheet of ``template``'s map, in sheet order, each computed cell's row and column, its
    start (``<c r="D9"``), its entry and row in it, and for a later row of an entry that repeats
    a pattern down its column, the entry's first cell: our writer writes those rows as one shared
    formula (each is the first row's formula moved down to it); None for any other cell."""
    fmap = formula_map(template)
    cells: dict[str, list[tuple[int, int, Entry, int, tuple[int, int] | None]]] = {}
    for entry in fmap.entries if fmap is not None else ():
        cells.setdefault(entry.sheet, []).extend(
            (entry.row + i, entry.col, entry, i, (entry.row, entry.col) if i else None) for i in range(entry.rows))
    return tuple((sheet, tuple((row, col, b'<c r="%s%d"' % (column_letters(col).encode(), row + 1), entry, i, first)
                               for row, col, entry, i, first in sorted(found, key=lambda c: (c[0], c[1]))))
                 for sheet, found in cells.items())


def _findings(path: Path, fmap: FormulaMap, drifts: list[_Drift], document: Mapping[str, Any] | None,
              options: Mapping[str, str] | None, context: Mapping[str, Any] | None) -> list[Finding]:
    """The drifted cells as findings, with the template's value at each and the field's pointer."""
    from ..sheets import read_workbook

    read = read_workbook(path)
    doc = dict(document if document is not None else read.document)
    expected = _template_values(fmap, doc, read.options if options is None else options,
                                read.context if context is None else context,
                                [d.entry for d in drifts], [d.index for d in drifts])
    by_cell = {cell: ptr for ptr, cell in read.cells.items()}
    out = []
    for d, value in zip(drifts, expected, strict=True):
        formula, found = shown_formulas(d.formula, d.found)
        params = {"cell": d.cell, "formula": formula, "found": found, "value": _shown_value(d.value),
                  "expected": value}
        pointer = _pointer(d, by_cell, read)
        out.append(Finding("AUDIT_FORMULA_REPLACED", pointer, params, d.cell) if d.replaced
                   else Finding("AUDIT_FORMULA_ALTERED", pointer, params, d.cell))
    return out


#: the longest formula a message shows whole; a longer one is cut to where it differs
SHOWN_FORMULA = 60
_CONTEXT = 12  # characters kept either side of the changed part


def shown_formulas(template: str, found: Any) -> tuple[str, Any]:
    """The template's formula and the cell's content as a message shows them: whole when short;
    else only the part that differs (with a little context, "…" for what is cut), and a
    template formula beside a typed value cut after its start. A GM reads which part changed,
    not 300 characters of INDEX(...)."""
    if not isinstance(found, str) or not found.startswith("="):
        return _cut(template), found
    if len(template) <= SHOWN_FORMULA and len(found) <= SHOWN_FORMULA:
        return template, found
    head = 0
    while head < min(len(template), len(found)) and template[head] == found[head]:
        head += 1
    tail = 0
    while (tail < min(len(template), len(found)) - head
           and template[len(template) - 1 - tail] == found[len(found) - 1 - tail]):
        tail += 1
    start = max(0, head - _CONTEXT)
    return (_cut(_middle(template, start, len(template) - max(0, tail - _CONTEXT))),
            _cut(_middle(found, start, len(found) - max(0, tail - _CONTEXT))))


def _middle(text: str, start: int, end: int) -> str:
    return ("…" if start > 0 else "") + text[start:end] + ("…" if end < len(text) else "")


def _cut(text: str) -> str:
    return text if len(text) <= SHOWN_FORMULA else text[:SHOWN_FORMULA - 1] + "…"


def _shown_value(value: Any) -> Any:
    """A cell's result as a message shows it: "—" where there is none (a formula saved by a
    tool that computes nothing has no result), never an empty 「（結果 ）」."""
    return "—" if value is None or value == "" else value


def _pointer(d: _Drift, by_cell: Mapping[str, str], read: Any) -> str:
    """The document field the cell shows: the reader's pointer at that cell, a table row's field,
    a named cell's name as a pointer (``up.stats.hp.cost`` → ``/stats/hp/cost``); "" else."""
    if d.cell in by_cell:
        return by_cell[d.cell]
    if not d.entry.name:
        return ""
    from ..sheets.layout import load_layout
    from ..sheets.system_sheet import sheet_systems

    system, _, rest = d.entry.name.partition(".")
    if system not in sheet_systems():  # a name of the catalog or rules sheet: no document field
        return ""
    layout = load_layout(system)
    for table in layout.tables:
        prefix = f"{table.id}."
        if rest.startswith(prefix):
            key = rest[len(prefix):]
            first = f"{d.sheet}!{column_letters(table.col(table.columns[0].key))}{d.row + 1}"
            row = by_cell.get(first)
            return f"{row}/{key.replace('.', '/')}" if row else table.pointer
    return "/" + rest.replace(".", "/")


def _template_values(fmap: FormulaMap, doc: dict[str, Any], options: Mapping[str, str], context: Mapping[str, Any],
                     entries: list[Entry], indexes: list[int]) -> list[Any]:
    """What the template's formula gives at each drifted cell for this document: the cached
    result the writer stores there (the engine's value). A document the writer cannot lay out,
    or a row past the template's, gives None."""
    import tempfile

    from ..core.errors import MechasheetError
    from ..sheets import sheet_bytes

    doc = copy.deepcopy(doc)
    doc.pop("declared_total", None)  # the written total would be typed where the formula goes
    try:
        data = sheet_bytes(doc, options, context)
    except (MechasheetError, ValueError, TypeError, KeyError):
        return [None] * len(entries)
    with tempfile.TemporaryDirectory(prefix="mechasheet-") as tmp:
        written = Path(tmp) / "template-values.xlsx"
        written.write_bytes(data)
        package = open_package(written)
        try:
            sheets: dict[str, SheetFormulas] = {}
            out: list[Any] = []
            for entry, i in zip(entries, indexes, strict=True):
                found = entry.name in package.names or entry.anchor in package.names \
                    or package.properties.get(TEMPLATE_NAME) == fmap.template
                placed = _place(entry, fmap, package) if found else None
                if placed is None or i >= entry.rows:
                    out.append(None)
                    continue
                sheet, top, col, _ = placed
                if sheet not in sheets:
                    sheets[sheet] = SheetFormulas(package, sheet)
                got = sheets[sheet].cells.get((top + i, col))
                out.append(None if got is None else got.value)
            return out
        finally:
            package.close()

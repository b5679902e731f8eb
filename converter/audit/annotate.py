"""Annotated copies: a workbook with each finding shown on its cell, and a first sheet listing them.

Each offending cell is filled by the finding's severity (red error, amber warning, light blue
info) and gets a note in the report's language (code, what is wrong, how to fix it, the expected
value where the finding has one); a first sheet 監査 / Audit gives the counts by severity and one
row per finding, linked to its cell. An .xlsx/.xlsm is copied by editing its package
(``package_annotate``): every part it does not change is kept byte for byte, so nothing is lost.
A package that editor refuses, and a homemade sheet in another format, are copied by openpyxl
(the fallback), and :func:`annotate` returns what that copy lost, counted from the parts of the
source and of the copy (``annotate.toml``); a sheet openpyxl cannot open (.xls, .ods, .xlsb) is
copied as its cells' values (python-calamine, the legacy reader's grid), its findings at the
cells the legacy reader read.
"""
from __future__ import annotations

import fnmatch
import io
import re
import tomllib
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Iterable, Sequence

from ..core.errors import OutputError
from ..core.findings import Finding, Severity
from ..io.files import Staged, stage_atomic, write_atomic
from ..io.xlsx_package import EXCEL_COLUMNS, EXCEL_ROWS, column_index, column_letters, open_package

#: what openpyxl opens; anything else is copied as values
OPENPYXL_SUFFIXES = (".xlsx", ".xlsm")
#: a cell's fill per severity (ARGB): Excel's own red and amber of "bad" and "neutral"
FILLS = {Severity.ERROR: "FFFFC7CE", Severity.WARNING: "FFFFEB9C", Severity.INFO: "FFDDEBF7"}
_ORDER = {Severity.ERROR: 0, Severity.WARNING: 1, Severity.INFO: 2}
_CELL = re.compile(r"^\$?([A-Za-z]{1,3})\$?(\d+)(?::\$?([A-Za-z]{1,3})\$?(\d+))?$")
MAX_RANGE_CELLS = 400  # a finding placed on a range marks at most this many of its cells
#: the audit sheet's column widths (A to E: severity, code, cell, pointer, message)
AUDIT_WIDTHS = (10, 30, 22, 28, 100)

Place = tuple[str, int, int]  # (sheet, row, column), 1-based


@dataclass(frozen=True)
class Loss:
    """Something the copy could not carry: a stable code, how many, and what it is in words."""

    code: str
    count: int
    ja: str
    en: str

    def text(self, lang: str = "ja") -> str:
        return self.en if lang == "en" else self.ja

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "count": self.count, "ja": self.ja, "en": self.en}


@lru_cache(maxsize=1)
def _data() -> dict[str, Any]:
    return tomllib.loads(resources.files(__package__).joinpath("annotate.toml").read_text("utf-8"))


def _word(key: str, lang: str) -> str:
    entry = _data()["words"][key]
    return entry["en"] if lang == "en" else entry["ja"]


def _loss(code: str, count: int) -> Loss:
    entry = _data()["losses"][code]
    return Loss(code, count, entry["ja"], entry["en"])


def copy_suffix(src: Path) -> str:
    """The annotated copy's suffix: .xlsm for an .xlsm (its macros are kept, and Excel opens a
    macro workbook only by that name), .xlsx for anything else."""
    return ".xlsm" if Path(src).suffix.lower() == ".xlsm" else ".xlsx"


def annotate(path: Path, findings: Sequence[Finding], out: Path, lang: str = "ja", *,
             force: bool = False, staged: list[Staged] | None = None) -> list[Loss]:
    """Write an annotated copy of the workbook at ``path`` to ``out`` (named as
    :func:`copy_suffix` says, written whole or not at all; ``path`` is never written) and return
    what the copy lost: nothing for an .xlsx/.xlsm package edited directly. With ``staged``, the
    copy is only staged (``io.files.stage_atomic``) and appended there, for a
    :class:`~converter.io.files.Publisher` to make durable and name with the others."""
    src, out = Path(path), Path(out)
    if out.suffix.lower() != copy_suffix(src):
        raise OutputError(f"{out}: an annotated copy of {src.name} is an {copy_suffix(src)} workbook "
                          f"(name it {copy_suffix(src)})")
    if src.suffix.lower() in OPENPYXL_SUFFIXES:
        from .package_annotate import annotated_package
        from .package_edit import EditRefused

        try:
            data = annotated_package(src, findings, lang)
        except EditRefused:
            data, losses = _openpyxl_copy(src, findings, lang)
        else:
            losses = []
    else:
        data, losses = _openpyxl_copy(src, findings, lang)
    if staged is None:
        write_atomic(out, data, force, inputs=[src])
    else:
        staged.append(stage_atomic(out, data, force, inputs=[src]))
    return losses


def _openpyxl_copy(src: Path, findings: Sequence[Finding], lang: str) -> tuple[bytes, list[Loss]]:
    """The fallback: the copy made by openpyxl (a legacy format's values), and what it lost."""
    if src.suffix.lower() in OPENPYXL_SUFFIXES:
        wb = _opened(src)
        sheets_copied = 0
    else:
        wb, sheets_copied = _values_copy(src)
    if wb.calculation is not None:  # openpyxl saves no formula results: the copy recalculates on opening
        wb.calculation.fullCalcOnLoad = True
    marked = _mark(wb, findings, lang)
    _audit_sheet(wb, src, findings, marked, lang, legacy=bool(sheets_copied))
    buf = io.BytesIO()
    wb.save(buf)
    data = buf.getvalue()
    if sheets_copied:
        return data, [_loss("LOSS_FORMATTING", sheets_copied), _loss("LOSS_FORMULAS", sheets_copied)]
    return data, _losses(src, data)


def _opened(src: Path):
    """The workbook in openpyxl, after the safe opener's limits and a DTD check of every XML part
    (openpyxl parses parts the package reader does not)."""
    import openpyxl

    package = open_package(src)
    try:
        for name in package.zip.namelist():
            if name.endswith((".xml", ".rels", ".vml")):
                package.read_part(name)  # refused past the size limit or with a DTD
    finally:
        package.close()
    return openpyxl.load_workbook(src, keep_links=True, keep_vba=src.suffix.lower() == ".xlsm")


def _values_copy(src: Path):
    """A new workbook holding the values of every sheet python-calamine reads (a legacy format),
    and how many sheets it copied."""
    import openpyxl

    from ..legacy.grid import read_grids

    wb = openpyxl.Workbook()
    wb.remove(wb.active)
    grids = read_grids(src)
    for grid in grids:
        ws = wb.create_sheet(_sheet_title(grid.sheet, wb.sheetnames))
        for (r, c), value in grid.cells.items():
            cell = ws.cell(r + 1, c + 1, value)
            if isinstance(value, str) and value.startswith("="):
                cell.data_type = "s"  # text as typed, never a formula
        for top, left, bottom, right in grid.merged:
            if bottom > top or right > left:
                ws.merge_cells(start_row=top + 1, start_column=left + 1, end_row=bottom + 1, end_column=right + 1)
    if not grids:
        wb.create_sheet("Sheet1")
    return wb, max(len(grids), 1)


def _sheet_title(name: str, taken: Iterable[str]) -> str:
    """``name`` as a sheet title openpyxl accepts (31 characters, none of []:*?/\\), unique."""
    title = re.sub(r"[\[\]:*?/\\]", "_", name)[:31] or "Sheet"
    used = {t.casefold() for t in taken}  # Excel's sheet names ignore case
    n = 2
    base = title
    while title.casefold() in used:
        suffix = f" ({n})"
        title = base[:31 - len(suffix)] + suffix
        n += 1
    return title


def cell_place(cell: str) -> tuple[str, list[tuple[int, int]]] | None:
    """``Sheet!C12`` (or ``'Sheet'!C12:D13``) → (sheet, its cells as 1-based (row, column)); None
    for anything else (a finding about the whole file)."""
    sheet, bang, ref = cell.rpartition("!")
    if not bang or not sheet:
        return None
    if sheet.startswith("'") and sheet.endswith("'") and len(sheet) > 1:
        sheet = sheet[1:-1].replace("''", "'")
    m = _CELL.match(ref.strip())
    if m is None:
        return None
    c1, r1 = column_index(m.group(1).upper()) + 1, int(m.group(2))
    c2, r2 = (column_index(m.group(3).upper()) + 1, int(m.group(4))) if m.group(3) else (c1, r1)
    top, bottom, left, right = min(r1, r2), max(r1, r2), min(c1, c2), max(c1, c2)
    cells = [(r, c) for r in range(top, bottom + 1) for c in range(left, right + 1)][:MAX_RANGE_CELLS]
    return sheet, cells


def _note(finding: Finding, lang: str) -> str:
    """The cell note of one finding: severity and code, the message, the fix, the expected value."""
    lines = [f"[{_word(finding.level.value, lang)}] {finding.code}", finding.message(lang),
             f"{_word('hint', lang)}: {finding.hint(lang)}"]
    expected = finding.params.get("expected")
    if expected is not None and expected != "":
        lines.append(f"{_word('expected', lang)}: {expected}")
    return "\n".join(lines)


def placements(findings: Sequence[Finding], sheets: Iterable[str]
               ) -> tuple[dict[Place, list[Finding]], dict[int, Place]]:
    """Where findings go in a workbook of these sheets: each cell's findings, and finding index →
    its first cell, for the findings whose cell is in the workbook (and inside Excel's grid)."""
    names = set(sheets)
    by_cell: dict[Place, list[Finding]] = {}
    marked: dict[int, Place] = {}
    for i, finding in enumerate(findings):
        place = cell_place(finding.cell) if finding.cell else None
        if place is None or place[0] not in names:
            continue
        sheet, cells = place
        cells = [(r, c) for r, c in cells if r <= EXCEL_ROWS and c <= EXCEL_COLUMNS]
        if not cells:
            continue
        marked[i] = (sheet, *cells[0])
        for r, c in cells:
            by_cell.setdefault((sheet, r, c), []).append(finding)
    return by_cell, marked


def worst(findings: Iterable[Finding]) -> Severity:
    return min((f.level for f in findings), key=_ORDER.__getitem__)


def note_text(findings: Sequence[Finding], lang: str) -> str:
    """A cell's note: each of its findings' notes, one after another."""
    return "\n\n".join(_note(f, lang) for f in findings)


#: a note's box, in pixels: wide enough for a hint, as tall as its lines (capped)
NOTE_WIDTH = 420


def note_height(text: str) -> int:
    return min(600, 20 * (text.count("\n") + 2) + len(text) // 3)


def _mark(wb, findings: Sequence[Finding], lang: str) -> dict[int, Place]:
    """Fill and note each finding's cells (openpyxl); finding index → its first cell."""
    from openpyxl.comments import Comment
    from openpyxl.styles import PatternFill

    by_cell, marked = placements(findings, wb.sheetnames)
    for (sheet, r, c), here in by_cell.items():
        cell = wb[sheet].cell(r, c)
        colour = FILLS[worst(here)]
        cell.fill = PatternFill(fill_type="solid", start_color=colour, end_color=colour)
        text = note_text(here, lang)
        if cell.comment is not None and cell.comment.text:
            text = f"{cell.comment.text}\n\n---\n{text}"
        comment = Comment(text, "mechasheet")
        comment.width = NOTE_WIDTH
        comment.height = note_height(text)
        cell.comment = comment
    return marked


@dataclass(frozen=True)
class AuditLine:
    """One row of the audit sheet, from column A; how it looks, and the cell its third cell
    links to. Both copies (package and openpyxl) write these same rows."""

    values: tuple[Any, ...] = ()
    look: str = ""  # "title", "bold" or ""
    fill: Severity | None = None  # the first cell's fill
    link: Place | None = None


def audit_lines(name: str, findings: Sequence[Finding], marked: dict[int, Place], lang: str,
                legacy: bool) -> list[AuditLine]:
    """The audit sheet: a title, the file, counts by severity, then one row per finding (errors
    first) linked to its cell."""
    lines = [AuditLine((_word("heading", lang),), "title"), AuditLine((_word("file", lang), name))]
    if legacy:
        lines.append(AuditLine((_word("legacy", lang),)))
    lines += [AuditLine(), AuditLine((_word("counts", lang),), "bold")]
    for severity in (Severity.ERROR, Severity.WARNING, Severity.INFO):
        lines.append(AuditLine((_word(severity.value, lang), sum(1 for f in findings if f.level is severity)),
                               fill=severity))
    lines += [AuditLine(), AuditLine(tuple(_word(k, lang) for k in ("severity", "code", "cell", "pointer", "message")),
                                     "bold")]
    for i in sorted(range(len(findings)), key=lambda i: (_ORDER[findings[i].level], i)):
        f = findings[i]
        lines.append(AuditLine((_word(f.level.value, lang), f.code, f.cell, f.pointer, f.message(lang)),
                               fill=f.level, link=marked.get(i)))
    return lines


def link_location(place: Place) -> str:
    """A hyperlink's location inside the workbook: ``'Sheet'!C12``."""
    sheet, r, c = place
    return f"'{sheet.replace(chr(39), chr(39) * 2)}'!{_a1(r, c)}"


def audit_title(taken: Iterable[str], lang: str) -> str:
    return _sheet_title(_word("sheet", lang), taken)


def _audit_sheet(wb, src: Path, findings: Sequence[Finding], marked: dict[int, Place],
                 lang: str, legacy: bool) -> None:
    """The first sheet (openpyxl): :func:`audit_lines` written, the sheet made active."""
    from openpyxl.styles import Font, PatternFill
    from openpyxl.worksheet.hyperlink import Hyperlink

    ws = wb.create_sheet(audit_title(wb.sheetnames, lang), 0)
    for other in wb.worksheets:
        other.sheet_view.tabSelected = False
    ws.sheet_view.tabSelected = True
    wb.active = 0
    fonts = {"title": Font(bold=True, size=14), "bold": Font(bold=True)}
    for line in audit_lines(src.name, findings, marked, lang, legacy):
        ws.append(list(line.values))
        row = ws.max_row
        if line.look:
            for c in range(1, len(line.values) + 1):
                ws.cell(row, c).font = fonts[line.look]
        if line.fill is not None:
            colour = FILLS[line.fill]
            ws.cell(row, 1).fill = PatternFill(fill_type="solid", start_color=colour, end_color=colour)
        if line.link is not None:
            link = ws.cell(row, 3)
            link.hyperlink = Hyperlink(ref=link.coordinate, location=link_location(line.link),
                                       display=line.values[2])
            link.style = "Hyperlink"
    for letter, width in zip("ABCDE", AUDIT_WIDTHS):
        ws.column_dimensions[letter].width = width


def _a1(row: int, col: int) -> str:
    return f"{column_letters(col - 1)}{row}"


def _losses(src: Path, copy: bytes) -> list[Loss]:
    """What the source's parts hold and the copy's do not, by kind (``annotate.toml``)."""
    with zipfile.ZipFile(src) as before, zipfile.ZipFile(io.BytesIO(copy)) as after:
        out = []
        for code, entry in _data()["losses"].items():
            if "parts" not in entry:
                continue
            lost = _count(before, entry) - _count(after, entry)
            if lost > 0:
                out.append(_loss(code, lost))
        return out


def _count(z: zipfile.ZipFile, entry: dict[str, Any]) -> int:
    names = [n for n in z.namelist() if fnmatch.fnmatchcase(n, entry["parts"])]
    if entry["count"] == "parts":
        return len(names)
    pattern = re.compile(entry["count"].encode())
    return sum(len(pattern.findall(z.read(n))) for n in names)

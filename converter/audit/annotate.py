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
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Sequence

from ..core.errors import OutputError
from ..core.findings import Finding
from ..io.files import write_atomic
from ..io.xlsx_package import open_package
from .marks import (AUDIT_WIDTHS, FILLS, NOTE_WIDTH, Place, annotate_toml, audit_lines, audit_title,
                    link_location, note_height, note_text, placements, sheet_title, worst)
from .package_annotate import annotated_package
from .package_edit import EditRefused

#: what openpyxl opens; anything else is copied as values
OPENPYXL_SUFFIXES = (".xlsx", ".xlsm")


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


def _loss(code: str, count: int) -> Loss:
    entry = annotate_toml()["losses"][code]
    return Loss(code, count, entry["ja"], entry["en"])


def copy_suffix(src: Path) -> str:
    """The annotated copy's suffix: .xlsm for an .xlsm (its macros are kept, and Excel opens a
    macro workbook only by that name), .xlsx for anything else."""
    return ".xlsm" if Path(src).suffix.lower() == ".xlsm" else ".xlsx"


def annotate(path: Path, findings: Sequence[Finding], out: Path, lang: str = "ja", *,
             force: bool = False) -> list[Loss]:
    """Write an annotated copy of the workbook at ``path`` to ``out`` (named as
    :func:`copy_suffix` says, written whole or not at all; ``path`` is never written) and return
    what the copy lost: nothing for an .xlsx/.xlsm package edited directly."""
    src, out = Path(path), Path(out)
    if out.suffix.lower() != copy_suffix(src):
        raise OutputError(f"{out}: an annotated copy of {src.name} is an {copy_suffix(src)} workbook "
                          f"(name it {copy_suffix(src)})")
    if src.suffix.lower() in OPENPYXL_SUFFIXES:
        try:
            data = annotated_package(src, findings, lang)
        except EditRefused:
            data, losses = _openpyxl_copy(src, findings, lang)
        else:
            losses = []
    else:
        data, losses = _openpyxl_copy(src, findings, lang)
    write_atomic(out, data, force, inputs=[src])
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
    data = _own_vml_blocks(buf.getvalue())
    if sheets_copied:
        return data, [_loss("LOSS_FORMATTING", sheets_copied), _loss("LOSS_FORMULAS", sheets_copied)]
    return data, _losses(src, data)


_IDMAP = re.compile(rb'(<(?:\w+:)?idmap\b[^>]*?\bdata=")[^"]*(")')
_SHAPE_ID = re.compile(rb'(\bid="_x0000_s)\d+(")')


def _own_vml_blocks(data: bytes) -> bytes:
    """``data`` with each VML drawing given its own shape-id block: openpyxl writes every sheet's
    notes as block 1 (``o:idmap data="1"``, shapes ``_x0000_s1026``…), and shapes of one id on two
    sheets are reported to make Excel offer to repair the file. A drawing of n shapes starting at
    block b numbers them b×1024+1 … b×1024+n and lists the blocks those ids reach, as
    ``package_annotate`` numbers its own. Every other part is copied byte for byte."""
    with zipfile.ZipFile(io.BytesIO(data)) as zin:
        infos = zin.infolist()
        if sum(info.filename.lower().endswith(".vml") for info in infos) < 2:
            return data
        out = io.BytesIO()
        block = 1
        with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
            for info in infos:
                part = zin.read(info.filename)
                if info.filename.lower().endswith(".vml"):
                    part, block = _renumbered(part, block)
                zout.writestr(info, part)
    return out.getvalue()


def _renumbered(vml: bytes, block: int) -> tuple[bytes, int]:
    """One VML drawing's shapes numbered from ``block``; the next free block."""
    n = len(_SHAPE_ID.findall(vml))
    blocks = -(-(n + 1) // 1024)  # the blocks ids b×1024+1 … b×1024+n reach
    ids = iter(range(block * 1024 + 1, block * 1024 + n + 1))

    def shape(m: re.Match[bytes]) -> bytes:
        return m.group(1) + str(next(ids)).encode() + m.group(2)

    listed = ",".join(str(block + i) for i in range(blocks)).encode()
    vml = _IDMAP.sub(lambda m: m.group(1) + listed + m.group(2), vml, count=1)
    return _SHAPE_ID.sub(shape, vml), block + blocks


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
        ws = wb.create_sheet(sheet_title(grid.sheet, wb.sheetnames))
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
    for letter, width in zip("ABCDE", AUDIT_WIDTHS, strict=True):
        ws.column_dimensions[letter].width = width


def _losses(src: Path, copy: bytes) -> list[Loss]:
    """What the source's parts hold and the copy's do not, by kind (``annotate.toml``)."""
    with zipfile.ZipFile(src) as before, zipfile.ZipFile(io.BytesIO(copy)) as after:
        out = []
        for code, entry in annotate_toml()["losses"].items():
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

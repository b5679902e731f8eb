"""Annotated copies made by editing the package: for every sample workbook and every broken
sample written as a sheet, the copy opens in openpyxl with its fills, notes, first sheet and
links, keeps every part it did not edit byte for byte, reads back as the same document with the
same names, and converts in LibreOffice; random findings keep the package valid; what the
editor refuses goes to openpyxl, and why is said."""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter import check_path
from converter.audit.annotate import annotate
from converter.audit.marks import FILLS, cell_place, placements, worst
from converter.audit.package_annotate import annotated_package
from converter.audit.package_edit import EditRefused
from converter.core.findings import Finding, Severity
from converter.io.xlsx_package import open_package
from converter.sheets import read_sheet, write_sheet

from ..sheets.libreoffice import recalculate
from .test_annotate import BROKEN, MOBILE_SUIT, _assert_annotated, _fill

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for system in ("up", "pp", "mailgear") for p in (ROOT / "samples" / system).glob("*.xlsx"))
#: the parts an annotation may change (besides each annotated sheet and its relationships)
EDITED = {"[Content_Types].xml", "xl/workbook.xml", "xl/_rels/workbook.xml.rels", "xl/styles.xml"}


def _extra(first_sheet: str) -> list[Finding]:
    """Findings where the sample has no cell (A1 and Z1 of a row that is there), no row (500),
    on a range, and about the whole file."""
    def at(cell: str, severity: Severity) -> Finding:
        return Finding("AUDIT_FORMULA_ALTERED", "", {"cell": cell, "formula": "=A1", "found": "=A2", "value": 1,
                                                     "expected": 2}, f"'{first_sheet}'!{cell}", severity)

    return [at("A1", Severity.INFO), at("Z1", Severity.ERROR), at("C500", Severity.WARNING),
            at("B3:C4", Severity.INFO), Finding("AUDIT_TEMPLATE_OLD", "", {"template": "up/1", "current": "up/2"})]


def _cases(tmp: Path) -> list[tuple[Path, list[Finding]]]:
    cases = []
    for path in SAMPLES:
        first = next(iter(open_package(path).sheets))
        cases.append((path, list(check_path(path).findings) + _extra(first)))
    for doc_path in BROKEN:
        sheet = tmp / f"broken-{doc_path.parent.name}-{doc_path.stem}.xlsx"
        write_sheet(json.loads(doc_path.read_text(encoding="utf-8")), sheet)
        cases.append((sheet, list(check_path(sheet).findings)))
    return cases


@pytest.fixture(scope="module")
def copies(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, list[Finding], Path]]:
    """Each case annotated by the package editor (no fallback), in its own folder."""
    tmp = tmp_path_factory.mktemp("copies")
    out = []
    for i, (src, findings) in enumerate(_cases(tmp)):
        copy = tmp / "annotated" / f"{i:02d}-{src.name}"
        copy.parent.mkdir(exist_ok=True)
        copy.write_bytes(annotated_package(src, findings, "ja"))
        out.append((src, findings, copy))
    return out


def _sheets_annotated(src: Path, findings: list[Finding]) -> set[str]:
    package = open_package(src)
    parts = {cell_place(f.cell)[0] for f in findings if f.cell and cell_place(f.cell)}
    return {package.sheets[s] for s in parts if s in package.sheets}


def test_every_copy_is_annotated(copies) -> None:
    """Fills by severity, notes with each finding, the 監査 sheet first with working links."""
    assert len(copies) == len(SAMPLES) + len(BROKEN) >= 30
    for _, findings, copy in copies:
        _assert_annotated(copy, findings)


def test_every_part_not_edited_is_kept_byte_for_byte(copies) -> None:
    """Same names, order, compression and bytes for each part the annotation does not edit;
    only the calculation chain may go."""
    for src, findings, copy in copies:
        edited = EDITED | {p for s in _sheets_annotated(src, findings)
                           for p in (s, s.replace("worksheets/", "worksheets/_rels/") + ".rels")}
        with zipfile.ZipFile(src) as before, zipfile.ZipFile(copy) as after:
            names = after.namelist()
            kept = [n for n in before.namelist() if n != "xl/calcChain.xml"]
            assert names[:len(kept)] == kept, src.name
            for info in before.infolist():
                if info.filename in edited or info.filename == "xl/calcChain.xml":
                    continue
                new = after.getinfo(info.filename)
                assert (new.compress_type, new.compress_size, new.CRC) == (info.compress_type, info.compress_size, info.CRC)
                assert after.read(info.filename) == before.read(info.filename), (src.name, info.filename)
            for name in edited & set(before.namelist()):  # formulas' saved results are all still there
                if name.startswith("xl/worksheets/sheet"):
                    assert after.read(name).count(b"</f><v>") == before.read(name).count(b"</f><v>")


def test_every_copy_reads_as_the_same_document_with_the_same_names(copies) -> None:
    """Our reader gives the same document from the copy; every defined name points at the same
    cells, and each sheet-local name stays on its sheet."""
    for src, _, copy in copies:
        assert read_sheet(copy)[0] == read_sheet(src)[0], src.name
        before, after = open_package(src), open_package(copy)
        assert after.names == before.names and after.broken_names == before.broken_names
        assert _local_names(before) == _local_names(after)
        assert list(after.sheets)[1:] == list(before.sheets)


def _local_names(package) -> list[tuple[str, str, str]]:
    """(name, the sheet its localSheetId names, reference) of each sheet-local name."""
    text = package.zip.read("xl/workbook.xml").decode("utf-8")
    sheets = list(package.sheets)
    return sorted((m.group(1), sheets[int(m.group(2))], m.group(3)) for m in re.finditer(
        r'<definedName name="([^"]*)" localSheetId="(\d+)"[^>]*>([^<]*)<', text))


def test_the_players_active_sheet_stays_active(copies) -> None:
    """activeTab moves with the player's sheet; one tab selected, as before."""
    for src, _, copy in copies:
        wb_before, wb_after = openpyxl.load_workbook(src), openpyxl.load_workbook(copy)
        assert wb_after.active.title == wb_before.active.title
        selected = [ws.title for ws in wb_after.worksheets if ws.sheet_view.tabSelected]
        assert selected == [ws.title for ws in wb_before.worksheets if ws.sheet_view.tabSelected]


def test_libreoffice_opens_every_copy(copies, tmp_path: Path) -> None:
    """LibreOffice converts every copy (one call), keeping the 監査 sheet first and the fills."""
    saved = recalculate([copy for _, _, copy in copies], tmp_path / "lo", tmp_path / "profile")
    for (src, findings, _), again in zip(copies, saved, strict=True):
        wb = openpyxl.load_workbook(again)
        assert wb.sheetnames[0] == "監査"
        by_cell, _ = placements(findings, wb.sheetnames)
        assert by_cell
        for (sheet, r, c), here in by_cell.items():
            assert _fill(wb[sheet].cell(r, c)) == FILLS[worst(here)], (src.name, sheet, r, c)
            assert wb[sheet].cell(r, c).comment is not None


# --- random findings -----------------------------------------------------------------------------

_SMALL = ROOT / "samples" / "pp" / "ordinary_person.xlsx"
_SMALL_SHEETS = list(open_package(_SMALL).sheets)


@st.composite
def _findings(draw) -> list[Finding]:
    out = []
    for _ in range(draw(st.integers(1, 12))):
        sheet = draw(st.sampled_from(_SMALL_SHEETS))
        r, c = draw(st.integers(1, 120)), draw(st.integers(1, 40))
        cell = openpyxl.utils.get_column_letter(c) + str(r)
        if draw(st.booleans()):
            cell += ":" + openpyxl.utils.get_column_letter(c + draw(st.integers(0, 3))) + str(r + draw(st.integers(0, 3)))
        out.append(Finding("AUDIT_FORMULA_REPLACED", "", {"cell": cell, "formula": "=1", "found": 2, "value": 2,
                                                          "expected": 1}, f"'{sheet}'!{cell}",
                           draw(st.sampled_from(list(Severity)))))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(findings=_findings())
def test_random_findings_keep_the_package_valid(findings: list[Finding], tmp_path: Path) -> None:
    """Cells and rows there or not, ranges, several findings on a cell: the copy loads, every
    finding's cell has its worst severity's fill, and the document reads the same."""
    copy = tmp_path / "random.xlsx"
    copy.write_bytes(annotated_package(_SMALL, findings, "en"))
    _assert_annotated(copy, findings, "en")
    assert read_sheet(copy)[0] == read_sheet(_SMALL)[0]


# --- what the editor refuses ---------------------------------------------------------------------

def _edited(src: Path, dst: Path, part: str, change) -> Path:
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            zout.writestr(info, change(data) if info.filename == part else data)
    return dst


_ON_C5 = [Finding("AUDIT_FORMULA_REPLACED", "", {"cell": "ユニット!C5", "formula": "=1", "found": 2, "value": 2,
                                                 "expected": 1}, "ユニット!C5")]


@pytest.mark.parametrize(("part", "change", "why"), [
    ("xl/workbook.xml", lambda d: d.replace(b"http://schemas.openxmlformats.org/spreadsheetml/2006/main",
                                            b"http://purl.oclc.org/ooxml/spreadsheetml/main"), "strict OOXML"),
    ("xl/worksheets/sheet1.xml", lambda d: re.sub(rb'<row r="\d+"', b"<row", d), "a row without its number"),
    ("xl/worksheets/sheet1.xml", lambda d: d.replace(b"<pageMargins ", b'<pageMargins q:n="1" ', 1),
     "would not be well-formed XML"),
    ("xl/styles.xml", lambda d: re.sub(rb"<cellXfs.*</cellXfs>", b"", d), "no <cellXfs> list"),
], ids=["strict", "bare-rows", "malformed", "no-formats"])
def test_what_the_editor_refuses(part: str, change, why: str, tmp_path: Path) -> None:
    """Strict OOXML, rows without numbers, a sheet that would not parse (an undeclared prefix),
    styles without cell formats: refused with the reason, never a broken copy."""
    src = _edited(MOBILE_SUIT, tmp_path / "odd.xlsx", part, change)
    with pytest.raises(EditRefused, match=re.escape(why)):
        annotated_package(src, _ON_C5, "ja")


def test_a_sheet_with_notes_is_refused_and_copied_by_openpyxl(tmp_path: Path) -> None:
    """Notes are not merged: the package editor refuses the sheet, ``annotate`` falls back to
    openpyxl, which keeps the player's note above ours."""
    wb = openpyxl.load_workbook(MOBILE_SUIT)
    wb["ユニット"]["C5"].comment = openpyxl.comments.Comment("メモ", "player")
    noted = tmp_path / "noted.xlsx"
    wb.save(noted)
    with pytest.raises(EditRefused, match="has notes or a legacy drawing already"):
        annotated_package(noted, _ON_C5, "ja")
    other = [Finding("AUDIT_FORMULA_REPLACED", "", {"cell": "武装!C5"}, "武装!C5")]
    annotated_package(noted, other, "ja")  # another sheet's notes are no obstacle
    assert annotate(noted, _ON_C5, tmp_path / "copy.xlsx") == []  # openpyxl saved it: no results to lose
    assert openpyxl.load_workbook(tmp_path / "copy.xlsx")["ユニット"]["C5"].comment.text.startswith("メモ")

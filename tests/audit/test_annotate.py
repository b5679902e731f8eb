"""Annotated copies: real workbooks (our samples edited as a player would, every broken sample
written as a sheet, legacy .xls/.ods sheets, a workbook with an image, chart and shape, an
.xlsm with its VBA part) annotated and opened again with openpyxl. The package editor's own
guarantees (parts byte for byte, names, LibreOffice, random findings): test_package_annotate.py."""
from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import openpyxl
import pytest

from converter import check_path
from converter.audit.annotate import annotate
from converter.audit.marks import FILLS, cell_place
from converter.audit.drift import formula_drift
from converter.check import check_source
from converter.core.errors import OutputError
from converter.core.findings import Finding, Severity
from converter.legacy.sources import read_import
from converter.sheets import write_sheet

ROOT = Path(__file__).resolve().parents[2]
MOBILE_SUIT = ROOT / "samples" / "up" / "m-mobile-suit.xlsx"
BROKEN = sorted((ROOT / "samples" / "broken").glob("*/*.json"))
LEGACY = [ROOT / "samples" / "legacy" / "pp-one-per-sheet.xls", ROOT / "samples" / "legacy" / "up-stats-below.ods"]


def _digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _fill(cell) -> str:
    return cell.fill.fgColor.rgb if cell.fill is not None and cell.fill.fill_type == "solid" else ""


def _assert_annotated(copy: Path, findings: list[Finding], lang: str = "ja") -> None:
    """Every finding with a cell is filled by its severity and noted with its code; the first
    sheet lists every finding, each placed one linked to its cell."""
    wb = openpyxl.load_workbook(copy)
    audit = wb.worksheets[0]
    assert audit.title == ("監査" if lang == "ja" else "Audit")
    rows = list(audit.iter_rows(values_only=True))
    header = next(i for i, r in enumerate(rows) if r[:2] == (("重要度", "コード") if lang == "ja" else ("Severity", "Code")))
    listed = rows[header + 1:]
    assert sorted(r[1] for r in listed) == sorted(f.code for f in findings)
    counts = {r[0]: r[1] for r in rows[:header] if r and r[0] and isinstance(r[1], int)}
    words = {"ja": {"error": "エラー", "warning": "警告", "info": "情報"}, "en": {"error": "error", "warning": "warning", "info": "info"}}[lang]
    for severity in Severity:
        assert counts[words[severity.value]] == sum(1 for f in findings if f.level is severity)
    worst: dict[tuple[str, int, int], Severity] = {}
    order = [Severity.ERROR, Severity.WARNING, Severity.INFO]
    for f in findings:
        place = cell_place(f.cell) if f.cell else None
        if place is None or place[0] not in wb.sheetnames:
            continue
        sheet, cells = place
        for r, c in cells:
            cell = wb[sheet].cell(r, c)
            assert cell.comment is not None and f.code in cell.comment.text, (f.code, f.cell)
            assert f.message(lang) in cell.comment.text
            key = (sheet, r, c)
            worst[key] = min(worst.get(key, Severity.INFO), f.level, key=order.index)
    for (sheet, r, c), severity in worst.items():
        assert _fill(wb[sheet].cell(r, c)) == FILLS[severity], (sheet, r, c)
    linked = 0
    for row in audit.iter_rows(min_row=header + 2):
        link = row[2].hyperlink
        if link is None:
            continue
        linked += 1
        sheet, _, ref = link.location.rpartition("!")
        sheet = sheet.strip("'").replace("''", "'")
        assert sheet in wb.sheetnames
        place = cell_place(row[2].value)
        assert place is not None and f"{sheet}" == place[0]
        r, c = place[1][0]
        assert wb[sheet][ref].row == r and wb[sheet][ref].column == c
    assert linked == sum(1 for f in findings if (p := cell_place(f.cell) if f.cell else None) and p[0] in wb.sheetnames)


def test_drift_and_check_findings_annotated(tmp_path: Path) -> None:
    """A sheet with a hand-typed total: the check's findings and the drift both on their cells,
    the original's bytes unchanged, the copy recalculating on opening."""
    src = tmp_path / "typed.xlsx"
    wb = openpyxl.load_workbook(MOBILE_SUIT)
    wb["ユニット"]["F3"] = 999
    wb.save(src)
    before = _digest(src)
    findings = list(check_path(src).findings) + formula_drift(src)
    assert {"AUDIT_FORMULA_REPLACED", "UP_TOTAL_MISMATCH"} <= {f.code for f in findings}
    out = tmp_path / "annotated" / "typed.xlsx"
    losses = annotate(src, findings, out)
    assert _digest(src) == before
    _assert_annotated(out, findings)
    copy = openpyxl.load_workbook(out)
    note = copy["ユニット"]["F3"].comment.text
    drift = next(f for f in findings if f.code == "AUDIT_FORMULA_REPLACED")
    assert f"期待される値: {drift.params['expected']}" in note
    assert copy.calculation.fullCalcOnLoad
    assert losses == []  # saved by openpyxl already: no formula results to lose


def test_english_copy(tmp_path: Path) -> None:
    """An English copy of a sample: notes and sheet in English, nothing lost (every formula's
    saved result is still there)."""
    findings = [Finding("AUDIT_FORMULA_ALTERED", "/stats/hp/cost", {"cell": "ユニット!H11", "formula": "=A1",
                                                                     "found": "=A2", "value": 3, "expected": 4}, "ユニット!H11"),
                Finding("AUDIT_TEMPLATE_OLD", "", {"template": "up/1", "current": "up/2"})]
    out = tmp_path / "en.xlsx"
    assert annotate(MOBILE_SUIT, findings, out, "en") == []

    def results(path: Path) -> int:
        with zipfile.ZipFile(path) as z:
            return sum(z.read(n).count(b"</f><v>") - z.read(n).count(b"</f><v></v>")
                       for n in z.namelist() if n.startswith("xl/worksheets/sheet"))

    assert results(out) == results(MOBILE_SUIT) > 0
    _assert_annotated(out, findings, "en")
    note = openpyxl.load_workbook(out)["ユニット"]["H11"].comment.text
    assert "Expected: 4" in note and "Fix:" in note


def test_an_existing_copy_is_not_replaced(tmp_path: Path) -> None:
    """An existing copy is kept unless forced, and a .xlsm copy is refused."""
    out = tmp_path / "copy.xlsx"
    out.write_bytes(b"mine")
    with pytest.raises(OutputError):
        annotate(MOBILE_SUIT, [], out)
    assert out.read_bytes() == b"mine"
    annotate(MOBILE_SUIT, [], out, force=True)
    assert openpyxl.load_workbook(out).sheetnames[0] == "監査"
    with pytest.raises(OutputError):
        annotate(MOBILE_SUIT, [], tmp_path / "copy.xlsm")


@pytest.mark.parametrize("doc_path", BROKEN, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_broken_sample_annotated_at_its_cells(doc_path: Path, tmp_path: Path) -> None:
    """Each broken sample written as a sheet and checked: its findings on the right cells."""
    doc = json.loads(doc_path.read_text(encoding="utf-8"))
    sheet = tmp_path / f"{doc_path.stem}.xlsx"
    write_sheet(doc, sheet)
    findings = list(check_path(sheet).findings)
    placed = [f for f in findings if f.cell]
    assert placed, "a broken sample's sheet names the cells of its findings"
    out = tmp_path / "annotated.xlsx"
    annotate(sheet, findings, out)
    _assert_annotated(out, findings)


def _png() -> bytes:
    """A 1x1 PNG, built by hand (no imaging library needed)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(b"\x00\xff\x00\x00")) + chunk(b"IEND", b""))


def _pictures(path: Path, note: bool = False) -> Path:
    """A workbook (XlsxWriter) with an image, a chart, a text box and a formula's saved result;
    with ``note``, a player's note on A4."""
    import io

    import xlsxwriter

    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("表")
    ws.write_column(0, 0, [1, 2, 3])
    ws.write_formula(3, 0, "=SUM(A1:A3)", None, 6)
    ws.insert_image("C1", "dot.png", {"image_data": io.BytesIO(_png())})
    ws.insert_textbox("C10", "メモ")
    chart = wb.add_chart({"type": "column"})
    chart.add_series({"values": "='表'!$A$1:$A$3"})
    ws.insert_chart("H1", chart)
    if note:
        ws.write_comment("A4", "プレイヤーのメモ")
    wb.close()
    return path


OLD_TEMPLATE = Finding("AUDIT_TEMPLATE_OLD", "", {"template": "up/1", "current": "up/2"})
ON_THE_TOTAL = Finding("AUDIT_FORMULA_REPLACED", "", {"cell": "表!A4", "formula": "=SUM(A1:A3)", "found": 7,
                                                      "value": 7, "expected": 6}, "表!A4")


def test_a_workbook_with_an_image_a_chart_and_a_shape_loses_nothing(tmp_path: Path) -> None:
    """Edited as a package: the image, chart, drawing and every part not annotated are in the
    copy byte for byte, and no loss is reported."""
    src = _pictures(tmp_path / "pictures.xlsx")
    out = tmp_path / "copy.xlsx"
    assert annotate(src, [OLD_TEMPLATE, ON_THE_TOTAL], out) == []
    with zipfile.ZipFile(src) as before, zipfile.ZipFile(out) as after:
        kept = [n for n in before.namelist() if n.startswith(("xl/media/", "xl/charts/", "xl/drawings/drawing"))]
        assert len(kept) >= 3
        for name in kept:
            assert after.read(name) == before.read(name), name
    _assert_annotated(out, [OLD_TEMPLATE, ON_THE_TOTAL])


def test_the_fallback_reports_what_it_loses(tmp_path: Path) -> None:
    """A sheet whose annotated cell has a player's note is copied by openpyxl (the package
    editor does not merge notes): the note is kept above ours, and what openpyxl does not carry
    is reported with its count."""
    src = _pictures(tmp_path / "noted.xlsx", note=True)
    out = tmp_path / "copy.xlsx"
    losses = {loss.code: loss for loss in annotate(src, [OLD_TEMPLATE, ON_THE_TOTAL], out)}
    with zipfile.ZipFile(src) as before, zipfile.ZipFile(out) as after:
        media = lambda z: sum(1 for n in z.namelist() if n.startswith("xl/media/"))  # noqa: E731
        charts = lambda z: sum(1 for n in z.namelist() if n.startswith("xl/charts/chart"))  # noqa: E731
        assert media(before) == 1 and charts(before) == 1
        assert losses.get("LOSS_IMAGES", None) is None if media(after) else losses["LOSS_IMAGES"].count == 1
        assert losses.get("LOSS_CHARTS", None) is None if charts(after) else losses["LOSS_CHARTS"].count == 1
    assert losses["LOSS_SHAPES"].count == 1
    assert losses["LOSS_CACHED_VALUES"].count == 1
    assert losses["LOSS_SHAPES"].ja == "図形" and losses["LOSS_SHAPES"].en == "shapes"
    assert "LOSS_MACROS" not in losses
    note = openpyxl.load_workbook(out)["表"]["A4"].comment.text
    assert note.startswith("プレイヤーのメモ") and "AUDIT_FORMULA_REPLACED" in note


def _macro_workbook(path: Path, note: bool = False) -> Path:
    """MOBILE_SUIT as an .xlsm: a VBA project part, its relationship and the macro workbook's
    content type (a player's note on ユニット!C5 with ``note``, through openpyxl first)."""
    base = MOBILE_SUIT
    if note:
        wb = openpyxl.load_workbook(MOBILE_SUIT)
        wb["ユニット"]["C5"].comment = openpyxl.comments.Comment("メモ", "player")
        base = path.with_suffix(".noted.xlsx")
        wb.save(base)
    with zipfile.ZipFile(base) as zin, zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == "[Content_Types].xml":
                data = data.replace(b"</Types>", b'<Default Extension="bin" ContentType="application/'
                                    b'vnd.ms-office.vbaProject"/></Types>')
                data = data.replace(b"spreadsheetml.sheet.main+xml", b"spreadsheetml.sheet.macroEnabled.main+xml"
                                    ).replace(b"vnd.openxmlformats-officedocument.spreadsheetml.sheet.macroEnabled",
                                              b"vnd.ms-excel.sheet.macroEnabled")
            if info.filename == "xl/_rels/workbook.xml.rels":
                data = data.replace(b"</Relationships>", b'<Relationship Id="rIdVba" Type="http://schemas.'
                                    b'microsoft.com/office/2006/relationships/vbaProject" Target="vbaProject.bin"/>'
                                    b"</Relationships>")
            zout.writestr(info, data)
        zout.writestr("xl/vbaProject.bin", VBA)
    return path


VBA = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(range(256)) * 2


@pytest.mark.parametrize("note", [False, True], ids=["package", "fallback"])
def test_a_macro_workbook_keeps_its_macros(note: bool, tmp_path: Path) -> None:
    """An .xlsm's copy is an .xlsm with its VBA project byte for byte, edited as a package or
    (a player's note on the annotated cell) by openpyxl keeping VBA; never LOSS_MACROS."""
    src = _macro_workbook(tmp_path / "macro.xlsm", note)
    before = _digest(src)
    finding = Finding("AUDIT_FORMULA_REPLACED", "", {"cell": "ユニット!C5", "formula": "=1", "found": 2,
                                                     "value": 2, "expected": 1}, "ユニット!C5")
    with pytest.raises(OutputError):
        annotate(src, [finding], tmp_path / "macro-annotated.xlsx")
    out = tmp_path / "macro-annotated.xlsm"
    losses = {loss.code: loss.count for loss in annotate(src, [finding], out)}
    assert "LOSS_MACROS" not in losses
    assert note or losses == {}
    assert _digest(src) == before
    with zipfile.ZipFile(out) as z:
        assert z.read("xl/vbaProject.bin") == VBA
        assert b"macroEnabled.main+xml" in z.read("[Content_Types].xml")
    _assert_annotated(out, [finding])
    if note:  # the fallback: the player's note kept above ours
        assert openpyxl.load_workbook(out)["ユニット"]["C5"].comment.text.startswith("メモ\n\n---\n")


@pytest.mark.parametrize("path", LEGACY, ids=lambda p: p.name)
def test_a_legacy_sheet_is_annotated_as_values(path: Path, tmp_path: Path) -> None:
    """A .xls/.ods homemade sheet: copied as values, its findings at the cells the legacy reader
    read, formatting and formulas reported lost."""
    findings = [f for source, _ in read_import(path) for f in check_source(source).findings]
    out = tmp_path / f"{path.stem}.xlsx"
    before = _digest(path)
    losses = annotate(path, findings, out)
    assert _digest(path) == before
    assert [loss.code for loss in losses] == ["LOSS_FORMATTING", "LOSS_FORMULAS"]
    _assert_annotated(out, findings)
    copy = openpyxl.load_workbook(out)
    from converter.legacy.grid import read_grids

    grid = read_grids(path)[0]
    (r, c), value = next(iter(grid.cells.items()))
    assert copy[grid.sheet].cell(r + 1, c + 1).value == value


def test_the_fallback_gives_each_sheets_notes_their_own_shape_ids(tmp_path: Path) -> None:
    """Notes on two sheets copied by openpyxl: each VML drawing has its own o:idmap block and
    its shapes' ids lie in it, no id twice in the package (openpyxl writes _x0000_s1026 on both)."""
    import re

    wb = openpyxl.load_workbook(MOBILE_SUIT)
    wb["ユニット"]["C5"].comment = openpyxl.comments.Comment("メモ", "player")  # the fallback
    src = tmp_path / "noted.xlsx"
    wb.save(src)
    found = [Finding("AUDIT_FORMULA_REPLACED", "", {"cell": cell, "formula": "=1", "found": 2, "value": 2,
                                                    "expected": 1}, cell)
             for cell in ("ユニット!C5", "ユニット!C6", "武装!B4")]
    out = tmp_path / "copy.xlsx"
    annotate(src, found, out)
    blocks, ids = [], []
    with zipfile.ZipFile(out) as z:
        drawings = [n for n in z.namelist() if n.endswith(".vml")]
        assert len(drawings) == 2
        for name in drawings:
            text = z.read(name).decode("utf-8")
            (data,) = re.findall(r'idmap\b[^>]*?\bdata="([^"]*)"', text)
            own = [int(b) for b in data.split(",")]
            shapes = [int(n) for n in re.findall(r'\bid="_x0000_s(\d+)"', text)]
            assert shapes and all(n // 1024 in own for n in shapes), (name, data, shapes)
            blocks += own
            ids += shapes
    assert len(blocks) == len(set(blocks)) and len(ids) == len(set(ids)) == 3
    _assert_annotated(out, found)

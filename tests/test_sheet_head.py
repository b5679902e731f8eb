"""A few cells read from a sheet's first rows (converter.io.sheet_head) say what python-calamine
reads there, or nothing (then the sheet is read whole): on every sample and template, and on
option cells rewritten in every form a cell's XML takes."""
from __future__ import annotations

import re
import zipfile
from pathlib import Path
from xml.sax.saxutils import escape

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from converter.io.sheet_head import head_cells
from converter.io.xlsx_package import PackageError, open_package
from converter.sheets.reader import read_workbook

ROOT = Path(__file__).resolve().parents[1]
WORKBOOKS = sorted(p for p in (ROOT / "samples").glob("*/*.xlsx") if p.parent.name != "legacy") + sorted(
    (ROOT / "templates").glob("*.xlsx"))
UP = ROOT / "samples" / "up" / "m-mobile-suit.xlsx"


def _option_cells(path: Path) -> tuple[str, list[tuple[int, int]]]:
    package = open_package(path)
    try:
        areas = [a for n, a in package.names.items() if ".options." in n and not n.startswith("catalog.")]
    finally:
        package.close()
    (sheet,) = {a.sheet for a in areas}
    return sheet, [(a.top, a.left) for a in areas]


def _calamine(path: Path, sheet: str, cells: list[tuple[int, int]]) -> dict[tuple[int, int], object]:
    import python_calamine

    book = python_calamine.CalamineWorkbook.from_path(str(path))
    grid = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)
    book.close()
    got = {}
    for r, c in cells:
        value = grid[r][c] if r < len(grid) and c < len(grid[r]) else ""
        got[(r, c)] = None if value == "" else value
    return got


def _head(path: Path, sheet: str, cells: list[tuple[int, int]]):
    package = open_package(path)
    try:
        return head_cells(package, sheet, cells)
    finally:
        package.close()


@pytest.mark.parametrize("path", WORKBOOKS, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_workbook_s_readings_read_from_the_head_as_calamine_reads_them(path: Path) -> None:
    """Our own sheets are read from their first rows (no fallback), value for value."""
    sheet, cells = _option_cells(path)
    got = _head(path, sheet, cells)
    assert got is not None
    assert got == _calamine(path, sheet, cells)


def _rewritten(tmp_path: Path, cell_xml: str, item_xml: str | None = None, sheet_edit=None) -> Path:
    """m-mobile-suit with ルール!AX2 written as ``cell_xml`` (``{si}`` stands for the index of
    ``item_xml``, a string item appended to the shared strings)."""
    with zipfile.ZipFile(UP) as zf:
        parts = {i.filename: zf.read(i) for i in zf.infolist()}
    package = open_package(UP)
    part = package.sheets["ルール"]
    package.close()
    sst = parts["xl/sharedStrings.xml"].decode()
    if item_xml is not None:
        index = len(re.findall(r"</si>", sst))
        sst = sst.replace("</sst>", item_xml + "</sst>")
        cell_xml = cell_xml.replace("{si}", str(index))
        parts["xl/sharedStrings.xml"] = sst.encode()
    xml = parts[part].decode()
    xml, n = re.subn(r'<c r="AX2"[^>]*?(?:/>|>.*?</c>)', cell_xml, xml, count=1)
    assert n == 1
    if sheet_edit is not None:
        xml = sheet_edit(xml)
    parts[part] = xml.encode()
    out = tmp_path / "edited.xlsx"
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)
    return out


_SAME = "same"  # read from the head, equal to calamine
_EITHER = "either"  # read from the head and equal, or left to the whole read

CASES = {
    "shared": ('<c r="AX2" s="3" t="s"><v>{si}</v></c>', "<si><t>標準外</t></si>", _SAME),
    "shared rich runs": ('<c r="AX2" t="s"><v>{si}</v></c>',
                         '<si><r><rPr><b/></rPr><t>最初</t></r><r><t>_free</t></r></si>', _SAME),
    "shared with a reading": ('<c r="AX2" t="s"><v>{si}</v></c>',
                              '<si><t>熱血</t><rPh sb="0" eb="2"><t>ネッケツ</t></rPh><phoneticPr fontId="1"/></si>',
                              _SAME),
    "shared entities": ('<c r="AX2" t="s"><v>{si}</v></c>', "<si><t>a&amp;b&lt;c&gt;&quot;</t></si>", _SAME),
    "shared spaces": ('<c r="AX2" t="s"><v>{si}</v></c>', '<si><t xml:space="preserve"> x </t></si>', _EITHER),
    "shared CR": ('<c r="AX2" t="s"><v>{si}</v></c>', "<si><t>a\r\nb</t></si>", _EITHER),
    "shared escape": ('<c r="AX2" t="s"><v>{si}</v></c>', "<si><t>a_x000D_b</t></si>", _EITHER),
    "shared char ref": ('<c r="AX2" t="s"><v>{si}</v></c>', "<si><t>&#x6a19;準</t></si>", _EITHER),
    "inline": ('<c r="AX2" t="inlineStr"><is><t>table</t></is></c>', None, _SAME),
    "bool": ('<c r="AX2" t="b"><v>1</v></c>', None, _SAME),
    "empty": ('<c r="AX2" s="3"/>', None, _SAME),
    "gone": ("", None, _SAME),
    "number": ('<c r="AX2"><v>2.5</v></c>', None, _EITHER),
    "date": ('<c r="AX2" s="1"><v>45000</v></c>', None, _EITHER),
    "error": ('<c r="AX2" t="e"><v>#N/A</v></c>', None, _EITHER),
    "formula": ('<c r="AX2" t="str"><f>"a"&amp;"b"</f><v>ab</v></c>', None, _EITHER),
    "attributes reordered": ('<c s="3" t="s" r="AX2"><v>{si}</v></c>', "<si><t>x</t></si>", _SAME),
}


@pytest.mark.parametrize("case", CASES)
def test_a_rewritten_cell_reads_as_calamine_reads_it_or_not_at_all(tmp_path: Path, case: str) -> None:
    """Every form of a cell's XML: the head's value is calamine's, or the head says nothing."""
    cell_xml, item_xml, expect = CASES[case]
    path = _rewritten(tmp_path, cell_xml, item_xml)
    sheet, cells = _option_cells(path)
    got = _head(path, sheet, cells)
    if expect == _SAME:
        assert got is not None
    if got is not None:
        assert got == _calamine(path, sheet, cells)


@pytest.mark.parametrize("edit", ["bare cell", "rows out of order", "prefixed", "bare row"])
def test_a_sheet_not_written_plainly_is_left_to_the_whole_read(tmp_path: Path, edit: str) -> None:
    """Cells without references, rows out of order, prefixed elements: nothing from the head."""
    edits = {
        "bare cell": lambda x: x.replace('<c r="AX3"', "<c", 1),
        "rows out of order": lambda x: x.replace('<row r="3"', '<row r="1"', 1),
        "prefixed": lambda x: x.replace("<sheetData>", "<x:sheetData>", 1),
        "bare row": lambda x: re.sub(r'<row r="4"', "<row", x, count=1),
    }
    path = _rewritten(tmp_path, '<c r="AX2" t="inlineStr"><is><t>table</t></is></c>', None, edits[edit])
    sheet, cells = _option_cells(path)
    assert _head(path, sheet, cells) is None


def test_a_dtd_in_the_sheet_is_refused(tmp_path: Path) -> None:
    """The head's prolog is checked as every part's is."""
    path = _rewritten(tmp_path, '<c r="AX2" t="inlineStr"><is><t>x</t></is></c>', None,
                      lambda x: x.replace("?>", '?><!DOCTYPE x [<!ENTITY e "e">]>', 1))
    sheet, cells = _option_cells(path)
    with pytest.raises(PackageError):
        _head(path, sheet, cells)


def test_the_reader_uses_the_head_and_reads_the_same(tmp_path: Path) -> None:
    """A workbook read with its readings from the head gives what the whole read gives: here a
    reading typed as its label, in an inline string."""
    path = _rewritten(tmp_path, '<c r="AX2" t="inlineStr"><is><t>first_free</t></is></c>')
    got = read_workbook(path)
    assert got.options["damage_dice"] == "first_free"
    assert got.option_cells["damage_dice"] == "ルール!AX2"


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), max_size=12),
       inline=st.booleans(), preserve=st.booleans())
def test_any_text_reads_as_calamine_reads_it_or_not_at_all(tmp_path: Path, text: str, inline: bool,
                                                          preserve: bool) -> None:
    """Any text in a shared or inline string: calamine's value, or nothing; plain text always read."""
    if any(ord(c) < 32 and c not in "\t\n\r" for c in text):
        return  # not allowed in XML 1.0
    attr = ' xml:space="preserve"' if preserve else ""
    t = f"<t{attr}>{escape(text)}</t>"
    if inline:
        path = _rewritten(tmp_path, f'<c r="AX2" t="inlineStr"><is>{t}</is></c>')
    else:
        path = _rewritten(tmp_path, '<c r="AX2" t="s"><v>{si}</v></c>', f"<si>{t}</si>")
    sheet, cells = _option_cells(path)
    got = _head(path, sheet, cells)
    plain = text == text.strip() and not any(c in text for c in "\r") and "_x" not in text
    if plain:
        assert got is not None
    if got is not None:
        assert got == _calamine(path, sheet, cells)

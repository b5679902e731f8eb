"""Printing (issue 18): every sample printed to PDF by LibreOffice within its page bounds, the
first page of each system rendered to PNG for a person to look at; labels whole, helper columns
hidden (docs/templates.md, Printing)."""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import openpyxl
import pytest

from openpyxl.utils import get_column_letter

from converter.sheets.layout import col_letter, load_layout
from converter.sheets.name_keys import stage_columns
from converter.sheets.page_setup import HEADER_LINES, text_width

from ..needs import missing
from .libreoffice import export_pdf
from .pdf_pages import sheet_pages

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("up", "pp", "mailgear")
SAMPLES = sorted(p for s in SYSTEMS for p in (ROOT / "samples" / s).glob("*.xlsx"))

# The most pages each sheet may print on: a character's or unit's own sheets one page each, the
# sheet with the longest weapon table two; the rules one page wide (two tall at most); a catalog
# sheet, the group's whole catalog, one page wide (six tall at most for the example catalog).
BOUNDS = {
    "up": {"ユニット": 1, "武装": 2, "特殊能力": 1, "GM承認": 1, "ルール": 2},
    "pp": {"キャラクター": 1, "機体": 2, "GM承認": 1, "ルール": 2},
    "mailgear": {"パイロット": 2, "GM承認": 1, "ルール": 2, "カタログ": 6},
}


@pytest.fixture(scope="module")
def printed(tmp_path_factory) -> dict[Path, Path]:
    """Every sample's PDF, from one LibreOffice run."""
    base = tmp_path_factory.mktemp("print")
    pdfs = export_pdf(SAMPLES, base / "pdf", base / "profile")
    return dict(zip(SAMPLES, pdfs, strict=True))


def test_samples_exist() -> None:
    """Every system has filled samples to print."""
    assert {p.parent.name for p in SAMPLES} == set(SYSTEMS)


@pytest.mark.parametrize("sample", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_sample_prints_within_its_page_bounds(printed, sample: Path) -> None:
    """Each sheet of a sample prints on no more pages than its bound, and every visible sheet
    prints (the hidden data sheet does not)."""
    pages = sheet_pages(printed[sample])
    bounds = BOUNDS[sample.parent.name]
    assert set(pages) == set(bounds), pages
    over = {name: n for name, n in pages.items() if n > bounds[name]}
    assert not over, f"{sample.name}: {pages}"


def test_first_pages_rendered_for_a_person(printed, tmp_path_factory) -> None:
    """The first page of one sample per system as a PNG under the test's tmp dir (look at it:
    pytest's basetemp keeps it), rendered by pdftoppm (Debian's poppler-utils)."""
    exe = shutil.which("pdftoppm")
    if exe is None:
        missing("pdftoppm", "Debian's poppler-utils")
    out = tmp_path_factory.mktemp("print-png")
    for system in SYSTEMS:
        sample = next(p for p in SAMPLES if p.parent.name == system)
        target = out / f"{system}-{sample.stem}"
        subprocess.run([exe, "-f", "1", "-l", "1", "-r", "100", "-png", "-singlefile",
                        str(printed[sample]), str(target)], check=True, timeout=60)
        png = target.with_suffix(".png")
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert png.stat().st_size > 20_000, f"{png}: a blank page?"


def _label_cells(ws):
    """(cell, text, lines) of every text that must show whole: a label or header whose right
    neighbour is written (it cannot overflow); a table header may take two lines."""
    for row in ws.iter_rows():
        for cell in row:
            if not isinstance(cell.value, str) or cell.value.startswith("="):
                continue
            if cell.alignment.wrap_text and not cell.font.b:
                continue  # typed or computed text: wraps in its cell
            right = ws.cell(cell.row, cell.column + 1)
            lines = HEADER_LINES if cell.alignment.wrap_text else 1
            if right.value is not None or right.has_style:
                yield cell, cell.value, lines


@pytest.mark.parametrize("system", SYSTEMS)
def test_labels_fit_their_columns(system: str) -> None:
    """In the template, every label and header fits its column's width (a full-width character
    two units), so none is cut: パイロット名, 戦艦ユニット, 変形グループ, 地形適応, ..."""
    wb = openpyxl.load_workbook(ROOT / "templates" / f"{system}.xlsx")
    layout = load_layout(system)
    cut = []
    for ws in wb.worksheets:
        if ws.title in (layout.rules_sheet, layout.data_sheet) or ws.title == "カタログ":
            continue
        for cell, text, lines in _label_cells(ws):
            width = ws.column_dimensions[cell.column_letter].width
            if text_width(text) > width * lines:
                cut.append(f"{ws.title}!{cell.coordinate} {text} ({text_width(text)} > {width}×{lines})")
    assert not cut, cut


@pytest.mark.parametrize("system", SYSTEMS)
def test_helper_columns_hidden_and_nothing_else(system: str) -> None:
    """The layout's helper columns are hidden (folded in an outline group, out of print); every
    other column shows."""
    wb = openpyxl.load_workbook(ROOT / "templates" / f"{system}.xlsx")
    layout = load_layout(system)
    hidden = {(ws.title, get_column_letter(c)) for ws in wb.worksheets
              if ws.sheet_state == "visible" for dim in ws.column_dimensions.values()
              if dim.hidden for c in range(dim.min, dim.max + 1)}
    helpers = {(t.sheet, col_letter(t.col(c.key))) for t in layout.tables for c in t.columns
               if c.helper}
    if layout.raw.get("name_keys", {}).get("helper"):  # the name-key stage cells, right of the tables
        helpers |= {(layout.input_sheet, col_letter(c)) for c in stage_columns(layout)}
    assert hidden == helpers

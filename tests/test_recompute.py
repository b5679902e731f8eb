"""`mechasheet recompute`: a sheet whose formulas were replaced by values (paste values, a
hand-made copy) gets every computed cell back from the engine, each change listed; the input is
never touched. Real workbooks: each sample's .xlsx, its formulas pasted over with stale numbers."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path

import openpyxl
import pytest

from converter import check_path
from converter.cli import main
from converter.sheets.recompute import recompute

ROOT = Path(__file__).resolve().parents[1]
SHEETS = sorted(p for s in ("up", "mailgear", "pp") for p in (ROOT / "samples" / s).glob("*.xlsx")
                if p.with_suffix(".json").is_file())


def _pasted(src: Path, dest: Path, keep: str | None = None) -> dict[str, object]:
    """``src`` with every formula cell holding a stale number (7) instead, as pasted values leave
    it, except the cell ``keep`` (Sheet!A1); returns cell → the value the formula had."""
    with_values = openpyxl.load_workbook(src, data_only=True)
    book = openpyxl.load_workbook(src)
    was = {}
    for ws in book.worksheets:
        for row in ws.iter_rows():
            for c in row:
                ref = f"{ws.title}!{c.coordinate}"
                if c.data_type == "f" and ref != keep:
                    was[ref] = with_values[ws.title][c.coordinate].value
                    c.value = 7
    book.save(dest)
    return was


@pytest.mark.parametrize("sheet", SHEETS, ids=[p.name for p in SHEETS])
def test_every_computed_cell_comes_back_as_the_engine_computes_it(sheet: Path, tmp_path: Path) -> None:
    """After recompute, each formerly computed cell holds the value the formula had (the
    engine's, cached by the writer); exactly the cells that differed are listed; the check finds
    the total the engine computes and no mismatch."""
    pasted = tmp_path / "pasted.xlsx"
    was = _pasted(sheet, pasted)
    before = hashlib.sha256(pasted.read_bytes()).hexdigest()
    done = recompute(pasted)
    assert hashlib.sha256(pasted.read_bytes()).hexdigest() == before
    out = tmp_path / "out.xlsx"
    out.write_bytes(done.data)
    book = openpyxl.load_workbook(out)
    for ref, value in was.items():
        name, cell = ref.split("!")
        got = book[name][cell].value
        assert got in (value, None if value == "" else value) or (value in ("", None) and got in ("", None)), ref
    assert {c.cell for c in done.changes} == {ref for ref, value in was.items() if value not in (7, 7.0)}
    report = check_path(out)
    doc = json.loads(sheet.with_suffix(".json").read_text("utf-8"))
    assert not any(f.code.endswith("TOTAL_MISMATCH") for f in report.findings)
    if doc["system"] != "mailgear":
        assert report.computed == check_path(sheet.with_suffix(".json")).computed


def test_a_cell_that_keeps_its_formula_is_left_alone(tmp_path: Path) -> None:
    """A computed cell still holding its formula computes itself: not changed, not listed."""
    pasted = tmp_path / "pasted.xlsx"
    _pasted(ROOT / "samples" / "up" / "m-mobile-suit.xlsx", pasted, keep="ユニット!F3")
    done = recompute(pasted)
    assert "ユニット!F3" not in {c.cell for c in done.changes}
    assert {"ユニット!F4", "ユニット!F7"} <= {c.cell for c in done.changes}
    out = tmp_path / "out.xlsx"
    out.write_bytes(done.data)
    assert openpyxl.load_workbook(out)["ユニット"]["F3"].value.startswith("=")


def test_cli_lists_each_change_and_never_replaces_its_input(tmp_path: Path, capsys) -> None:
    """`recompute SHEET -o OUT`: one line per changed cell with old and new value; -o naming
    the input is refused with exit code 2; --format json lists the same changes."""
    pasted = tmp_path / "pasted.xlsx"
    _pasted(ROOT / "samples" / "up" / "m-mobile-suit.xlsx", pasted)
    assert main(["recompute", str(pasted), "-o", str(tmp_path / "out.xlsx"), "--lang", "en"]) == 0
    text = capsys.readouterr().out
    assert "ユニット!F3 (up.totals.computed): 7 → 1459" in text
    assert main(["recompute", str(pasted), "-o", str(pasted)]) == 2
    assert main(["recompute", str(pasted), "-o", str(tmp_path / "o.xlsx"), "--format", "json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert {"cell": "ユニット!F4", "name": "up.totals.remainder", "old": 7, "new": 41} in got["changes"]


def test_a_file_that_is_no_workbook_of_ours_is_refused(tmp_path: Path) -> None:
    """A homemade sheet (no template names) is an input error with exit code 2."""
    assert main(["recompute", str(ROOT / "samples" / "legacy" / "up-label-beside.xlsx"),
                 "-o", str(tmp_path / "o.xlsx")]) == 2

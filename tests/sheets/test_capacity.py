"""A table a user lengthened (rows inserted inside it): every row is read, none lost, and a
warning at the first row past the template's capacity says it will not fit a fresh sheet."""
from __future__ import annotations

import json
import re
from pathlib import Path

import openpyxl

from converter import check_path
from converter.sheets import sheet_bytes
from converter.sheets.layout import load_layout

ROOT = Path(__file__).resolve().parents[2]


def test_rows_past_the_capacity_are_read_with_a_warning(tmp_path: Path) -> None:
    """Rows written past a table's capacity are still read, with a SHEET_ROWS_OVER_CAPACITY warning."""
    doc = json.loads((ROOT / "samples" / "up" / "m-mobile-suit.json").read_text(encoding="utf-8"))
    table = load_layout("up").table("weapons")
    path = tmp_path / "unit.xlsx"
    path.write_bytes(sheet_bytes(doc))
    wb = openpyxl.load_workbook(path)
    extra = 3
    for name in [n for n in wb.defined_names if n.startswith("up.weapons.")]:
        dn = wb.defined_names[name]
        dn.attr_text = re.sub(r"\$(\d+)$", lambda m: f"${int(m.group(1)) + extra}", dn.attr_text)
    sheet, ref = next(iter(wb.defined_names["up.weapons.name"].destinations))
    first = int(re.search(r"\$(\d+):", ref).group(1))
    ws = wb[sheet]
    for k in range(extra):
        row = first + table.rows + k
        for key, value in (("name", f"追加武器{k + 1}"), ("kind", "格闘"), ("range", 1)):
            s, r = next(iter(wb.defined_names[f"up.weapons.{key}"].destinations))
            col = re.match(r"\$([A-Z]+)\$", r).group(1)
            ws[f"{col}{row}"] = value
    wb.save(path)
    report = check_path(path)
    names = [w.get("name") for w in report.document.get("weapons", [])]
    assert names[-extra:] == [f"追加武器{k + 1}" for k in range(extra)]
    (warning,) = [f for f in report.findings if f.code == "SHEET_ROWS_OVER_CAPACITY"]
    assert warning.level.value == "warning"
    assert warning.params["capacity"] == table.rows
    assert warning.cell == f"{sheet}!{re.match(r'[$]([A-Z]+)', ref).group(1)}{first + table.rows}"

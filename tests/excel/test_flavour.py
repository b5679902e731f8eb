"""The xlwings-flavoured templates, recalculated end to end by an independent evaluator.

Every sample of `up` and `pp` (and each empty template) is written twice: native, and with
``formulas="xlwings"``. The `formulas` package (a test-only extra) recalculates the flavoured
workbook with our functions registered (``formula_evaluator.py``); every computed cell must
equal the native sheet's cached value, which is the engine's, and the totals the engine's
total. Mailgear's workbooks, about 30 s each to load, are recalculated in
test_flavour_mailgear.py (a file of its own, so the suite's workers share the two halves); the
functions' values on every sample are the golden cases' (test_udfs.py, test_pyodide.py).
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from converter.sheets import sheet_bytes, template_bytes
from converter.sheets.layout import load_layout
from converter.sheets.xlwings_flavour import FLAVOUR_PROPERTY, xlwings_formulas

from .cases import ROOT, SAMPLES, context_for

pytest.importorskip("formulas", reason="the formulas package (test extra) evaluates the workbooks")

FLAVOURED = ("up", "pp", "mailgear")
EVALUATED = ("up", "pp")  # each sample recalculated; mailgear's in MAILGEAR_EVALUATED
CASES = [p for p in SAMPLES if json.loads(p.read_text("utf-8"))["system"] in EVALUATED]


def _formula_cells(xlsx: Path) -> dict[tuple[str, str], str]:
    """(sheet, A1) → formula text of every formula cell."""
    import openpyxl

    book = openpyxl.load_workbook(xlsx)
    return {(ws.title.upper(), c.coordinate): c.value for ws in book.worksheets for row in ws.iter_rows()
            for c in row if isinstance(c.value, str) and c.value.startswith("=")}


def _cached(xlsx: Path) -> dict[tuple[str, str], Any]:
    """(sheet, A1) → the value stored with each cell (a formula's cached result)."""
    import openpyxl

    book = openpyxl.load_workbook(xlsx, data_only=True)
    return {(ws.title.upper(), c.coordinate): c.value for ws in book.worksheets for row in ws.iter_rows()
            for c in row}


def _same(a: Any, b: Any) -> bool:
    a, b = ("" if a is None else a), ("" if b is None else b)
    if isinstance(a, (int, float)) and isinstance(b, (int, float)) and not isinstance(a, bool):
        return float(a) == float(b)
    return a == b


def _both(tmp_path: Path, system: str, doc: dict[str, Any] | None,
          options: dict[str, str] | None = None) -> tuple[Path, Path]:
    """The native and the flavoured workbook (a mailgear sample with the example catalog)."""
    native, flavoured = tmp_path / "native.xlsx", tmp_path / "flavoured.xlsx"
    if doc is None:
        native.write_bytes(template_bytes(system))
        flavoured.write_bytes(template_bytes(system, formulas="xlwings"))
    else:
        native.write_bytes(sheet_bytes(doc, options, context_for(doc)))
        flavoured.write_bytes(sheet_bytes(doc, options, context_for(doc), formulas="xlwings"))
    return native, flavoured


def _recalculated_equals_native(tmp_path: Path, system: str, doc: dict[str, Any] | None,
                                options: dict[str, str] | None = None):
    from .formula_evaluator import evaluate

    native, flavoured = _both(tmp_path, system, doc, options)
    formulas = _formula_cells(flavoured)
    got = evaluate(flavoured)
    differ = _differences(native, flavoured, got)
    assert differ == {}, got.raised[:5]
    return formulas, got


def _differences(native: Path, flavoured: Path, got) -> dict[str, tuple[Any, Any, str]]:
    """Each computed cell of the recalculated flavoured workbook whose value is not the native
    sheet's cached one (the engine's): cell → (native, recalculated, formula)."""
    formulas, cached = _formula_cells(flavoured), _cached(native)
    assert set(formulas) == set(_formula_cells(native)), "the flavour moved or dropped a computed cell"
    # `formulas` evaluates both branches of an IF (Excel only the one it takes), so a function
    # raises on the blank rows its guard skips: a raise that reached a cell shows as #VALUE!
    # there, which no native value equals.
    missing = [k for k in formulas if k not in got.values]
    assert missing == []
    return {f"{s}!{c}": (cached[(s, c)], got.values[(s, c)], formulas[(s, c)][:120])
            for (s, c) in formulas if not _same(cached[(s, c)], got.values[(s, c)])}


@pytest.mark.parametrize("path", CASES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_computed_cell_of_a_flavoured_sample_equals_the_engine(tmp_path: Path, path: Path) -> None:
    """Recalculated with our functions, each computed cell equals the native sheet's (the
    engine's) value, and the totals the engine's total."""
    from converter import evaluate as engine

    doc = json.loads(path.read_text("utf-8"))
    system = doc["system"]
    formulas, got = _recalculated_equals_native(tmp_path, system, doc)
    layout = load_layout(system)
    for name in (f"{system}.totals.computed", f"{system}.totals.formula"):
        comp = next(c for c in layout.computed if c["name"] == name)
        key = ((comp.get("sheet") or layout.input_sheet).upper(), comp["cell"])
        assert _same(got.values[key], engine(doc).total), name
    called = {n for n in got.calls}
    assert called, "no function was called: the sheet is not flavoured"
    assert called <= {n for f in formulas.values() for n in _functions(system) if n + "(" in f}


@pytest.mark.parametrize("system", EVALUATED)
def test_an_empty_flavoured_template_recalculates_as_the_native_one(tmp_path: Path, system: str) -> None:
    """No input: the guards (blank row, blank size) keep every cell as the native template's."""
    _recalculated_equals_native(tmp_path, system, None)


def _functions(system: str) -> set[str]:
    from converter.excel import udfs

    return {n for n in udfs.__all__ if n.startswith(system.upper() + "_")}


@pytest.mark.parametrize("system", FLAVOURED)
def test_each_flavoured_cell_calls_a_function_on_input_cells_only(tmp_path: Path, system: str) -> None:
    """Every cell the flavour lists calls one of the system's functions, and no argument range
    holds a computed cell (a function reading its own result would be circular)."""
    import re

    from converter.sheets.layout import parse_a1

    _, flavoured = _both(tmp_path, system, None)
    formulas = _formula_cells(flavoured)
    native = _formula_cells(tmp_path / "native.xlsx")
    changed = {k: f for k, f in formulas.items() if f != native[k]}
    names, columns = xlwings_formulas(load_layout(system)).flavoured()
    layout = load_layout(system)
    rows = sum(layout.table(t).rows for t, _ in columns)
    assert len(changed) == len(names) + rows
    ref = re.compile(r"(?:'([^']+)'!)?\$?([A-Z]+)\$?(\d+)(?::\$?([A-Z]+)\$?(\d+))?")
    for (sheet, _), formula in changed.items():
        assert any(n + "(" in formula for n in _functions(system)), formula
        call = formula[formula.index(next(n for n in _functions(system) if n + "(" in formula)):]
        for m in ref.finditer(call.split("(", 1)[1]):
            if m.group(2) in ("", None) or '"' in call[max(0, m.start() - 1):m.start()]:
                continue
            on = (m.group(1) or sheet).upper()
            (r0, c0), (r1, c1) = parse_a1(f"{m.group(2)}{m.group(3)}"), parse_a1(
                f"{m.group(4) or m.group(2)}{m.group(5) or m.group(3)}")
            inside = [k for k in formulas if k[0] == on and r0 <= parse_a1(k[1])[0] <= r1
                      and c0 <= parse_a1(k[1])[1] <= c1]
            assert inside == [], (formula, inside)


@pytest.mark.parametrize("system", FLAVOURED)
def test_the_flavour_is_marked_and_the_native_template_is_not(tmp_path: Path, system: str) -> None:
    """The custom property and the data sheet name the flavour; the native template has neither."""
    from converter.io.xlsx_package import open_package

    native, flavoured = _both(tmp_path, system, None)
    for path, mark in ((flavoured, "xlwings"), (native, None)):
        package = open_package(path)
        try:
            assert package.properties.get(FLAVOUR_PROPERTY) == mark
            assert (FLAVOUR_PROPERTY in package.names) == (mark is not None)
        finally:
            package.close()


def test_the_cli_writes_the_flavour_on_request_and_the_native_sheet_by_default(tmp_path: Path) -> None:
    """`template --formulas xlwings` and `write --formulas xlwings` give the flavour's bytes
    (mailgear's too, its sample written with the example catalog); without the option, the
    native ones."""
    from converter.cli import main

    doc = CASES[0]
    assert main(["template", "up", "--formulas", "xlwings", "-o", str(tmp_path / "t.xlsx")]) == 0
    assert (tmp_path / "t.xlsx").read_bytes() == template_bytes("up", formulas="xlwings")
    assert main(["template", "up", "-o", str(tmp_path / "n.xlsx")]) == 0
    assert (tmp_path / "n.xlsx").read_bytes() == template_bytes("up")
    assert main(["write", str(doc), "--formulas", "xlwings", "-o", str(tmp_path / "w.xlsx")]) == 0
    assert (tmp_path / "w.xlsx").read_bytes() == sheet_bytes(json.loads(doc.read_text("utf-8")), formulas="xlwings")
    assert main(["template", "mailgear", "--formulas", "xlwings", "-o", str(tmp_path / "m.xlsx")]) == 0
    assert (tmp_path / "m.xlsx").read_bytes() == template_bytes("mailgear", formulas="xlwings")
    pilot = ROOT / "samples" / "mailgear" / "veteran-custom.json"
    catalog = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"
    assert main(["write", str(pilot), "--catalog", str(catalog), "--formulas", "xlwings",
                 "-o", str(tmp_path / "p.xlsx")]) == 0
    doc = json.loads(pilot.read_text("utf-8"))
    assert (tmp_path / "p.xlsx").read_bytes() == sheet_bytes(doc, None, context_for(doc), formulas="xlwings")


def test_flavoured_costs_follow_the_sheets_rules_readings(tmp_path: Path) -> None:
    """A sheet made under other readings (the ルール sheet's ルール選択): the functions are given
    that block, so each flavoured cost equals the native cell's (the engine's under those
    readings), and the total differs from the defaults' (else the test would prove nothing)."""
    from converter import evaluate as engine

    readings = {"damage_dice": "every_die", "ability_floor": "minus50", "ammo3": "example"}
    doc = next(json.loads(p.read_text("utf-8")) for p in CASES
               if p.stem == "l-super-robot" and p.parent.name == "up")
    doc.pop("declared_total", None)  # the sample's written total is the defaults'; a sheet keeps it typed
    assert engine(doc, readings).total != engine(doc).total
    formulas, got = _recalculated_equals_native(tmp_path, "up", doc, readings)
    assert any("UP_WEAPON_COST(" in f and "ルール" in f for f in formulas.values())
    layout = load_layout("up")
    comp = next(c for c in layout.computed if c["name"] == "up.totals.computed")
    assert _same(got.values[((comp.get("sheet") or layout.input_sheet).upper(), comp["cell"])],
                 engine(doc, readings).total)

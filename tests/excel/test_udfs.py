"""The Excel functions under CPython: every function on every sample equals the engine, the
check names the same findings at the same cells as `mechasheet check` on the workbook, inputs
shaped as each runtime sends them read alike, and importing the module stays light."""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from converter.excel import udfs
from converter.excel.errors import ExcelFunctionError

from .cases import ROOT, SAMPLES, all_calls, context_for, sample_grids, sheet_args

CALLS = all_calls()


@pytest.mark.parametrize("path,call", CALLS, ids=[f"{p}:{c.label}" for p, c in CALLS])
def test_every_function_on_every_sample_equals_the_engine(path, call) -> None:
    """A function given the cells of the sample's written workbook returns the engine's value."""
    assert getattr(udfs, call.function)(*call.args) == call.expected


def test_every_function_is_called_by_the_golden_cases() -> None:
    """No function is left out of the golden cases, and every system has some."""
    assert {c.function for _, c in CALLS} | {"SHEET_CHECK"} == set(udfs.__all__)


@pytest.mark.parametrize("path", SAMPLES, ids=[p.name for p in SAMPLES])
def test_sheet_check_names_what_check_names_on_the_workbook(path: Path) -> None:
    """SHEET_CHECK over the sample's sheets gives the findings (code, severity, cell) that the
    checker gives for the workbook file, and at least one row."""
    from converter import check_path
    from converter.sheets import sheet_bytes

    doc = json.loads(path.read_text("utf-8"))
    rows = udfs.SHEET_CHECK(*sheet_args(sample_grids(path), doc["system"]))
    with tempfile.TemporaryDirectory() as tmp:
        xlsx = Path(tmp) / "sheet.xlsx"
        xlsx.write_bytes(sheet_bytes(doc, None, context_for(doc)))
        report = check_path(xlsx, None, context_for(doc))
    want = [[f.code, f.level.value, f.cell] for f in report.findings] or [["OK", "info", ""]]
    assert [r[:3] for r in rows] == want
    assert all(len(r) == 5 and r[3] and r[4] for r in rows)


def test_sheet_check_finds_a_wrong_stat_at_its_cell() -> None:
    """A stat typed off its step in the unit sheet's grid is reported at that cell."""
    path = ROOT / "samples" / "up" / "m-mobile-suit.json"
    grids = {k: [list(r) for r in g] for k, g in sample_grids(path).items()}
    grids["ユニット"][10][2] = 241.0  # C11: HP
    rows = udfs.SHEET_CHECK(*sheet_args(grids, "up"))
    assert ["UP_STAT_STEP", "error", "ユニット!C11"] in [r[:3] for r in rows]


def test_a_range_from_no_template_is_refused_with_a_readable_message() -> None:
    """A range that is not one of our sheets is refused with a message naming the range."""
    with pytest.raises(ExcelFunctionError, match="range 1 is not a sheet"):
        udfs.UP_TOTAL([["hello", 1], [2, 3]])


# --- inputs as each runtime sends them ------------------------------------------------------------

@pytest.mark.parametrize("size,stat,value", [("M", "hp", 240), ("M", "ＨＰ", 240.0), (["M"], [["hp"]], [[240.0]]),
                                             (" M ", "HP", "２４０")])
def test_scalars_arrive_as_values_floats_or_one_cell_ranges(size, stat, value) -> None:
    """3.0 for 3, a one-cell range for its value, full-width digits: the same cost."""
    assert udfs.UP_STAT_COST(size, stat, value) == 144  # (240 − 200) / 5 steps × 18 (seed 000, size M)


@pytest.mark.parametrize("blank", [None, "", 0])
def test_blank_optional_arguments_take_their_default(blank) -> None:
    """An empty cell (None in classic; "", 0 or None in Lite) for the row means the first."""
    weapons = _weapons()
    assert udfs.UP_WEAPON_COST(weapons, blank) == udfs.UP_WEAPON_COST(weapons, 1) == 240


def _weapons() -> list[list]:
    from .cases import _table_range

    return _table_range(sample_grids(ROOT / "samples" / "up" / "m-mobile-suit.json"), "up", "weapons")


def test_one_row_as_a_flat_list_or_a_one_row_grid() -> None:
    """A single row range arrives as a flat list (classic without ndim) or [[...]]: same cost."""
    row = _weapons()[1]
    assert udfs.UP_WEAPON_COST(row) == udfs.UP_WEAPON_COST([row]) == 200


def test_lite_zeros_for_empty_cells_read_as_empty() -> None:
    """Lite may send empty cells as 0: a row of zeros is no weapon; a 0 in a column that cannot
    hold 0 (text, a list, ○/×, an effect's level, a number whose least value is 1) is empty."""
    from converter.excel.grids import _zero_blank
    from converter.sheets.system_sheet import system_sheet

    columns = [c for c in system_sheet("up").layout.table("weapons").columns if not c.computed]
    weapons = _weapons()
    filled = [any(v not in ("", None) for v in row) for row in weapons]
    zeros = [[0 if v in ("", None) and (not full or _zero_blank(c.kind, c.min)) else v
              for v, c in zip(row, columns, strict=True)]
             for row, full in zip(weapons, filled, strict=True)]
    assert zeros != weapons
    assert [udfs.UP_WEAPON_COST(zeros, i) for i in (1, 2, 3, 4)] == [240, 200, 60, 128]
    with pytest.raises(ExcelFunctionError, match="row 5 is empty"):
        udfs.UP_WEAPON_COST(zeros, 5)


def test_movement_as_flags_or_names() -> None:
    """Four ○/× cells (air, land, sea, space) and a cell naming the types are the same."""
    weapons = _weapons()
    assert udfs.UP_WEAPON_COST(weapons, 4, [["×"], ["○"], [None], ["○"]]) == \
        udfs.UP_WEAPON_COST(weapons, 4, "陸・宇宙") == 128


def test_an_item_the_engine_cannot_price_raises_its_finding() -> None:
    """No number for a stat off its step: the engine's message, in Japanese then English."""
    with pytest.raises(ExcelFunctionError, match="5 刻み.* / HP 241"):
        udfs.UP_STAT_COST("M", "hp", 241)
    with pytest.raises(ExcelFunctionError, match="not one of"):
        udfs.UP_STAT_COST("XL", "hp", 240)


def test_a_column_of_the_wrong_system_is_refused() -> None:
    """A sheet of another system given to a UP function is refused."""
    grids = sheet_args(sample_grids(ROOT / "samples" / "pp" / "veteran.json"), "pp")
    with pytest.raises(ExcelFunctionError, match="not a up sheet"):
        udfs.UP_TOTAL(*grids)


# --- registration: tests/excel/test_xlwings.py (through the real xlwings) -----------------------------

def test_importing_the_functions_imports_no_reader_pandas_or_numpy() -> None:
    """With xlwings installed, importing the functions (and calling one) imports no Excel reader
    (python-calamine, openpyxl), pandas, numpy or xlwings itself (on Linux it would do nothing)."""
    probe = ("import sys, json; import converter.excel.udfs as u; u.UP_STAT_COST('M', 'hp', 240); "
             "print(json.dumps(sorted({m.split('.')[0] for m in sys.modules} & "
             "{'numpy', 'pandas', 'openpyxl', 'python_calamine', 'xlwings', 'xlsxwriter', 'jsonschema'})))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.strip().splitlines()[-1]) == []


def test_template_names_equal_the_writers_templates() -> None:
    """converter/excel/template_names.json is what the writer's templates hold now
    (regenerate: python -m converter.excel.template_names > converter/excel/template_names.json)."""
    from converter.excel.template_names import FILE, build_text

    committed = (ROOT / "converter" / "excel" / FILE).read_text("utf-8")
    assert committed == build_text()


def test_without_jsonschema_the_check_runs_the_rules_and_says_so() -> None:
    """As under Pyodide: jsonschema cannot be imported, so one info finding says the schema's
    checks were left out, and the rules' findings are the same as with it."""
    probe = (
        "import sys, json, importlib.abc\n"
        "class Block(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('jsonschema', 'jsonschema_rs'): raise ImportError(name)\n"
        "sys.meta_path.insert(0, Block())\n"
        "import importlib.util; importlib.util.find_spec = (lambda f: (lambda n, *a: None if n.split('.')[0] == 'jsonschema' else f(n, *a)))(importlib.util.find_spec)\n"
        "from converter import check_document\n"
        "doc = json.load(open('samples/up/s-real-robot.json', encoding='utf-8'))\n"
        "doc['stats']['hp'] += 1\n"
        "print(json.dumps([f.code for f in check_document(doc).findings]))\n")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    from converter import check_document

    doc = json.loads((ROOT / "samples" / "up" / "s-real-robot.json").read_text("utf-8"))
    doc["stats"]["hp"] += 1
    with_schema = [f.code for f in check_document(doc).findings]
    assert "UP_STAT_STEP" in with_schema
    got = json.loads(done.stdout.strip().splitlines()[-1])
    assert got.count("SCHEMA_UNAVAILABLE") == 1
    assert sorted(c for c in got if c != "SCHEMA_UNAVAILABLE") == sorted(with_schema)


def test_rules_readings_as_the_rules_sheet_block_or_its_value_column() -> None:
    """UP_STAT_COST under move_beyond_two=forbid refuses 移動力 +3 (the engine's error), and the
    same readings given as (label, value) rows, (name, label) rows or the value column in the
    declared order give the same cost; an unknown option or value is a readable error."""
    from converter import evaluate
    from converter.rules.options import option_declarations, readings_from_rows

    decl = option_declarations("up")
    labels = {name: spec["label"] for name, spec in decl.items()}
    every = {"damage_dice": "every_die"}
    assert readings_from_rows("up", [[labels["damage_dice"], "every_die"]]) == every
    assert readings_from_rows("up", [["damage_dice", decl["damage_dice"]["values"]["every_die"]]]) == every
    column = [[every.get(name, "")] for name in decl]
    assert readings_from_rows("up", column) == every
    assert readings_from_rows("up", [[None, None], ["", ""]]) == {}
    from .cases import calls_for

    path = next(p for p in SAMPLES if p.name == "m-mobile-suit.json")
    call = next(c for c in calls_for(path) if c.function == "UP_WEAPON_COST")
    weapons, row, movement, budget = call.args
    doc = json.loads(path.read_text("utf-8"))
    index = int(row) - 1
    assert udfs.UP_WEAPON_COST(weapons, row, movement, budget) == evaluate(doc).cost_at(f"/weapons/{index}", 0)
    dice = udfs.UP_WEAPON_COST(weapons, row, movement, budget, [[labels["damage_dice"], "every_die"]])
    assert dice == evaluate(doc, every).cost_at(f"/weapons/{index}", 0)
    assert dice != evaluate(doc).cost_at(f"/weapons/{index}", 0)  # the reading moves this weapon's cost
    for bad in ([["no_such_option", "x"]], [["damage_dice", "sometimes"]]):
        with pytest.raises(ExcelFunctionError) as err:
            udfs.UP_WEAPON_COST(weapons, row, movement, budget, bad)
        assert "mechasheet rules" in str(err.value)

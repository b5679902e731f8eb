"""The Excel functions through the real xlwings package (the test extra), as a user's Excel
reaches them: xlwings Lite's metadata generator and dispatcher (``xlwings.server``, run here
under CPython with the environment Lite's runtime has), and classic xlwings' VBA wrapper
generator. Calls take the samples' ranges exactly as the docs say and as Lite sends them, and
must give what ``mechasheet check --format json`` gives for the same workbook."""
from __future__ import annotations

import inspect
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from converter.excel import udfs

from .cases import ROOT, SAMPLES, all_calls, calls_for, context_for, sample_grids
from .lite import DISPATCH, cut, covers, doc_examples, doc_ranges, doc_signatures, example_calls, lite_call

pytest.importorskip("xlwings")

WHOLE_SHEET = {"UP_TOTAL", "UP_REMAINING", "PP_TOTAL", "PP_INITIATIVE", "PP_UNIT_INITIATIVE", "MAILGEAR_SKILL_LEVEL",
               "MAILGEAR_STAT", "MAILGEAR_DERIVED", "MAILGEAR_FORTUNE", "MAILGEAR_SLOTS"}
BLANKS = ("", None)  # Lite's empty cell, either way
EXCEL_TEXT_LIMIT = 255  # characters of a function's or an argument's description (Excel's MacroOptions)

SERVER = '''
import sys
# xlwings tries `from pyodide.ffi import JsNull` for every cell (Lite's empty cell); outside
# Pyodide each failed import searches sys.path (about 1 ms a cell): fail it at once instead
sys.modules["pyodide"] = None
''' + DISPATCH + '''
import converter.excel.udfs as udfs
cases = json.load(open(sys.argv[1], encoding="utf-8"))
out = {"meta": server.custom_functions_meta(udfs), "results": asyncio.run(dispatch(udfs, cases))}
json.dump(out, open(sys.argv[2], "w", encoding="utf-8"), ensure_ascii=False)
'''

CLASSIC = '''
import io, sys, types
# xlwings.udfs imports pywin32 (Windows only) at module level; the VBA generator uses none of it
for name in ("pythoncom", "pywintypes", "win32com", "win32com.client"):
    sys.modules[name] = types.ModuleType(name)
sys.modules["pywintypes"].com_error = OSError
sys.modules["pythoncom"].CoInitialize = None  # a thread pool's initializer, never run here
sys.modules["win32com.client"].Dispatch = None
import xlwings
import xlwings.udfs as classic
# what xlwings/__init__.py binds on Windows with pywin32, and the platform our registration asks
xlwings.func, xlwings.arg, xlwings.ret = classic.xlfunc, classic.xlarg, classic.xlret
sys.platform = "win32"
import converter.excel.udfs as udfs


class Workbook:  # the COM workbook: the generator reads its name only
    Name = "sheet.xlsm"


out = io.StringIO()
classic.generate_vba_wrapper("converter.excel.udfs", udfs, out, Workbook())
sys.stdout.write(out.getvalue())
'''


def _doc_sheet_args(path: Path, also: bool = False) -> list[list[list[Any]]]:
    """The sample workbook's ranges the docs tell a user to pass (SHEET_CHECK's too, with ``also``)."""
    system = json.loads(path.read_text("utf-8"))["system"]
    refs, more = doc_ranges()[system]
    grids = sample_grids(path)
    return [cut(grids, r) for r in refs + (more if also else [])]


def _doc_calls() -> list[tuple[Path, Any, list[Any]]]:
    """Each whole-sheet function's first golden call on each sample, with the docs' ranges
    instead of every sheet (one call a function and sample: the ranges are large)."""
    out = []
    for path in SAMPLES:
        every = len(sample_grids(path))
        done: set[str] = set()
        for call in calls_for(path):
            if call.function in WHOLE_SHEET and call.function not in done:
                done.add(call.function)
                out.append((path, call, list(call.args[:len(call.args) - every]) + _doc_sheet_args(path)))
    return out


def _blank(path: Path) -> Any:
    """The empty cell of a sample's docs-range calls: "" and null by turns, so that each system
    has samples sent both ways (every call both ways would double minutes of conversion)."""
    return BLANKS[SAMPLES.index(path) % 2]


def _item_calls() -> list[tuple[str, Any]]:
    """The first golden call of each function on items or blocks of inputs on each sample. The
    whole-sheet ones go through the dispatcher on the docs' ranges (below), every golden call
    in test_pyodide.py: xlwings converts each cell of each range in Python, thousands a call."""
    seen: set[tuple[str, str]] = set()
    out = []
    for p, c in all_calls():
        if c.function not in WHOLE_SHEET and (p, c.function) not in seen:
            seen.add((p, c.function))
            out.append((p, c))
    return out


@pytest.fixture(scope="module")
def checked(tmp_path_factory) -> dict[str, Any]:
    """`mechasheet check --format json` of every sample's written workbook (one process)."""
    from converter.sheets import sheet_bytes

    folder = tmp_path_factory.mktemp("books")
    for path in SAMPLES:
        doc = json.loads(path.read_text("utf-8"))
        (folder / f"{path.stem}.xlsx").write_bytes(sheet_bytes(doc, None, context_for(doc)))
    done = subprocess.run([sys.executable, "-m", "converter", "check", str(folder), "--format", "json", "--jobs", "1"],
                          cwd=ROOT, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    report = json.loads(done.stdout)
    return {Path(f["path"]).stem: f for f in report["files"]}


@pytest.fixture(scope="module")
def lite(tmp_path_factory) -> dict[str, Any]:
    """One CPython process running xlwings' own Lite code over every call: the metadata, and
    each call's result through the dispatcher, keyed by what it was."""
    keyed: list[tuple[str, dict[str, Any]]] = []
    for path, call in _item_calls():  # "" here, null in the Pyodide test
        keyed.append((f"golden {path}:{call.label}", lite_call(call.function, list(call.args), "")))
    for path, call, args in _doc_calls():
        keyed.append((f"docs {path.stem}:{call.label}", lite_call(call.function, args, _blank(path))))
    for path in SAMPLES:
        keyed.append((f"check {path.stem}", lite_call("SHEET_CHECK", _doc_sheet_args(path, True), _blank(path))))
        keyed.append((f"check-values {path.stem}", lite_call("SHEET_CHECK", _doc_sheet_args(path), _blank(path))))
    for blank in BLANKS:
        for n, ex in enumerate(example_calls()):
            keyed.append((f"example {blank!r} {n}", lite_call(ex["function"], ex["args"], blank)))
    tmp = tmp_path_factory.mktemp("lite")
    (tmp / "calls.json").write_text(json.dumps([c for _, c in keyed], ensure_ascii=False), "utf-8")
    (tmp / "run.py").write_text(SERVER, "utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")}
    done = subprocess.run([sys.executable, str(tmp / "run.py"), str(tmp / "calls.json"), str(tmp / "out.json")],
                          cwd=ROOT, capture_output=True, text=True, timeout=600, env={**env, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads((tmp / "out.json").read_text("utf-8"))
    return {"meta": out["meta"], "results": dict(zip((k for k, _ in keyed), out["results"], strict=True))}


def _cell(value: Any) -> list[list[Any]]:
    return [[value]]


# --- metadata -------------------------------------------------------------------------------------------

def test_metadata_lists_every_function_with_its_arguments(lite) -> None:
    """xlwings' metadata generator lists every function once, under its own name, with each
    parameter by name, optional exactly where it has a default, every range a matrix."""
    functions = {f["id"]: f for f in lite["meta"]["functions"]}
    assert set(functions) == set(udfs.__all__)
    for name, meta in functions.items():
        params = inspect.signature(getattr(udfs, name)).parameters
        assert meta["name"] == name
        assert [p["name"] for p in meta["parameters"]] == list(params), name
        assert [bool(p.get("optional")) for p in meta["parameters"]] == \
            [p.default is not p.empty for p in params.values()], name
        assert all(p["dimensionality"] == "matrix" and p["type"] == "any" for p in meta["parameters"]), name
        assert meta["result"] == {"dimensionality": "matrix", "type": "any"}


def test_names_and_help_texts_are_valid_for_excel(lite) -> None:
    """Names are Excel function names (letters, digits, underscore; not a cell reference in A1
    or R1C1 style, which Excel would read instead), and every description is filled and within
    Excel's 255 characters."""
    for meta in lite["meta"]["functions"]:
        name = meta["name"]
        assert re.fullmatch(r"[A-Z][A-Z0-9_]*", name) and len(name) <= 64, name
        assert not re.fullmatch(r"[A-Z]{1,3}[0-9]+", name) and not re.fullmatch(r"R[0-9]*C[0-9]*", name), name
        assert 0 < len(meta["description"]) <= EXCEL_TEXT_LIMIT, name
        for p in meta["parameters"]:
            assert re.fullmatch(r"[a-z][a-z0-9_]*", p["name"]), (name, p["name"])
            assert 0 < len(p["description"]) <= EXCEL_TEXT_LIMIT, (name, p["name"])
            assert not p["description"].startswith("Positional argument"), (name, p["name"])  # xlwings' default


def test_the_docs_table_lists_each_function_as_excel_does(lite) -> None:
    """docs/excel-plugin.md's table gives every function with xlwings' parameters, in
    brackets exactly the optional ones."""
    listed = doc_signatures()
    functions = {f["id"]: f for f in lite["meta"]["functions"]}
    assert set(listed) == set(functions)
    for name, meta in functions.items():
        assert listed[name] == [f"[{p['name']}]" if p.get("optional") else p["name"] for p in meta["parameters"]]


# --- calls through the dispatcher -----------------------------------------------------------------------

def test_every_golden_call_through_the_dispatcher_equals_the_engine(lite) -> None:
    """Each function on items or blocks on every sample, sent as Lite sends it (empty cells as
    ""; test_pyodide.py sends null), gives through xlwings' dispatcher the engine's value."""
    results = lite["results"]
    assert {c.function for _, c in _item_calls()} | WHOLE_SHEET | {"SHEET_CHECK"} == set(udfs.__all__)
    wrong = {f"{p}:{c.label}": results[f"golden {p}:{c.label}"] for p, c in _item_calls()
             if results[f"golden {p}:{c.label}"] != ["ok", _cell(c.expected)]}
    assert wrong == {}


def _from_check(report: dict[str, Any], function: str, args: list[Any]) -> Any:
    """The value `mechasheet check --format json` gives for a whole-sheet function."""
    totals, derived = report["totals"], report["derived"]
    if function in ("UP_TOTAL", "PP_TOTAL"):
        return totals["computed"]
    if function == "UP_REMAINING":
        return totals["budget"] - totals["computed"]
    pointer = {"PP_INITIATIVE": "/derived/initiative", "PP_UNIT_INITIATIVE": "/derived/unit_initiative",
               "MAILGEAR_FORTUNE": "/derived/fortune", "MAILGEAR_SLOTS": "/derived/slots_used"}.get(function)
    if function == "MAILGEAR_STAT":
        pointer = f"/derived/stats/{args[0]}"
    elif function == "MAILGEAR_DERIVED":
        pointer = f"/derived/{args[0]}"
    elif function == "MAILGEAR_SKILL_LEVEL":
        pointer = next(p for p, d in derived.items() if p.startswith("/derived/skills/") and d["label"] == args[0])
    return derived[pointer]["value"]


def test_whole_sheet_functions_on_the_docs_ranges_equal_check(lite, checked) -> None:
    """Each whole-sheet function given exactly the ranges the docs list (no GM承認, no hidden
    sheet; empty cells as "" or null) gives what `mechasheet check --format json` gives for
    the workbook, on every sample and system."""
    assert {json.loads(p.read_text("utf-8"))["system"] for p in SAMPLES if _blank(p) is None} == \
        {json.loads(p.read_text("utf-8"))["system"] for p in SAMPLES if _blank(p) == ""}
    calls = _doc_calls()
    assert {c.function for _, c, _ in calls} == WHOLE_SHEET
    wrong = {}
    for path, call, args in calls:
        want = _from_check(checked[path.stem], call.function, list(args))
        got = lite["results"][f"docs {path.stem}:{call.label}"]
        if got != ["ok", _cell(want)] or want != call.expected:
            wrong[f"{path.stem}:{call.label}"] = (got, want, call.expected)
    assert wrong == {}


def test_sheet_check_on_the_docs_ranges_equals_check(lite, checked) -> None:
    """SHEET_CHECK on the docs' ranges with GM承認 and the hidden sheet names what `mechasheet
    check --format json` names (code, severity, cell); on the value ranges alone it never
    reports a sheet as missing."""
    for path in SAMPLES:
        findings = checked[path.stem]["findings"]
        want = [[f["code"], f["severity"], f["cell"]] for f in findings] or [["OK", "info", ""]]
        status, rows = lite["results"][f"check {path.stem}"]
        assert status == "ok" and [r[:3] for r in rows] == want, path.stem
        status, rows = lite["results"][f"check-values {path.stem}"]
        assert status == "ok" and not [r for r in rows if r[0].startswith("SHEET_")], (path.stem, rows)


@pytest.mark.parametrize("blank", BLANKS, ids=["empty-string", "null"])
def test_the_docs_examples_give_the_documented_results(lite, blank) -> None:
    """Every example formula of the docs, on the sample it names, gives the documented result."""
    examples = example_calls()
    assert {e["function"] for e in examples} >= {"UP_STAT_COST", "UP_TOTAL", "PP_TOTAL", "SHEET_CHECK"}
    for n, ex in enumerate(examples):
        status, value = lite["results"][f"example {blank!r} {n}"]
        assert status == "ok", (ex["formula"], value)
        assert value[0][0] == ex["result"], ex["formula"]


def test_the_docs_ranges_hold_every_sample_sheet() -> None:
    """Each range the docs list holds every filled cell of that sheet in every sample, and the
    docs name a range for every sheet of each system's template."""
    from converter.excel.template_names import template_names

    ranges = doc_ranges()
    for path in SAMPLES:
        system = json.loads(path.read_text("utf-8"))["system"]
        refs = ranges[system][0] + ranges[system][1]
        assert {r.split("!")[0] for r in refs} == set(template_names(system).marks), system
        grids = sample_grids(path)
        assert all(covers(grids, r) for r in refs), path.stem
        assert len(refs) <= 6  # SHEET_CHECK takes six ranges


def test_a_needed_sheet_left_out_is_named(lite) -> None:
    """A value whose sheet was left out is a message naming that sheet, not a wrong number."""
    from converter.excel.errors import ExcelFunctionError

    path = ROOT / "samples" / "up" / "m-mobile-suit.json"
    grids = sample_grids(path)
    with pytest.raises(ExcelFunctionError, match="武装"):
        udfs.UP_TOTAL(grids["ユニット"], grids["特殊能力"])
    with pytest.raises(ExcelFunctionError, match="ユニット"):
        udfs.UP_TOTAL(grids["武装"], grids["特殊能力"])
    assert udfs.UP_TOTAL(grids["ユニット"], grids["武装"], grids["特殊能力"]) == 1459


def test_pp_values_without_the_machine_sheet(checked) -> None:
    """pp's total and initiative need only the character sheet (the 機体 sheet prices nothing):
    given alone it gives what `mechasheet check` gives; unit initiative names 機体 as needed."""
    from converter.excel.errors import ExcelFunctionError

    for path in (p for p in SAMPLES if p.parent.name == "pp"):
        grids = sample_grids(path)
        report = checked[path.stem]
        assert udfs.PP_TOTAL(grids["キャラクター"]) == report["totals"]["computed"]
        assert udfs.PP_INITIATIVE(grids["キャラクター"]) == report["derived"]["/derived/initiative"]["value"]
        with pytest.raises(ExcelFunctionError, match="機体"):
            udfs.PP_UNIT_INITIATIVE(grids["キャラクター"], grids["ルール"])


# --- classic xlwings -------------------------------------------------------------------------------------

def test_classic_vba_wrapper_holds_every_function() -> None:
    """xlwings' classic generator writes a VBA function for each of ours, optional exactly
    where Python has a default, each calling XLPy.CallUDF on converter.excel.udfs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")}
    done = subprocess.run([sys.executable, "-c", CLASSIC], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          env={**env, "PYTHONPATH": str(ROOT)})
    assert done.returncode == 0, done.stderr[-3000:]
    vba = done.stdout
    declared = dict(re.findall(r"^Function (\w+)\((.*)\)$", vba, re.M))
    assert set(declared) == set(udfs.__all__)
    for name, params in declared.items():
        sig = inspect.signature(getattr(udfs, name)).parameters.values()
        assert params.split(", ") == [("Optional " if p.default is not p.empty else "") + p.name for p in sig]
        assert f'{name} = XLPy.CallUDF("converter.excel.udfs", "{name}", ' in vba


def test_classic_reads_the_config_key_the_docs_give() -> None:
    """The xlwings.conf key the docs give is the one xlwings' VBA asks for (keys upper-cased):
    `UDF Modules`, not `UDF_MODULES`."""
    import xlwings

    bas = (Path(xlwings.__file__).parent / "xlwings.bas").read_text("utf-8", errors="replace")
    assert 'GetUdfModules = GetConfig("UDF MODULES")' in bas
    assert re.search(r"d\.Add UCase\(cell\.Value\)", bas)
    text = (ROOT / "docs" / "excel-plugin.md").read_text("utf-8")
    assert "`UDF Modules` in column A and `converter.excel.udfs` in column B" in text
    assert "UDF_MODULES` =" not in text and "`UDF_MODULES` =" not in text
    assert doc_examples()

"""The Excel functions under real Pyodide (what xlwings Lite runs), in Node.

Node's ``pyodide`` package (pinned in .ci/run) loads from its own folder with no network; the
source tree is mounted and imported as is (standard library only, no jsonschema). Every
function is called on every sample with the cells CPython gives them and must return CPython's
numbers; SHEET_CHECK gives CPython's findings plus the one saying the schema was left out.
Skips without Node or the package, except under CI=true.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from converter.excel import udfs

from .cases import ROOT, SAMPLES, all_calls, sample_grids, sheet_args

PYODIDE_VERSION = "0.28.3"  # .ci/run installs this one
HERE = Path(__file__).resolve().parent


def pyodide_dir() -> Path | None:
    """Where Node's pyodide package is: $MECHASHEET_PYODIDE, else the CI's cache folder."""
    for base in (os.environ.get("MECHASHEET_PYODIDE"), Path.home() / ".cache" / "mechasheet-pyodide"):
        if base:
            folder = Path(base) / "node_modules" / "pyodide"
            if (folder / "pyodide.mjs").is_file():
                return folder
    return None


def _need_pyodide() -> Path:
    node, folder = shutil.which("node"), pyodide_dir()
    if node and folder:
        return folder
    if os.environ.get("CI") == "true":
        pytest.fail("Node and its pyodide package are needed under CI=true (.ci/run installs them)")
    pytest.skip("Node or its pyodide package is missing (npm install --prefix ~/.cache/mechasheet-pyodide "
                f"pyodide@{PYODIDE_VERSION})")


SCRIPT = '''
import json, sys, traceback
import converter.excel.udfs as u
cases = json.load(open("/work/cases.json", encoding="utf-8"))
out = {"version": sys.version, "platform": sys.platform, "results": [], "checks": []}
for c in cases["calls"]:
    try:
        out["results"].append(["ok", getattr(u, c["function"])(*c["args"])])
    except Exception as exc:
        out["results"].append(["error", f"{type(exc).__name__}: {exc}"])
for grids in cases["checks"]:
    out["checks"].append(u.SHEET_CHECK(*grids))
out["modules"] = sorted({m.split(".")[0] for m in sys.modules} & {"jsonschema", "xlsxwriter", "python_calamine",
                                                                 "pandas", "numpy", "openpyxl", "xlwings"})
json.dump(out, open("/work/out.json", "w", encoding="utf-8"), ensure_ascii=False)
'''


def test_every_function_under_pyodide_equals_cpython(tmp_path: Path) -> None:
    """Under Pyodide every function on every sample returns CPython's value, and SHEET_CHECK
    CPython's findings with one SCHEMA_UNAVAILABLE (no jsonschema there)."""
    folder = _need_pyodide()
    calls = all_calls()
    checks = [sheet_args(sample_grids(p), json.loads(p.read_text("utf-8"))["system"]) for p in SAMPLES]
    (tmp_path / "cases.json").write_text(json.dumps(
        {"calls": [{"function": c.function, "args": list(c.args)} for _, c in calls], "checks": checks},
        ensure_ascii=False), "utf-8")
    (tmp_path / "run.py").write_text(SCRIPT, "utf-8")
    runner = tmp_path / "run.mjs"
    runner.write_text((HERE / "pyodide_run.mjs").read_text("utf-8").replace(
        "PYODIDE_INDEX", (folder / "pyodide.mjs").as_uri()), "utf-8")
    done = subprocess.run(["node", str(runner), str(folder) + "/", str(ROOT), str(tmp_path), "run.py"],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    installed = json.loads((folder / "package.json").read_text("utf-8"))["version"]
    assert installed == PYODIDE_VERSION, f"pyodide {installed} installed, {PYODIDE_VERSION} pinned"
    out = json.loads((tmp_path / "out.json").read_text("utf-8"))
    assert out["platform"] == "emscripten"
    assert out["modules"] == []
    got = {f"{p}:{c.label}": r for (p, c), r in zip(calls, out["results"], strict=True)}
    want = {f"{p}:{c.label}": ["ok", getattr(udfs, c.function)(*c.args)] for p, c in calls}
    assert got == want
    assert all(r == ["ok", c.expected] for (_, c), r in zip(calls, out["results"], strict=True))
    for grids, rows in zip(checks, out["checks"], strict=True):
        cpython = [r for r in udfs.SHEET_CHECK(*grids) if r[0] != "OK"]
        assert [r for r in rows if r[0] != "SCHEMA_UNAVAILABLE"] == cpython
        assert [r[0] for r in rows].count("SCHEMA_UNAVAILABLE") == 1

"""The Excel functions as xlwings Lite runs them: Pyodide (in Node) with the project's built
wheel and xlwings' own wheel installed by micropip from local files, `main.py` exactly as
docs/excel-plugin.md shows it, every call through xlwings' dispatcher.

Node's ``pyodide`` package (pinned in .ci/run) loads from its own folder with no network;
micropip and xlwings' pure-Python wheels are fetched once with pip (``pip download``) into
that folder's ``wheels``, the project's wheel is built once per session (``python -m build``,
the docs' command). Every function on every sample must return CPython's value, every docs
example its documented result, SHEET_CHECK CPython's findings plus the one saying the schema was
left out. Skips without Node or the package, except under CI=true.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

import pytest

from ..needs import missing as needed

from converter.excel import udfs

from .cases import ROOT, SAMPLES, all_calls, sample_grids, sheet_args
from .lite import DISPATCH, doc_main_py, doc_text, doc_wheel_name, example_calls, lite_call

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


@pytest.fixture(scope="session")
def project_wheel(tmp_path_factory) -> Path:
    """The project's wheel, built once per session with the docs' command."""
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
                          capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    return next(out.glob("*.whl"))


def _runtime_wheels(folder: Path) -> tuple[Path, Path]:
    """(micropip's wheel, xlwings' wheel): the versions Pyodide pins and the test extra installed,
    pure Python, fetched once with pip into the pyodide folder."""
    lock = json.loads((folder / "pyodide-lock.json").read_text("utf-8"))["packages"]["micropip"]
    wanted = {"micropip": lock["version"], "xlwings": metadata.version("xlwings")}
    cache = folder.parent.parent / "wheels"
    found = {n: cache / f"{n}-{v}-py3-none-any.whl" for n, v in wanted.items()}
    missing = [f"{n}=={wanted[n]}" for n, p in found.items() if not p.is_file()]
    if missing:
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                               "--platform", "any", "--implementation", "py", "--python-version", "3.13",
                               "-d", str(cache), *missing], capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            needed(f"pip download {' '.join(missing)}", done.stderr.strip()[-300:])
    return found["micropip"], found["xlwings"]


SCRIPT = '''
import json
import micropip
cases = json.load(open("/work/cases.json", encoding="utf-8"))
await micropip.install([f"emfs:/work/{name}" for name in cases["wheels"]])
''' + DISPATCH + '''
import sys
os.makedirs("/home/pyodide/lite", exist_ok=True)
with open("/home/pyodide/lite/main.py", "w", encoding="utf-8") as f:
    f.write(cases["main"])
sys.path.insert(0, "/home/pyodide/lite")
import main
out = {"platform": sys.platform, "meta": server.custom_functions_meta(main),
       "results": await dispatch(main, cases["calls"]),
       "installed": sorted(d.metadata["Name"] for d in __import__("importlib.metadata").metadata.distributions())}
out["modules"] = sorted({m.split(".")[0] for m in sys.modules} & {"jsonschema", "xlsxwriter", "python_calamine",
                                                                 "pandas", "numpy", "openpyxl"})
json.dump(out, open("/work/out.json", "w", encoding="utf-8"), ensure_ascii=False)
'''


def test_lite_installs_the_wheel_and_every_call_equals_cpython(tmp_path: Path, project_wheel: Path) -> None:
    """Under Pyodide, micropip installs the built wheel beside xlwings' from local files, the
    docs' main.py registers every function, and through xlwings' dispatcher every function on
    every sample returns CPython's value, every docs example its documented result, and
    SHEET_CHECK CPython's findings with one SCHEMA_UNAVAILABLE (no jsonschema there)."""
    folder = pyodide_dir()
    if not (shutil.which("node") and folder):
        needed("Node and its pyodide package",
               f"npm install --prefix ~/.cache/mechasheet-pyodide pyodide@{PYODIDE_VERSION}")
    assert folder is not None
    micropip_wheel, xlwings_wheel = _runtime_wheels(folder)
    for wheel in (project_wheel, xlwings_wheel):
        shutil.copy(wheel, tmp_path / wheel.name)
    calls = all_calls()
    examples = example_calls()
    checks = [sheet_args(sample_grids(p), json.loads(p.read_text("utf-8"))["system"]) for p in SAMPLES]
    sent = ([lite_call(c.function, list(c.args), None) for _, c in calls]  # "" in test_xlwings.py
            + [lite_call(e["function"], e["args"], "") for e in examples]
            + [lite_call("SHEET_CHECK", grids, "") for grids in checks])
    (tmp_path / "cases.json").write_text(json.dumps(
        {"wheels": [project_wheel.name, xlwings_wheel.name], "main": doc_main_py(), "calls": sent},
        ensure_ascii=False), "utf-8")
    (tmp_path / "run.py").write_text(SCRIPT, "utf-8")
    runner = tmp_path / "run.mjs"
    runner.write_text((HERE / "pyodide_run.mjs").read_text("utf-8").replace(
        "PYODIDE_INDEX", (folder / "pyodide.mjs").as_uri()), "utf-8")
    done = subprocess.run(["node", str(runner), str(folder) + "/", str(micropip_wheel), str(tmp_path), "run.py"],
                          capture_output=True, text=True, timeout=900)
    # Node prints the line of pyodide.asm.js that raised: minified, hundreds of kilobytes
    assert done.returncode == 0, "\n".join(x for x in done.stderr.splitlines() if len(x) < 500)[-3000:]
    installed = json.loads((folder / "package.json").read_text("utf-8"))["version"]
    assert installed == PYODIDE_VERSION, f"pyodide {installed} installed, {PYODIDE_VERSION} pinned"
    out = json.loads((tmp_path / "out.json").read_text("utf-8"))
    assert out["platform"] == "emscripten"
    assert out["modules"] == []
    assert {"mechasheet", "xlwings"} <= set(out["installed"])
    assert {f["id"] for f in out["meta"]["functions"]} == set(udfs.__all__)
    results = iter(out["results"])
    got = {f"{p}:{c.label}": next(results) for p, c in calls}
    assert got == {f"{p}:{c.label}": ["ok", [[c.expected]]] for p, c in calls}
    for example in examples:
        status, value = next(results)
        assert status == "ok" and value[0][0] == example["lite"], (example["formula"], value)
    for grids in checks:
        status, rows = next(results)
        cpython = [r for r in udfs.SHEET_CHECK(*grids) if r[0] != "OK"]
        assert status == "ok"
        assert [r for r in rows if r[0] != "SCHEMA_UNAVAILABLE"] == cpython
        assert [r[0] for r in rows].count("SCHEMA_UNAVAILABLE") == 1


def test_the_docs_install_what_the_tests_build(project_wheel: Path) -> None:
    """The docs build the wheel with the command this test runs, name the file it makes in
    Lite's requirements.txt and in classic's pip line, and show the main.py Pyodide runs."""
    text = doc_text()
    assert "python -m build --wheel" in text
    assert doc_wheel_name() == project_wheel.name
    assert f"`dist/{project_wheel.name}`" in text
    assert f'"mechasheet[excel] @ file:///C:/path/to/{project_wheel.name}"' in text
    assert '"mechasheet[excel] @ git+' in text
    assert doc_main_py() == "from converter.excel.udfs import *  # noqa: F401,F403  (every function, registered by Lite)\n"

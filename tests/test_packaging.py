"""The distribution's dependencies are what the code imports, and none under Pyodide."""
from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
# import name → distribution name, where they differ
DISTRIBUTION_OF = {"python_calamine": "python-calamine", "jsonschema_rs": "jsonschema-rs"}


def _runtime() -> list[Requirement]:
    return [Requirement(r) for r in PYPROJECT["project"]["dependencies"]]


def _third_party_imports(folder: Path) -> dict[str, set[str]]:
    """Top-level modules imported anywhere under ``folder`` that are neither ours nor stdlib."""
    found: dict[str, set[str]] = {}
    for path in folder.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = ([a.name for a in node.names] if isinstance(node, ast.Import)
                     else [node.module] if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module
                     else [])
            for name in names:
                top = name.split(".")[0]
                if top != "converter" and top not in sys.stdlib_module_names:
                    found.setdefault(top, set()).add(str(path.relative_to(ROOT)))
    return found


def _extras() -> set[str]:
    """Distributions of the optional features (every extra but the tests')."""
    return {canonicalize_name(Requirement(r).name)
            for name, reqs in PYPROJECT["project"]["optional-dependencies"].items() if name != "test"
            for r in reqs}


def test_every_import_is_a_declared_dependency() -> None:
    """Each third-party module the package imports is a runtime dependency or, for an optional
    feature, an extra's; every runtime dependency is imported."""
    imported = {canonicalize_name(DISTRIBUTION_OF.get(m, m)) for m in _third_party_imports(ROOT / "converter")}
    declared = {canonicalize_name(r.name) for r in _runtime()}
    assert imported - _extras() == declared


def test_the_engine_imports_the_standard_library_only() -> None:
    """converter/core and converter/rules import nothing outside the standard library."""
    for folder in ("core", "rules"):
        assert _third_party_imports(ROOT / "converter" / folder) == {}, folder


def test_nothing_is_installed_under_pyodide() -> None:
    """Every runtime dependency carries a marker that leaves it out under emscripten (Pyodide)."""
    pyodide = {"sys_platform": "emscripten", "platform_system": "Emscripten"}
    linux = {"sys_platform": "linux", "platform_system": "Linux"}
    assert [r.name for r in _runtime() if r.marker is None or r.marker.evaluate(pyodide)] == []
    assert all(r.marker.evaluate(linux) for r in _runtime())


def test_test_tools_are_not_runtime_dependencies() -> None:
    """pytest and hypothesis come with the test extra only."""
    runtime = {canonicalize_name(r.name) for r in _runtime()}
    test = {canonicalize_name(Requirement(r).name) for r in PYPROJECT["project"]["optional-dependencies"]["test"]}
    assert {"pytest", "hypothesis"} <= test and not ({"pytest", "hypothesis"} & runtime)

"""docs/architecture.md is a promise: every module is listed there, every listed module exists,
and the walls it states hold on the import graph (lazy imports inside functions included)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "converter"
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
SYSTEMS = ("up", "mailgear", "pp")


def _module(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    """Every converter module ``path`` imports, at the top or inside a function."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("converter"))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("converter"):
                modules = {f"{target}.{a.name}" for a in node.names if _is_module(f"{target}.{a.name}")}
                out.update(modules)
                if len(modules) < len(node.names):  # a name the module itself defines
                    out.add(target)
    return out


def _is_module(name: str) -> bool:
    """Whether the dotted ``name`` is a module or package of converter (not a name inside one)."""
    path = PACKAGE.parent / name.replace(".", "/")
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


MODULES = {_module(p): p for p in PACKAGE.rglob("*.py")}
GRAPH = {m: _imports(p) for m, p in MODULES.items()}


def _listed() -> set[str]:
    """The module paths the page's table names, `<system>` expanded."""
    paths = set()
    for raw in re.findall(r"`(converter/[^`]+?\.(?:py|toml))`", DOC):
        for system in SYSTEMS if "<system>" in raw else ("",):
            paths.add(raw.replace("<system>", system))
    return paths


def test_every_module_is_listed() -> None:
    """Each .py file of the package appears in docs/architecture.md."""
    listed = _listed()
    missing = sorted(str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")
                     if str(p.relative_to(ROOT)) not in listed
                     and not (p.name == "__init__.py" and p.parent.name in SYSTEMS))
    assert missing == []


def test_every_listed_module_exists() -> None:
    """No entry of the page names a module that is gone."""
    assert sorted(p for p in _listed() if not (ROOT / p).exists()) == []


def _violations(prefix: str, allowed: tuple[str, ...]) -> dict[str, list[str]]:
    out = {}
    for module, imported in GRAPH.items():
        if module == prefix or module.startswith(prefix + "."):
            bad = sorted(i for i in imported if not i.startswith(allowed))
            if bad:
                out[module] = bad
    return out


def test_core_imports_only_core() -> None:
    """converter.core stands on the standard library alone."""
    assert _violations("converter.core", ("converter.core",)) == {}


def test_rules_import_only_core_and_rules() -> None:
    """converter.rules imports the core and itself: no reader, checker, sheet or schema validator."""
    assert _violations("converter.rules", ("converter.core", "converter.rules")) == {}


@pytest.mark.parametrize("system", SYSTEMS)
def test_one_system_never_imports_another(system: str) -> None:
    """Conversion will go through a common model, not through each other."""
    others = tuple(f"converter.rules.{s}" for s in SYSTEMS if s != system)
    prefix = f"converter.rules.{system}"
    bad = {m: sorted(i for i in imported if i.startswith(others))
           for m, imported in GRAPH.items() if m == prefix or m.startswith(prefix + ".")}
    assert {m: v for m, v in bad.items() if v} == {}


def test_the_checker_imports_no_reader() -> None:
    """converter.check takes Sources: it never imports io, sheets, the runner or the CLI."""
    forbidden = ("converter.io", "converter.sheets", "converter.batch", "converter.cli")
    bad = {m: sorted(i for i in imported if i.startswith(forbidden))
           for m, imported in GRAPH.items() if m.startswith("converter.check")}
    assert {m: v for m, v in bad.items() if v} == {}


def _top_level_imports(path: Path) -> set[str]:
    """The converter modules ``path`` imports at module level (not inside a function)."""
    module = _module(path)
    package = module if path.name == "__init__.py" else module.rsplit(".", 1)[0]
    out: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                target = ".".join(base[: len(base) - node.level + 1] + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.startswith("converter"):
                out.add(target)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("converter"))
    return out


def test_convert_imports_core_and_rules_at_module_level() -> None:
    """converter.convert imports core, rules and itself at module level; io, sheets and check
    only inside the functions of its front end (files.py) and the target's check."""
    allowed = ("converter.core", "converter.rules", "converter.convert")
    bad = {m: sorted(i for i in _top_level_imports(p) if not i.startswith(allowed))
           for m, p in MODULES.items() if m.startswith("converter.convert")}
    assert {m: v for m, v in bad.items() if v} == {}


@pytest.mark.parametrize("system", SYSTEMS)
def test_each_systems_lift_and_lower_read_only_its_own_rules(system: str) -> None:
    """converter/convert/<system>.py imports its own system's rules, never another's."""
    others = tuple(f"converter.rules.{s}" for s in SYSTEMS if s != system)
    assert sorted(i for i in GRAPH[f"converter.convert.{system}"] if i.startswith(others)) == []


def test_excel_functions_import_core_and_themselves_at_module_level() -> None:
    """converter.excel.udfs (what Lite's main.py and classic's UDF_MODULES import) imports core
    and converter.excel at module level; rules, sheets and the checker inside the functions."""
    allowed = ("converter.core", "converter.excel")
    path = next(p for m, p in MODULES.items() if m == "converter.excel.udfs")
    assert sorted(i for i in _top_level_imports(path) if not i.startswith(allowed)) == []


def _cycles() -> list[list[str]]:
    """The import graph's strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in GRAPH.get(v, ()):
            if w not in MODULES:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(MODULES):
        if module not in index:
            visit(module)
    return found


def test_the_import_graph_has_no_cycle() -> None:
    """No module imports, even lazily, a module that imports it back (through any chain)."""
    assert _cycles() == []


# Each package and the packages it may import (itself always). A front end depends on the
# engine and the readers, never the reverse; nothing imports the command line.
WALLS = {
    "converter.core": (),
    "converter.rules": ("core",),
    "converter.io": ("core", "rules"),
    "converter.check": ("core", "rules"),
    "converter.sheets": ("core", "rules", "io", "check"),
    "converter.legacy": ("core", "rules", "io", "sheets"),
    "converter.batch": ("core", "rules", "io", "check"),
    "converter.imports": ("core", "rules", "io", "check", "sheets", "legacy", "batch"),
    "converter.audit": ("core", "rules", "io", "check", "sheets", "legacy", "batch", "imports"),
    "converter.convert": ("core", "rules", "io", "check", "sheets"),
    "converter.export": ("core", "rules", "io", "check", "sheets", "legacy", "imports"),
    "converter.excel": ("core", "rules", "io", "check", "sheets"),
    "converter.web": ("core", "rules", "io", "check", "sheets", "legacy", "batch", "imports", "audit", "convert",
                      "export", "excel"),
}


@pytest.mark.parametrize("package", sorted(WALLS))
def test_each_package_imports_only_what_its_wall_allows(package: str) -> None:
    """Every module of ``package`` imports only its own package and the ones WALLS lists."""
    allowed = tuple(f"converter.{p}" for p in WALLS[package]) + (package,)
    assert _violations(package, allowed) == {}


def test_nothing_imports_the_command_line() -> None:
    """Only ``python -m converter`` imports converter.cli: the library never calls its front end."""
    assert sorted(m for m, imported in GRAPH.items() if "converter.cli" in imported) == ["converter.__main__"]


def test_nothing_imports_the_web_package() -> None:
    """Only the command line (``mechasheet web``) imports converter.web: no library part depends on the page."""
    assert sorted(m for m, imported in GRAPH.items() if not m.startswith(("converter.web", "converter.cli"))
                  and any(i.startswith("converter.web") for i in imported)) == []

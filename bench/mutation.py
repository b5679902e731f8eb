"""Mutation run over the three engines: do the tests catch what they claim to?

Run: pip install -e '.[test]' && python bench/mutation.py [--system up] [--seed 16] [--count N] [--jobs 2]

A small AST mutator (no dependency). Each engine module under ``converter/rules/<system>/``
(schema generators left out) is parsed and its mutation sites listed: an arithmetic operator
swapped (``+`` ↔ ``-``, ``*`` → ``//``, ...), a comparison moved across its limit or negated
(``<`` → ``<=`` or ``>=``, ``==`` → ``!=``, ``in`` → ``not in``), ``and`` ↔ ``or``, a ``not`` or a
minus dropped, ``True`` ↔ ``False``, a number changed by one or to 0, a statement that reports a
finding deleted. A seeded sample of the sites (120 for up, 60 each for pp and mailgear) is
applied one at a time to a copy of the project, and the engine's tests run on it (``-x``, a
timeout): the mutant is killed when a test fails or the run times out.

A mutant that survives is run over a corpus: every input the engine's tests gave its entry points
(recorded in the unmutated run), the samples' documents, and documents generated from
``tests/strategies.py``, valid and mangled, under random rule options. It is *likely
equivalent* when the corpus reaches the mutated code and no output changes (lines, findings with
their parameters, messages and hints in both languages, derived values); mutants whose byte code
is the original's are equivalent outright. Neither counts in the kill rate. Every other survivor
is listed with the first corpus input whose output it changes (and the test that gave it), or
"not reached" when no input runs its code.

Prints per engine: mutants, killed, survived, likely equivalent, kill rate (target: 95 %), then
each survivor (file:line, the mutation, what shows it). Takes minutes: not a CI step.
"""
from __future__ import annotations

import argparse
import ast
import atexit
import builtins
import contextlib
import copy
import functools
import hashlib
import importlib
import json
import os
import pickle
import queue
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
SYSTEMS = ("up", "mailgear", "pp")
DEFAULT_COUNT = {"up": 120, "mailgear": 60, "pp": 60}
TARGET = 0.95

#: The tests run on each mutant, the engine's own first (with ``-x`` most mutants fail there): its
#: folder, then those that check its answers from outside (finding parameters, rolls, samples,
#: sets, English texts), the other systems' property tests deselected. Not the sheet tests
#: (LibreOffice: minutes) and not tests/test_catalog_messages.py, which reads the source: a
#: deleted finding must be caught by what the engine says, not by its code missing from the file.
TESTS = {
    "up": ["tests/up", "tests/test_finding_parameters.py", "tests/test_option_policy.py", "tests/test_rolls.py",
           "tests/test_samples.py", "tests/test_checking_sets.py", "tests/test_english.py"],
    "mailgear": ["tests/mailgear", "tests/test_finding_parameters.py", "tests/test_rolls.py",
                 "tests/test_english.py"],
    "pp": ["tests/pp", "tests/test_finding_parameters.py", "tests/test_option_policy.py", "tests/test_rolls.py",
           "tests/test_english.py"],
}
#: Property tests of one system each, deselected for the others (``{system}`` is filled in).
OTHERS = ["tests/test_english.py::test_{system}_engine_texts_are_english",
          "tests/test_rolls.py::test_generated_{system}_rolls_are_what_they_show"]

#: The functions whose calls make the corpus: the engine and what tests and sheets call besides.
#: ``module:name`` (``Class.method`` for a class method).
ENTRIES = {
    "up": ["converter.rules.up.engine:price_unit", "converter.rules.up.sets:check_transformation_sets",
           "converter.rules.up.sets:transformation_sets",
           "converter.rules.up.transformation:transformation_cost",
           "converter.rules.up.weapons:variant_changes", "converter.rules.up.weapons:effective_damage",
           "converter.rules.up.weapons:effective_accuracy"],
    "mailgear": ["converter.rules.mailgear.engine:price_pilot",
                 "converter.rules.mailgear.party:party_unit_level",
                 "converter.rules.mailgear.party:party_check",
                 "converter.rules.mailgear.catalog:Catalog.from_data",
                 "converter.rules.mailgear.engine:roll_bonus",
                 "converter.rules.mailgear.engine:roll_expression",
                 "converter.rules.mailgear.engine:skill_bonus"],
    "pp": ["converter.rules.pp.engine:price_character", "converter.rules.pp.machine:check_machine",
           "converter.rules.pp.engine:attribute_cost", "converter.rules.pp.engine:skill_cost",
           "converter.rules.pp.engine:specialization_cost",
           "converter.rules.pp.engine:combat_boost_cost",
           "converter.rules.pp.skills:parse_skill_list", "converter.rules.pp.skills:skill_list"],
}

#: What each worker's copy of the project holds (the tests read samples, schemas and golden files).
COPIED = ("converter", "tests", "samples", "schemas", "templates", "docs", "bench", "pyproject.toml",
          "README.md")

#: The copy's own conftest: the copy's package is the one imported; Hypothesis runs the same
#: examples every time (a mutant killed once is killed on every run); the recorder when asked.
CONFTEST = '''
import os, sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
import converter
assert Path(converter.__file__).resolve().is_relative_to(HERE), converter.__file__
from hypothesis import settings
settings.register_profile("mutation", derandomize=True, database=None, deadline=None)
settings.load_profile("mutation")
if os.environ.get("MUTATION_RECORD"):
    sys.path.insert(0, str(HERE / "bench"))
    import mutation
    mutation.install_recorder(os.environ["MUTATION_SYSTEM"], os.environ["MUTATION_RECORD"])
'''


# --- mutation sites -------------------------------------------------------------------------------

@dataclass(frozen=True)
class Variant:
    """One way to mutate a site: what it says and what replaces the node."""

    text: str
    make: Callable[[ast.AST], ast.AST]


@dataclass
class Site:
    """A place a mutation can go: a node of a module, with the variants it offers."""

    path: Path
    node_path: tuple  # (field, index) steps from the module to the node
    kind: str
    line: int
    variants: list[Variant]


@dataclass
class Mutant:
    """One mutation applied: the module's mutated text, and what became of it."""

    system: str
    path: Path
    line: int
    kind: str
    text: str
    source: str  # the mutated module
    probe_source: str  # the same, with a call that says the mutated code ran
    equivalent_code: bool  # compiles to the original's byte code
    outcome: str = ""  # killed (failed, error, timeout), survived, equivalent, likely equivalent
    detail: str = ""

    @property
    def where(self) -> str:
        return f"{self.path.relative_to(ROOT)}:{self.line}"


_ARITH = {ast.Add: [ast.Sub], ast.Sub: [ast.Add], ast.Mult: [ast.FloorDiv, ast.Add],
          ast.Div: [ast.Mult], ast.FloorDiv: [ast.Mult, ast.Div], ast.Mod: [ast.FloorDiv],
          ast.Pow: [ast.Mult]}
_COMPARE = {ast.Lt: [ast.LtE, ast.GtE], ast.LtE: [ast.Lt, ast.Gt], ast.Gt: [ast.GtE, ast.LtE],
            ast.GtE: [ast.Gt, ast.Lt], ast.Eq: [ast.NotEq], ast.NotEq: [ast.Eq],
            ast.In: [ast.NotIn], ast.NotIn: [ast.In], ast.Is: [ast.IsNot], ast.IsNot: [ast.Is]}
_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
           ast.Eq: "==", ast.NotEq: "!=", ast.In: "in", ast.NotIn: "not in", ast.Is: "is",
           ast.IsNot: "is not", ast.And: "and", ast.Or: "or"}
#: A statement that reports a finding: deleting it is a mutant.
_REPORTS = ("find", "Finding", "missing_table")


def _reports(stmt: ast.stmt) -> bool:
    """Whether ``stmt`` reports a finding: ``out.find(...)``, ``Finding(...)``,
    ``findings.append(...)``, a ``yield`` of a generator of findings."""
    if not isinstance(stmt, ast.Expr):
        return False
    if isinstance(stmt.value, (ast.Yield, ast.YieldFrom)):
        return True
    for node in ast.walk(stmt.value):
        if isinstance(node, ast.Call):
            f = node.func
            if (isinstance(f, ast.Name) and f.id in _REPORTS) or (isinstance(f, ast.Attribute) and f.attr in _REPORTS):
                return True
            if isinstance(f, ast.Attribute) and f.attr in ("append", "extend") and \
                    isinstance(f.value, ast.Attribute) and f.value.attr == "findings":
                return True
    return False


def _with_op(op: type) -> Callable[[ast.AST], ast.AST]:
    def make(n: ast.AST) -> ast.AST:
        n.op = op()
        return n
    return make


def _with_compare(k: int, op: type) -> Callable[[ast.AST], ast.AST]:
    def make(n: ast.AST) -> ast.AST:
        n.ops[k] = op()
        return n
    return make


def _with_value(value: Any) -> Callable[[ast.AST], ast.AST]:
    def make(n: ast.AST) -> ast.AST:
        n.value = value
        return n
    return make


def _operand(n: ast.AST) -> ast.AST:
    return n.operand


def _deleted(n: ast.AST) -> ast.AST:
    return ast.Pass()


def _site_variants(node: ast.AST) -> Iterator[tuple[str, list[Variant]]]:
    """(kind, variants) of every mutation ``node`` offers."""
    if isinstance(node, (ast.BinOp, ast.AugAssign)) and type(node.op) in _ARITH:
        old = _SYMBOL[type(node.op)]
        yield "arithmetic", [Variant(f"{old} → {_SYMBOL[op]}", _with_op(op)) for op in _ARITH[type(node.op)]]
    elif isinstance(node, ast.Compare):
        for k, op in enumerate(node.ops):
            old = _SYMBOL[type(op)]
            yield "comparison", [Variant(f"{old} → {_SYMBOL[new]}", _with_compare(k, new))
                                 for new in _COMPARE[type(op)]]
    elif isinstance(node, ast.BoolOp):
        new = ast.Or if isinstance(node.op, ast.And) else ast.And
        yield "boolean", [Variant(f"{_SYMBOL[type(node.op)]} → {_SYMBOL[new]}", _with_op(new))]
    elif isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.Not, ast.USub)):
        word = "not" if isinstance(node.op, ast.Not) else "-"
        yield "boolean" if word == "not" else "arithmetic", [Variant(f"{word} dropped", _operand)]
    elif isinstance(node, ast.Constant) and isinstance(node.value, bool):
        yield "boolean", [Variant(f"{node.value} → {not node.value}", _with_value(not node.value))]
    elif isinstance(node, ast.Constant) and isinstance(node.value, (int, float)):
        v = node.value
        options = [v + 1, v - 1] + ([type(v)(0)] if v not in (0, 1, -1) else [])
        yield "constant", [Variant(f"{v!r} → {o!r}", _with_value(o)) for o in options]
    elif isinstance(node, ast.stmt) and _reports(node):
        text = ast.unparse(node).split("(")[0]
        yield "finding", [Variant(f"deleted {text}(…)", _deleted)]


def _children(node: ast.AST, skip_docstring: bool) -> Iterator[tuple[tuple, ast.AST]]:
    """(step, child) of ``node``, leaving out what is never run as written: docstrings,
    annotations, f-strings (whose positions Python 3.11 does not give exactly)."""
    for name, value in ast.iter_fields(node):
        if name in ("annotation", "returns", "type_comment"):
            continue
        if isinstance(value, list):
            for i, item in enumerate(value):
                if not isinstance(item, ast.AST):
                    continue
                if skip_docstring and name == "body" and i == 0 and isinstance(item, ast.Expr) \
                        and isinstance(item.value, ast.Constant) and isinstance(item.value.value, str):
                    continue
                yield (name, i), item
        elif isinstance(value, ast.AST):
            yield (name, None), value


def sites(path: Path) -> list[Site]:
    """Every mutation site of one module (functions that build a schema left out); a comparison
    with several operators gives one site per operator."""
    tree = ast.parse(path.read_text("utf-8"))
    out: list[Site] = []

    def visit(node: ast.AST, at: tuple) -> None:
        if isinstance(node, ast.JoinedStr):
            return
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "schema" in node.name:
            return
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        for kind, variants in _site_variants(node):
            out.append(Site(path, at, kind, getattr(node, "lineno", 0), variants))
        docstring = isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        for step, child in _children(node, docstring):
            visit(child, at + (step,))

    visit(tree, ())
    return out


def _locate(tree: ast.AST, node_path: tuple) -> tuple[ast.AST, ast.AST, tuple | None]:
    """(parent, node, last step) at ``node_path``."""
    parent, node, last = None, tree, None
    for name, index in node_path:
        parent, last = node, (name, index)
        value = getattr(node, name)
        node = value[index] if index is not None else value
    return parent, node, last


def _splice(source: str, node: ast.AST, text: str) -> str:
    """``source`` with ``node``'s text replaced by ``text`` (line count kept)."""
    data = source.encode("utf-8")
    starts = [0]
    for line in data.splitlines(keepends=True):
        starts.append(starts[-1] + len(line))
    begin = starts[node.lineno - 1] + node.col_offset
    end = starts[node.end_lineno - 1] + node.end_col_offset
    return (data[:begin] + text.encode("utf-8") + data[end:]).decode("utf-8")


def _code_key(code: Any) -> Any:
    """A code object's behaviour as comparable data (its positions left out)."""
    return (code.co_code, code.co_names, code.co_varnames,
            tuple(_code_key(c) if hasattr(c, "co_code") else (type(c).__name__, repr(c)) for c in code.co_consts))


def apply(site: Site, variant: Variant, source: str, tree: ast.Module, system: str) -> Mutant | None:
    """The mutant ``variant`` makes of ``site``; None where the text cannot carry it exactly."""
    mutated = copy.deepcopy(tree)
    parent, node, (name, index) = _locate(mutated, site.node_path)
    original = _locate(tree, site.node_path)[1]
    new = variant.make(node)
    if index is None:
        setattr(parent, name, new)
    else:
        getattr(parent, name)[index] = new
    lines = "\n" * (original.end_lineno - original.lineno)
    if isinstance(original, ast.stmt):
        text, probe = ast.unparse(new) + lines, "__mutant_hit__(); " + ast.unparse(new) + lines
    else:
        text = f"({ast.unparse(new)}{lines})"
        probe = f"(__mutant_hit__() or {text})"
    changed = _splice(source, original, text)
    try:
        if ast.dump(ast.parse(changed)) != ast.dump(mutated):
            return None
        ast.parse(_splice(source, original, probe))
    except SyntaxError:
        return None
    same = _code_key(compile(source, str(site.path), "exec")) == _code_key(compile(changed, str(site.path), "exec"))
    return Mutant(system, site.path, site.line, site.kind, variant.text, changed,
                  _splice(source, original, probe), same)


def sample(system: str, seed: int, count: int) -> tuple[list[Mutant], int]:
    """``count`` mutants of ``system`` drawn with ``seed`` (one variant per site), and how many
    sites there were."""
    files = sorted(p for p in (ROOT / "converter" / "rules" / system).glob("*.py")
                   if p.name not in ("__init__.py", "schema.py"))
    all_sites = [s for p in files for s in sites(p)]
    rng = random.Random(f"{seed}:{system}")
    order = list(range(len(all_sites)))
    rng.shuffle(order)
    trees = {p: (p.read_text("utf-8"), ast.parse(p.read_text("utf-8"))) for p in files}
    out: list[Mutant] = []
    for k in order:
        if len(out) == count:
            break
        site = all_sites[k]
        variant = rng.choice(site.variants)
        mutant = apply(site, variant, *trees[site.path], system)
        if mutant is not None:
            out.append(mutant)
    return sorted(out, key=lambda m: (str(m.path), m.line, m.text)), len(all_sites)


# --- the corpus: recorded, generated, and run in a copy -----------------------------------------

def _resolve(spec: str) -> tuple[Any, str, Any]:
    """(owner, attribute, function) named by ``module:name`` or ``module:Class.method``."""
    module, name = spec.split(":")
    owner: Any = importlib.import_module(module)
    *outer, last = name.split(".")
    for part in outer:
        owner = getattr(owner, part)
    return owner, last, getattr(owner, last)


def install_recorder(system: str, target: str) -> None:
    """Wrap the system's entry points so that each call's arguments are kept (once each) and
    written to ``target`` when the test run ends; runs in the copy, from its conftest."""
    kept: dict[bytes, bytes] = {}

    def keep(spec: str, args: tuple, kwargs: dict) -> None:
        try:
            blob = pickle.dumps((spec, args, kwargs, os.environ.get("PYTEST_CURRENT_TEST", "")))
            key = pickle.dumps((spec, args, kwargs))
        except Exception:  # an argument that does not pickle (a mock): not part of the corpus
            return
        kept.setdefault(hashlib.sha1(key).digest(), blob)

    for spec in ENTRIES[system]:
        owner, name, original = _resolve(spec)
        if isinstance(owner, type):  # a class method
            func = original.__func__

            def wrapped(cls, *args, __spec=spec, __func=func, **kwargs):
                keep(__spec, args, kwargs)
                return __func(cls, *args, **kwargs)
            setattr(owner, name, classmethod(wrapped))
            continue

        @functools.wraps(original)
        def wrapper(*args, __spec=spec, __original=original, **kwargs):
            keep(__spec, args, kwargs)
            return __original(*args, **kwargs)
        for module in list(sys.modules.values()):
            if getattr(module, "__name__", "").startswith("converter"):
                for attr, value in list(vars(module).items()):
                    if value is original:
                        setattr(module, attr, wrapper)

    def write() -> None:
        Path(target).write_bytes(pickle.dumps(list(kept.values())))
    atexit.register(write)


def generate(system: str, examples: int = 300) -> list[bytes]:
    """The corpus beside the recorded calls (the same every run): documents from
    tests/strategies.py, each also mangled twice, under random rule options; and every sample
    and broken sample with each of its values in turn replaced by odd ones or dropped (for
    mailgear, the example catalog's values too: tests/mangled.py)."""
    from hypothesis import HealthCheck, Phase, given, settings

    from converter.rules.options import option_declarations
    from tests import strategies
    from tests.mangled import ODD, paths, replaced, variants

    found: list[Any] = []
    strategy = {"up": strategies.up_unit(), "pp": strategies.pp_character(),
                "mailgear": strategies.mailgear_catalog().flatmap(
                    lambda cat: strategies.mailgear_pilot(
                        [r["name"] for t in ("models", "weapons", "options") for r in cat.get(t, [])]
                    ).map(lambda doc: (doc, cat)))}[system]

    @settings(derandomize=True, database=None, max_examples=examples, phases=[Phase.generate],
              deadline=None, suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(value: Any) -> None:
        found.append(value)
    collect()
    rng = random.Random(f"corpus:{system}")
    declared = option_declarations(system)
    entry = ENTRIES[system][0]
    example = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"
    catalog = json.loads(example.read_text("utf-8")) if system == "mailgear" else None
    blobs = []

    def add(doc: Any, cat: Any, label: str, options: dict | None = None) -> None:
        if options is None:
            options = {n: rng.choice(list(spec["values"])) for n, spec in declared.items() if rng.random() < 0.4}
        kwargs = {"catalog": cat} if cat is not None else {}
        blobs.append(pickle.dumps((entry, (doc, options), kwargs, label)))

    for k, value in enumerate(found):
        doc, cat = value if isinstance(value, tuple) else (value, None)
        add(doc, cat, f"generated #{k}")
        spots = paths(doc)
        for m in (1, 2):
            if spots:
                add(replaced(doc, rng.choice(spots), rng.choice(ODD)), cat, f"generated #{k} mangled {m}")
    for path in sorted((ROOT / "samples").glob(f"**/{system}/*.json")):
        doc = json.loads(path.read_text("utf-8"))
        label = str(path.relative_to(ROOT))
        add(doc, catalog, label, {})
        for _, _, mangled in variants(doc):
            add(mangled, catalog, f"{label} mangled")
    if catalog is not None:
        doc = json.loads((ROOT / "samples" / "mailgear" / "veteran-custom.json").read_text("utf-8"))
        for _, _, mangled in variants(catalog):
            add(doc, mangled, "the example catalog mangled")
    return blobs


def _canon(value: Any) -> Any:
    """An output as comparable data: every text both ways, numbers with their type."""
    from converter.core.evaluation import Evaluation
    from converter.core.findings import Finding

    if isinstance(value, Evaluation):
        return {"lines": [(l.pointer, l.item, l.rule, l.cost, l.item_en, l.rule_en) for l in value.lines],
                "findings": [_canon(f) for f in value.findings], "budget": value.budget,
                "declared": value.declared, "unevaluated": list(value.unevaluated),
                "derived": [(p, d.label, d.label_en, repr(d.value), repr(d.value_en), repr(d.roll))
                            for p, d in value.derived.items()], "priced": value.priced}
    if isinstance(value, Finding):
        return [value.code, value.pointer, value.cell, value.level.value,
                repr(sorted(value.params.items(), key=lambda kv: kv[0])),
                value.message("ja"), value.message("en"), value.hint("ja"), value.hint("en")]
    if isinstance(value, dict):
        return [[repr(k), _canon(v)] for k, v in value.items()]
    if isinstance(value, (list, tuple)) or type(value).__name__ == "generator":
        return [_canon(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return [type(value).__name__] + [_canon(getattr(value, f)) for f in value.__dataclass_fields__]
    if hasattr(value, "__iter__") and not isinstance(value, (str, bytes)):
        return [_canon(v) for v in value]
    return repr(value)


def _digest(spec: str, args: tuple, kwargs: dict) -> str:
    try:
        result = _canon(_resolve(spec)[2](*args, **kwargs))
    except Exception as exc:  # a mutant may crash where the original did not
        result = ["raised", type(exc).__name__, str(exc)[:200], getattr(exc, "code", ""),
                  repr(getattr(exc, "params", ""))]
    return hashlib.sha1(json.dumps(result, ensure_ascii=False, default=repr).encode()).hexdigest()


def probe(corpus: Path, baseline: Path | None, out: Path) -> None:
    """In a copy: run every corpus input; with ``baseline``, stop at the first output that
    differs from it. Writes what was found (digests, or reached / differs / on what)."""
    hits: list[int] = []
    builtins.__mutant_hit__ = lambda: hits.append(1)  # type: ignore[attr-defined]
    entries = pickle.loads(corpus.read_bytes())
    expected = json.loads(baseline.read_text()) if baseline else None
    digests = []
    for k, blob in enumerate(entries):
        try:
            spec, args, kwargs, label = pickle.loads(blob)
        except Exception as exc:  # an input the mutated code cannot even rebuild
            spec, args, kwargs, label = "", (), {}, f"#{k} ({type(exc).__name__})"
            digest = "unpicklable"
        else:
            digest = _digest(spec, args, kwargs)
        digests.append(digest)
        if expected is not None and digest != expected[k]:
            out.write_text(json.dumps({"reached": bool(hits), "differs": True, "on": label}))
            return
    if expected is None:
        out.write_text(json.dumps(digests))
    else:
        out.write_text(json.dumps({"reached": bool(hits), "differs": False, "on": ""}))


# --- running mutants ---------------------------------------------------------------------------

def make_copy(where: Path) -> Path:
    where.mkdir(parents=True)
    ignore = shutil.ignore_patterns("__pycache__", ".hypothesis", "*.pyc", ".pytest_cache")
    for name in COPIED:
        src = ROOT / name
        if src.is_dir():
            shutil.copytree(src, where / name, ignore=ignore)
        elif src.exists():
            shutil.copy2(src, where / name)
    (where / "conftest.py").write_text(CONFTEST, "utf-8")
    return where


def _env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "HYPOTHESIS", "MUTATION"))}
    env.update(PYTHONDONTWRITEBYTECODE="1", PYTHONHASHSEED="0", **extra)
    return env


_LIVE: set[subprocess.Popen] = set()  # the runs going on, killed if the bench is stopped
_STOPPED: list[int] = []


def _stop(signum: int, frame: Any) -> None:
    _STOPPED.append(signum)
    for proc in list(_LIVE):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
    raise SystemExit(128 + signum)


def _run(cmd: list[str], cwd: Path, timeout: float, **env: str) -> tuple[str, float]:
    """Run ``cmd`` in its own process group: (outcome, seconds); killed whole on timeout."""
    if _STOPPED:
        raise SystemExit(128 + _STOPPED[0])
    started = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, env=_env(**env), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, start_new_session=True)
    _LIVE.add(proc)
    try:
        output, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return "timeout", time.perf_counter() - started
    finally:
        _LIVE.discard(proc)
    took = time.perf_counter() - started
    if proc.returncode == 0:
        return "passed", took
    tail = output.decode("utf-8", "replace").strip().splitlines()[-1:] or [""]
    return ("failed" if proc.returncode == 1 else f"error {proc.returncode}") + f": {tail[0][:120]}", took


def pytest_cmd(system: str, root: Path) -> list[str]:
    deselect = [f"--deselect={t.format(system=o)}" for t in OTHERS for o in SYSTEMS if o != system]
    # -n 0: in this process (the mutants run side by side already; the calls are recorded here)
    return [sys.executable, "-m", "pytest", "-x", "-q", "-n", "0", "-p", "no:cacheprovider", *deselect,
            *[t for t in TESTS[system] if (root / t).exists()]]


def probe_cmd(work: Path, system: str, baseline: bool) -> list[str]:
    args = [sys.executable, "bench/mutation.py", "--probe", str(work / f"{system}.corpus")]
    if baseline:
        args += ["--baseline", str(work / f"{system}.digests")]
    return args


def run_mutant(m: Mutant, copies: "queue.Queue[Path]", work: Path, timeout: float) -> Mutant:
    if m.equivalent_code:
        m.outcome, m.detail = "equivalent", "same byte code"
        return m
    copy_root = copies.get()
    target = copy_root / m.path.relative_to(ROOT)
    original = target.read_text("utf-8")
    try:
        target.write_text(m.source, "utf-8")
        outcome, _ = _run(pytest_cmd(m.system, copy_root), copy_root, timeout)
        if outcome != "passed":
            m.outcome, m.detail = "killed", outcome
            return m
        target.write_text(m.probe_source, "utf-8")
        answer = copy_root / "probe.json"
        answer.unlink(missing_ok=True)
        outcome, _ = _run(probe_cmd(work, m.system, True) + ["--out", str(answer)], copy_root, timeout * 4)
        found = json.loads(answer.read_text()) if answer.exists() else None
        if found is None:
            m.outcome, m.detail = "survived", f"corpus run: {outcome}"
        elif found["differs"]:
            m.outcome, m.detail = "survived", f"changes the output on {found['on']}"
        elif not found["reached"]:
            m.outcome, m.detail = "survived", "not reached by the corpus"
        else:
            m.outcome, m.detail = "likely equivalent", "reached, no output changed"
        return m
    finally:
        target.write_text(original, "utf-8")
        copies.put(copy_root)


def baseline(system: str, copy_root: Path, work: Path) -> float:
    """The unmutated run: the tests pass (timed), the corpus is recorded and digested."""
    record = work / f"{system}.recorded"
    outcome, took = _run(pytest_cmd(system, copy_root), copy_root, 1800, MUTATION_RECORD=str(record),
                         MUTATION_SYSTEM=system)
    if outcome != "passed":
        raise SystemExit(f"{system}: the tests fail without a mutant ({outcome})")
    gen = work / f"{system}.generated"
    outcome, _ = _run([sys.executable, "bench/mutation.py", "--generate", system, "--out", str(gen)],
                      copy_root, 1800)
    if outcome != "passed":
        raise SystemExit(f"{system}: generating the corpus failed ({outcome})")
    entries: dict[bytes, bytes] = {}  # the same input once, the test that gave it first
    for blob in pickle.loads(record.read_bytes()) + pickle.loads(gen.read_bytes()):
        spec, args, kwargs, _ = pickle.loads(blob)
        entries.setdefault(hashlib.sha1(pickle.dumps((spec, args, kwargs))).digest(), blob)
    (work / f"{system}.corpus").write_bytes(pickle.dumps(list(entries.values())))
    outcome, _ = _run(probe_cmd(work, system, False) + ["--out", str(work / f"{system}.digests")],
                      copy_root, 1800)
    if outcome != "passed":
        raise SystemExit(f"{system}: running the corpus failed ({outcome})")
    return took


def _gather(pool: ThreadPoolExecutor, fn: Callable[[Any], Any], items: list) -> list:
    """``fn`` over ``items`` in the pool, in order; the main thread wakes every half second so
    that a signal (Ctrl-C, SIGTERM) stops the run at once."""
    futures = [pool.submit(fn, item) for item in items]
    while not all(f.done() for f in futures):
        wait(futures, timeout=0.5)
    return [f.result() for f in futures]


def report(system: str, mutants: list[Mutant], site_count: int) -> bool:
    killed = sum(m.outcome == "killed" for m in mutants)
    survived = [m for m in mutants if m.outcome == "survived"]
    equivalent = [m for m in mutants if m.outcome in ("equivalent", "likely equivalent")]
    counted = killed + len(survived)
    rate = killed / counted if counted else 1.0
    print(f"{system:<9} {len(mutants):>7} {killed:>7} {len(survived):>9} {len(equivalent):>11}"
          f" {rate:>9.1%}  {'pass' if rate >= TARGET else 'FAIL'} (of {site_count} sites)")
    return rate >= TARGET


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--system", action="append", choices=SYSTEMS, help="repeatable; default all")
    parser.add_argument("--seed", type=int, default=16)
    parser.add_argument("--count", type=int, help="mutants per system (default up 120, others 60)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--list", action="store_true", help="list the sampled mutants and stop")
    parser.add_argument("--json", type=Path, help="also write every mutant's outcome here")
    parser.add_argument("--probe", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--baseline", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--generate", choices=SYSTEMS, help=argparse.SUPPRESS)
    parser.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)

    if args.probe or args.generate:  # inside a copy: its package first
        sys.path.insert(0, str(ROOT))
        if args.generate:
            args.out.write_bytes(pickle.dumps(generate(args.generate)))
        else:
            probe(args.probe, args.baseline, args.out)
        return 0

    systems = args.system or list(SYSTEMS)
    chosen = {s: sample(s, args.seed, args.count or DEFAULT_COUNT[s]) for s in systems}
    if args.list:
        for s, (mutants, n) in chosen.items():
            print(f"{s}: {len(mutants)} of {n} sites")
            for m in mutants:
                print(f"  {m.where:<45} {m.kind:<11} {m.text}{'  (same byte code)' if m.equivalent_code else ''}")
        return 0

    started = time.perf_counter()
    signal.signal(signal.SIGTERM, _stop)
    signal.signal(signal.SIGINT, _stop)
    with tempfile.TemporaryDirectory(prefix="mechasheet-mutation-") as tmp:
        work = Path(tmp)
        copies: queue.Queue[Path] = queue.Queue()
        roots = [make_copy(work / f"copy{k}") for k in range(max(1, args.jobs))]
        for r in roots:
            copies.put(r)
        timeouts = {}
        with ThreadPoolExecutor(max_workers=len(roots)) as pool:
            took = dict(zip(systems, _gather(pool, lambda s: baseline(s, roots[systems.index(s) % len(roots)], work),
                                             systems), strict=True))
        for s in systems:
            timeouts[s] = max(30.0, 4 * took[s])
            print(f"{s}: tests pass unmutated in {took[s]:.1f} s; corpus of "
                  f"{len(pickle.loads((work / f'{s}.corpus').read_bytes()))} inputs", flush=True)
        todo = [m for s in systems for m in chosen[s][0]]
        count = iter(range(1, len(todo) + 1))

        def one(m: Mutant) -> Mutant:
            run_mutant(m, copies, work, timeouts[m.system])
            if _STOPPED:  # its run was stopped, not failed
                return m
            print(f"[{next(count)}/{len(todo)}] {m.where} {m.text}: {m.outcome}", file=sys.stderr, flush=True)
            return m
        with ThreadPoolExecutor(max_workers=len(roots)) as pool:
            done = _gather(pool, one, todo)
    minutes = (time.perf_counter() - started) / 60

    print(f"\nseed {args.seed}, {minutes:.1f} min, jobs {args.jobs}")
    print(f"{'engine':<9} {'mutants':>7} {'killed':>7} {'survived':>9} {'equivalent':>11} {'kill rate':>9}")
    ok = all([report(s, [m for m in done if m.system == s], chosen[s][1]) for s in systems])
    for title, outcomes in (("survivors", ("survived",)), ("equivalent (not counted)", ("equivalent", "likely equivalent"))):
        listed = [m for m in done if m.outcome in outcomes]
        if listed:
            print(f"\n{title}:")
            for m in listed:
                print(f"  {m.where:<45} {m.kind:<11} {m.text:<24} {m.detail}")
    if args.json:
        args.json.write_text(json.dumps([{"system": m.system, "where": m.where, "kind": m.kind,
                                          "mutation": m.text, "outcome": m.outcome, "detail": m.detail}
                                         for m in done], ensure_ascii=False, indent=1), "utf-8")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

"""Every template computes the same in every spreadsheet: Gnumeric recalculates the committed
samples of every system (good and broken), copies with inputs typed over, and generated documents
(Hypothesis, including skills the samples lack such as 機動格闘), and every formula cell equals the
engine's value (the writer's cached result). LibreOffice does the same in the system tests
(test_<system>_sheets.py). The ``formulas`` package, a third implementation of the functions,
recalculates a typed-over copy and a generated document of each system: it takes minutes a
workbook, and the samples are the two spreadsheets' already."""
from __future__ import annotations

import functools
import json
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from converter.sheets import sheet_bytes

from . import mailgear_fixtures as mg
from . import pp_fixtures as pp
from .conftest import edited as up_edited
from .spreadsheet_engines import (cached_values, differences, formula_cells, formulas_values,
                                  recalculate_gnumeric, require_formulas)

ROOT = Path(__file__).resolve().parents[2]
SYSTEMS = ("up", "pp", "mailgear")
# Broken samples whose sheets hold the engine's values: pp's and mailgear's (their LibreOffice tests
# say so too). A broken up sheet may not: a total typed over the formula is kept as typed, and the
# cells computed from it (残りＵＰ) then show what follows from the typed figure, not the engine's.
BROKEN = ("pp", "mailgear")
GENERATED = 4  # per system; documents through Gnumeric (the formulas package takes the first)
GENERATED_FORMULAS = 1


@dataclass(frozen=True)
class Workbook:
    """A workbook to recalculate (``typed``) and the one whose cached results it must reach
    (``expected``: the writer's, from the document the typed sheet stands for)."""

    name: str
    typed: Path
    expected: Path


def _load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def _write(doc: dict) -> bytes:
    return sheet_bytes(doc, None, mg.context_for(doc)) if doc.get("system") == "mailgear" else sheet_bytes(doc)


@functools.lru_cache(maxsize=None)
def generated(system: str) -> tuple[dict, ...]:
    """GENERATED documents of ``system`` from the shared strategies, the same on every run; for
    pp, characters with 〈機動格闘〉 and a melee weapon (its 回避目標値) and 〈知識／戦術〉."""
    from hypothesis import HealthCheck, given, settings

    from .. import strategies

    found: list[dict] = []
    if system == "mailgear":
        return tuple(mg.generated_pilots()[:GENERATED])
    strategy = strategies.up_unit() if system == "up" else strategies.pp_fighter()

    def wanted(doc: dict) -> bool:
        return bool(doc.get("weapons")) if system == "up" else True

    @settings(max_examples=GENERATED * 20, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def collect(doc: dict) -> None:
        if len(found) < GENERATED and wanted(doc):
            found.append(doc)

    collect()
    assert len(found) == GENERATED, f"the strategy gave {len(found)} {system} documents as wanted"
    return tuple(found)


def _edited_copies(src: Path) -> list[Workbook]:
    """A sample of each system with inputs typed into its written sheet, as a player would."""
    import openpyxl

    out = []
    up = _load(ROOT / "samples" / "up" / "m-mobile-suit.json")
    typed = src / "edited-up.xlsx"
    typed.write_bytes(sheet_bytes(up))
    new = json.loads(json.dumps(up))  # only HP typed here; the total stays the formula's
    new["stats"]["hp"] = up_edited(up)["stats"]["hp"]
    new.pop("declared_total", None)
    wb = openpyxl.load_workbook(typed)
    sheet, ref = next(iter(wb.defined_names["up.stats.hp"].destinations))
    wb[sheet][ref.replace("$", "")] = new["stats"]["hp"]
    wb.save(typed)
    out.append(Workbook("edited-up", typed, _written(src / "edited-up.expected.xlsx", new)))

    # the sheet's list has skills the edits type in other widths (pp.TYPED_SKILLS: half-width
    # katakana, full-width letters), which the sheet's name key folds as the engine does
    doc = pp.listed(_load(ROOT / "samples" / "pp" / "pilot_with_machine.json"))
    typed = src / "edited-pp.xlsx"
    typed.write_bytes(sheet_bytes(doc))
    pp.edit_inputs(typed, doc)
    out.append(Workbook("edited-pp", typed, _written(src / "edited-pp.expected.xlsx", pp.edited(doc))))

    doc = _load(ROOT / "samples" / "mailgear" / "veteran-custom.json")
    typed = src / "edited-mailgear.xlsx"
    typed.write_bytes(_write(doc))
    wb = openpyxl.load_workbook(typed)
    for name, index, value in mg.edits(doc):
        mg.cell_of(wb, name, index).value = value
    wb.save(typed)
    out.append(Workbook("edited-mailgear", typed, _written(src / "edited-mailgear.expected.xlsx", mg.edited(doc))))
    return out


def _written(path: Path, doc: dict) -> Path:
    path.write_bytes(_write(doc))
    return path


def workbooks(src: Path) -> list[Workbook]:
    """Committed samples, broken samples, edited copies and generated documents, written to ``src``."""
    out: list[Workbook] = []
    for system in SYSTEMS:
        for p in sorted((ROOT / "samples" / system).glob("*.xlsx")):
            out.append(Workbook(f"{system}-{p.stem}", p, p))
        for p in sorted((ROOT / "samples" / "broken" / system).glob("*.json")) if system in BROKEN else ():
            f = _written(src / f"broken-{system}-{p.stem}.xlsx", _load(p))
            out.append(Workbook(f.stem, f, f))
        for k, doc in enumerate(generated(system)):
            f = _written(src / f"generated-{system}-{k}.xlsx", doc)
            out.append(Workbook(f.stem, f, f))
    return out + _edited_copies(src)


@pytest.fixture(scope="session")
def engine_workbooks(tmp_path_factory) -> dict[str, Workbook]:
    src = tmp_path_factory.mktemp("engines-src")
    return {w.name: w for w in workbooks(src)}


@pytest.fixture(scope="session")
def gnumeric_results(engine_workbooks, tmp_path_factory) -> dict[str, dict[str, tuple]]:
    """Every workbook recalculated by Gnumeric at once: name → the cells that differ."""
    out = tmp_path_factory.mktemp("engines-gnumeric")
    books = list(engine_workbooks.values())
    # ssconvert names its output after the input: give each its own file name
    files = {w.name: out / "in" / f"{w.name}.xlsx" for w in books}
    (out / "in").mkdir()
    for w in books:
        files[w.name].write_bytes(w.typed.read_bytes())
    saved = recalculate_gnumeric(list(files.values()), out / "out")
    result = {}
    for w in books:
        want = formula_cells(w.expected)
        try:
            result[w.name] = differences(want, cached_values(saved[files[w.name]], want))
        except Exception as e:  # noqa: BLE001 - Gnumeric saved a file that cannot be read back
            result[w.name] = {"(the saved file)": (None, f"{type(e).__name__}: {e}")}
    return result


def _names(kind: str) -> list:
    names = []
    for system in SYSTEMS:
        own = [f"{system}-{p.stem}" for p in sorted((ROOT / "samples" / system).glob("*.xlsx"))] \
            if kind == "gnumeric" else []
        if kind == "gnumeric" and system in BROKEN:
            own += [f"broken-{system}-{p.stem}" for p in sorted((ROOT / "samples" / "broken" / system).glob("*.json"))]
        own += [f"generated-{system}-{k}" for k in range(GENERATED if kind == "gnumeric" else GENERATED_FORMULAS)]
        own.append(f"edited-{system}")
        names += own
    return names


@pytest.mark.parametrize("name", _names("gnumeric"))
def test_gnumeric_computes_the_engines_values(name: str, gnumeric_results):
    """Gnumeric, recalculating every formula, gives the engine's value in every computed cell."""
    assert gnumeric_results[name] == {}


def _formulas_differences(w: Workbook) -> dict[str, tuple]:
    want = formula_cells(w.expected)
    return differences(want, formulas_values(w.typed, want))


@pytest.fixture(scope="session")
def formulas_results(engine_workbooks) -> dict[str, dict[str, tuple]]:
    """Every workbook of the formulas cases evaluated by the formulas package, two at a time
    (a mailgear workbook takes it about 8 s): name → the cells that differ."""
    require_formulas()
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    names = _names("formulas")
    books = [engine_workbooks[n] for n in names]
    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork")) as pool:
        return dict(zip(names, pool.map(_formulas_differences, books), strict=True))


@pytest.mark.parametrize("name", _names("formulas"))
def test_formulas_package_computes_the_engines_values(name: str, formulas_results):
    """The formulas package, evaluating the workbook, gives the engine's value in every computed cell."""
    assert formulas_results[name] == {}


# --- the function set (no spreadsheet needed) -----------------------------------------------------

_STRING = re.compile(r'"(?:[^"]|"")*"')
_CALL = re.compile(r"\b((?:_xlfn\.)?[A-Z][A-Z0-9.]*)\(")
_FORMULA_XML = re.compile(r"<(f|formula|formula1|formula2|definedName)\b[^>]*>(.*?)</\1>", re.S)


def common_functions() -> set[str]:
    """The functions docs/templates.md lists as the common set (its table's backticked names)."""
    text = (ROOT / "docs" / "templates.md").read_text(encoding="utf-8")
    table = text.split("| kind | functions |", 1)[1].split("\n\n", 1)[0]
    return {name for row in table.splitlines() for name in re.findall(r"`([A-Z][A-Z0-9.]*)", row)}


def template_formulas(data: bytes) -> list[str]:
    """Every formula of a workbook: cells, conditional formats, validations and defined names."""
    import html
    import io
    import zipfile

    out = []
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        for part in z.namelist():
            if part.endswith(".xml"):
                out += [html.unescape(m.group(2)) for m in _FORMULA_XML.finditer(z.read(part).decode("utf-8"))]
    return out


@pytest.mark.parametrize("system", SYSTEMS)
def test_templates_call_only_the_common_functions(system: str):
    """Every function a template's formula calls (and each committed sample's) is in the set all
    four spreadsheets have (docs/templates.md): no ASC, AGGREGATE, LOOKUP or N (issue 18)."""
    from converter.sheets import template_bytes

    books = {"template": template_bytes(system)}
    books |= {p.name: p.read_bytes() for p in sorted((ROOT / "samples" / system).glob("*.xlsx"))}
    common = common_functions()
    assert {"SUBSTITUTE", "UPPER", "MATCH"} <= common and not {"ASC", "AGGREGATE", "N"} & common
    for name, data in books.items():
        formulas = template_formulas(data)
        assert formulas, name
        asc = [f for f in formulas if "ASC(" in f.upper()]
        assert not asc, f"{name}: {len(asc)} formulas call ASC, the first: {asc[0][:160]}…" if asc else ""
        calls = {c.removeprefix("_xlfn.") for f in formulas for c in _CALL.findall(_STRING.sub('""', f))}
        assert calls - common == set(), name


def test_generated_pp_characters_use_the_skills_the_samples_lack():
    """The generated characters exercise 〈機動格闘〉 with a melee weapon and 〈知識／戦術〉."""
    docs = generated("pp")
    assert all({"機動格闘", "〈機動格闘〉"} & {s.get("name") for s in d["skills"]} for d in docs)
    assert all(any(w.get("melee") for w in d["machine"]["weapons"]) for d in docs)
    assert any("知識／戦術" in {s.get("name") for s in d["skills"]} for d in docs)

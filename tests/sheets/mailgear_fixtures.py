"""Session fixtures for the mailgear workbook tests: every case written once, probed for red cells,
and recalculated by LibreOffice in one call."""
from __future__ import annotations

import functools
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import pytest

from converter.rules.mailgear.catalog import Catalog
from converter.io.context import load_catalog
from converter.sheets import sheet_bytes, template_bytes

from .conftest import with_rule_probes
from .libreoffice import recalculate

ROOT = Path(__file__).resolve().parents[2]
MG_SAMPLES = sorted((ROOT / "samples" / "mailgear").glob("*.json"))
BROKEN_MG = sorted((ROOT / "samples" / "broken" / "mailgear").glob("*.json"))
EXAMPLE_CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"
EXAMPLE_CATALOG_SHEET = ROOT / "samples" / "mailgear" / "catalog-example.xlsx"
GENERATED_MG = 10


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=1)
def example_catalog() -> Catalog:
    return load_catalog(EXAMPLE_CATALOG)


def context_for(doc: dict) -> dict:
    """The example catalog when the document names it (as samples/make_sheets.py writes it)."""
    return {"catalog": example_catalog()} if doc.get("catalog") == example_catalog().name else {}


def catalog_names() -> list[str]:
    raw = example_catalog().raw
    return [row["name"] for table in ("models", "weapons", "options") for row in raw[table]]


@functools.lru_cache(maxsize=1)
def generated_pilots() -> list[dict]:
    """GENERATED_MG pilots from the shared strategy (catalog names, some stats left to the catalog),
    the same on every run; each has skills and equipment, so the formulas have work to do."""
    from hypothesis import HealthCheck, given, settings

    from ..strategies import mailgear_pilot

    found: list[dict] = []

    @settings(max_examples=GENERATED_MG * 4, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(mailgear_pilot(catalog_names(), stats_from_catalog=True))
    def collect(doc: dict) -> None:
        if len(found) < GENERATED_MG and doc["skills"] and len(doc["equipment"]) > 1:
            doc["catalog"] = example_catalog().name
            found.append(doc)

    collect()
    return found


def cell_of(wb, name: str, index: int = 0):
    """The openpyxl cell a defined name points at (``index`` rows down a column range)."""
    sheet, ref = next(iter(wb.defined_names[name].destinations))
    ref = ref.replace("$", "").split(":")[0]
    col = "".join(ch for ch in ref if ch.isalpha())
    return wb[sheet][f"{col}{int(''.join(ch for ch in ref if ch.isdigit())) + index}"]


def address(wb, name: str, index: int = 0) -> str:
    c = cell_of(wb, name, index)
    return f"{c.parent.title}!{c.coordinate}"


# --- edited inputs ---------------------------------------------------------------------------------

def edits(doc: dict) -> list[tuple[str, int, Any]]:
    """(name, row, new value) typed into a written sheet: the first skill one level down (or
    熱血 learned), 出力 up, a boost changed on a 専用機, and an Ａ．Ｇ．Ｓ added as the next item
    (its effect from the catalog sheet)."""
    out: list[tuple[str, int, Any]] = []
    if doc["skills"]:
        level = doc["skills"][0]["level"]
        out.append(("mailgear.skills.level", 0, level - 1 if level > 1 else 2))
    else:
        out += [("mailgear.skills.skill", 0, "熱血"), ("mailgear.skills.level", 0, 2)]
    out.append(("mailgear.gear.stats.output", 0, doc["gear"]["stats"]["output"] + 2))
    boosts = doc["gear"].get("boosts") or []
    if boosts and "sensor" not in boosts:
        out.append(("mailgear.gear.boosts.0", 0, "センサー"))
    n = len(doc["equipment"])
    out += [("mailgear.equipment.name", n, "Ａ．Ｇ．Ｓ"), ("mailgear.equipment.kind", n, "オプション")]
    return out


def edited(doc: dict) -> dict:
    """The document the edited sheet stands for."""
    d = json.loads(json.dumps(doc))
    for name, index, value in edits(doc):
        if name == "mailgear.skills.level":
            if d["skills"]:
                d["skills"][0]["level"] = value
            else:
                d["skills"] = [{"id": "hot_blooded", "level": value}]
        elif name == "mailgear.gear.stats.output":
            d["gear"]["stats"]["output"] = value
        elif name == "mailgear.gear.boosts.0":
            d["gear"]["boosts"][0] = "sensor"
    d["equipment"].append({"kind": "option", "name": "Ａ．Ｇ．Ｓ"})
    return d


def option_cases() -> dict[str, tuple[dict, dict[str, str]]]:
    """A pilot whose rolls the rules readings change (ミラクル 4, 天賦の才 3, 壊し屋 4), under
    each reading: name → (document, options)."""
    d = load(ROOT / "samples" / "mailgear" / "veteran-custom.json")
    d.pop("derived")
    for item in d["equipment"]:
        item.pop("derived", None)
    d["skills"] = [{"id": "miracle", "level": 4}, {"id": "natural_talent", "level": 3},
                   {"id": "wrecker", "level": 4}, {"id": "fleet_footed", "level": 3}]
    return {"options-miracle-plus": (d, {"miracle_four": "plus"}),
            "options-talent-separate": (d, {"natural_talent": "separate"})}


def red_cases() -> dict[str, dict]:
    """Documents made to break the rules the sheet shows in red beyond the broken samples: level
    and rank against the catalog's ladders, 専用機 flag against the rank, an unknown, a repeated
    and an unlevelled skill, an item without a kind, boosts on a gear that is no 専用機."""
    base = load(ROOT / "samples" / "mailgear" / "starting-pilot.json")
    mix = json.loads(json.dumps(base))
    mix["pilot"]["level"] = "C"
    mix["gear"]["rank"] = "D"
    mix["gear"]["custom"] = True
    mix["gear"]["boosts"] = ["sensor", "sensor", "output"]
    mix["skills"] += [{"name": "フォース", "level": 1}, {"id": "sixth_sense", "level": 2},
                      {"id": "iron_wall", "level": 0}, {"level": 2}]
    mix["equipment"].append({"name": "謎の箱"})
    plain = json.loads(json.dumps(base))
    plain["gear"]["boosts"] = ["cr", "sr", "mr"]
    plain["pilot"]["level"] = "Z"
    return {"red-mix": mix, "red-not-custom": plain}


# --- the one LibreOffice run -------------------------------------------------------------------------

@dataclass
class Case:
    """One workbook written from ``doc``: what was written, and what LibreOffice made of it."""

    doc: dict | None
    context: dict
    written: Path
    options: dict = field(default_factory=dict)
    recalculated: Path | None = None
    probes: dict[str, str] = field(default_factory=dict)


@pytest.fixture(scope="session")
def mg_workbooks(tmp_path_factory) -> dict[str, Case]:
    """Samples (good and broken), red cases, generated pilots, edited copies and the templates,
    each written once; the probed copies recalculated by LibreOffice in one call."""
    import openpyxl

    base = tmp_path_factory.mktemp("mg")
    src, probed = base / "src", base / "probed"
    src.mkdir()
    probed.mkdir()
    docs: dict[str, tuple[dict | None, dict, dict]] = {}
    for p in MG_SAMPLES:
        docs[p.stem] = (load(p), context_for(load(p)), {})
    for p in BROKEN_MG:
        docs[f"broken-{p.stem}"] = (load(p), context_for(load(p)), {})
    for name, doc in red_cases().items():
        docs[name] = (doc, {"catalog": example_catalog()}, {})
    for name, (doc, options) in option_cases().items():
        docs[name] = (doc, {"catalog": example_catalog()}, options)
    for k, doc in enumerate(generated_pilots()):
        docs[f"generated-{k:02d}"] = (doc, {"catalog": example_catalog()}, {})
    cases: dict[str, Case] = {}
    write: dict[str, Callable[[], bytes]] = {}
    for name, (doc, ctx, options) in docs.items():
        write[name] = functools.partial(sheet_bytes, doc, options, ctx)
    write["template"] = functools.partial(template_bytes, "mailgear")
    write["template-catalog"] = functools.partial(template_bytes, "mailgear", None,
                                                  {"catalog": example_catalog()})
    for name, make in write.items():
        doc, ctx, options = docs.get(name, (None, {}, {}))
        path = src / f"{name}.xlsx"
        path.write_bytes(make())
        cases[name] = Case(doc, ctx, path, options)
        cases[name].probes = with_rule_probes(path, probed / path.name)
    for p in MG_SAMPLES:  # the edited copy: inputs typed into the written sheet
        doc = load(p)
        path = src / f"{p.stem}.edited.xlsx"
        path.write_bytes(sheet_bytes(doc, None, context_for(doc)))
        wb = openpyxl.load_workbook(path)
        for name, index, value in edits(doc):
            cell_of(wb, name, index).value = value
        wb.save(probed / path.name)
        cases[f"{p.stem}.edited"] = Case(edited(doc), context_for(doc), path)
    files = sorted(probed.glob("*.xlsx"))
    out = recalculate(files, base / "out", base / "profile")
    by_name = {f.stem: o for f, o in zip(files, out)}
    for name, case in cases.items():
        case.recalculated = by_name[name]
    return cases

"""Shared fixtures for workbook tests: samples, and one LibreOffice run for all of them."""
from __future__ import annotations

import functools
import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from converter import evaluate as price
from converter.sheets import sheet_bytes

from .libreoffice import recalculate

if TYPE_CHECKING:
    from . import mailgear_fixtures, pp_fixtures

ROOT = Path(__file__).resolve().parents[2]
UP_SAMPLES = sorted((ROOT / "samples" / "up").glob("*.json"))


GENERATED = 30


@functools.lru_cache(maxsize=1)
def generated_units() -> list[dict]:
    """GENERATED valid units from the shared strategy, the same on every run (derandomized)."""
    from hypothesis import HealthCheck, given, settings

    from ..strategies import up_unit

    found: list[dict] = []

    @settings(max_examples=GENERATED * 4, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(up_unit())
    def collect(doc: dict) -> None:
        if len(found) < GENERATED and price(doc).complete:
            found.append(doc)

    collect()
    return found


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def edited(doc: dict) -> dict:
    """The sample with inputs changed (HP up one step, a weapon's accuracy raised)."""
    from converter.rules.up.tables import tables

    d = json.loads(json.dumps(doc))
    d["stats"]["hp"] += tables().sizes[d["size"]].stats["hp"].step
    for w in d.get("weapons", []):
        if w.get("accuracy", 0) == 0 and not w.get("variant_of"):
            w["accuracy"] = 10
            break
    d["declared_total"] = price(d).total
    return d


@pytest.fixture(scope="session")
def recalculated(tmp_path_factory) -> dict[str, Path]:
    """Every up sample written, plus an input-edited copy, recalculated by LibreOffice at once."""
    base = tmp_path_factory.mktemp("lo")
    src = base / "src"
    src.mkdir()
    files = []
    for p in UP_SAMPLES:
        f = src / f"{p.stem}.xlsx"
        f.write_bytes(sheet_bytes(load(p)))
        files.append(f)
        # The edited copy: written from the sample, then its input cells edited with openpyxl.
        import openpyxl

        g = src / f"{p.stem}.edited.xlsx"
        g.write_bytes(sheet_bytes(load(p)))
        wb = openpyxl.load_workbook(g)
        new = edited(load(p))
        sheet, ref = next(iter(wb.defined_names["up.stats.hp"].destinations))
        wb[sheet][ref.replace("$", "")] = new["stats"]["hp"]
        for i, (w0, w1) in enumerate(zip(load(p).get("weapons", []), new.get("weapons", []), strict=True)):
            if w0.get("accuracy", 0) != w1.get("accuracy", 0):
                sheet, ref = next(iter(wb.defined_names["up.weapons.accuracy"].destinations))
                col = "".join(ch for ch in ref.split(":")[0] if ch.isalpha())
                row = int("".join(ch for ch in ref.split(":")[0] if ch.isdigit())) + i
                wb[sheet][f"{col}{row}"] = w1["accuracy"]
        wb.save(g)
        files.append(g)
    for k, doc in enumerate(generated_units()):
        f = src / f"generated-{k:02d}.xlsx"
        f.write_bytes(sheet_bytes(doc))
        files.append(f)
    out = recalculate(files, base / "out", base / "profile")
    return {f.name: o for f, o in zip(files, out, strict=True)}


BROKEN_UP = sorted((ROOT / "samples" / "broken" / "up").glob("*.json"))
HELPER_COL = 300  # far right of every sheet: where the helper copy evaluates each red-cell rule


def with_rule_probes(src: Path, dst: Path) -> dict[str, str]:
    """Copy ``src`` to ``dst`` with every conditional-formatting rule evaluated in a helper cell.

    Each (cell, rule) gets a formula =IF(<the rule, translated to that cell>,1,0) on the same
    sheet; returns helper "Sheet!A1" → the formatted cell "Sheet!A1".
    """
    import openpyxl
    from openpyxl.formula.translate import Translator
    from openpyxl.utils import get_column_letter

    wb = openpyxl.load_workbook(src)
    probes: dict[str, str] = {}
    for ws in wb.worksheets:
        row = 1
        for cf in ws.conditional_formatting:
            for rule in cf.rules:
                for rng in cf.sqref.ranges:
                    origin = f"{get_column_letter(rng.min_col)}{rng.min_row}"
                    for r in range(rng.min_row, rng.max_row + 1):
                        for c in range(rng.min_col, rng.max_col + 1):
                            target = f"{get_column_letter(c)}{r}"
                            formula = Translator("=" + rule.formula[0], origin=origin).translate_formula(target)
                            helper = ws.cell(row=row, column=HELPER_COL)
                            helper.value = f"=IF({formula[1:]},1,0)"
                            probes[f"{ws.title}!{helper.coordinate}"] = f"{ws.title}!{target}"
                            row += 1
    wb.save(dst)
    return probes


@pytest.fixture(scope="session")
def red_cells(tmp_path_factory) -> dict[str, set[str]]:
    """For every up sample, good and broken: the cells LibreOffice says the red rules mark."""
    import openpyxl

    base = tmp_path_factory.mktemp("cf")
    src = base / "src"
    src.mkdir()
    files, probes = [], {}
    for p in UP_SAMPLES + BROKEN_UP:
        written = src / f"{p.stem}.written.xlsx"
        written.write_bytes(sheet_bytes(load(p)))
        probe = src / f"{p.stem}.xlsx"
        probes[p.stem] = with_rule_probes(written, probe)
        files.append(probe)
    out = recalculate(files, base / "out", base / "profile")
    red: dict[str, set[str]] = {}
    for p, o in zip(UP_SAMPLES + BROKEN_UP, out, strict=True):
        wb = openpyxl.load_workbook(o, data_only=True)
        red[p.stem] = {cell for helper, cell in probes[p.stem].items()
                       if wb[helper.split("!")[0]][helper.split("!")[1]].value == 1}
    return red


# The workbook fixtures of test_mailgear_sheets and test_pp_sheets, built in their fixtures modules.
# Those modules import this one, hence the imports inside the functions.
@pytest.fixture(scope="session")
def mg_workbooks(tmp_path_factory) -> dict[str, mailgear_fixtures.Case]:
    """Every mailgear case written and recalculated by LibreOffice in one call."""
    from . import mailgear_fixtures

    return mailgear_fixtures.mg_workbooks(tmp_path_factory)


@pytest.fixture(scope="session")
def pp_workbooks(tmp_path_factory) -> dict[str, pp_fixtures.Case]:
    """Every pp case written and recalculated by LibreOffice in one call."""
    from . import pp_fixtures

    return pp_fixtures.pp_workbooks(tmp_path_factory)

"""The xlwings-flavoured mailgear sheet, recalculated end to end by the `formulas` package with our
functions registered (test_flavour.py does up and pp): its template and every sample pilot, each
about 30 s to load, two at a time in worker processes; every computed cell must equal the native
sheet's cached value, the engine's. Kept apart from test_flavour.py so that the suite's workers
(one file each) share the two halves of this evaluator's cost.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .cases import ROOT
from .test_flavour import _both, _differences, _formula_cells, _functions

pytest.importorskip("formulas", reason="the formulas package (test extra) evaluates the workbooks")

MAILGEAR_EVALUATED = ("template", *sorted(p.stem for p in (ROOT / "samples" / "mailgear").glob("*.json")
                                          if "system" in json.loads(p.read_text("utf-8"))))
WRONG = "veteran-fortune"  # recalculated again with MAILGEAR_GEAR_STAT answering a wrong figure


def _mailgear_case(name: str) -> dict[str, Any]:
    """In a worker: the flavoured workbook recalculated, the cells that differ from the native
    one's, the functions called; for WRONG, also the cells that differ once MAILGEAR_GEAR_STAT
    answers 1 more than the engine (the same loaded model, recalculated)."""
    import tempfile

    from .formula_evaluator import Recalculation

    doc = None if name == "template" else json.loads((ROOT / "samples" / "mailgear" / f"{name}.json").read_text("utf-8"))
    with tempfile.TemporaryDirectory(prefix="mgflavour-") as tmp:
        native, flavoured = _both(Path(tmp), "mailgear", doc)
        recalculation = Recalculation(flavoured)
        got = recalculation.run()
        out = {"differ": _differences(native, flavoured, got), "calls": got.calls, "raised": got.raised[:5],
               "formulas": _formula_cells(flavoured)}
        if name == WRONG:
            right = recalculation.functions["MAILGEAR_GEAR_STAT"]
            recalculation.functions["MAILGEAR_GEAR_STAT"] = lambda *args: right(*args) + 1
            out["wrong"] = _differences(native, flavoured, recalculation.run())
    return out


@pytest.fixture(scope="module")
def mailgear_recalculated() -> dict[str, dict[str, Any]]:
    """Each of MAILGEAR_EVALUATED (the template and every sample pilot) recalculated by `formulas`
    (about 30 s to load each), two at a time in forked workers."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(max_workers=2, mp_context=multiprocessing.get_context("fork")) as pool:
        return dict(zip(MAILGEAR_EVALUATED, pool.map(_mailgear_case, MAILGEAR_EVALUATED), strict=True))


@pytest.mark.parametrize("name", MAILGEAR_EVALUATED)
def test_every_computed_cell_of_the_flavoured_mailgear_sheet_equals_the_engine(name: str, mailgear_recalculated) -> None:
    """Recalculated with our functions, each computed cell of the flavoured pilot sheet (the
    empty template, a 専用機 with boosts and a +1d skill, options raising skills and a stat, a
    third copy, 武運 3d6) equals the native sheet's value, the engine's; every input-only
    function is called, and no whole-sheet one."""
    got = mailgear_recalculated[name]
    assert got["differ"] == {}, got["raised"]
    flavoured = {n for n in _functions("mailgear") if any(n + "(" in f for f in got["formulas"].values())}
    assert set(got["calls"]) == flavoured == INPUT_ONLY


def test_a_wrong_function_value_shows_in_the_recalculated_mailgear_sheet(mailgear_recalculated) -> None:
    """The comparison is not vacuous: with MAILGEAR_GEAR_STAT one off, every 性能 最終値 cell
    differs from the engine's (and the derived values computed from them)."""
    from converter.rules.mailgear.tables import tables
    from converter.sheets.system_sheet import system_sheet

    layout = system_sheet("mailgear").layout
    sb = layout.raw["stat_block"]
    finals = {f"{layout.input_sheet}!{sb['final_col']}{sb['first_row'] + k}" for k in range(len(tables().stat_ids))}
    wrong = mailgear_recalculated[WRONG]["wrong"]
    assert finals <= set(wrong)
    assert len(wrong) > len(finals)  # the dice and fixed parts built on them follow


INPUT_ONLY = {"MAILGEAR_GEAR_STAT", "MAILGEAR_LEVEL_FOR", "MAILGEAR_PILOT_SKILL", "MAILGEAR_PILOT_SKILL_BONUS",
              "MAILGEAR_PILOT_VALUE", "MAILGEAR_RANK_FOR", "MAILGEAR_SLOTS_USED", "MAILGEAR_WEAPON_VALUE"}


@pytest.mark.parametrize("sample", (None, "veteran-fortune"))
def test_each_mailgear_range_argument_is_an_input_part_of_the_workbook(tmp_path: Path, sample: str | None) -> None:
    """Every range a flavoured mailgear cell passes is exactly one part of ``input_parts`` in the
    written workbook (the rectangle its defined names cover, the catalog's tables as long as the
    catalog written): what the functions read it as."""
    import re

    from converter.io.xlsx_package import open_package, parse_reference
    from converter.sheets.system_sheet import system_sheet

    doc = None if sample is None else json.loads((ROOT / "samples" / "mailgear" / f"{sample}.json").read_text("utf-8"))
    _, flavoured = _both(tmp_path, "mailgear", doc)
    package = open_package(flavoured)
    try:
        names = dict(package.names)
    finally:
        package.close()
    parts = {}
    for part, inside in system_sheet("mailgear").input_parts().items():
        areas = [names[n] for n in inside]
        parts[(areas[0].sheet, min(a.top for a in areas), min(a.left for a in areas),
               max(a.bottom for a in areas), max(a.right for a in areas))] = part
    rules = [names[n] for n in names if n.startswith("mailgear.options.")]
    given = set()
    for formula in _formula_cells(flavoured).values():
        for fn in INPUT_ONLY & {n for n in INPUT_ONLY if n + "(" in formula}:
            for ref in re.findall(r"'[^']+'!\$[A-Z]+\$\d+:\$[A-Z]+\$\d+", formula.split(fn + "(", 1)[1]):
                a = parse_reference(ref)
                key = (a.sheet, a.top, a.left, a.bottom, a.right)
                if a.sheet == "ルール":
                    assert (a.top, a.bottom) == (min(r.top for r in rules), max(r.bottom for r in rules)), ref
                    continue
                assert key in parts, ref
                given.add(parts[key])
    assert given == set(parts.values()) - {"catalog.unit_levels", "catalog.models"}

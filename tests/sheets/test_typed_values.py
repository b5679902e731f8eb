"""What a player types, the sheet and `check` agree on (docs/templates.md, 入力の読み方).

Every kind of typed value (typed_cases.py: full-width digits, a number stored as text, a
thousands comma, a lone space, a blank, 〇 for ○, ○, a list value misspelt) is put into a copy of
a sample sheet of each template; LibreOffice (one soffice run) and Gnumeric recalculate the
copies, and for each the sheet's 入力エラー count, its totals and its red cells equal what
`check` reports of the same file, cell by cell.
"""
from __future__ import annotations

import shutil
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from converter import check_path
from converter.sheets.layout import load_layout
from converter.sheets.typed_inputs import SHOWN

from .conftest import with_rule_probes
from .libreoffice import recalculate
from .spreadsheet_engines import recalculate_gnumeric
from .typed_cases import SAMPLES, TYPED, Typed

# Findings that are a typed value the formulas cannot count: each is one 入力エラー and one red cell.
TYPED_CODES = ("SHEET_NUMBER_AS_TEXT", "SHEET_NOT_INTEGER", "SHEET_NOT_BOOL", "SHEET_ENUM_UNKNOWN")
CASES = [(system, t) for system, cases in TYPED.items() for t in cases]


@dataclass
class Sheet:
    """What one spreadsheet shows after recalculating: named computed cells and the red cells."""

    values: dict[str, Any]
    red: set[str]


@dataclass
class Case:
    system: str
    typed: Typed
    cell: str  # where the value was typed ("Sheet!A1")
    path: Path  # the typed copy, as `check` reads it
    engines: dict[str, Sheet]


def _cell(wb, name: str, index: int):
    sheet, ref = next(iter(wb.defined_names[name].destinations))
    ref = ref.replace("$", "").split(":")[0]
    col = "".join(ch for ch in ref if ch.isalpha())
    return wb[sheet][f"{col}{int(''.join(ch for ch in ref if ch.isdigit())) + index}"]


def _keep_spaces(path: Path) -> None:
    """A cell of spaces saved as Excel saves it (``xml:space="preserve"``): openpyxl leaves the
    mark out, and a reader may then strip the space that Excel and LibreOffice keep."""
    tmp = path.with_suffix(".tmp")
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        for item in src.infolist():
            data = src.read(item.filename)
            if item.filename.startswith("xl/worksheets/"):
                data = data.replace(b"<t> </t>", b'<t xml:space="preserve"> </t>')
            dst.writestr(item, data)
    tmp.replace(path)


def _shown(path: Path, probes: dict[str, str], names: list[str]) -> Sheet:
    values_wb = openpyxl.load_workbook(path, data_only=True)
    defined = openpyxl.load_workbook(path).defined_names
    values = {}
    for name in names:
        sheet, ref = next(iter(defined[name].destinations))
        values[name] = values_wb[sheet][ref.replace("$", "")].value
    red = {cell for helper, cell in probes.items()
           if values_wb[helper.split("!")[0]][helper.split("!")[1]].value == 1}
    return Sheet(values, red)


def _names(system: str) -> list[str]:
    errors = load_layout(system).raw["input_errors"]
    return [errors["name"], *errors["gates"]]


@pytest.fixture(scope="module")
def typed_sheets(tmp_path_factory) -> dict[str, Case]:
    """Every case typed into a copy of its sample, with red-rule probes, recalculated by
    LibreOffice in one run and by Gnumeric (two at a time)."""
    base = tmp_path_factory.mktemp("typed")
    src = base / "src"
    src.mkdir()
    cases, probes, files = {}, {}, []
    for system, t in CASES:
        key = f"{system}-{t.kind}"
        typed = src / f"{key}.typed.xlsx"
        shutil.copy(SAMPLES[system], typed)
        wb = openpyxl.load_workbook(typed)
        cell = _cell(wb, t.name, t.index)
        cell.value = t.value(cell.value)
        wb.save(typed)
        _keep_spaces(typed)
        probe = src / f"{key}.xlsx"
        probes[key] = with_rule_probes(typed, probe)
        files.append(probe)
        cases[key] = Case(system, t, f"{cell.parent.title}!{cell.coordinate}", typed, {})
    lo = recalculate(files, base / "lo", base / "profile")
    gnumeric = recalculate_gnumeric(files, base / "gnumeric")
    for f, out in zip(files, lo, strict=True):
        case = cases[f.stem]
        names = _names(case.system)
        case.engines = {"LibreOffice": _shown(out, probes[f.stem], names),
                        "Gnumeric": _shown(gnumeric[f], probes[f.stem], names)}
    return cases


@pytest.mark.parametrize(("system", "typed"), CASES, ids=[f"{s}-{t.kind}" for s, t in CASES])
def test_sheet_and_check_agree_on_a_typed_value(system: str, typed: Typed, typed_sheets) -> None:
    """The 入力エラー count, the totals and the red cells of both spreadsheets equal check's."""
    case = typed_sheets[f"{system}-{typed.kind}"]
    report = check_path(case.path)
    errors = [f for f in report.findings if f.level.value == "error"]
    typed_errors = [f for f in errors if f.code in TYPED_CODES]
    # The case means what it says: a value the formulas cannot count is one finding at its cell.
    assert [f.cell for f in typed_errors] == ([case.cell] if typed.input_error or typed.kind == "misspelt" else [])
    layout = load_layout(system).raw["input_errors"]
    for engine, sheet in case.engines.items():
        assert sheet.values[layout["name"]] == len(typed_errors), engine
        for gate in layout["gates"]:
            if typed_errors:
                assert sheet.values[gate] == SHOWN, (engine, gate)
        if not typed_errors and layout["gates"]:
            assert report.evaluation is not None
            assert sheet.values[layout["gates"][0]] == report.evaluation.total, engine
        # Red: exactly the cells check names for a typed value, and no other error of check's
        # (the samples are valid) names a cell.
        assert sheet.red == {f.cell for f in errors}, engine

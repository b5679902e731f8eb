"""What a player types, the sheet and `check` agree on (docs/templates.md, 入力の読み方).

Every kind of typed value (typed_cases.py: full-width digits, a number stored as text, a
thousands comma, a lone space, a blank, 〇 for ○, ○, a list value misspelt) is put into a copy of
a sample sheet of each template: the input errors into one copy, the values the formulas count
into another. LibreOffice (one soffice run) and Gnumeric recalculate the copies, and for each the
sheet's 入力エラー count, its totals and its red cells equal what `check` reports of the same
file, cell by cell.
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
COPIES = [(system, copy) for system in TYPED for copy in ("errors", "counted")]
IDS = [f"{system}-{copy}" for system, copy in COPIES]


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


def typed_copy(system: str, copy: str, folder: Path) -> tuple[Path, dict[str, Typed]]:
    """The system's sample with the cases of ``copy`` typed in (saved as Excel saves it), and
    each case by the cell it was typed into ("Sheet!A1")."""
    path = folder / f"{system}-{copy}.typed.xlsx"
    shutil.copy(SAMPLES[system], path)
    wb = openpyxl.load_workbook(path)
    cells = {}
    for t in TYPED[system]:
        if t.copy == copy:
            cell = _cell(wb, t.name, t.index)
            cell.value = t.value(cell.value)
            cells[f"{cell.parent.title}!{cell.coordinate}"] = t
    assert len(cells) == sum(t.copy == copy for t in TYPED[system]), "two cases typed into one cell"
    wb.save(path)
    _keep_spaces(path)
    return path, cells


@dataclass
class Sheet:
    """What one spreadsheet shows after recalculating: the 入力エラー cell and the totals it
    gates, by defined name, and the red cells."""

    values: dict[str, Any]
    red: set[str]


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


@dataclass
class Copy:
    path: Path  # the typed copy, as `check` reads it
    cases: dict[str, Typed]  # cell → what was typed there
    engines: dict[str, Sheet]


@pytest.fixture(scope="module")
def typed_sheets(tmp_path_factory) -> dict[str, Copy]:
    """Every copy, with red-rule probes, recalculated by LibreOffice in one run and by Gnumeric."""
    base = tmp_path_factory.mktemp("typed")
    src = base / "src"
    src.mkdir()
    copies, probes, files = {}, {}, []
    for (system, copy), key in zip(COPIES, IDS, strict=True):
        path, cases = typed_copy(system, copy, src)
        probe = src / f"{key}.xlsx"
        probes[key] = with_rule_probes(path, probe)
        files.append(probe)
        copies[key] = Copy(path, cases, {})
    lo = recalculate(files, base / "lo", base / "profile")
    gnumeric = recalculate_gnumeric(files, base / "gnumeric")
    for (system, _), key, f, out in zip(COPIES, IDS, files, lo, strict=True):
        names = _names(system)
        copies[key].engines = {"LibreOffice": _shown(out, probes[key], names),
                               "Gnumeric": _shown(gnumeric[f], probes[key], names)}
    return copies


@pytest.mark.parametrize(("system", "copy"), COPIES, ids=IDS)
def test_one_error_per_typed_value(system: str, copy: str, tmp_path: Path) -> None:
    """check gives each typed value the formulas cannot count exactly one error, at its cell,
    and the rule's own message about the same value not again (実弾 at 武装!F4:
    SHEET_ENUM_UNKNOWN only, not also UP_WEAPON_ATTRIBUTE); the values they count give none."""
    path, cases = typed_copy(system, copy, tmp_path)
    errors = sorted((f.cell, f.code) for f in check_path(path).findings if f.level.value == "error")
    assert [cell for cell, _ in errors] == sorted(c for c, t in cases.items() if t.input_error)
    assert all(code in TYPED_CODES for _, code in errors)


@pytest.mark.parametrize(("system", "copy"), COPIES, ids=IDS)
def test_sheet_and_check_agree_on_typed_values(system: str, copy: str, typed_sheets) -> None:
    """In LibreOffice and in Gnumeric: 入力エラー is the number of check's errors for typed
    values, the totals show 入力エラー while any stands and check's total otherwise, and the red
    cells are exactly the cells check names."""
    typed = typed_sheets[f"{system}-{copy}"]
    report = check_path(typed.path)
    errors = [f for f in report.findings if f.level.value == "error"]
    typed_errors = [f for f in errors if f.code in TYPED_CODES]
    layout = load_layout(system).raw["input_errors"]
    for engine, sheet in typed.engines.items():
        assert sheet.values[layout["name"]] == len(typed_errors), engine
        for gate in layout["gates"]:
            if typed_errors:
                assert sheet.values[gate] == SHOWN, (engine, gate)
        if not typed_errors and layout["gates"]:
            assert report.evaluation is not None and report.evaluation.complete
            assert sheet.values[layout["gates"][0]] == report.evaluation.total, engine
        assert sheet.red == {f.cell for f in errors}, engine


def test_the_words_name_the_value_and_the_number_it_reads_as(tmp_path: Path) -> None:
    """Full-width digits typed for 反応 (「４」) are reported at their cell in the words the
    sheet's rule uses, in both languages, with the number they read as."""
    path, cases = typed_copy("pp", "errors", tmp_path)
    cell = next(c for c, t in cases.items() if t.kind == "full_width")
    sheet, ref = cell.split("!")
    typed_text = openpyxl.load_workbook(path)[sheet][ref].value
    number = int(typed_text.translate(str.maketrans("０１２３４５６７８９", "0123456789")))
    (f,) = [f for f in check_path(path).findings if f.code == "SHEET_NUMBER_AS_TEXT" and f.cell == cell]
    assert f.params == {"value": typed_text, "number": number}
    assert f.message("ja").startswith(f"「{typed_text}」は文字として入っています")
    assert f"数値なら {number}" in f.message("ja")
    assert f"{typed_text!r} is stored as text" in f.message("en") and f"as a number: {number}" in f.message("en")

"""The faster worksheet prepares every formula exactly as XlsxWriter's own does."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st
from xlsxwriter.worksheet import Worksheet

from converter.sheets.xlsx_worksheet import _name_endings, worksheet_class

FAST = worksheet_class()


def _names() -> list[str]:
    """Every name XlsxWriter's patterns substitute, with their `.` wildcards as written."""
    endings = _name_endings() or {}
    return [p.pattern.replace("\\b", "").replace("\\S", "S").replace("\\(", "")
            for found in endings.values() for p, _ in found]


NAMES = _names()


def _same(formula: str) -> None:
    for expand in (False, True):
        for future in (False, True):
            fast, plain = FAST(), Worksheet()
            fast.use_future_functions = plain.use_future_functions = future
            assert fast._prepare_formula(formula, expand) == plain._prepare_formula(formula, expand), \
                (formula, expand, future)


def test_the_installed_xlsxwriter_is_read() -> None:
    """The speed-up is in force: the patterns were read from the installed source."""
    assert FAST is not None and issubclass(FAST, Worksheet)
    assert len(NAMES) > 100 and "XLOOKUP" in NAMES and "BETA.DIST" in NAMES


@pytest.mark.parametrize("context", ["={}(A1)", "{{={}(A1)}}", "=1+{}(A1)", "=X{}(A1)",
                                     "=_xlfn.{}(A1)", "={}  (A1)", "=IF(A1,{}(B1),0)",
                                     "={}", "=lower({}(A1))", "= {}(A1)"])
def test_every_name_in_context(context: str) -> None:
    for name in NAMES:
        _same(context.format(name))
        _same(context.format(name.replace(".", "_")))  # the wildcard matches any character
        _same(context.format(name.lower()))


def test_the_sheets_formulas() -> None:
    """Each formula our templates write, prepared both ways."""
    from converter.sheets import template_bytes
    import io
    import zipfile

    for system in ("up", "mailgear", "pp"):
        with zipfile.ZipFile(io.BytesIO(template_bytes(system))) as package:
            for name in package.namelist():
                if name.startswith("xl/worksheets/"):
                    xml = package.read(name).decode()
                    for formula in re.findall(r"<(?:f|formula1|formula)>([^<]*)<", xml):
                        _same("=" + formula)


PIECES = st.sampled_from(NAMES + ["SUM", "IF", "INDEX", "MATCH", "SINGLE", "INGLE", "T", "P", "S",
                                  "(", ")", ",", " ", "=", "{", "}", ".", "_", "_xlfn.", "X", "1",
                                  "A1", "\"", "'", "!", "$", "-", "&", "ー", "装甲"])


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join))
def test_any_formula(formula: str) -> None:
    _same(formula)


# --- one validation per rule -----------------------------------------------------------------

from converter.sheets import writer as sheet_writer  # noqa: E402


@given(st.sets(st.tuples(st.integers(0, 40), st.integers(0, 6)), min_size=1, max_size=80))
def test_column_runs_cover_exactly_the_cells(cells: set[tuple[int, int]]) -> None:
    runs = sheet_writer._column_runs(list(cells))
    covered = [(r, c0) for r0, c0, r1, c1 in runs for r in range(r0, r1 + 1)]
    assert sorted(covered) == sorted(cells) and all(c0 == c1 for _, c0, _, c1 in runs)
    for (r0, c0, r1, _), (s0, d0, _, _) in zip(runs, runs[1:]):  # maximal: no two runs touch
        assert not (c0 == d0 and s0 == r1 + 1)


def _rules_by_cell(data: bytes) -> dict[tuple[str, str], tuple]:
    import io
    from openpyxl import load_workbook
    from openpyxl.utils.cell import range_boundaries, get_column_letter

    out: dict[tuple[str, str], tuple] = {}
    for ws in load_workbook(io.BytesIO(data)).worksheets:
        for dv in ws.data_validations.dataValidation:
            rule = (dv.type, dv.operator, dv.formula1, dv.formula2, dv.errorStyle, dv.errorTitle,
                    dv.error, dv.showErrorMessage, dv.allow_blank)
            for ref in str(dv.sqref).split():
                c0, r0, c1, r1 = range_boundaries(ref)
                for r in range(r0, r1 + 1):
                    for c in range(c0, c1 + 1):
                        key = (ws.title, f"{get_column_letter(c)}{r}")
                        assert key not in out, key  # one validation per cell
                        out[key] = rule
    return out


@pytest.mark.parametrize("sample", ["up/l-map-combo", "mailgear/veteran-custom", "pp/veteran"])
def test_merged_validations_are_the_cells_own(sample: str, monkeypatch) -> None:
    """Every cell keeps the very rule it had when each cell carried its own validation."""
    import json
    from pathlib import Path
    from converter.sheets import sheet_bytes
    from samples.make_sheets import context_for

    path = Path(__file__).resolve().parents[2] / "samples" / f"{sample}.json"
    doc = json.loads(path.read_text("utf-8"))
    merged = _rules_by_cell(sheet_bytes(doc, context=context_for(path, doc)))
    monkeypatch.setattr(sheet_writer, "_column_runs",
                        lambda cells: [(r, c, r, c) for r, c in dict.fromkeys(cells)])
    one_each = _rules_by_cell(sheet_bytes(doc, context=context_for(path, doc)))
    assert merged == one_each and len(merged) > 100

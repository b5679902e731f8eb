"""Our worksheet prepares every formula exactly as XlsxWriter's own does, on the XlsxWriter
versions pyproject.toml pins (it overrides private methods read in those)."""
from __future__ import annotations

import re
import tomllib
from itertools import pairwise
from importlib.metadata import version
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st
from packaging.requirements import Requirement
from xlsxwriter.worksheet import Worksheet

from converter.sheets import xlsx_worksheet
from converter.sheets.xlsx_worksheet import CLASSIC, FastFormulaWorksheet

# Names XlsxWriter does prefix (its newer functions, a `.` in a name matching any character), and
# names close to ours: each must reach XlsxWriter's own preparation.
NEWER = ["XLOOKUP", "IFS", "XOR", "XMATCH", "SINGLE", "BETA.DIST", "T.DIST.2T", "ISO.CEILING", "SORT",
         "FILTER", "CONCAT", "TEXTJOIN", "STDEV.S", "VAR.P", "MAILGEAR_PILOT_VALUE", "UP_STAT_COST"]


def _same(formula: str) -> None:
    for expand in (False, True):
        for future in (False, True):
            fast, plain = FastFormulaWorksheet(), Worksheet()
            fast.use_future_functions = plain.use_future_functions = future
            assert fast._prepare_formula(formula, expand) == plain._prepare_formula(formula, expand), \
                (formula, expand, future)


def test_xlsxwriter_is_a_version_whose_private_methods_were_read() -> None:
    """The installed XlsxWriter is one pyproject.toml pins: an unknown version fails here."""
    pyproject = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text("utf-8"))
    pinned = next(Requirement(r) for r in pyproject["project"]["dependencies"]
                  if Requirement(r).name.lower() == "xlsxwriter")
    assert pinned.specifier and not pinned.specifier.contains("9999")
    assert pinned.specifier.contains(version("xlsxwriter")), (version("xlsxwriter"), str(pinned.specifier))


def test_xlsxwriter_prefixes_none_of_the_classic_functions() -> None:
    """XlsxWriter's own preparation leaves a call of each CLASSIC function as it is."""
    plain = Worksheet()
    plain.use_future_functions = True
    for name in CLASSIC:
        assert plain._prepare_formula(f"={name}(A1)", True) == f"{name}(A1)"


@pytest.mark.parametrize("context", ["={}(A1)", "{{={}(A1)}}", "=1+{}(A1)", "=X{}(A1)",
                                     "=_xlfn.{}(A1)", "={}  (A1)", "=IF(A1,{}(B1),0)",
                                     "={}", "=lower({}(A1))", "= {}(A1)", "=ISO.{}(A1)", "=A{}(A1)"])
def test_every_name_in_context(context: str) -> None:
    """A classic name, a newer one or a near miss, in a formula, prepared both ways."""
    for name in sorted(CLASSIC) + NEWER:
        _same(context.format(name))
        _same(context.format(name.replace(".", "_")))  # XlsxWriter's `.` matches any character
        _same(context.format(name.lower()))


def test_the_sheets_formulas() -> None:
    """Each formula our native templates write calls only CLASSIC functions (so it skips
    XlsxWriter's substitutions) and is prepared both ways alike."""
    from converter.sheets import template_bytes
    import html
    import io
    import zipfile

    for system in ("up", "mailgear", "pp"):
        with zipfile.ZipFile(io.BytesIO(template_bytes(system))) as package:
            for name in package.namelist():
                if name.startswith("xl/worksheets/"):
                    xml = package.read(name).decode()
                    # a shared formula's text is on its run's first cell: <f t="shared" ref=…>
                    for formula in re.findall(r"<(?:f(?:\s[^>/]*)?|formula1|formula)>([^<]*)<", xml):
                        called = set(re.findall(r"([A-Za-z0-9._]+)\(", html.unescape(formula)))
                        assert called <= CLASSIC, (system, called - CLASSIC)
                        _same("=" + formula)


PIECES = st.sampled_from(sorted(CLASSIC) + NEWER + [
    "INGLE", "T", "P", "S", "ISO", "(", ")", ",", " ", "=", "{", "}", ".", "_", "_xlfn.", "X", "1", "A1",
    "\"", "'", "!", "$", "-", "&", "ー", "装甲"])


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join))
def test_any_formula(formula: str) -> None:
    """Any text made of formula pieces is prepared both ways alike."""
    _same(formula)


# --- one validation per rule -----------------------------------------------------------------

from converter.sheets import writer as sheet_writer  # noqa: E402


@given(st.sets(st.tuples(st.integers(0, 40), st.integers(0, 6)), min_size=1, max_size=80))
def test_column_runs_cover_exactly_the_cells(cells: set[tuple[int, int]]) -> None:
    """A validation's cells become maximal runs down each column, covering exactly those cells."""
    runs = sheet_writer._column_runs(list(cells))
    covered = [(r, c0) for r0, c0, r1, c1 in runs for r in range(r0, r1 + 1)]
    assert sorted(covered) == sorted(cells) and all(c0 == c1 for _, c0, _, c1 in runs)
    for (_, c0, r1, _), (s0, d0, _, _) in pairwise(runs):  # maximal: no two runs touch
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


# --- a column's repeated formula written once (shared) ------------------------------------------

def _formulas_by_cell(data: bytes, folder) -> dict[tuple[str, int, int], str]:
    """Every formula cell of a workbook as the sheet means it (shared ones expanded)."""
    from converter.audit.sheet_formulas import SheetFormulas
    from converter.io.xlsx_package import open_package

    file = folder / "book.xlsx"
    file.write_bytes(data)
    package = open_package(file)
    try:
        return {(sheet, *at): cell.formula for sheet in package.sheets
                for at, cell in SheetFormulas(package, sheet).cells.items()}
    finally:
        package.close()


@pytest.mark.parametrize("sample", [None, "up/l-map-combo", "mailgear/veteran-custom", "pp/veteran"])
def test_shared_formulas_mean_what_was_written(sample: str | None, monkeypatch, tmp_path) -> None:
    """A template or filled sheet written with shared formulas holds, cell for cell, the formula
    the plain worksheet writes; and it does share (most of mailgear's XML was repeated stages)."""
    import io
    import json
    import zipfile
    from pathlib import Path

    from converter.sheets import sheet_bytes, template_bytes

    def build() -> list[bytes]:
        if sample is None:
            return [template_bytes(system) for system in ("up", "mailgear", "pp")]
        from samples.make_sheets import context_for

        path = Path(__file__).resolve().parents[2] / "samples" / f"{sample}.json"
        doc = json.loads(path.read_text("utf-8"))
        return [sheet_bytes(doc, context=context_for(path, doc))]

    shared = build()
    with monkeypatch.context() as m:
        m.setattr(xlsx_worksheet, "FastFormulaWorksheet", Worksheet)
        plain = build()
    for a, b in zip(shared, plain, strict=True):
        assert _formulas_by_cell(a, tmp_path) == _formulas_by_cell(b, tmp_path)
        with zipfile.ZipFile(io.BytesIO(a)) as za, zipfile.ZipFile(io.BytesIO(b)) as zb:
            sheets = [n for n in za.namelist() if n.startswith("xl/worksheets/sheet")]
            assert sum(za.read(n).count(b'<f t="shared" si=') for n in sheets) > 10
            assert sum(za.getinfo(n).file_size for n in sheets) < sum(zb.getinfo(n).file_size for n in sheets)


def _table(formulas: dict[tuple[int, int], str]) -> dict[int, dict[int, object]]:
    from xlsxwriter.worksheet import CellFormulaTuple

    table: dict[int, dict[int, object]] = {}
    for (row, col), formula in formulas.items():
        table.setdefault(row, {})[col] = CellFormulaTuple(formula, None, 0)
    return table


def test_what_shares_and_what_does_not() -> None:
    """Only a column's adjacent cells, each the first formula moved down to it, share."""
    from converter.sheets.xlsx_worksheet import shared_runs

    runs = shared_runs(_table({
        (1, 0): "B2+1", (2, 0): "B3+1", (3, 0): "B4+1",  # moves with its row: one run
        (1, 1): "$C$1*2", (2, 1): "$C$1*2",  # absolute: the same text shares
        (1, 2): "SUM(1:1)", (2, 2): "SUM(1:1)",  # a whole row that does not move: not the same formula moved
        (1, 3): 'IF(A2="A2",1,0)', (2, 3): 'IF(A3="A2",1,0)',  # a string is never moved
        (1, 4): "B2", (3, 4): "B4",  # not adjacent
        (5, 0): "B6+1",  # after a gap: a new run (alone)
    }))
    assert runs == {"A2": (0, "A2:A4"), "A3": (0, None), "A4": (0, None),
                    "B2": (1, "B2:B3"), "B3": (1, None),
                    "D2": (2, "D2:D3"), "D3": (2, None)}


_REF_PIECES = st.sampled_from(["A1", "$A1", "A$1", "$A$1", "B2:C3", "1:1", "$2:$2", "A:A", "Sheet1!A1",
                               "'ル ール'!B2", '"A1"', "+", "*", ",", "SUM(", ")", "LOG10(", "x.y1", "7"])


@settings(max_examples=300, deadline=None)
@given(st.lists(_REF_PIECES, min_size=1, max_size=8).map("".join), st.integers(0, 50), st.integers(2, 6))
def test_a_run_is_its_first_formula_moved(formula: str, top: int, length: int) -> None:
    """Cells share only when each is the first one's formula moved down to it, by the same
    translation the audit reads shared formulas with."""
    from converter.io.formula_text import translate
    from converter.sheets.xlsx_worksheet import shared_runs

    cells = {(top + i, 0): translate(formula, i, 0) for i in range(length)}
    runs = shared_runs(_table(cells))
    assert runs.get(f"A{top + 1}") == (0, f"A{top + 1}:A{top + length}")
    assert len(runs) == length


@settings(max_examples=400, deadline=None)
@given(st.lists(_REF_PIECES | st.sampled_from(["a1", "$b$2", "ZZ9", "XFD1048576", "A1048570", ":", "!"]),
                min_size=1, max_size=10).map("".join), st.integers(1, 40))
def test_a_row_mover_moves_as_translate_does(formula: str, rows: int) -> None:
    """The parsed-once mover the writer compares a column with gives translate's text exactly
    (off the grid #REF!, lower-case letters as translate writes them), or declines."""
    from converter.io.formula_text import row_mover, translate

    mover = row_mover(formula)
    if mover is not None:
        assert mover(rows) == translate(formula, rows, 0)

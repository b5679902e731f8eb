"""Formula drift: real workbooks (our samples, older templates, LibreOffice re-saves, sheets a
player edited with openpyxl or by hand in the XML) audited against their template's formulas."""
from __future__ import annotations

import json
import re
import zipfile
from pathlib import Path

import pytest

from converter.sheets.layout import load_layout
from hypothesis import given, settings
from hypothesis import strategies as st

from converter import evaluate
from converter.audit.drift import SHOWN_FORMULA, formula_drift
from converter.io.formula_text import masked, normal, row_pattern, translate
from converter.audit.template_formulas import SYSTEMS, current_map, dump_map, formula_map, map_file, parse_map
from converter.core.findings import Severity
from converter.sheets import sheet_bytes

from ..sheets.libreoffice import recalculate

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = sorted(p for s in SYSTEMS for p in (ROOT / "samples" / s).glob("*.xlsx"))
OLD = sorted((ROOT / "tests" / "sheets" / "old_templates").glob("*.xlsx"))
MOBILE_SUIT = ROOT / "samples" / "up" / "m-mobile-suit.xlsx"


def _doc(path: Path) -> dict:
    return json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))


def _edit_part(src: Path, dst: Path, part: str, edit) -> None:
    """``src`` copied to ``dst`` with one part's text replaced by ``edit(text)``."""
    with zipfile.ZipFile(src) as zin, zipfile.ZipFile(dst, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info.filename)
            if info.filename == part:
                data = edit(data.decode("utf-8")).encode("utf-8")
            zout.writestr(info, data)


def _part_of(path: Path, sheet: str) -> str:
    from converter.io.xlsx_package import open_package

    package = open_package(path)
    try:
        return package.sheets[sheet]
    finally:
        package.close()


# --- formula text --------------------------------------------------------------------------------

def test_translate_moves_relative_references_only() -> None:
    """Relative rows and columns move; $ parts, strings, sheet names, function and defined names stay."""
    assert translate("A1+$B$2+C$3+$D4", 2, 1) == "B3+$B$2+D$3+$D6"
    assert translate('IF(A4="B5",LOG10(C4),rules.usage.1)', 1, 0) == 'IF(A5="B5",LOG10(C5),rules.usage.1)'
    assert translate("SUM('A1'!B2:B3)", 1, 0) == "SUM('A1'!B3:B4)"
    assert translate("SUM(B:B)+SUM(2:3)", 1, 1) == "SUM(C:C)+SUM(3:4)"
    assert translate("A1", -1, 0) == "#REF!"


CELL = st.builds(lambda ca, c, ra, r: f"{'$' if ca else ''}{c}{'$' if ra else ''}{r}",
                 st.booleans(), st.sampled_from(["A", "C", "Z", "AB", "XF"]), st.booleans(),
                 st.integers(1, 500))
FORMULA = st.lists(st.one_of(CELL, st.builds(lambda a, b: f"{a}:{b}", CELL, CELL),
                             st.sampled_from(['"A1"', "1", "rules.sizes", "'ユニット'!$C$6"])),
                   min_size=1, max_size=6).map(lambda parts: "SUM(" + ",".join(parts) + ")")


@settings(max_examples=200, deadline=None)
@given(FORMULA, st.integers(0, 30), st.integers(0, 5))
def test_translate_agrees_with_openpyxl(formula: str, rows: int, columns: int) -> None:
    """Our shift of a formula is openpyxl's Translator's (a second implementation of Excel's rule)."""
    from openpyxl.formula.translate import Translator
    from openpyxl.utils import get_column_letter

    ours = translate(formula, rows, columns)
    theirs = Translator("=" + formula, origin="D600").translate_formula(f"{get_column_letter(4 + columns)}{600 + rows}")
    assert ours == theirs[1:]


def test_normal_form_ignores_resaving() -> None:
    """Prefixes, case, spaces, quotes around sheet names, $ and TRUE() do not count; strings do."""
    assert normal("_xlfn.IFERROR('ユニット'!$C$6, TRUE)") == normal("=iferror(ユニット!C6,TRUE())")
    assert normal('IF(A1="a b","x")') != normal('IF(A1="A B","x")')
    assert masked("SUM(A1:A3)+B7") == masked("SUM(A2:A4)+B9") != masked("SUM(A2:A4)*B9")


def test_row_pattern_repeats_a_table_row() -> None:
    """Row references that move with the row move; references to fixed cells stay."""
    pattern = row_pattern("IF($A4=\"\",\"\",$C4*'ユニット'!$C$5)", "IF($A5=\"\",\"\",$C5*'ユニット'!$C$5)")
    assert pattern is not None
    assert normal(translate(pattern, 10, 0)) == normal("IF($A14=\"\",\"\",$C14*'ユニット'!$C$5)")
    assert row_pattern("A4*2", "A5*3") is None


# --- the maps ------------------------------------------------------------------------------------

@pytest.mark.parametrize("system", SYSTEMS)
def test_the_current_map_is_the_writers(system: str) -> None:
    """The committed map of today's template is what the writer's template gives (regenerate it
    with `python -m converter.audit.template_formulas` after a template changes)."""
    fresh = current_map(system)
    committed = formula_map(fresh.template)
    assert committed == fresh, f"{map_file(fresh.template)} is stale"
    assert parse_map(dump_map(fresh)) == fresh


@pytest.mark.parametrize("template", ["up/1", "pp/1", "mailgear/1"])
def test_older_versions_have_their_maps(template: str) -> None:
    """Each older version's map names the commit of the template it came from."""
    fmap = formula_map(template)
    assert fmap is not None and fmap.template == template
    assert re.search(r"at commit [0-9a-f]{40}", fmap.source)
    assert fmap.cells > 100


# --- samples, older versions, re-saves -----------------------------------------------------------

@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_sample_has_no_drift(path: Path) -> None:
    """Every committed sample workbook holds its template version's formulas."""
    assert formula_drift(path) == []



@pytest.mark.parametrize("path", SAMPLES[:3], ids=lambda p: f"{p.parent.name}/{p.name}")
def test_an_unchanged_sample_is_seen_without_parsing_its_formulas(path: Path, monkeypatch) -> None:
    """A sheet holding our writer's formulas is found unchanged by the byte search, with no parse."""
    import converter.audit.drift as drift

    def parse(*_: object) -> None:
        raise AssertionError("parsed formula by formula")

    monkeypatch.setattr(drift.SheetFormulas, "__init__", parse)
    monkeypatch.setattr(drift, "_named", lambda package, name: package.properties.get(name, ""))
    assert formula_drift(path) == []

@pytest.mark.parametrize("path", OLD, ids=lambda p: p.name)
def test_older_template_sheets_have_no_drift_and_say_their_version(path: Path) -> None:
    """A sheet of an older template version is one AUDIT_TEMPLATE_OLD info, naming its version and the current one."""
    findings = formula_drift(path)
    assert [f.code for f in findings] == ["AUDIT_TEMPLATE_OLD"]
    system, version = path.name.split("-")[:2]
    current = load_layout(system).template  # the version the installed package writes
    assert findings[0].params == {"template": f"{system}/{version}", "current": current}
    assert findings[0].level is Severity.INFO


def test_a_libreoffice_resave_has_no_drift(tmp_path: Path) -> None:
    """Every sample and older sheet opened and saved again by LibreOffice Calc: no drift."""
    files = SAMPLES + OLD
    out = recalculate(files, tmp_path / "out", tmp_path / "profile")
    for src, saved in zip(files, out, strict=True):
        with zipfile.ZipFile(saved) as z:  # really LibreOffice's package, formulas re-written
            assert any(b'aca="false"' in z.read(n) for n in z.namelist() if n.startswith("xl/worksheets/"))
        expected = ["AUDIT_TEMPLATE_OLD"] if src in OLD else []
        assert [f.code for f in formula_drift(saved)] == expected, src.name


def test_an_openpyxl_resave_has_no_drift(tmp_path: Path) -> None:
    """Re-saving a template with openpyxl changes how formulas are written, not what they compute: no drift."""
    import openpyxl

    wb = openpyxl.load_workbook(MOBILE_SUIT)
    wb.save(tmp_path / "resaved.xlsx")
    assert formula_drift(tmp_path / "resaved.xlsx") == []


# --- drift caught --------------------------------------------------------------------------------

def test_a_hand_typed_total_is_replaced(tmp_path: Path) -> None:
    """合計ＵＰ typed over with a number (openpyxl, as a player's spreadsheet would save it)."""
    import openpyxl

    doc = _doc(MOBILE_SUIT)
    total = evaluate(doc).total
    wb = openpyxl.load_workbook(MOBILE_SUIT)
    sheet, ref = next(iter(wb.defined_names["up.totals.computed"].destinations))
    wb[sheet][ref.replace("$", "")] = total - 20
    wb.save(tmp_path / "typed.xlsx")
    findings = formula_drift(tmp_path / "typed.xlsx")
    assert [(f.code, f.cell) for f in findings] == [("AUDIT_FORMULA_REPLACED", "ユニット!F3")]
    f = findings[0]
    assert f.pointer == "/declared_total" and f.level is Severity.WARNING
    assert f.params["found"] == f.params["value"] == total - 20
    assert f.params["expected"] == total
    assert f.params["formula"].startswith("=IF('ユニット'!$F$8>0,\"入力エラー\",IFERROR(INDEX(rules.sizes,")
    assert str(total - 20) in f.message("ja") and str(total) in f.message("en")


def test_a_typed_weapon_cost_names_its_row(tmp_path: Path) -> None:
    """A table cell typed over (the XML edited by hand): the cell, the row's pointer, both values."""
    doc = _doc(MOBILE_SUIT)
    cost = next(line.cost for line in evaluate(doc).lines if line.pointer == "/weapons/1")
    dst = tmp_path / "weapon.xlsx"
    part = _part_of(MOBILE_SUIT, "武装")

    def edit(xml: str) -> str:
        new, n = re.subn(r'<c r="AP5"([^>]*)><f>[^<]*</f><v>[^<]*</v></c>', r'<c r="AP5"\1><v>7</v></c>', xml)
        assert n == 1
        return new

    _edit_part(MOBILE_SUIT, dst, part, edit)
    [f] = formula_drift(dst)
    assert (f.code, f.cell, f.pointer) == ("AUDIT_FORMULA_REPLACED", "武装!AP5", "/weapons/1/cost")
    assert (f.params["found"], f.params["expected"]) == (7, cost)


def test_an_emptied_computed_cell_is_replaced(tmp_path: Path) -> None:
    """A computed cell emptied by the player is AUDIT_FORMULA_REPLACED."""
    import openpyxl

    wb = openpyxl.load_workbook(MOBILE_SUIT)
    sheet, ref = next(iter(wb.defined_names["up.stats.hp.cost"].destinations))
    wb[sheet][ref.replace("$", "")] = None
    wb.save(tmp_path / "emptied.xlsx")
    [f] = formula_drift(tmp_path / "emptied.xlsx")
    assert (f.code, f.cell, f.pointer, f.params["found"]) == ("AUDIT_FORMULA_REPLACED", "ユニット!H11",
                                                              "/stats/hp/cost", None)


def test_an_edited_formula_is_altered(tmp_path: Path) -> None:
    """ＨＰ's UP cell computed another way: both formulas and both values named."""
    import openpyxl

    doc = _doc(MOBILE_SUIT)
    hp_cost = next(line.cost for line in evaluate(doc).lines if line.pointer == "/stats/hp")
    wb = openpyxl.load_workbook(MOBILE_SUIT)
    sheet, ref = next(iter(wb.defined_names["up.stats.hp.cost"].destinations))
    wb[sheet][ref.replace("$", "")] = "=E11/F11"
    wb.save(tmp_path / "edited.xlsx")
    [f] = formula_drift(tmp_path / "edited.xlsx")
    assert (f.code, f.cell, f.pointer) == ("AUDIT_FORMULA_ALTERED", "ユニット!H11", "/stats/hp/cost")
    assert f.params["found"] == "=E11/F11"
    assert f.params["value"] == "—"  # openpyxl saves no cached result: none shown, never 「（結果 ）」
    assert f.params["expected"] == hp_cost
    # the template's 300-character formula, cut after its start (the cell's own has nothing in common)
    assert f.params["formula"].startswith("=IF(OR('ユニット'!$E$11=")
    assert f.params["formula"].endswith("…") and len(f.params["formula"]) == SHOWN_FORMULA


def test_a_written_total_that_differs_is_a_typed_total(tmp_path: Path) -> None:
    """A document whose declared total differs is written with the number where the formula goes
    (what a hand-typed total is): drift, with the engine's total as the template's value."""
    doc = _doc(MOBILE_SUIT)
    doc["declared_total"] = evaluate(doc).total + 5
    path = tmp_path / "declared.xlsx"
    path.write_bytes(sheet_bytes(doc))
    [f] = formula_drift(path)
    assert (f.code, f.params["found"], f.params["expected"]) == ("AUDIT_FORMULA_REPLACED",
                                                                 doc["declared_total"], doc["declared_total"] - 5)


# --- shared formulas, moved rows -------------------------------------------------------------------

def _master_edited(xml: str, column: str, first: int, edit) -> str:
    """The sheet with the text of the shared formula that starts at ``column``/``first`` edited."""
    master = re.compile(rf'(<c r="{column}{first}"[^>]*><f t="shared" ref="[^"]*" si="\d+">)([^<]*)</f>').search(xml)
    assert master is not None
    return xml.replace(master.group(0), f"{master.group(1)}{edit(master.group(2))}</f>")


def test_shared_formulas_are_expanded(tmp_path: Path) -> None:
    """A table column is written as one shared formula, as Excel saves it: the rows read as the
    template's, no drift; the first cell's text edited, every row it shares is altered."""
    part = _part_of(MOBILE_SUIT, "武装")
    with zipfile.ZipFile(MOBILE_SUIT) as z:
        xml = z.read(part).decode("utf-8")
    assert re.search(r'<c r="AL4"[^>]*><f t="shared" ref="AL4:AL18" si="(\d+)">', xml)
    assert len(re.findall(r'<c r="AL(?:[5-9]|1[0-8])"[^>]*><f t="shared" si="\d+"/>', xml)) == 14
    assert formula_drift(MOBILE_SUIT) == []
    bad = tmp_path / "shared-bad.xlsx"
    _edit_part(MOBILE_SUIT, bad, part, lambda xml: _master_edited(xml, "AL", 4, lambda f: f.replace("$G4", "$G4*2", 1)))
    found = formula_drift(bad)
    assert [f.cell for f in found] == [f"武装!AL{r}" for r in range(4, 19)]
    assert {f.code for f in found} == {"AUDIT_FORMULA_ALTERED"}
    assert "$G10*2" in found[6].params["found"]
    # the first cell's $ moved: the same formula there, but its run's other cells now all read row 4
    pinned = tmp_path / "shared-pinned.xlsx"
    _edit_part(MOBILE_SUIT, pinned, part, lambda xml: _master_edited(xml, "AL", 4, lambda f: f.replace("$G4", "$G$4")))
    found = formula_drift(pinned)
    assert [f.cell for f in found] == [f"武装!AL{r}" for r in range(5, 19)]
    assert "$G$4" in found[0].params["found"]


def test_an_array_formula_is_read(tmp_path: Path) -> None:
    """A computed cell saved as a one-cell array formula is the same formula."""
    part = _part_of(MOBILE_SUIT, "ユニット")
    dst = tmp_path / "array.xlsx"
    _edit_part(MOBILE_SUIT, dst, part, lambda xml: re.sub(r'(<c r="H11"[^>]*>)<f>', r'\1<f t="array" ref="H11">', xml))
    assert formula_drift(dst) == []


def test_cells_written_without_their_reference_are_counted(tmp_path: Path) -> None:
    """A sheet whose cells are written without ``r`` where counting places them (as some writers
    save them) reads the same formulas: no drift; one of those cells edited is still found."""
    from converter.io.xlsx_package import column_index

    part = _part_of(MOBILE_SUIT, "ユニット")
    stripped = 0

    def bare(xml: str) -> str:
        last = None  # (row, column) of the cell before

        def cell(m: re.Match) -> str:
            nonlocal last, stripped
            row, col = int(m.group(2)), column_index(m.group(1))
            follows = (last == (row, col - 1)) if last and last[0] == row else col == 0
            last = (row, col)
            if not follows:
                return m.group(0)
            stripped += 1
            return "<c"

        return re.sub(r'<c r="([A-Z]+)(\d+)"', cell, xml)

    dst = tmp_path / "bare.xlsx"
    _edit_part(MOBILE_SUIT, dst, part, bare)
    unreferenced = r"(<c(?![^>]*\br=)[^>]*>)<f>([^<]+)</f>"  # a formula cell without its reference
    with zipfile.ZipFile(dst) as z:
        assert stripped and re.search(unreferenced, z.read(part).decode())
    assert formula_drift(dst) == []
    edited = tmp_path / "bare-edited.xlsx"
    _edit_part(dst, edited, part, lambda xml: re.sub(unreferenced, lambda m: f"{m.group(1)}<f>{m.group(2)}+1</f>",
                                                   xml, count=1))
    assert [f.code for f in formula_drift(edited)] == ["AUDIT_FORMULA_ALTERED"]


def test_rows_inserted_into_a_table(tmp_path: Path) -> None:
    """A row added below the weapons table, the column names stretched over it: formulas that
    follow the row pattern, or none, are no drift; a number typed into its 単体ＵＰ cell is."""
    import openpyxl
    from openpyxl.formula.translate import Translator

    def extended(typed: bool, with_formulas: bool) -> Path:
        wb = openpyxl.load_workbook(MOBILE_SUIT)
        ws = wb["武装"]
        for name in [n for n in wb.defined_names if n.startswith("up.weapons.")]:
            wb.defined_names[name].attr_text = wb.defined_names[name].attr_text.replace("$18", "$19")
        if with_formulas:
            for col in ("AL", "AM", "AN", "AO", "AP"):
                ws[f"{col}19"] = Translator(ws[f"{col}18"].value, origin=f"{col}18").translate_formula(f"{col}19")
        if typed:
            ws["AO19"] = 12
        path = tmp_path / f"extended-{typed}-{with_formulas}.xlsx"
        wb.save(path)
        return path

    assert formula_drift(extended(False, True)) == []
    assert formula_drift(extended(False, False)) == []
    [f] = formula_drift(extended(True, True))
    assert (f.code, f.cell, f.params["found"], f.params["expected"]) == ("AUDIT_FORMULA_REPLACED", "武装!AO19", 12, None)


def test_rows_inserted_above_move_the_cells(tmp_path: Path) -> None:
    """Two rows inserted at the top of 武装, every reference to its cells moved as Excel moves
    them (the defined names too): the cells are found by their names, nothing drifts; one of
    the moved formulas edited still is."""
    import openpyxl

    wb = openpyxl.load_workbook(MOBILE_SUIT)
    wb["武装"].insert_rows(1, 2)
    for ws in wb.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    c.value = _moved(c.value, "武装", 2, on_sheet=ws.title == "武装")
    for name in list(wb.defined_names):
        dn = wb.defined_names[name]
        dn.attr_text = _moved(dn.attr_text, "武装", 2, on_sheet=False)
    moved = tmp_path / "moved.xlsx"
    wb.save(moved)
    assert formula_drift(moved) == []
    wb["武装"]["AP7"] = wb["武装"]["AP7"].value.replace("INT(", "ROUND(", 1)
    wb.save(moved)
    [f] = formula_drift(moved)
    assert (f.code, f.cell, f.pointer) == ("AUDIT_FORMULA_ALTERED", "武装!AP7", "/weapons/1/cost")  # row 5 moved to 7


_TOKENS = re.compile(r"""("(?:[^"]|"")*")|('(?:[^']|'')+'!)(\$?[A-Z]{1,3}\$?\d+(?::\$?[A-Z]{1,3}\$?\d+)?)""")
_A1 = re.compile(r"(?<![A-Za-z0-9_.])(\$?[A-Z]{1,3}\$?)(\d+)(?![\d(A-Za-z_.!])")


def _moved(formula: str, sheet: str, rows: int, on_sheet: bool) -> str:
    """Every reference to a cell of ``sheet`` moved ``rows`` down, absolute or not: what Excel
    does to the workbook's formulas when rows are inserted at the top of ``sheet``."""
    def down(text: str) -> str:
        return _A1.sub(lambda m: f"{m.group(1)}{int(m.group(2)) + rows}", text)

    out, at = [], 0
    for m in _TOKENS.finditer(formula):
        plain = formula[at:m.start()]
        out.append(down(plain) if on_sheet else plain)
        if m.group(1):
            out.append(m.group(1))
        else:
            out.append(m.group(2) + (down(m.group(3)) if m.group(2) == f"'{sheet}'!" else m.group(3)))
        at = m.end()
    out.append(down(formula[at:]) if on_sheet else formula[at:])
    return "".join(out)


@pytest.mark.parametrize("name", ["pp-club-2015.xlsx", "pp-one-per-sheet.xls", "up-stats-below.ods"])
def test_a_workbook_not_ours_has_no_drift(name: str) -> None:
    """A homemade workbook has no template to drift from: no finding."""
    assert formula_drift(ROOT / "samples" / "legacy" / name) == []


@pytest.mark.parametrize("system", ("up", "pp", "mailgear"))
def test_a_flavoured_sheet_is_one_info_finding_not_drift_everywhere(tmp_path: Path, system: str) -> None:
    """Its computed cells call our Excel functions: the audit says so once and compares no formula;
    the same sheet with native formulas has no finding at all (mailgear's with its catalog sheet)."""
    from converter.sheets import sheet_bytes

    from ..excel.cases import context_for

    doc = json.loads(next((ROOT / "samples" / system).glob("*.json")).read_text("utf-8"))
    flavoured, native = tmp_path / "flavoured.xlsx", tmp_path / "native.xlsx"
    flavoured.write_bytes(sheet_bytes(doc, None, context_for(doc), formulas="xlwings"))
    native.write_bytes(sheet_bytes(doc, None, context_for(doc)))
    findings = formula_drift(flavoured)
    assert [(f.code, f.level, f.params) for f in findings] == [
        ("AUDIT_TEMPLATE_FLAVOUR", Severity.INFO, {"template": load_layout(system).template, "formulas": "xlwings"})]
    assert formula_drift(native) == []


@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_one_computed_cell_edited_is_one_finding(tmp_path: Path, path: Path) -> None:
    """On every sample, a copy with one computed cell typed over, emptied or altered (a few cells
    of each sheet) has exactly that cell's one finding."""
    from converter.audit.drift import workbook_template
    from converter.audit.template_formulas import formula_map
    from converter.io.xlsx_package import column_letters, open_package

    package = open_package(path)
    fmap = formula_map(workbook_template(package))
    parts = dict(package.sheets)
    package.close()
    assert fmap is not None
    wanted: dict[str, list[str]] = {}
    for entry in fmap.entries:
        wanted.setdefault(entry.sheet, []).extend(f"{column_letters(entry.col)}{entry.row + i + 1}"
                                                  for i in range(entry.rows))
    cases: list[tuple[str, str, str, str]] = []
    with zipfile.ZipFile(path) as z:
        xml = {sheet: z.read(parts[sheet]).decode("utf-8") for sheet in wanted}
    for sheet, cells in wanted.items():
        # not the first cell of a shared formula: typing over it orphans its run (Excel, saving,
        # moves the formula's text to the next cell; such a file is not made here)
        cells = [c for c in cells if not re.search(f'<c r="{c}"' + r'[^>]*><f t="shared" ref=', xml[sheet])]
        for k, ref in enumerate(cells[:: max(1, len(cells) // 3)][:3]):
            cases.append((sheet, parts[sheet], ref, ["<v>7</v>", "", "<f>1+1</f><v>2</v>"][k % 3]))
    assert cases
    for n, (sheet, part, ref, replacement) in enumerate(cases):
        dst = tmp_path / f"edited-{n}.xlsx"

        def edit(xml: str, tag: str = f'<c r="{ref}"', new: str = replacement) -> str:
            got, count = re.subn(re.escape(tag) + r'([^>]*)>(<f[^>]*/>|<f[^>]*>[^<]*</f>)(?:<v>[^<]*</v>)?',
                                 lambda m: f"{tag}{m.group(1)}>{new}", xml)
            assert count == 1, tag
            return got

        _edit_part(path, dst, part, edit)
        found = formula_drift(dst)
        assert [f.cell for f in found] == [f"{sheet}!{ref}"], (sheet, ref, [f.to_dict() for f in found])



"""pp workbooks: template, filled sheets, reading back, formulas and red cells in LibreOffice."""
from __future__ import annotations

import io
import json
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings

from converter import evaluate as price
from converter import check_path
from converter.core.errors import OutputError
from converter.rules.pp import price_character
from converter.rules.pp.skills import parse_entry
from converter.sheets import read_sheet, read_workbook, sheet_bytes, template_bytes, write_sheet
from converter.sheets.layout import load_layout

from ..strategies import pp_character
from .pp_fixtures import (BROKEN_PP, CONTEXT_SKILLS, EVASION_CASES, EVASION_TYPED_IN, GENERATED_PP,
                          PP_SAMPLES, ROOT, TYPED_LIST, TYPED_SKILLS, WIDTH_SKILLS, Case, cell_of,
                          edited, evasion_case, load)

LAYOUT = load_layout("pp")


def prune(value):
    """A document without empty values: blank cells and absent keys mean the same."""
    if isinstance(value, dict):
        out = {k: prune(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in (None, [], {}, "")}
    if isinstance(value, list):
        return [prune(v) for v in value]
    return value


def normalized(doc: dict) -> dict:
    """What a sheet says of a document: its total is the sheet's declared total."""
    d = json.loads(json.dumps(doc))
    d.setdefault("declared_total", price(d).total)
    return prune(d)


def roundtrip(doc: dict, tmp: Path) -> dict:
    """The document read back from its written sheet; only a value outside its dropdown (破壊力 X)
    may make a reader finding."""
    path = write_sheet(doc, tmp / "character.xlsx", force=True)
    back, findings, _ = read_sheet(path)
    assert [f.code for f in findings if f.code != "SHEET_ENUM_UNKNOWN"] == []
    return prune(back)


def formula_cells(data: bytes) -> dict[str, object]:
    """Every formula cell of a written workbook → its cached result ('' read as None)."""
    formulas = openpyxl.load_workbook(io.BytesIO(data))
    values = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    out = {}
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    v = values[ws.title][c.coordinate].value
                    out[f"{ws.title}!{c.coordinate}"] = None if v == "" else v
    return out


def values_at(path: Path, cells) -> dict[str, object]:
    wb = openpyxl.load_workbook(path, data_only=True)
    out = {}
    for cell in cells:
        sheet, ref = cell.split("!")
        v = wb[sheet][ref].value
        out[cell] = None if v == "" else v
    return out


def written_bytes(case: Case) -> bytes:
    return case.written.read_bytes()


# --- template and samples ------------------------------------------------------------------------

def test_template_is_byte_stable_and_committed():
    """templates/pp.xlsx is exactly what `mechasheet template pp` writes."""
    assert template_bytes("pp") == template_bytes("pp")
    assert (ROOT / "templates" / "pp.xlsx").read_bytes() == template_bytes("pp")


def test_cli_template_writes_the_committed_bytes(tmp_path: Path):
    """`mechasheet template pp -o FILE` writes the same bytes."""
    from converter.cli import main

    assert main(["template", "pp", "-o", str(tmp_path / "pp.xlsx")]) == 0
    assert (tmp_path / "pp.xlsx").read_bytes() == template_bytes("pp")


def test_template_names_every_field_and_records_its_identity():
    """Every field, column and computed cell has a defined name; the workbook says it is pp/2,
    in Japanese, with its sheets protected."""
    wb = openpyxl.load_workbook(io.BytesIO(template_bytes("pp")))
    names = set(wb.defined_names)
    for f in LAYOUT.fields:
        assert "pp." + f.pointer.strip("/").replace("/", ".") in names
    for t in LAYOUT.tables:
        for c in t.columns:
            assert f"pp.{t.id}.{c.key}" in names
    for comp in LAYOUT.computed:
        assert comp["name"] in names
    for aid in ("body", "reflex", "sense", "mind", "social"):
        assert {f"pp.attributes.{aid}.meaning", f"pp.attributes.{aid}.cost"} <= names
    assert {"pp.options.feats", "list.skills", "rules.attribute_meanings"} <= names
    sheet, ref = next(iter(wb.defined_names["mechasheet.template"].destinations))
    assert wb[sheet][ref.replace("$", "")].value == "pp/6"
    assert wb.sheetnames[:4] == ["キャラクター", "機体", "GM承認", "ルール"]
    assert all(wb[s].protection.sheet for s in ("キャラクター", "機体"))


def test_template_shows_the_rules_values_before_any_recalculation():
    """The empty template's cached results are the engine's for a blank character: every
    attribute 1 (落ちこぼれ), budget 50, initiative 3."""
    wb = openpyxl.load_workbook(io.BytesIO(template_bytes("pp")), data_only=True)

    def value(name):
        sheet, ref = cell_of(wb, name).split("!")
        return wb[sheet][ref].value

    assert value("pp.attributes.body.meaning") == "落ちこぼれ"
    assert value("pp.totals.budget") == 50 and value("pp.totals.remainder") == 50
    assert value("pp.derived.initiative") == 3


@pytest.mark.parametrize("path", PP_SAMPLES, ids=lambda p: p.stem)
def test_sample_sheet_committed_in_step(path: Path):
    """samples/pp/<x>.xlsx is what samples/make_sheets.py writes for <x>.json."""
    assert path.with_suffix(".xlsx").read_bytes() == sheet_bytes(load(path))


@pytest.mark.parametrize("path", PP_SAMPLES + BROKEN_PP, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_sample_round_trip(path: Path, tmp_path: Path):
    """read(write(doc)) == doc for every sample, good and broken."""
    doc = load(path)
    assert roundtrip(doc, tmp_path) == normalized(doc)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=pp_character())
def test_generated_round_trip(doc: dict, tmp_path: Path):
    """read(write(doc)) == doc for generated characters."""
    assert roundtrip(doc, tmp_path) == normalized(doc)


def test_content_without_a_cell_is_kept(tmp_path: Path):
    """A specialization's notes, an unknown machine key, a skill row that is not an object and a
    null machine survive write and read, each at its place."""
    doc = load(PP_SAMPLES[2])  # veteran
    doc["skills"][0]["specializations"][0]["notes"] = "狙撃用"
    doc["skills"].insert(1, "操縦 4")
    doc["machine"] = None
    back, _, _ = read_sheet(write_sheet(doc, tmp_path / "c.xlsx"))
    assert back["skills"][0]["specializations"][0]["notes"] == "狙撃用"
    assert back["skills"][1] == "操縦 4" and back["skills"][2]["name"] == "操縦"
    assert "machine" in back and back["machine"] is None
    pilot = load(PP_SAMPLES[1])
    pilot["machine"]["paint"] = "赤"
    back, _, _ = read_sheet(write_sheet(pilot, tmp_path / "p.xlsx"))
    assert back["machine"]["paint"] == "赤" and back["machine"]["speed"] == 4


def test_reader_takes_numbers_and_places_specializations(tmp_path: Path):
    """Numbers typed as numbers are read; a sub-category typed in the third slot is the skill's
    first, and check names the cell it was typed in."""
    path = write_sheet(load(PP_SAMPLES[2]), tmp_path / "c.xlsx")  # veteran: 〈直接砲撃〉 has two
    wb = openpyxl.load_workbook(path)

    def cell(name, index=0):
        sheet, ref = cell_of(wb, name, index).split("!")
        return wb[sheet][ref]

    cell("pp.machine.weight").value = 12.5
    cell("pp.skills.level", 1).value = 5
    for slot in (0, 1):
        cell(f"pp.skills.specializations.{slot}.name").value = None
        cell(f"pp.skills.specializations.{slot}.level").value = None
    cell("pp.skills.specializations.2.name").value = "ビーム兵器"
    cell("pp.skills.specializations.2.level").value = 9
    wb.save(path)
    doc, findings, _ = read_sheet(path)
    assert findings == []
    assert doc["machine"]["weight"] == 12.5 and doc["skills"][1]["level"] == 5
    assert doc["skills"][0]["specializations"] == [{"name": "ビーム兵器", "level": 9}]
    found = [f for f in check_path(path).findings if f.code == "PP_SPECIALIZATION_MAX"]
    assert [f.cell for f in found] == [cell_of(wb, "pp.skills.specializations.2.level")]


def test_too_many_specializations_is_an_error_not_a_cut(tmp_path: Path):
    """A skill with more sub-categories than the sheet's four slots is refused."""
    doc = load(PP_SAMPLES[2])
    doc["skills"][0]["specializations"] = [{"name": f"小分類{i}", "level": 5} for i in range(5)]
    with pytest.raises(OutputError, match="specializations"):
        write_sheet(doc, tmp_path / "c.xlsx")
    assert not (tmp_path / "c.xlsx").exists()


def test_text_that_looks_like_a_formula_stays_text(tmp_path: Path):
    """A name or note beginning with = + - @ is written as text, never a formula."""
    doc = load(PP_SAMPLES[0])
    doc["notes"], doc["name"] = '=HYPERLINK("x")', "+佐伯"
    wb = openpyxl.load_workbook(write_sheet(doc, tmp_path / "c.xlsx"))
    for name, text in (("pp.notes", doc["notes"]), ("pp.name", doc["name"])):
        sheet, ref = cell_of(wb, name).split("!")
        assert wb[sheet][ref].data_type == "s" and wb[sheet][ref].value == text


# --- skill lists -------------------------------------------------------------------------------

def _list_values(data: bytes, name: str) -> list:
    wb = openpyxl.load_workbook(io.BytesIO(data), data_only=True)
    sheet, ref = next(iter(wb.defined_names[name].destinations))
    return [row[0].value for row in wb[sheet][ref.replace("$", "")] if row[0].value is not None]


def test_skill_dropdown_offers_the_seed_the_sheet_and_the_group_lists():
    """The name dropdown lists the seed's eight skills, the document's skill_list and a group's
    list given as context; the sub-category dropdown their sub-categories."""
    doc = load(PP_SAMPLES[0])  # ordinary person: 運転 and 事務 in its skill_list
    assert _list_values(template_bytes("pp"), "list.skills") == \
        ["直接砲撃", "知識／戦術", "操縦", "機動格闘", "機動回避", "運動", "知覚", "隠密"]
    data = sheet_bytes(doc, context={"skills": CONTEXT_SKILLS})
    skills = _list_values(data, "list.skills")
    assert skills[8:] == ["運転", "事務", "射撃", "応急手当"]
    assert {"ビーム兵器", "自動車", "拳銃"} <= set(_list_values(data, "list.specializations"))


def test_skill_name_takes_free_text():
    """The skill name cell suggests the list but accepts any name (an information alert)."""
    wb = openpyxl.load_workbook(io.BytesIO(template_bytes("pp")))
    first = cell_of(wb, "pp.skills.name").split("!")[1]
    dv = next(d for d in wb["キャラクター"].data_validations.dataValidation if first in str(d.sqref))
    assert dv.type == "list" and dv.formula1 == "list.skills" and dv.errorStyle == "information"


def _spellings(name: str) -> set[str]:
    """``name`` as a player may type it: in either width, either case, in brackets of either
    width, spaced; and with its first voiced kana unvoiced (another name)."""
    from converter.core.names import asc

    half = "".join(asc(ch) if not ch.isascii() else ch for ch in name)
    full = "".join(chr(ord(ch) + 0xFEE0) if "!" <= ch <= "~" else ch for ch in name)
    out = {name, half, full, name.lower(), full.lower(), f"〈{name}〉", f"＜{full}＞", f"[{half}]",
           f"【 {name} 】", f"{name}\u3000"}
    unvoiced = {"ド": "ト", "ﾄﾞ": "ﾄ", "グ": "ク", "ピ": "ヒ", "ﾋﾟ": "ﾋ"}
    for a, b in unvoiced.items():
        out |= {x.replace(a, b, 1) for x in (name, half) if a in x}
    return out


def test_rules_sheet_keys_find_each_spelling_as_the_engine_does():
    """The sheet's look-up (a typed name folded by the 照合 cells, found among the rules sheet's
    照合キー) names the skill the engine resolves for every spelling of every listed name (widths,
    case, brackets, half-width voiced and マ-row katakana), and none where the engine finds none
    (issue 18: the keys are the fold's values, no ASC)."""
    from converter.rules.pp.skills import skill_list
    from converter.rules.pp.tables import tables
    from converter.sheets.pp.rules_sheet import skill_keys

    names = tables().names
    skills = skill_list([parse_entry(e, "sheet") for e in [*TYPED_LIST, *WIDTH_SKILLS]])
    rows = skill_keys(skills)
    typed = {t for d in skills for n in d.names() for t in _spellings(n)}
    assert len(typed) > 150
    for t in sorted(typed):
        key = names.excel_value(t)
        found = next((d.label for k, d in rows if k == key), None)
        engine = skills.resolve(t)
        assert found == (engine.label if engine else None), t
    assert all(k == k.upper() for k, _ in rows)


def test_group_skill_list_comes_back_as_context(tmp_path: Path):
    """A group's list written into the rules sheet is read back as the engine's context."""
    path = write_sheet(load(PP_SAMPLES[0]), tmp_path / "c.xlsx", context={"skills": CONTEXT_SKILLS})
    got = read_workbook(path)
    expected = [parse_entry(e, "workbook") for e in CONTEXT_SKILLS]
    assert got.context == {"skills": expected}
    assert read_workbook(write_sheet(load(PP_SAMPLES[0]), tmp_path / "d.xlsx")).context == {}


# --- LibreOffice: formulas -----------------------------------------------------------------------

ALL_CASES = (["template"] + [p.stem for p in PP_SAMPLES + BROKEN_PP]
             + ["strict", "context", "widths", "widths-lower", *EVASION_CASES]
             + [f"generated-{k:02d}" for k in range(GENERATED_PP)])


@pytest.mark.parametrize("name", ALL_CASES)
def test_libreoffice_recalculation_matches_engine(name: str, pp_workbooks):
    """Every formula cell, recalculated by LibreOffice, equals the engine's value written as its
    cached result; and the total is the engine's (入力エラー while an input error stands)."""
    case = pp_workbooks[name]
    expected = formula_cells(written_bytes(case))
    got = values_at(case.recalculated, expected)
    assert {k: (v, got[k]) for k, v in expected.items() if got[k] != v} == {}
    if case.doc is not None:
        skills = case.context.get("skills")
        defs = [parse_entry(e, "context") for e in skills] if skills else None
        wb = openpyxl.load_workbook(case.recalculated, data_only=True)
        sheet, ref = cell_of(wb, "pp.totals.formula").split("!")
        errors_sheet, errors_ref = cell_of(wb, "pp.totals.input_errors").split("!")
        if wb[errors_sheet][errors_ref].value:  # a value not in its list (破壊力 X): no figure
            assert wb[sheet][ref].value == "入力エラー"
        else:
            assert wb[sheet][ref].value == price_character(case.doc, case.options, skills=defs).total


@pytest.mark.parametrize("path", PP_SAMPLES, ids=lambda p: p.stem)
def test_libreoffice_totals_follow_edited_inputs(path: Path, pp_workbooks):
    """An attribute, a skill level and the sheet's listed skills typed in other widths (half-width
    katakana, full-width letters) into a written sheet: LibreOffice's costs, total and initiative
    equal the engine's for the edited character, and so does every other formula cell (the typed
    names resolve to the listed skills as in the engine)."""
    case = pp_workbooks[f"{path.stem}.edited"]
    new = edited(case.doc)
    pricing = price(new)
    expected = formula_cells(sheet_bytes(new))
    got = values_at(case.recalculated, expected)
    assert {k: (v, got[k]) for k, v in expected.items() if got[k] != v} == {}
    labels = [expected[cell_of(openpyxl.load_workbook(case.written), "pp.skills.label", i)]
              for i in range(len(new["skills"]) - len(TYPED_SKILLS), len(new["skills"]))]
    assert labels == [e if isinstance(e, str) else e["name"] for e in TYPED_LIST]
    wb = openpyxl.load_workbook(case.recalculated, data_only=True)

    def value(name, index=0):
        sheet, ref = cell_of(wb, name, index).split("!")
        return wb[sheet][ref].value

    lines = {line.pointer: line.cost for line in pricing.lines}
    assert value("pp.totals.computed") == pricing.total
    assert value("pp.totals.remainder") == pricing.remainder
    assert value("pp.attributes.body.cost") == lines["/attributes/body"]
    assert value("pp.skills.cost") == lines["/skills/0/level"]
    assert value("pp.derived.initiative") == pricing.value("/derived/initiative")
    assert pricing.total != price(case.doc).total


# --- LibreOffice: red cells -----------------------------------------------------------------------

# Findings a red cell stands for, each at the cell the checker names: errors, and these warnings.
RED_WARNINGS = {"PP_EVASION_MODIFIER_MISMATCH"}
RED_AT_CELL = {"PP_ATTRIBUTE_MAX", "PP_ATTRIBUTE_BELOW_MINIMUM", "PP_ATTRIBUTE_ZERO", "PP_SKILL_MAX",
               "PP_SKILL_BELOW_ZERO", "PP_SKILL_UNKNOWN", "PP_SPECIALIZATION_MAX",
               "PP_COMBAT_BOOST_BELOW_START", "PP_MACHINE_MINIMUM", "SHEET_ENUM_UNKNOWN", *RED_WARNINGS}


def expected_red(case: Case, tmp_path: Path) -> set[str]:
    """The cells the checker names for rule breaks the sheet can show in red, in the workbook
    LibreOffice was given (with what was typed into it)."""
    sheet = tmp_path / f"{case.name}.xlsx"
    sheet.write_bytes(case.source.read_bytes())
    report = check_path(sheet, case.options)
    wb = openpyxl.load_workbook(sheet)
    out = set()
    for f in report.findings:
        if f.level.value != "error" and f.code not in RED_WARNINGS:
            continue
        if f.code in RED_AT_CELL and "/engagements" not in f.pointer:
            out.add(f.cell)
        elif f.code == "PP_MACHINE_CHOICE" and f.pointer.endswith("/damage"):
            out.add(f.cell)
        elif f.code in ("PP_OVER_BUDGET", "PP_TOTAL_MISMATCH"):
            out.add(cell_of(wb, "pp.totals.computed"))
    if report.declared is not None and report.declared != price(case.doc, case.options).total:
        out.add(cell_of(wb, "pp.totals.computed"))
    return out


def red_cells(case: Case) -> set[str]:
    wb = openpyxl.load_workbook(case.recalculated, data_only=True)
    return {cell for helper, cell in case.probes.items()
            if wb[helper.split("!")[0]][helper.split("!")[1]].value == 1}


RED_CASES = ([p.stem for p in PP_SAMPLES + BROKEN_PP] + ["strict", "context", "widths", "widths-lower"]
             + [*EVASION_CASES, EVASION_TYPED_IN[0]] + [f"generated-{k:02d}" for k in range(GENERATED_PP)])


@pytest.mark.parametrize("name", RED_CASES)
def test_red_cells_are_exactly_the_faulty_fields(name: str, pp_workbooks, tmp_path: Path):
    """Each red-cell rule, evaluated by LibreOffice, marks exactly the cells the checker names:
    none on a good sample; over budget, 【肉体】13, a skill at 9, CB 2 and 破壊力 X on the broken
    ones; 特技, an unlisted skill and 【社会】0 under the strict readings."""
    case = pp_workbooks[name]
    assert red_cells(case) == expected_red(case, tmp_path)


@pytest.mark.parametrize("name", ["widths", "widths-lower"])
def test_a_listed_skill_in_another_width_is_the_same_skill(name: str, pp_workbooks):
    """ＡＩ, 〈ai〉 and full-width オペレーション are the group's AI and ｵﾍﾟﾚｰｼｮﾝ: the engine finds no
    unknown skill under unknown_skills=reject, and LibreOffice marks none red (issue 16.9)."""
    case = pp_workbooks[name]
    skills = [parse_entry(e, "context") for e in case.context["skills"]]
    pricing = price_character(case.doc, case.options, skills=skills)
    assert [f.code for f in pricing.findings if f.code == "PP_SKILL_UNKNOWN"] == []
    wb = openpyxl.load_workbook(case.written)
    typed = {cell_of(wb, "pp.skills.name", i) for i in range(len(case.doc["skills"]))}
    assert red_cells(case) & typed == set()


def test_each_broken_sample_turns_its_cell_red(pp_workbooks):
    """The five broken samples each show their problem in red, where a player would look."""
    red = {name: red_cells(pp_workbooks[name]) for name in
           ("attribute_13", "skill_9", "combat_boost_below_3", "damage_class_x", "over_budget")}
    assert red == {"attribute_13": {"キャラクター!C10"}, "skill_9": {"キャラクター!C21"},
                   "combat_boost_below_3": {"キャラクター!C6"}, "damage_class_x": {"機体!G28"},
                   "over_budget": {"キャラクター!G3"}}
    # Under the strict readings: 【社会】0 and the unlisted 料理. Both 特技 are only a warning there
    # and cost 0 PP (issue 16.9), so the total is not over and nothing else is red.
    assert red_cells(pp_workbooks["strict"]) == {"キャラクター!C14", "キャラクター!B27"}


# --- 回避修正 (issue 16.8): derived on the 機体 sheet, a typed figure that differs red -----------------
# Seed 003 ②回避判定: 「メインシステムによって提供される回避判定への修正と機体の「機動性」（このふたつの合計は、
# 機体シートに「回避修正」として記されている）」; ②－ａ: 「「メインシステムの回避修正」＋「機体（＋メインシステム）
# の作業性」（このふたつの合計は、機体シートに「回避修正」として記されている２番目の数値である）」.

def _machine_values(path: Path, names: list[str]) -> list:
    wb = openpyxl.load_workbook(path, data_only=True)
    out = []
    for name in names:
        sheet, ref = cell_of(wb, name).split("!")
        v = wb[sheet][ref].value
        out.append(None if v == "" else v)
    return out


SUMS = ["pp.derived.machine.evasion_modifier.dodge", "pp.derived.machine.evasion_modifier.parry"]


@pytest.mark.parametrize(("name", "sums", "red"), [
    ("evasion-differs", (1 + 2, 1 + 1), {"機体!C13"}),   # 受け typed 3, the sum is 2
    ("evasion-derived", (2 + 2, 2 + 1), set()),          # nothing typed: nothing to differ
    ("evasion-older", (None, None), set()),              # no main system modifier: no sum
])
def test_libreoffice_shows_both_evasion_sums(name: str, sums, red, pp_workbooks):
    """The 機体 sheet, recalculated by LibreOffice, shows メインシステムの回避修正＋機動性 and
    ＋作業性 (機動性 2, 作業性 1), the engine's figures, and turns a typed figure that differs red."""
    case = pp_workbooks[name]
    assert tuple(_machine_values(case.recalculated, SUMS)) == sums
    pricing = price(case.doc)
    assert tuple(pricing.value(f"/derived/machine/evasion_modifier/{p}") for p in ("dodge", "parry")) == sums
    assert red_cells(case) == red


def test_main_system_evasion_typed_into_an_older_sheet(pp_workbooks, tmp_path: Path):
    """An older sheet (回避修正 3 and 2 typed, no main system modifier) with メインシステムの回避修正 2
    typed into its cell: LibreOffice computes 2 + 2 = 4 and 2 + 1 = 3, every formula cell as the
    engine computes for the document with it, both typed figures red; check warns at both."""
    name, base, typed = EVASION_TYPED_IN
    case = pp_workbooks[name]
    assert typed == {"pp.machine.main_system_evasion": 2}
    new = evasion_case(2, EVASION_CASES[base][1])
    expected = formula_cells(sheet_bytes(new))
    got = values_at(case.recalculated, expected)
    assert {k: (v, got[k]) for k, v in expected.items() if got[k] != v} == {}
    assert _machine_values(case.recalculated, SUMS) == [4, 3]
    assert red_cells(case) == {"機体!C12", "機体!C13"}
    report = check_path(case.source)
    assert report.valid
    assert sorted((f.code, f.cell) for f in report.findings if f.level.value != "info") == [
        ("PP_EVASION_MODIFIER_MISMATCH", "機体!C12"), ("PP_EVASION_MODIFIER_MISMATCH", "機体!C13")]


def test_a_workbook_from_before_the_cell_reads_without_it(tmp_path: Path):
    """A pp/1 workbook (the sample as committed before pp/2 gave メインシステムの回避修正 a cell)
    reads without a finding and checks valid, with the info that 回避修正 was not checked. In a
    pp/2 workbook the same name missing is damage (SHEET_NAME_MISSING), and a name that is there
    but broken (#REF!) is an error too."""
    old = Path(__file__).parent / "old_templates" / "pp-1-pilot_with_machine.xlsx"
    back, findings, _ = read_sheet(old)
    assert findings == [] and "main_system_evasion" not in back["machine"]
    assert back["machine"]["evasion_modifier"] == {"dodge": 3, "parry": 2}
    report = check_path(old)
    assert report.valid
    assert [(f.code, f.level.value) for f in report.findings if f.code.startswith("PP_EVASION")] == [
        ("PP_EVASION_MODIFIER_UNCHECKED", "info")]
    doc = evasion_case(None, {"dodge": 3, "parry": 2})
    path = write_sheet(doc, tmp_path / "current.xlsx")
    wb = openpyxl.load_workbook(path)
    del wb.defined_names["pp.machine.main_system_evasion"]
    wb.save(path)
    assert [f.code for f in read_sheet(path)[1]] == ["SHEET_NAME_MISSING"]
    wb = openpyxl.load_workbook(write_sheet(doc, tmp_path / "broken.xlsx"))
    wb.defined_names["pp.machine.main_system_evasion"].attr_text = "#REF!"
    wb.save(tmp_path / "broken.xlsx")
    _, findings, _ = read_sheet(tmp_path / "broken.xlsx")
    assert [f.code for f in findings] == ["SHEET_NAME_BROKEN"]

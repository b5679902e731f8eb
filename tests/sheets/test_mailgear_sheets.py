"""mailgear workbooks: template, catalog sheet, filled sheets, reading back, and formulas and red
cells recalculated by LibreOffice."""
from __future__ import annotations

import io
import json
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings

from converter import check_path
from converter.cli import main
from converter.core.errors import OutputError
from converter.rules.mailgear import evaluate as price
from converter.rules.mailgear.catalog import Catalog
from converter.rules.mailgear.tables import tables
from converter.sheets import read_workbook, sheet_bytes, template_bytes, write_sheet
from converter.sheets.mailgear.formulas import excel_key
from converter.sheets.mailgear.sheet import SHEET
from converter.check.context import catalog_from

from ..mailgear.test_properties import SAMPLES, mangled
from ..strategies import mailgear_catalog, mailgear_pilot
from .mailgear_fixtures import (BROKEN_MG, EXAMPLE_CATALOG, EXAMPLE_CATALOG_SHEET, GENERATED_MG, MG_SAMPLES,
                                ROOT, address, catalog_names, cell_of, context_for, example_catalog, load,
                                multi_cases, option_cases, red_cases, typed_cases)

ALL = MG_SAMPLES + BROKEN_MG


def _open(path, data_only: bool = True) -> openpyxl.Workbook:
    if isinstance(path, bytes):
        path = io.BytesIO(path)
    return openpyxl.load_workbook(path, data_only=data_only)


def roundtrip(doc: dict, tmp: Path, context: dict | None = None):
    path = write_sheet(doc, tmp / "pilot.xlsx", force=True, context=context)
    return read_workbook(path)


# --- template and committed files ----------------------------------------------------------------

def test_template_is_byte_stable_and_committed():
    """templates/mailgear.xlsx is exactly what `mechasheet template mailgear` writes."""
    assert template_bytes("mailgear") == template_bytes("mailgear")
    assert (ROOT / "templates" / "mailgear.xlsx").read_bytes() == template_bytes("mailgear")


def test_cli_template_writes_the_committed_bytes(tmp_path: Path):
    """`mechasheet template mailgear -o FILE` writes the committed template."""
    assert main(["template", "mailgear", "-o", str(tmp_path / "t.xlsx")]) == 0
    assert (tmp_path / "t.xlsx").read_bytes() == template_bytes("mailgear")


def test_template_names_every_field_and_records_its_identity():
    """Every field, table column, derived value, skill and catalog column has a defined name;
    the workbook says which template it is; the pilot sheet is protected."""
    wb = _open(template_bytes("mailgear"), data_only=False)
    names = set(wb.defined_names)
    t = tables()
    layout = SHEET.layout
    for f in layout.fields:
        assert "mailgear." + f.pointer.strip("/").replace("/", ".") in names
    for table in layout.tables:
        assert {f"mailgear.{table.id}.{c.key}" for c in table.columns} <= names
    assert {f"mailgear.derived.{d}" for d in (*t.derived, "slots_used")} <= names
    assert {f"mailgear.derived.stats.{s}" for s in t.stat_ids} <= names
    assert {f"mailgear.derived.{g}.{s}" for g in ("skills", "skill_bonuses") for s in t.skills} <= names
    for table in SHEET.catalog_sheet.tables:
        assert {f"catalog.{table.id}.{c.key}" for c in table.columns} <= names
    assert {"catalog.about", "catalog.name", "mechasheet.template"} <= names
    assert cell_of(wb, "mechasheet.template").value == "mailgear/5"
    assert wb[layout.input_sheet].protection.sheet


def test_derived_labels_come_from_the_rule_tables():
    """The derived block and the stat rows are labelled from tables.toml, one row each."""
    wb = _open(template_bytes("mailgear"))
    t = tables()
    for did, d in t.derived.items():
        c = cell_of(wb, f"mailgear.derived.{did}")
        assert c.offset(column=-1).value == d.label
    for sid in t.stat_ids:
        assert cell_of(wb, f"mailgear.gear.stats.{sid}").offset(column=-1).value == t.stat_labels[sid]
    assert len(t.skills) == 24


def test_template_shows_what_a_spreadsheet_computes_for_an_empty_sheet():
    """Before any recalculation the empty template shows 武運 2d6, no slots used, no values."""
    wb = _open(template_bytes("mailgear"))
    assert cell_of(wb, "mailgear.derived.fortune").value == "2d6"
    assert cell_of(wb, "mailgear.derived.slots_used").value == 0
    assert cell_of(wb, "mailgear.derived.move").value in (None, "")


@pytest.mark.parametrize("path", MG_SAMPLES, ids=lambda p: p.stem)
def test_sample_sheet_committed_in_step(path: Path):
    """samples/mailgear/<x>.xlsx is what samples/make_sheets.py writes for <x>.json (with the
    example catalog in its catalog sheet when the sample names it)."""
    doc = load(path)
    assert path.with_suffix(".xlsx").read_bytes() == sheet_bytes(doc, None, context_for(doc))


def test_example_catalog_workbook_committed_in_step():
    """The example catalog workbook is the template with the example catalog and no pilot."""
    assert EXAMPLE_CATALOG_SHEET.read_bytes() == template_bytes("mailgear", None,
                                                                {"catalog": example_catalog()})


def test_example_catalog_workbook_says_first_that_it_is_invented():
    """The first cell of the example catalog workbook says it is invented sample data, not rules."""
    wb = _open(EXAMPLE_CATALOG_SHEET)
    first = wb.worksheets[0]["A1"].value
    assert "INVENTED" in first and "NOT from the rules" in first and "架空" in first


def test_example_catalog_workbook_reads_back_as_the_catalog():
    """read_workbook gives the catalog sheet back as the same catalog, without findings."""
    cat = read_workbook(EXAMPLE_CATALOG_SHEET).context["catalog"]
    assert isinstance(cat, Catalog)
    assert cat.raw == json.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))
    assert cat.findings == []


def test_cli_write_with_the_catalog_workbook(tmp_path: Path):
    """`mechasheet write DOC --catalog catalog-example.xlsx` writes the committed sample sheet."""
    doc = MG_SAMPLES[0]
    out = tmp_path / "s.xlsx"
    assert main(["write", str(doc), "-o", str(out), "--catalog", str(EXAMPLE_CATALOG_SHEET)]) == 0
    assert out.read_bytes() == doc.with_suffix(".xlsx").read_bytes()


def test_template_without_catalog_reads_no_catalog(tmp_path: Path):
    """An empty catalog sheet is no catalog: the engine then skips the checks that need one."""
    (tmp_path / "t.xlsx").write_bytes(template_bytes("mailgear"))
    assert read_workbook(tmp_path / "t.xlsx").context == {}


# --- reading back --------------------------------------------------------------------------------

@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_sample_round_trip(path: Path, tmp_path: Path):
    """read(write(doc)) == doc for every sample, good and broken, without reader findings."""
    doc = load(path)
    got = roundtrip(doc, tmp_path, context_for(doc))
    assert got.document == doc
    assert got.findings == []


def sheet_order(effects: list) -> list:
    """An item's effects in the order its sheet gives them: the skill and the stat effect on its
    row, its 追加効果 rows (further skill and stat effects, in order), then the texts."""
    skill = [e for e in effects if "skill" in e][:1]
    stat = [e for e in effects if "stat" in e and "skill" not in e][:1]
    rest = [e for e in effects if ("skill" in e or "stat" in e) and e not in skill + stat]
    return skill + stat + rest + [e for e in effects if "skill" not in e and "stat" not in e]


def normalized(doc: dict) -> dict:
    """What the sheet itself says of a document: skill names from the list as ids, bands in
    table order, option effects by id in the sheet's order, and written values equal to the
    engine's as formulas. The readings a document states (``rules``) are the ルール sheet's only
    when it is written with them (`mechasheet write` does; sheet_bytes alone keeps them aside)."""
    t = tables()
    d = json.loads(json.dumps(doc))
    by_label = {s.label: k for k, s in t.skills.items()}
    for s in d["skills"]:
        if s.get("name") in by_label:
            s["id"] = by_label[s.pop("name")]
    for item in d["equipment"]:
        if "bands" in item:
            item["bands"] = [b for b in t.bands if b in item["bands"]]
        for e in item.get("effects", []):
            if "skill" in e:
                e["skill"] = t.skill_id(e["skill"])
        if "effects" in item:
            item["effects"] = sheet_order(item["effects"])
        item.pop("derived", None)
    d.pop("derived", None)
    d.pop("rules", None)
    return d


@pytest.mark.parametrize("path", ALL, ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_the_sheet_itself_carries_the_document(path: Path, tmp_path: Path):
    """With the data sheet's kept content wiped, the cells alone still give the document back
    (names as the list's ids, bands in table order, written derived values gone): nothing the
    sheet shows lives only in the hidden sheet."""
    doc = load(path)
    target = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    wb = _open(target, data_only=False)
    for kept in ("mailgear.extra", "mailgear.declared"):
        if kept in wb.defined_names:
            cell_of(wb, kept).value = None
    wb.save(target)
    assert read_workbook(target).document == normalized(doc)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=mailgear_pilot(catalog_names()))
def test_generated_round_trip(doc: dict, tmp_path: Path):
    """read(write(doc)) == doc for generated pilots (ids, labels and synonyms, bands in any order,
    option effects by name, written derived values), the example catalog in the workbook."""
    got = roundtrip(doc, tmp_path, {"catalog": example_catalog()})
    assert got.document == doc
    assert got.findings == []


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(raw=mailgear_catalog())
def test_generated_catalog_round_trip(raw: dict, tmp_path: Path):
    """A catalog written into the catalog sheet reads back as the same catalog."""
    (tmp_path / "c.xlsx").write_bytes(template_bytes("mailgear", None, {"catalog": catalog_from(raw)}))
    assert read_workbook(tmp_path / "c.xlsx").context["catalog"].raw == raw


def test_malformed_catalog_rows_are_kept_and_named_by_cell(tmp_path: Path):
    """A row that is no object, an unknown key and a band out of the list survive the catalog
    sheet, and the catalog's findings name the cells they came from."""
    raw = json.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))
    raw["weapons"].insert(1, "junk")
    raw["weapons"][3]["colour"] = "赤"
    raw["weapons"][0]["bands"] = ["lr", "xr"]
    (tmp_path / "c.xlsx").write_bytes(template_bytes("mailgear", None, {"catalog": catalog_from(raw)}))
    cat = read_workbook(tmp_path / "c.xlsx").context["catalog"]
    assert cat.raw == raw
    wb = _open(tmp_path / "c.xlsx")
    cells = {f.pointer: f.cell for f in cat.findings}
    assert cells["/weapons/3"] == address(wb, "catalog.weapons.name", 2)
    assert cells["/weapons/0/bands/1"] == address(wb, "catalog.weapons.band_cr", 0)


def test_catalog_errors_typed_in_the_sheet_name_their_cell(tmp_path: Path):
    """A word where the level ladder needs a number, and a weapon listed twice: each catalog
    finding names its catalog cell."""
    target = tmp_path / "c.xlsx"
    target.write_bytes(EXAMPLE_CATALOG_SHEET.read_bytes())
    wb = _open(target, data_only=False)
    cell_of(wb, "catalog.levels.experience", 2).value = "たくさん"
    cell_of(wb, "catalog.weapons.name", 3).value = "ヒートナイフ"
    wb.save(target)
    cat = read_workbook(target).context["catalog"]
    found = {(f.code, f.pointer): f.cell for f in cat.findings}
    assert found[("MG_CATALOG_SCHEMA", "/levels/2/experience")] == address(wb, "catalog.levels.experience", 2)
    assert found[("MG_CATALOG_DUPLICATE", "/weapons/3/name")] == address(wb, "catalog.weapons.name", 3)


def test_sheet_check_uses_the_catalog_sheet():
    """check on a sample sheet finds the catalog in its own catalog sheet: no skipped checks
    (veteran-fortune's third Ａ．Ｇ．Ｓ is its one warning)."""
    for path in MG_SAMPLES:
        report = check_path(path.with_suffix(".xlsx"))
        expected = ["MG_OPTION_COPIES"] if path.stem == "veteran-fortune" else []
        assert report.valid and [f.code for f in report.findings] == expected, path.name


def test_reader_takes_names_numbers_and_reports_cells(tmp_path: Path):
    """A skill typed as a synonym is that skill; full-width digits stored as text are reported
    as text (the formulas do not count them); an unknown skill and a word where a level goes
    are findings at their cells."""
    doc = load(MG_SAMPLES[0])
    target = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    wb = _open(target, data_only=False)
    cell_of(wb, "mailgear.skills.skill", 1).value = "クール&クール"
    cell_of(wb, "mailgear.skills.level", 1).value = "２"
    cell_of(wb, "mailgear.skills.skill", 2).value = "フォース"
    cell_of(wb, "mailgear.skills.level", 2).value = 1
    cell_of(wb, "mailgear.gear.stats.energy").value = "たくさん"
    wb.save(target)
    got = read_workbook(target)
    assert got.document["skills"][1] == {"name": "クール&クール", "level": "２"}
    report = check_path(target)
    found = {f.code: f.cell for f in report.findings}
    assert found["SHEET_NUMBER_AS_TEXT"] == address(wb, "mailgear.skills.level", 1)
    assert found["SHEET_NOT_INTEGER"] == address(wb, "mailgear.gear.stats.energy")
    assert found["MG_SKILL_UNKNOWN"] == address(wb, "mailgear.skills.skill", 2)
    assert "MG_SKILL_ID_NAME_MISMATCH" not in found


def test_written_value_that_differs_is_a_note_not_a_formula_replaced(tmp_path: Path):
    """A document's written 移動 that differs from the engine's leaves the formula in place (other
    cells read it), shows as a note on the cell, reads back, and check names the cell."""
    doc = load(MG_SAMPLES[2])
    doc["derived"]["move"] = 9
    doc["derived"]["skills"] = {"hot_blooded": 3}
    target = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    wb = _open(target, data_only=False)
    for name in ("mailgear.derived.move", "mailgear.derived.skills.hot_blooded"):
        assert str(cell_of(wb, name).value).startswith("=")
    assert "9" in cell_of(wb, "mailgear.derived.move").comment.text
    report = check_path(target)
    mismatch = {f.pointer: f.cell for f in report.findings if f.code == "MG_DERIVED_MISMATCH"}
    assert mismatch == {"/derived/move": address(wb, "mailgear.derived.move"),
                        "/derived/skills/hot_blooded": address(wb, "mailgear.derived.skills.hot_blooded")}
    assert read_workbook(target).document == doc


def test_text_that_looks_like_a_formula_stays_text(tmp_path: Path):
    """A name, note or item beginning with = + - @ is written as text, never a formula."""
    doc = load(MG_SAMPLES[0])
    doc["notes"] = '=HYPERLINK("x")'
    doc["pilot"]["name"] = "+パイロット"
    doc["equipment"][0]["name"] = "@ナイフ"
    target = write_sheet(doc, tmp_path / "p.xlsx")
    wb = _open(target, data_only=False)
    for name, value in (("mailgear.notes", doc["notes"]), ("mailgear.pilot.name", "+パイロット"),
                        ("mailgear.equipment.name", "@ナイフ")):
        c = cell_of(wb, name)
        assert c.data_type == "s" and c.value == value
    assert read_workbook(target).document == doc


def test_existing_output_needs_force(tmp_path: Path):
    """An existing file is not overwritten without force, and is left as it was."""
    target = tmp_path / "p.xlsx"
    target.write_bytes(b"keep me")
    with pytest.raises(OutputError):
        write_sheet(load(MG_SAMPLES[0]), target)
    assert target.read_bytes() == b"keep me"


@pytest.mark.parametrize("change, where", [
    (lambda d: d["equipment"].extend([{"kind": "weapon", "name": f"w{i}", "bands": ["cr"]} for i in range(11)]),
     "/equipment"),
    (lambda d: d["gear"].update(boosts=["cr", "sr", "mr", "lr", "guard", "counter"]), "/gear/boosts"),
    (lambda d: d["equipment"][2]["effects"].extend({"skill": "hot_blooded", "levels": 1} for _ in range(13)),
     "/equipment"),
], ids=["eleven-items", "six-boosts", "thirteen-further-effects"])
def test_more_than_the_sheet_holds_is_an_error_not_a_cut(change, where: str, tmp_path: Path):
    """More items or boosts than the sheet has rows, or more further effects than the 追加効果
    table's 12 rows, is refused with a message naming the place; nothing is written."""
    doc = load(MG_SAMPLES[0])
    change(doc)
    with pytest.raises(OutputError, match=where):
        write_sheet(doc, tmp_path / "p.xlsx")
    assert not (tmp_path / "p.xlsx").exists()


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=mangled(SAMPLES))
def test_any_value_anywhere_writes_and_reads_without_crashing(doc: dict, tmp_path: Path):
    """A sample with any value anywhere (a list where a kind goes, text where a level goes) is
    written and read back, or refused with an OutputError; the writer never crashes."""
    if doc.get("system") != "mailgear":
        return
    try:
        path = write_sheet(doc, tmp_path / "p.xlsx", force=True, context={"catalog": example_catalog()})
    except OutputError:
        return
    assert read_workbook(path).document["system"] == "mailgear"


def test_items_with_several_effects_read_back(tmp_path: Path):
    """An option raising two skills and two stats (its row holds one of each, the 追加効果 table
    the rest, naming the item by its row) and a catalog option with three effects (オプションの
    追加効果) are written, read back as they were, and checked at their cells."""
    raw = json.loads(EXAMPLE_CATALOG.read_text(encoding="utf-8"))
    raw["options"][1]["effects"] += [{"skill": "speed_star", "levels": 1}, {"stat": "sensor", "amount": 2},
                                     {"skill": "newtype", "levels": 1}]
    cat = catalog_from(raw)
    doc = load(MG_SAMPLES[0])
    doc["equipment"][2]["effects"] = [{"skill": "iron_wall", "levels": 1}, {"stat": "guard", "amount": 1},
                                      {"skill": "wrecker", "levels": 2}, {"stat": "output", "amount": -1}]
    target = write_sheet(doc, tmp_path / "p.xlsx", context={"catalog": cat})
    got = read_workbook(target)
    assert got.document == doc
    assert got.context["catalog"].raw == raw
    wb = _open(target)
    assert [cell_of(wb, "mailgear.effects.item", k).value for k in range(3)] == [3, 3, None]
    assert cell_of(wb, "mailgear.effects.effect_skill", 0).value == "壊し屋"
    assert cell_of(wb, "mailgear.effects.effect_amount", 1).value == -1
    # the catalog option's row holds 第六感 and センサー; スピード・スター and the unknown skill are
    # further rows under its name (before the example catalog's own further effects)
    assert [cell_of(wb, "catalog.option_effects.name", k).value for k in range(3)] == \
        ["高感度センサー", "高感度センサー", "ハイマニューバ・ユニット"]
    found = {(f.code, f.pointer): f.cell for f in got.context["catalog"].findings}
    assert found[("MG_CATALOG_SCHEMA", "/options/1/effects/3/skill")] == \
        address(wb, "catalog.option_effects.effect_skill", 1)


def test_catalog_further_effects_typed_in_the_sheet(tmp_path: Path):
    """Rows typed into the catalog's オプションの追加効果: one under an option's name joins that
    option's effects; one under a name no option has is an option of its own; one without a
    name is an option the catalog's schema names (名称 is required), at its cell."""
    target = tmp_path / "c.xlsx"
    target.write_bytes(EXAMPLE_CATALOG_SHEET.read_bytes())
    wb = _open(target, data_only=False)
    for k, (name, skill, levels) in enumerate([("Ａ．Ｇ．Ｓ", "壊し屋", 1), ("新型ブースター", "韋駄天", 1),
                                               (None, "熱血", 1)]):
        cell_of(wb, "catalog.option_effects.name", 2 + k).value = name
        cell_of(wb, "catalog.option_effects.effect_skill", 2 + k).value = skill
        cell_of(wb, "catalog.option_effects.effect_levels", 2 + k).value = levels
    wb.save(target)
    cat = read_workbook(target).context["catalog"]
    options = cat.raw["options"]
    assert options[0]["effects"] == [{"skill": "iron_wall", "levels": 1}, {"skill": "wrecker", "levels": 1}]
    assert options[-2:] == [{"name": "新型ブースター", "effects": [{"skill": "fleet_footed", "levels": 1}]},
                            {"effects": [{"skill": "hot_blooded", "levels": 1}]}]
    found = {(f.code, f.pointer): f.cell for f in cat.findings}
    assert found[("MG_CATALOG_SCHEMA", f"/options/{len(options) - 1}")] == \
        address(wb, "catalog.option_effects.effect_skill", 4)


def test_a_further_effect_naming_no_item_is_kept_and_named(tmp_path: Path):
    """A 追加効果 row whose 装備の行 holds no item (row 9 of a six-item sheet): read under
    extra.item_effects, a warning at its 装備の行 cell, and the effect counts nowhere."""
    doc = load(MG_SAMPLES[1])
    target = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    wb = _open(target, data_only=False)
    cell_of(wb, "mailgear.effects.item", 0).value = 9
    cell_of(wb, "mailgear.effects.effect_skill", 0).value = "壊し屋"
    cell_of(wb, "mailgear.effects.effect_levels", 0).value = 1
    wb.save(target)
    got = read_workbook(target)
    assert got.document["equipment"] == doc["equipment"]
    assert got.document["extra"]["item_effects"] == [{"item": 9, "effect_skill": "wrecker", "effect_levels": 1}]
    report = check_path(target)
    found = {f.code: f for f in report.findings}
    assert found["MG_ITEM_EFFECT_UNATTACHED"].cell == address(wb, "mailgear.effects.item", 0)
    assert found["MG_ITEM_EFFECT_UNATTACHED"].level.value == "warning"
    assert report.value("/derived/damage") == price(doc, catalog=example_catalog()).value("/derived/damage")


def test_a_workbook_from_before_the_further_effects_table_reads(tmp_path: Path):
    """A sheet filled in mailgear/1 (the sample as committed before mailgear/2 added 追加効果)
    reads to its document with no finding; in a mailgear/2 sheet the same names missing are damage."""
    from converter.sheets.reader import read_sheet

    old = Path(__file__).parent / "old_templates" / "mailgear-1-starting-pilot.xlsx"
    got = read_workbook(old)
    assert got.template == "mailgear/1" and got.findings == []
    assert got.document == load(ROOT / "samples" / "mailgear" / "starting-pilot.json")
    doc = load(MG_SAMPLES[1])
    target = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    wb = _open(target, data_only=False)
    for name in [n for n in wb.defined_names if n.startswith("mailgear.effects.")]:
        del wb.defined_names[name]
    wb.save(target)
    assert [f.code for f in read_sheet(target)[1]] == ["SHEET_NAME_MISSING"]


def test_unknown_keys_are_kept(tmp_path: Path):
    """Keys the sheet has no cell for (pilot, gear, an item, derived) survive write and read."""
    doc = load(MG_SAMPLES[1])
    doc["pilot"]["callsign"] = "ファルコン"
    doc["gear"]["paint"] = "赤"
    doc["equipment"][0]["serial"] = 12
    doc["derived"] = {"search_range": 6, "homebrew": {"x": 1}}
    doc["house_rule"] = True
    assert roundtrip(doc, tmp_path, context_for(doc)).document == doc


# --- LibreOffice ---------------------------------------------------------------------------------

CASES = ([p.stem for p in MG_SAMPLES] + [f"broken-{p.stem}" for p in BROKEN_MG] + list(red_cases())
         + list(option_cases()) + list(multi_cases()) + ["unsorted-ladders"]
         + [f"generated-{k:02d}" for k in range(GENERATED_MG)] + ["template", "template-catalog"])


def named_values(wb) -> dict[str, object]:
    """Every defined name → its cell's value (column ranges → one entry per row); "" as None."""
    out: dict[str, object] = {}
    for name, dn in wb.defined_names.items():
        for sheet, ref in dn.destinations:
            if sheet not in wb.sheetnames:
                continue
            cells = wb[sheet][ref.replace("$", "")]
            rows = [r[0] for r in cells] if isinstance(cells, tuple) else [cells]
            for i, c in enumerate(rows):
                out[f"{name}[{i}]"] = None if c.value == "" else c.value
    return out


@pytest.mark.parametrize("name", CASES)
def test_libreoffice_recalculation_matches_engine(name: str, mg_workbooks):
    """Every cell of the workbook, recalculated by LibreOffice, equals what was written: the
    engine's value on every derived cell (and on the helper cells, what their formula gives)."""
    case = mg_workbooks[name]
    written, got = named_values(_open(case.written)), named_values(_open(case.recalculated))
    assert {k: (v, got.get(k)) for k, v in written.items() if got.get(k) != v} == {}
    if case.doc is not None:
        assert_engine_values(case.doc, case.context, _open(case.recalculated), case.options)


def test_rules_readings_change_the_sheet_as_the_engine(mg_workbooks):
    """ミラクル 4 adds 4 to 武運 under miracle_four=plus (＋１ｄ otherwise); 天賦の才 joins 武運 by
    default, leaves it under natural_talent=rolls and every roll under separate: the rules
    sheet's reading drives the formulas."""
    def value(name: str, cell: str):
        return cell_of(_open(mg_workbooks[name].recalculated), cell).value

    # ミラクル 4, 天賦の才 3 on 機動力 3: 武運 2d6 + 1d (ミラクル 4) + 3 (天賦の才: 武運決定 is a 判定).
    assert value("options-default", "mailgear.derived.fortune") == "3d6+3"
    assert value("options-default", "mailgear.derived.initiative") == "+6"  # 3 + 3
    assert value("options-miracle-plus", "mailgear.derived.fortune") == "2d6+7"  # 2d6 + 4 + 3
    assert value("options-miracle-plus", "mailgear.derived.initiative") == "+6"
    assert value("options-talent-rolls", "mailgear.derived.fortune") == "3d6"  # not in 武運
    assert value("options-talent-rolls", "mailgear.derived.initiative") == "+6"
    assert value("options-talent-rolls-plus", "mailgear.derived.fortune") == "2d6+4"
    assert value("options-talent-separate", "mailgear.derived.fortune") == "3d6"
    assert value("options-talent-separate", "mailgear.derived.initiative") == "+3"


def assert_engine_values(doc: dict, context: dict, wb, options: dict | None = None) -> None:
    """Each of the engine's derived values is in its cell."""
    pricing = price(doc, options, catalog=context.get("catalog"))
    assert pricing.derived
    wrong = {}
    for pointer, derived in pricing.derived.items():
        value = derived.value
        name, index = SHEET.computed_cell(pointer)
        got = cell_of(wb, name, index or 0).value
        if got != value:
            wrong[pointer] = (value, got)
    assert wrong == {}


def test_libreoffice_computes_items_with_several_effects(mg_workbooks):
    """Items with several skill and stat effects, worked by hand (ガルム B: 機動力 4, 受け 3, 耐久 70,
    キャパシティ 15, 出力 5, 移動力 5; スピード・スター 2, 韋駄天 1, 鉄壁 1, 天賦の才 2):

    - ハイマニューバ・ユニット ×3 from the catalog (スピード・スター +1, 韋駄天 +1, 機動力 +1; its
      韋駄天 on the catalog's オプションの追加効果 row): the third adds nothing
      (「３つ装備したとしても＋３レベルにはなりません」), so スピード・スター 2+2 = 4, 韋駄天 1+2 = 3,
      機動力 4+2 = 6;
    - 強化フレーム from the catalog: 耐久 70+10 = 80, キャパシティ 15+2 = 17 (its キャパシティ on
      the catalog's further-effect row);
    - 多機能ユニット, its own: 鉄壁 1+1 = 2 and 受け 3+1 = 4 on its row, 壊し屋 +2 and 出力 5−1 = 4
      on two 追加効果 rows naming row 6.

    先行判定 機動力 6 + スピード・スター 4 (＋１ｄ) + 天賦の才 2 = +1d+8; 移動 5 + 3 = 8; 受け 4 + 2 + 2
    = +8; ダメージ 4 + 2 + 2 = +8, the rifle's +8+3 = +11."""
    case = mg_workbooks["multi-effects"]
    wb = _open(case.recalculated)

    def v(name: str, index: int = 0):
        return cell_of(wb, name, index).value

    assert [v("mailgear.derived.skills." + s) for s in ("speed_star", "fleet_footed", "iron_wall", "wrecker")] \
        == [4, 3, 2, 2]
    assert [v("mailgear.derived.stats." + s) for s in ("mobility", "durability", "capacity", "guard", "output")] \
        == [6, 80, 17, 4, 4]
    assert (v("mailgear.derived.initiative"), v("mailgear.derived.move"), v("mailgear.derived.guard"),
            v("mailgear.derived.damage"), v("mailgear.equipment.damage", 0)) == ("+1d+8", 8, "+8", "+8", "+11")
    # the helper cells: which options take the catalog's further effects, and how often each counts
    unit, frame = excel_key("ハイマニューバ・ユニット"), excel_key("強化フレーム")  # names as compared
    assert [v("mailgear.equipment.cat_key", k) for k in range(6)] == [None, unit, unit, None, frame, None]
    assert [v("catalog.option_effects.used", k) for k in range(3)] == [2, 1, 0]
    assert [(v("mailgear.effects.eff_skill", k), v("mailgear.effects.eff_levels", k),
             v("mailgear.effects.eff_stat", k), v("mailgear.effects.eff_amount", k)) for k in range(2)] == \
        [("壊し屋", 2, None, None), (None, None, "出力", -1)]
    assert_engine_values(case.doc, case.context, wb)
    # the third ハイマニューバ・ユニット (a warning); 多機能ユニット is no item of the example catalog
    assert {(f.code, f.pointer) for f in price(case.doc, catalog=example_catalog()).findings
            if f.level.value != "info"} == {("MG_OPTION_COPIES", "/equipment/3"),
                                            ("MG_CATALOG_UNKNOWN_ITEM", "/equipment/5/name")}


def test_libreoffice_typed_further_effects(mg_workbooks):
    """追加効果 rows typed into a written sheet: one giving 思い出 (row 3) 鉄壁 +1 counts (受け 0 + 1),
    one giving a weapon センサー +1 counts nowhere, and two naming no item are kept under
    extra.item_effects and named; LibreOffice's values equal the engine's for the document the
    sheet stands for."""
    case = mg_workbooks["red-unattached"]
    _, typed = typed_cases()["red-unattached"]
    got = read_workbook(case.written)
    assert got.document == typed
    wb = _open(case.recalculated)
    assert cell_of(wb, "mailgear.derived.guard").value == "+1"
    assert cell_of(wb, "mailgear.derived.stats.sensor").value == 5
    assert_engine_values(got.document, got.context, wb)


def test_libreoffice_option_from_a_typed_catalog_further_effect(mg_workbooks):
    """新型ブースター typed as an item, and typed into the catalog's オプションの追加効果 only (韋駄天 +1,
    機動力 +2): the catalog reads it as an option of its own, and the sheet counts it as the
    engine does. ファルケ E (機動力 2, 移動力 5): 機動力 4, 移動 5 + 1 = 6, 先行判定 +4."""
    case = mg_workbooks["catalog-typed"]
    _, typed = typed_cases()["catalog-typed"]
    got = read_workbook(case.written)
    assert got.document == typed
    wb = _open(case.recalculated)
    assert (cell_of(wb, "mailgear.derived.stats.mobility").value, cell_of(wb, "mailgear.derived.move").value,
            cell_of(wb, "mailgear.derived.initiative").value) == (4, 6, "+4")
    assert cell_of(wb, "catalog.option_effects.used", 2).value == 1
    assert_engine_values(got.document, got.context, wb)


def test_libreoffice_further_effect_rows_are_an_items_own(mg_workbooks):
    """An Ａ．Ｇ．Ｓ row with no effect cells but a 追加効果 row (熱血 +1) states its own effects, so
    the catalog's (鉄壁 +1) do not count, in the sheet as in the engine: ファルケ E, CR 0: 命中CR +1,
    no 鉄壁."""
    case = mg_workbooks["typed-own"]
    _, own = typed_cases()["typed-own"]
    got = read_workbook(case.written)
    assert got.document == own
    wb = _open(case.recalculated)
    assert cell_of(wb, "mailgear.derived.hit_cr").value == "+1"
    assert cell_of(wb, "mailgear.derived.skills.iron_wall").value is None
    assert cell_of(wb, "mailgear.equipment.cat_key", 3).value is None
    assert_engine_values(got.document, got.context, wb)


@pytest.mark.parametrize("path", MG_SAMPLES, ids=lambda p: p.stem)
def test_libreoffice_follows_edited_inputs(path: Path, mg_workbooks):
    """Inputs typed into a written sheet (a skill level, 出力, a boost, an Ａ．Ｇ．Ｓ whose effect
    comes from the catalog sheet): LibreOffice's derived values equal the engine's for the edit."""
    case = mg_workbooks[f"{path.stem}.edited"]
    assert_engine_values(case.doc, case.context, _open(case.recalculated))


# Findings a red cell stands for.
RED_CODES = {"MG_SLOTS_OVER", "MG_OPTION_COPIES", "MG_ITEM_EFFECT_UNATTACHED", "MG_SKILL_OVER_MAX", "MG_SKILL_UNKNOWN",
             "MG_SKILL_DUPLICATE", "MG_SKILL_LEVEL_INVALID", "MG_CUSTOM_BOOST_DUPLICATE",
             "MG_CUSTOM_BOOST_INELIGIBLE", "MG_CUSTOM_RANK_MISMATCH", "MG_LEVEL_MISMATCH",
             "MG_LEVEL_UNKNOWN", "MG_GEAR_RANK_MISMATCH", "SHEET_ENUM_UNKNOWN"}
# Findings on the boosts as a whole: every filled boost cell is red (the first when none is).
BOOST_CODES = {"MG_CUSTOM_BOOST_COUNT", "MG_CUSTOM_BOOST_NOT_CUSTOM"}


def expected_red(written: Path) -> set[str]:
    """The cells the checker names for rule breaks the sheet can show in red."""
    report = check_path(written)
    wb = _open(written)
    boosts = [address(wb, f"mailgear.gear.boosts.{k}") for k in range(SHEET.layout.raw["boost_block"]["slots"])]
    filled = [b for k, b in enumerate(boosts) if cell_of(wb, f"mailgear.gear.boosts.{k}").value]
    out = set()
    for f in report.findings:
        if f.code == "MG_LEVEL_UNKNOWN" and not cell_of(wb, "mailgear.pilot.level").value:
            continue  # a blank level is not red: an empty template does not start out red
        # An item's kind, missing or not a kind: the schema names a missing one (the root cause,
        # at the empty kind cell), the engine an invalid one.
        kind = (f.code == "MG_ITEM_FIELD_INVALID" and f.pointer.endswith("/kind")) or \
            (f.code == "SCHEMA_REQUIRED" and f.params.get("field") == "kind")
        if f.code in RED_CODES or kind:
            out.add(f.cell)
        elif f.code in BOOST_CODES:
            out.update(filled or boosts[:1])
    return out


@pytest.mark.parametrize("name", [c for c in CASES if not c.startswith("generated")] + list(typed_cases()))
def test_red_cells_are_exactly_the_faulty_fields(name: str, mg_workbooks):
    """Each red-cell rule, evaluated by LibreOffice, marks exactly the cells the checker names
    (none on a good sample or the templates)."""
    case = mg_workbooks[name]
    wb = _open(case.recalculated)
    red = {cell for helper, cell in case.probes.items()
           if wb[helper.split("!")[0]][helper.split("!")[1]].value == 1}
    assert red == expected_red(case.written)


def test_each_broken_sample_turns_its_cell_red(mg_workbooks):
    """Seven slots: the slot total; a third Ａ．Ｇ．Ｓ: its name; 韋駄天 4: its level; four
    boosts: all four boost cells; a 追加効果 row naming no item: its 装備の行."""
    def red(name: str) -> set[str]:
        case = mg_workbooks[name]
        wb = _open(case.recalculated)
        return {cell for helper, cell in case.probes.items()
                if wb[helper.split("!")[0]][helper.split("!")[1]].value == 1}

    wb = _open(mg_workbooks["broken-seven-slots"].written)
    assert red("broken-seven-slots") == {address(wb, "mailgear.derived.slots_used")}
    assert red("broken-third-option") == {address(wb, "mailgear.equipment.name", 4)}
    assert red("broken-skill-over-max") == {address(wb, "mailgear.skills.level", 0)}
    # the third Ａ．Ｇ．Ｓ is red under either reading: a warning by default, an error here
    wb = _open(mg_workbooks["options-copies-error"].written)
    assert red("options-copies-error") == {address(wb, "mailgear.equipment.name", 3)}
    wb = _open(mg_workbooks["veteran-fortune"].written)
    assert red("veteran-fortune") == {address(wb, "mailgear.equipment.name", 4)}
    wb = _open(mg_workbooks["red-unattached"].written)
    assert red("red-unattached") == {address(wb, "mailgear.effects.item", k) for k in (0, 1)}
    assert red("broken-four-boosts") == {address(wb, f"mailgear.gear.boosts.{k}") for k in range(4)}

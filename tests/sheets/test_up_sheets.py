"""up workbooks: template, filled sheets, reading back, and formulas recalculated by LibreOffice."""
from __future__ import annotations

import io
import json
from pathlib import Path

import openpyxl
import pytest
from hypothesis import HealthCheck, given, settings

from converter import evaluate as price
from converter.core.errors import OutputError
from converter.sheets import read_sheet, sheet_bytes, template_bytes, write_sheet
from converter.sheets.layout import load_layout

from ..strategies import up_unit
from .conftest import GENERATED, ROOT, UP_SAMPLES, edited, generated_units, load


def prune(value):
    """A document without empty values: blank cells and absent keys mean the same."""
    if isinstance(value, dict):
        out = {k: prune(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in (None, [], {}, "")}
    if isinstance(value, list):
        return [prune(v) for v in value]
    return value


def normalized(doc: dict) -> dict:
    """What a sheet can say of a document: movement in table order, effect levels explicit,
    declared total = the sheet's."""
    d = json.loads(json.dumps(doc))
    order = ["air", "land", "sea", "space"]  # a set: the sheet lists it in the table's order
    d["movement"] = sorted(d.get("movement", []), key=order.index)
    for w in d.get("weapons", []):
        for e in w.get("effects", []):
            if e["id"] in ("stat_down", "move_down"):
                e.setdefault("level", 1)
    d.setdefault("declared_total", price(d).total)
    return prune(d)


def roundtrip(doc: dict, tmp: Path) -> dict:
    path = tmp / "unit.xlsx"
    write_sheet(doc, path, force=True)
    back, findings, _ = read_sheet(path)
    assert [f.code for f in findings] == []
    return prune(back)


def _open(path) -> openpyxl.Workbook:
    return path if isinstance(path, openpyxl.Workbook) else openpyxl.load_workbook(path, data_only=True)


def named_values(path) -> dict[str, object]:
    """Every single-cell defined name → the cell's cached value."""
    wb = _open(path)
    out = {}
    for name, dn in wb.defined_names.items():
        for sheet, ref in dn.destinations:
            if ":" not in ref and sheet in wb.sheetnames:
                out[name] = wb[sheet][ref.replace("$", "")].value
    return out


def table_values(path, table_id: str, key: str) -> list[object]:
    wb = _open(path)
    sheet, ref = next(iter(wb.defined_names[f"up.{table_id}.{key}"].destinations))
    return [row[0].value for row in wb[sheet][ref.replace("$", "")]]


COMPUTED_COLUMNS = [(t.id, c.key) for t in load_layout("up").tables for c in t.columns if c.computed]


def test_template_is_byte_stable_and_committed():
    """templates/up.xlsx is exactly what `mechasheet template up` writes."""
    assert template_bytes("up") == template_bytes("up")
    assert (ROOT / "templates" / "up.xlsx").read_bytes() == template_bytes("up")


def test_template_names_every_field_and_records_its_identity():
    """Every layout field has a defined name, and the workbook says which template it is."""
    wb = openpyxl.load_workbook(io.BytesIO(template_bytes("up")))
    names = set(wb.defined_names)
    layout = load_layout("up")
    for f in layout.fields:
        assert "up." + f.pointer.strip("/").replace("/", ".") in names
    for t in layout.tables:
        for c in t.columns:
            assert f"up.{t.id}.{c.key}" in names
    for sid in ("hp", "en", "armor", "power", "mobility", "move"):
        assert {f"up.stats.{sid}", f"up.stats.{sid}.cost"} <= names
    assert {"up.totals.computed", "up.totals.remainder", "mechasheet.template"} <= names
    sheet, ref = next(iter(wb.defined_names["mechasheet.template"].destinations))
    assert wb[sheet][ref.replace("$", "")].value == "up/4"
    assert wb[load_layout("up").input_sheet].protection.sheet


@pytest.mark.parametrize("path", UP_SAMPLES, ids=lambda p: p.stem)
def test_sample_sheet_committed_in_step(path: Path):
    """samples/up/<x>.xlsx is what samples/make_sheets.py writes for <x>.json."""
    assert path.with_suffix(".xlsx").read_bytes() == sheet_bytes(load(path))


@pytest.mark.parametrize("path", UP_SAMPLES, ids=lambda p: p.stem)
def test_sample_round_trip(path: Path, tmp_path: Path):
    """read(write(doc)) == doc for every sample."""
    doc = load(path)
    assert roundtrip(doc, tmp_path) == normalized(doc)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(doc=up_unit())
def test_generated_round_trip(doc: dict, tmp_path: Path):
    """read(write(doc)) == doc for generated valid documents."""
    assert roundtrip(doc, tmp_path) == normalized(doc)


def test_text_that_looks_like_a_formula_stays_text(tmp_path: Path):
    """A name or note beginning with = + - @ is written as text, never a formula."""
    doc = load(UP_SAMPLES[0])
    doc["notes"] = "=HYPERLINK(\"x\")"
    doc["name"] = "+機体"
    path = write_sheet(doc, tmp_path / "u.xlsx")
    wb = openpyxl.load_workbook(path)
    sheet, ref = next(iter(wb.defined_names["up.notes"].destinations))
    cell = wb[sheet][ref.replace("$", "")]
    assert cell.data_type == "s" and cell.value == doc["notes"]


def test_existing_output_needs_force(tmp_path: Path):
    """An existing file is not overwritten without force, and is left as it was."""
    target = tmp_path / "u.xlsx"
    target.write_bytes(b"keep me")
    with pytest.raises(OutputError):
        write_sheet(load(UP_SAMPLES[0]), target)
    assert target.read_bytes() == b"keep me"


def test_too_many_weapons_is_an_error_not_a_cut(tmp_path: Path):
    """A document with more weapons than the sheet holds is refused with a clear error."""
    doc = load(UP_SAMPLES[0])
    rows = load_layout("up").table("weapons").rows
    doc["weapons"] = [dict(doc["weapons"][0], name=f"w{i}") for i in range(rows + 1)]
    with pytest.raises(OutputError, match="武装"):
        write_sheet(doc, tmp_path / "u.xlsx")
    assert not (tmp_path / "u.xlsx").exists()


def test_reader_reports_text_in_number_cells_at_their_cells(tmp_path: Path):
    """Full-width digits stored as text are reported as text (the formulas do not count them),
    a word where a number goes too, each once at its cell; check names each cell."""
    path = write_sheet(load(UP_SAMPLES[0]), tmp_path / "u.xlsx")
    wb = openpyxl.load_workbook(path)
    def cell(name):
        sheet, ref = next(iter(wb.defined_names[name].destinations))
        return wb[sheet][ref.replace("$", "").split(":")[0]], f"{sheet}!{ref.replace('$', '')}"
    c, budget = cell("up.budget")
    c.value = "１５００"
    c, en = cell("up.stats.en")
    c.value = "たくさん"
    wb.save(path)
    doc, findings, cells = read_sheet(path)
    assert doc["budget"] == "１５００"  # kept as typed
    assert [(f.code, f.cell) for f in findings] == [("SHEET_NUMBER_AS_TEXT", budget), ("SHEET_NOT_INTEGER", en)]
    assert findings[0].params["number"] == 1500
    from converter import check_path
    report = check_path(path)
    assert not report.valid
    assert [(f.code, f.cell) for f in report.findings if f.level.value == "error"] == \
        [("SHEET_NUMBER_AS_TEXT", budget), ("SHEET_NOT_INTEGER", en)]


def test_check_on_sheet_reports_hand_edited_total(tmp_path: Path):
    """A total typed over the formula is the sheet's declared total, and disagrees in check."""
    from converter import check_path

    doc = load(UP_SAMPLES[0])
    doc["declared_total"] = price(doc).total + 7
    path = write_sheet(doc, tmp_path / "u.xlsx")
    report = check_path(path)
    assert report.declared == doc["declared_total"]
    mismatch = [f for f in report.findings if f.code == "UP_TOTAL_MISMATCH"]
    assert mismatch and mismatch[0].cell.endswith("!F3")


def assert_recalculation_matches(doc: dict, recalculated_path: Path) -> None:
    """Every computed cell of the recalculated workbook equals the engine's cached value."""
    written = _open(io.BytesIO(sheet_bytes(doc)))
    recalculated_path = _open(recalculated_path)
    expected = named_values(written)
    got = named_values(recalculated_path)
    diffs = {k: (v, got.get(k)) for k, v in expected.items()
             if k.startswith("up.") and (v or None) != (got.get(k) or None)}
    assert diffs == {}
    for table_id, key in COMPUTED_COLUMNS:
        assert table_values(recalculated_path, table_id, key) == \
            [v if v != "" else None for v in table_values(written, table_id, key)], (table_id, key)
    assert got["up.totals.computed"] == price(doc).total


@pytest.mark.parametrize("path", UP_SAMPLES, ids=lambda p: p.stem)
def test_libreoffice_recalculation_matches_engine(path: Path, recalculated):
    """Every computed cell of each sample, recalculated by LibreOffice, equals the engine's."""
    assert_recalculation_matches(load(path), recalculated[f"{path.stem}.xlsx"])


@pytest.mark.parametrize("k", range(GENERATED))
def test_libreoffice_recalculation_matches_engine_generated(k: int, recalculated):
    """Generated units (every weapon option, variants, abilities): LibreOffice equals the engine."""
    assert_recalculation_matches(generated_units()[k], recalculated[f"generated-{k:02d}.xlsx"])


@pytest.mark.parametrize("path", UP_SAMPLES, ids=lambda p: p.stem)
def test_libreoffice_totals_follow_edited_inputs(path: Path, recalculated):
    """Inputs edited in a written sheet: LibreOffice's totals equal the engine's for the edit."""
    new = edited(load(path))
    wb = _open(recalculated[f"{path.stem}.edited.xlsx"])
    got = named_values(wb)
    pricing = price(new)
    assert got["up.totals.computed"] == pricing.total
    assert got["up.stats.hp.cost"] == next(l.cost for l in pricing.lines if l.pointer == "/stats/hp")
    assert table_values(wb, "weapons", "cost")[:len(new.get("weapons", []))] == \
        [next(l.cost for l in pricing.lines if l.pointer == f"/weapons/{i}") for i in range(len(new.get("weapons", [])))]


# Findings a red cell stands for, and which cell turns red for each.
RED_CODES = {"UP_STAT_STEP", "UP_STAT_MAX", "UP_ACCURACY_STEP", "UP_USAGE_AMOUNT", "SHEET_ENUM_UNKNOWN",
             "UP_ABILITY_UNKNOWN", "UP_SIZE_UNKNOWN", "UP_TERRAIN_GRADE", "UP_MORALE_UNKNOWN",
             "UP_VARIANT_SECOND"}


def expected_red(path: Path, tmp_path: Path) -> set[str]:
    """The cells the checker names for rule breaks that the sheet can show in red."""
    from converter import check_path

    sheet = write_sheet(load(path), tmp_path / f"{path.stem}.xlsx", force=True)
    report = check_path(sheet)
    wb = openpyxl.load_workbook(sheet)

    def named(name: str, index: int = 0) -> str:
        s, ref = next(iter(wb.defined_names[name].destinations))
        ref = ref.replace("$", "").split(":")[0]
        col = "".join(ch for ch in ref if ch.isalpha())
        return f"{s}!{col}{int(''.join(ch for ch in ref if ch.isdigit())) + index}"

    out = set()
    for f in report.findings:
        if f.code in RED_CODES and f.level.value == "error":
            out.add(f.cell)
        elif f.code in ("UP_OVER_BUDGET", "UP_TOTAL_MISMATCH"):
            out.add(named("up.totals.computed"))
        elif f.code == "UP_TERRAIN_B_NOT_RANGED":
            out.add(f.cell)
        elif f.code in ("UP_WEAPON_OVER_CAP", "UP_WEAPON_NEGATIVE"):
            out.add(named("up.weapons.cost", int(f.pointer.split("/")[2])))
    # The total is red too when a typed total differs from the formula's, even where the engine,
    # having skipped a broken item, does not compare them.
    if report.declared is not None and report.declared != price(load(path)).total:
        out.add(named("up.totals.computed"))
    return out


@pytest.mark.parametrize("path", UP_SAMPLES + sorted((ROOT / "samples" / "broken" / "up").glob("*.json")),
                         ids=lambda p: f"{p.parent.parent.name}-{p.stem}")
def test_red_cells_are_exactly_the_faulty_fields(path: Path, red_cells, tmp_path: Path):
    """Each red-cell rule, evaluated by LibreOffice, marks exactly the cells the checker names
    (none on a good sample)."""
    assert red_cells[path.stem] == expected_red(path, tmp_path)


def test_effect_without_a_column_is_kept(tmp_path: Path):
    """An effect the sheet has no column for survives write and read (kept, not dropped)."""
    doc = load(UP_SAMPLES[0])
    doc["weapons"][0].setdefault("effects", []).append({"id": "homebrew_stun", "level": 2})
    back, _, _ = read_sheet(write_sheet(doc, tmp_path / "u.xlsx"))
    assert {"id": "homebrew_stun", "level": 2} in back["weapons"][0]["effects"]


def test_libreoffice_ability_floor_follows_the_rules_sheet(tmp_path: Path):
    """ability_floor=minus50 on the ルール sheet (issue 16.3): LibreOffice floors an ability at
    −80 % and a 限界突破 morale boost at −50 %, as the engine does (80 → 40, 180 → 90); the default
    −70 % gives 24 and 54."""
    from tests.up.conftest import unit
    from .libreoffice import recalculate

    doc = unit(abilities=[{"id": "mind_block", "en_cost": 20, "morale": "confident"}],
               morale_boosts=[{"stat": "power", "raise": 10, "morale": "limit_break"}])
    paths = []
    for floor in ("minus50", "minus70"):
        paths.append(tmp_path / f"{floor}.xlsx")
        paths[-1].write_bytes(sheet_bytes(doc, {"ability_floor": floor}))
    got = recalculate(paths, tmp_path / "out", tmp_path / "profile")
    for path, floor, (ability, boost) in zip(got, ("minus50", "minus70"), ((40, 90), (24, 54)), strict=True):
        wb = _open(path)
        pricing = price(doc, {"ability_floor": floor})
        lines = {line.pointer: line.cost for line in pricing.lines}
        assert (lines["/abilities/0"], lines["/morale_boosts/0"]) == (ability, boost)
        assert table_values(wb, "abilities", "cost")[0] == ability
        assert table_values(wb, "morale_boosts", "cost")[0] == boost
        assert named_values(wb)["up.totals.computed"] == pricing.total


def test_libreoffice_melee_map_reduction_follows_the_rules_sheet(tmp_path: Path):
    """melee_map_not_p on the ルール sheet (issue 16.4): LibreOffice prices a melee 自機中心型
    that is not P at 68 (−30 % applied) or 80 (withheld), as the engine does."""
    from tests.up.conftest import melee, unit
    from .libreoffice import recalculate

    doc = unit(weapons=[melee(map={"type": "self_centered"})])
    readings = ("apply", "withhold")
    paths = []
    for value in readings:
        paths.append(tmp_path / f"{value}.xlsx")
        paths[-1].write_bytes(sheet_bytes(doc, {"melee_map_not_p": value}))
    got = recalculate(paths, tmp_path / "out", tmp_path / "profile")
    for path, value, cost in zip(got, readings, (68, 80), strict=True):
        pricing = price(doc, {"melee_map_not_p": value})
        assert next(line.cost for line in pricing.lines if line.pointer == "/weapons/0") == cost
        wb = _open(path)
        assert table_values(wb, "weapons", "cost")[0] == cost
        assert named_values(wb)["up.totals.computed"] == pricing.total


def test_libreoffice_free_b_follows_its_placement(tmp_path: Path):
    """Issue 16.2, seed 000 「地形３つがＡ、残りひとつがＢ」…「好きなように割り振った後」: a 射程3
    ranged weapon (60 UP) at A/A/A/−. LibreOffice prices it at 48 with the B unplaced (cheapest:
    under the −, −20 %) or placed under 宇宙, and 54 with the B placed under 空 (B→A +10 %, −20 %),
    as the engine does."""
    from tests.up.conftest import ranged, unit
    from .libreoffice import recalculate

    terrain = {"air": "A", "land": "A", "sea": "A", "space": "-"}
    cases = {None: 48, "space": 48, "air": 54}
    docs = {k: unit(weapons=[ranged(range=3, terrain=terrain, **({"terrain_b": k} if k else {}))])
            for k in cases}
    paths = []
    for k, doc in docs.items():
        paths.append(tmp_path / f"{k or 'unplaced'}.xlsx")
        paths[-1].write_bytes(sheet_bytes(doc))
    got = recalculate(paths, tmp_path / "out", tmp_path / "profile")
    for path, (k, cost) in zip(got, cases.items(), strict=True):
        pricing = price(docs[k])
        assert next(line.cost for line in pricing.lines if line.pointer == "/weapons/0") == cost
        wb = _open(path)
        assert table_values(wb, "weapons", "cost")[0] == cost
        assert named_values(wb)["up.totals.computed"] == pricing.total


def test_sheet_of_an_older_template_version_still_reads(tmp_path: Path):
    """A sheet filled in template up/1 (before Ｂ位置, up/2's column) reads to its document with no
    finding: the names a later version added are absent, not damaged. The same missing name in
    an up/2 sheet is SHEET_NAME_MISSING."""
    from converter import check_path

    old = Path(__file__).parent / "old_templates" / "up-1-s-real-robot.xlsx"
    doc, findings, _ = read_sheet(old)
    assert findings == []
    assert normalized(doc) == normalized(load(ROOT / "samples" / "up" / "s-real-robot.json"))
    assert check_path(old).findings == []
    current = write_sheet(doc, tmp_path / "current.xlsx")
    wb = openpyxl.load_workbook(current)
    del wb.defined_names["up.weapons.terrain_b"]
    wb.save(current)
    assert [f.code for f in read_sheet(current)[1]] == ["SHEET_NAME_MISSING"]


def test_a_written_total_is_what_the_remainder_is_cached_from(tmp_path: Path):
    """A document whose written total differs is written with that number in 合計ＵＰ (as a
    hand-typed total); 残りＵＰ's formula subtracts that cell, so its cached value is 総ＵＰ minus
    the written total, as LibreOffice computes it, not minus the engine's."""
    from .libreoffice import recalculate

    doc = load(UP_SAMPLES[0])
    assert isinstance(doc.get("budget"), int)
    doc["declared_total"] = price(doc).total + 7
    path = tmp_path / "typed.xlsx"
    path.write_bytes(sheet_bytes(doc))
    cached = named_values(_open(path))
    assert cached["up.totals.computed"] == doc["declared_total"]
    assert cached["up.totals.remainder"] == doc["budget"] - doc["declared_total"]
    (got,) = recalculate([path], tmp_path / "out", tmp_path / "profile")
    assert named_values(_open(got))["up.totals.remainder"] == cached["up.totals.remainder"]

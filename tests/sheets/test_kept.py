"""The one mechanism that keeps what a sheet's cells cannot say (converter/sheets/kept.py), on
real workbooks of every system: nothing is lost when a sheet comes back untouched, a value the
user edited in its cell wins over kept content, and kept content that no longer fits goes under
extra._kept instead of being dropped."""
from __future__ import annotations

import json
from pathlib import Path

import openpyxl

from converter.sheets import read_workbook, write_sheet
from converter.sheets.kept import CELL_CHARACTERS

from .mailgear_fixtures import MG_SAMPLES, ROOT, cell_of, context_for

UP_SAMPLE = ROOT / "samples" / "up" / "m-mobile-suit.json"
PP_SAMPLE = ROOT / "samples" / "pp" / "veteran.json"


def load(path: Path) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def edit(path: Path, changes: list[tuple[str, int, object]]) -> None:
    """Type values into a written workbook as a user would (name, row of a column, value)."""
    wb = openpyxl.load_workbook(path)
    for name, index, value in changes:
        cell_of(wb, name, index).value = value
    wb.save(path)


def kept_out(doc: dict) -> list[dict]:
    return doc.get("extra", {}).get("_kept", [])


# --- mailgear: a skill cell gives both id and name --------------------------------------------------

def test_a_name_beside_the_id_comes_back_while_its_skill_cell_reads_as_written(tmp_path: Path):
    """A skill written with an id and a name of its own shows its label; its level edited, the
    name still comes back; its skill cell edited, the new skill wins and the old name is kept
    under extra._kept."""
    doc = load(MG_SAMPLES[0])
    doc["skills"][0] = {"id": "sixth_sense", "name": "勘", "level": 1}
    path = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    assert read_workbook(path).document == doc

    edit(path, [("mailgear.skills.level", 0, 2)])
    assert read_workbook(path).document["skills"][0] == {"id": "sixth_sense", "name": "勘", "level": 2}

    edit(path, [("mailgear.skills.skill", 0, "不死身")])
    back = read_workbook(path).document
    assert back["skills"][0] == {"id": "immortal", "level": 2}
    assert {"at": "/skills/0/name", "was": "勘"} in kept_out(back)


def test_bands_out_of_order_yield_to_an_edited_band(tmp_path: Path):
    """Bands written out of the table's order come back in their order; one band unticked by
    the user stays unticked."""
    doc = load(MG_SAMPLES[0])
    doc["equipment"][0]["bands"] = ["lr", "mr"]
    path = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    assert read_workbook(path).document == doc

    edit(path, [("mailgear.equipment.band_lr", 0, "×")])
    assert read_workbook(path).document["equipment"][0]["bands"] == ["mr"]


def test_two_text_effects_yield_to_an_edited_text_cell(tmp_path: Path):
    """Two text effects share one cell; the cell edited, its text is the only effect."""
    doc = load(MG_SAMPLES[0])
    doc["equipment"][2]["effects"] = [{"text": "一"}, {"text": "二"}]
    path = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    assert read_workbook(path).document == doc

    edit(path, [("mailgear.equipment.effect_text", 2, "三")])
    back = read_workbook(path).document
    assert back["equipment"][2]["effects"] == [{"text": "三"}]
    assert [k["was"] for k in kept_out(back)] == [{"text": "一"}, {"text": "二"}]


def test_written_derived_values_follow_the_formula_or_stay_as_written(tmp_path: Path):
    """A written derived value equal to the engine's reads back as the cell computes it; one
    that differs reads back as written."""
    doc = load(MG_SAMPLES[2])
    path = write_sheet(doc, tmp_path / "p.xlsx", context=context_for(doc))
    wb = openpyxl.load_workbook(path)
    cell_of(wb, "mailgear.derived.move").value = 99  # what a recalculation would leave there
    wb.save(path)
    assert read_workbook(path).document["derived"]["move"] == 99

    doc["derived"]["move"] = 9
    path = write_sheet(doc, tmp_path / "q.xlsx", context=context_for(doc))
    wb = openpyxl.load_workbook(path)
    cell_of(wb, "mailgear.derived.move").value = 99
    wb.save(path)
    assert read_workbook(path).document["derived"]["move"] == 9


# --- up and pp: content without a cell survives edits elsewhere -------------------------------------

def test_an_effect_without_a_column_survives_edits_to_its_weapon(tmp_path: Path):
    """up: an effect the sheet has no column for stays on its weapon when the weapon's name and
    another effect are edited."""
    doc = load(UP_SAMPLE)
    doc["weapons"][0].setdefault("effects", []).append({"id": "homebrew_stun", "level": 2})
    path = write_sheet(doc, tmp_path / "u.xlsx")
    edit(path, [("up.weapons.name", 0, "改名"), ("up.weapons.effects.capture", 0, "○")])
    weapon = read_workbook(path).document["weapons"][0]
    assert weapon["name"] == "改名"
    assert {"id": "homebrew_stun", "level": 2} in weapon["effects"]
    assert {"id": "capture"} in weapon["effects"]


def test_movement_unticked_by_the_user_stays_unticked(tmp_path: Path):
    """up: movement is a set the sheet lists in its order; a type unticked is gone."""
    doc = load(UP_SAMPLE)
    doc["movement"] = ["space", "land"]
    path = write_sheet(doc, tmp_path / "u.xlsx")
    assert read_workbook(path).document["movement"] == ["land", "space"]
    edit(path, [("up.movement.space", 0, None)])
    assert read_workbook(path).document["movement"] == ["land"]


def test_notes_and_rows_without_cells_survive_edits_elsewhere(tmp_path: Path):
    """pp: a specialization's notes stay when the skill's level is edited; a row that is no
    object stays at its place when a later row is edited."""
    doc = load(PP_SAMPLE)
    doc["skills"][0]["specializations"][0]["notes"] = "狙撃用"
    doc["skills"].insert(1, "操縦 4")
    path = write_sheet(doc, tmp_path / "c.xlsx")
    edit(path, [("pp.skills.level", 0, 5), ("pp.skills.level", 2, 1)])
    back = read_workbook(path).document
    assert back["skills"][0]["level"] == 5
    assert back["skills"][0]["specializations"][0]["notes"] == "狙撃用"
    assert back["skills"][1] == "操縦 4" and back["skills"][2]["level"] == 1


def test_a_value_typed_where_kept_content_was_wins(tmp_path: Path):
    """A key the document wrote as a number the sheet shows as text comes back as written; the
    cell edited, the edit wins and the written value is kept under extra._kept."""
    doc = load(UP_SAMPLE)
    doc["name"] = 12
    path = write_sheet(doc, tmp_path / "u.xlsx")
    assert read_workbook(path).document["name"] == 12
    edit(path, [("up.name", 0, "新しい名前")])
    back = read_workbook(path).document
    assert back["name"] == "新しい名前"
    assert {"at": "/name", "was": 12} in kept_out(back)


def test_kept_content_larger_than_a_cell_is_split_over_cells(tmp_path: Path):
    """Kept content larger than one cell holds is stored over as many cells as it takes and comes
    back whole (issue 9: stored losslessly, never cut)."""
    doc = load(UP_SAMPLE)
    doc["homebrew"] = "x" * (3 * CELL_CHARACTERS)
    path = write_sheet(doc, tmp_path / "u.xlsx")
    wb = openpyxl.load_workbook(path)
    sheet, ref = next(iter(wb.defined_names["up.extra"].destinations))
    assert ref.count("$") == 4 and ":" in ref  # a range of cells down the data sheet
    assert all(len(str(c[0].value)) <= CELL_CHARACTERS for c in wb[sheet][ref.replace("$", "")])
    assert read_workbook(path).document["homebrew"] == doc["homebrew"]


def test_a_workbook_kept_by_an_older_version_keeps_its_content(tmp_path: Path):
    """A data sheet holding the older form (one object) gives its unknown top-level keys back
    and the rest under extra."""
    doc = load(UP_SAMPLE)
    path = write_sheet(doc, tmp_path / "u.xlsx")
    wb = openpyxl.load_workbook(path)
    cell_of(wb, "up.extra").value = json.dumps({"_unmapped": {"house_rule": True},
                                                "_unmapped_effects": {"0": [{"id": "x"}]}})
    wb.save(path)
    back = read_workbook(path).document
    assert back["house_rule"] is True
    assert back["extra"]["_unmapped_effects"] == {"0": [{"id": "x"}]}

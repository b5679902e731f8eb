"""mechasheet import: a folder of workbooks to documents, a report and a roster; nothing lost,
every failure reported, exit codes that fit a script."""
from __future__ import annotations

import csv
import json
import shutil
from pathlib import Path

import openpyxl
import pytest

from converter import import_paths, roster
from converter.cli import main
from converter.imports.importer import document_name, import_files

ROOT = Path(__file__).resolve().parents[2]
LEGACY = ROOT / "samples" / "legacy"


def _notes_only(path: Path) -> Path:
    """A workbook of free text that fits no system (a club's meeting notes)."""
    wb = openpyxl.Workbook()
    wb.active.append(["次回のセッション", "12月14日"])
    wb.active.append(["持ち物", "ダイス、筆記用具"])
    wb.save(path)
    return path


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """The samples imported, with each whole entry as the run handed it on (``on_entry``)."""
    out = tmp_path_factory.mktemp("out")
    seen: list = []
    report = import_files([LEGACY], out, templates=True, jobs=2, on_entry=seen.append)
    return report, out, seen


def test_every_sample_becomes_named_documents_with_report_and_roster(imported) -> None:
    """Each character or unit is a JSON document named after it, a filled template beside it; the
    report lists every one with where it came from; the roster has a row each."""
    report, out, seen = imported
    names = sorted(p.name for p in out.glob("*.json") if p.name != "import-report.json")
    assert len(names) == len([e for e in report.entries if e.imported]) == len(
        [e for e in seen if e.imported]) == 13
    assert "ガンダムＭｋ－Ⅱ.json" in names and "ジム.json" in names and "ボール.json" in names
    # pp-club-2015.xlsx needs its profile: without it, it is not forced into a system
    [unread] = [e for e in report.entries if not e.imported]
    assert Path(unread.file).name == "pp-club-2015.xlsx"
    assert [f["code"] for f in unread.data["findings"]] == ["LEGACY_NO_SYSTEM"]
    for entry in (e for e in seen if e.imported):
        doc = json.loads(Path(entry.outputs[0]).read_text(encoding="utf-8"))
        assert doc == entry.report.document
        assert Path(entry.outputs[1]).parent.name == "templates" and Path(entry.outputs[1]).exists()
    data = json.loads((out / "import-report.json").read_text(encoding="utf-8"))
    import jsonschema

    jsonschema.validate(data, json.loads((ROOT / "schemas" / "import-report.schema.json").read_text("utf-8")))
    assert [f["path"] for f in data["files"]] == [e.report.path for e in seen]
    assert data["files"] == [e.data for e in report.entries]
    first = data["files"][0]["import"]
    assert set(first) >= {"file", "sheet", "region", "system", "confidence", "unmapped", "unmapped_cells",
                          "outputs"}
    with (out / "roster.csv").open(encoding="utf-8-sig") as fh:
        rows = list(csv.DictReader(fh))
    assert len(rows) == 14 and set(rows[0]) == {"file", "sheet", "system", "name", "player", "confidence",
                                                "computed", "declared", "budget", "errors", "warnings",
                                                "unmapped"}
    assert openpyxl.load_workbook(out / "roster.xlsx").active.max_row == 15
    assert report.exit_code == 1  # one file could not be imported
    # roster.xlsx holds, cell for cell, what pandas' own to_excel writes of the roster
    import io

    frame = report.roster()
    theirs = io.BytesIO()
    frame.to_excel(theirs, index=False, sheet_name="roster", engine="xlsxwriter")
    ours, pandas_book = openpyxl.load_workbook(out / "roster.xlsx"), openpyxl.load_workbook(theirs)
    assert ours.sheetnames == pandas_book.sheetnames == ["roster"]
    assert [[c.value for c in r] for r in ours.active.iter_rows()] == \
        [[c.value for c in r] for r in pandas_book.active.iter_rows()]
    assert any(c.value is None for r in ours.active.iter_rows(min_row=2) for c in r)  # missing values: empty


def test_a_written_total_is_kept_to_show_the_old_arithmetic(imported) -> None:
    """up-label-beside's sheet says 1,364; the engine computes otherwise: the declared total is
    kept and the mismatch reported at its cell, as check does."""
    _, _, seen = imported
    entry = next(e for e in seen if e.report.path.endswith("up-label-beside.xlsx#機体データ"))
    assert entry.report.declared == 1364 and entry.report.computed != 1364
    mismatch = next(f for f in entry.report.findings if f.code == "UP_TOTAL_MISMATCH")
    assert mismatch.cell == "機体データ!B13"


def test_roster_api_returns_a_dataframe() -> None:
    """roster() returns a DataFrame with each document's name, player, system and total."""
    frame = roster([LEGACY / "pp-side-by-side.xlsx"])
    assert list(frame["name"]) == ["ミナ", "ジョウ"] and list(frame["player"]) == ["すずき", "さとう"]
    assert list(frame["system"]) == ["pp", "pp"] and frame["computed"].notna().all()


def test_names_collide_and_get_a_suffix(tmp_path: Path) -> None:
    """The same workbook named twice under two names: the second character files get -2."""
    shutil.copy(LEGACY / "pp-side-by-side.xlsx", tmp_path / "a.xlsx")
    shutil.copy(LEGACY / "pp-side-by-side.xlsx", tmp_path / "b.xlsx")
    report = import_paths([tmp_path], tmp_path / "out")
    names = sorted(Path(e.data["import"]["outputs"][0]).name for e in report.entries)
    assert names == ["ジョウ-2.json", "ジョウ.json", "ミナ-2.json", "ミナ.json"]


def test_document_names_are_safe_file_names() -> None:
    """A document's name becomes a safe file name, falling back to the source's name or 'document'."""
    assert document_name({"name": "ガンダム/Mk-Ⅱ: 改"}, "x") == "ガンダム_Mk-Ⅱ_ 改"
    assert document_name({"pilot": {"name": "..."}}, "fallback") == "document"
    assert document_name({}, "file-シート") == "file-シート"


def test_mixed_folder_reports_every_failure_and_goes_on(tmp_path: Path) -> None:
    """Good sheets, hostile and damaged files, and a workbook that fits no system: every file has
    its entry, nothing crashes, and the exit code says some could not be imported."""
    from tests.hostile.corpus import build

    folder = tmp_path / "in"
    expected = build(folder / "hostile")
    shutil.copy(LEGACY / "mailgear-pilot.xlsx", folder)
    shutil.copy(LEGACY / "up-two-units.xls", folder)
    _notes_only(folder / "notes.xlsx")
    (folder / "broken.ods").write_bytes(b"PK\x03\x04 not really a zip")
    report = import_paths([folder], tmp_path / "out", jobs=2)
    by_file = {}
    for e in report.entries:
        by_file.setdefault(Path(e.file).name, []).append(e)
    assert set(by_file) == set(expected) | {"mailgear-pilot.xlsx", "up-two-units.xls", "notes.xlsx", "broken.ods"}
    assert [e.imported for e in by_file["up-two-units.xls"]] == [True, True]
    assert [f["code"] for f in by_file["notes.xlsx"][0].data["findings"]] == ["LEGACY_NO_SYSTEM"]
    assert [f["code"] for f in by_file["broken.ods"][0].data["findings"]] == ["LEGACY_UNREADABLE"]
    for name, code in expected.items():
        if code not in ("OK", "SHEET_NAME_MISSING", "SHEET_NAME_BROKEN", "SHEET_MISSING"):
            assert code in [f["code"] for e in by_file[name] for f in e.data["findings"]], name
    assert report.exit_code == 1


def test_cli_exit_codes_and_lines(tmp_path: Path, capsys) -> None:
    """0 when every file imported, 2 when none could be; a line per document as it is done."""
    assert main(["import", str(LEGACY / "pp-side-by-side.xlsx"), "-o", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    assert "pp-side-by-side.xlsx#卓!A1:B9: pp" in out and "ミナ.json" in out
    _notes_only(tmp_path / "notes.xlsx")
    assert main(["import", str(tmp_path / "notes.xlsx"), "-o", str(tmp_path / "b")]) == 2
    assert "LEGACY_NO_SYSTEM" in capsys.readouterr().out
    assert main(["import", str(LEGACY / "pp-side-by-side.xlsx"), "-o", str(tmp_path / "a")]) == 2  # exists
    assert main(["import", str(LEGACY / "pp-side-by-side.xlsx"), "-o", str(tmp_path / "a"), "--force"]) == 0


def test_system_named_reads_a_sheet_detection_would_not(tmp_path: Path) -> None:
    """A sheet with too few labels to be sure of is not forced; --system reads it as named."""
    wb = openpyxl.Workbook()
    for row in (["名前", "ロン"], ["肉体", 3], ["反応", 3]):
        wb.active.append(row)
    wb.save(tmp_path / "ron.xlsx")
    assert import_paths([tmp_path / "ron.xlsx"]).exit_code == 2
    [entry] = import_paths([tmp_path / "ron.xlsx"], tmp_path / "out", system="pp").entries
    [written] = entry.data["import"]["outputs"]
    assert json.loads(Path(written).read_text("utf-8"))["attributes"] == {"body": 3, "reflex": 3}


def test_the_input_is_never_modified(tmp_path: Path) -> None:
    """Importing a workbook leaves its bytes unchanged."""
    src = tmp_path / "u.xlsx"
    shutil.copy(LEGACY / "up-label-beside.xlsx", src)
    before = src.read_bytes()
    import_paths([src], tmp_path / "out", templates=True)
    assert src.read_bytes() == before


def test_an_output_folder_inside_the_input_is_not_imported_again(tmp_path: Path) -> None:
    """An earlier output folder inside the imported folder is not imported again."""
    shutil.copy(LEGACY / "mailgear-pilot.xlsx", tmp_path)
    import_paths([tmp_path], tmp_path / "out", templates=True)
    again = import_paths([tmp_path], tmp_path / "out2", templates=True)
    assert [Path(e.file).name for e in again.entries] == ["mailgear-pilot.xlsx"]


def test_profile_problems_name_the_file_and_key(tmp_path: Path) -> None:
    """A profile that cannot be used is an error naming its file and the key (exit 2), before any
    workbook is read."""
    from converter.core.errors import InputError
    from converter.legacy.profile import load_profile

    cases = {'system = "gurps"': "system", 'system = "pp"\n[cells]\n"/name" = "B"': "cells./name",
             'system = "pp"\n[cells]\n"name" = "B2"': "cells.name", 'system = "pp"\ncolour = 1': "colour",
             'system = "pp"\n[ranges]\n"/skills" = { range = "B8" }': "ranges./skills",
             'system = "pp"\nsheets = "PC"': "sheets", "system = ": ""}
    for text, key in cases.items():
        path = tmp_path / "p.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(InputError) as err:
            load_profile(path)
        assert err.value.code == "PROFILE_INVALID" and err.value.params["key"] == (key or "-"), text
        assert str(path) in err.value.message("ja")
    assert main(["import", str(LEGACY), "-o", str(tmp_path / "o"), "--profile", str(tmp_path / "p.toml")]) == 2
    assert not (tmp_path / "o").exists()


def test_cli_profile_reads_the_club_layout(tmp_path: Path, capsys) -> None:
    """--profile: the pinned name, the one-letter labels and the skill block; origin names the profile."""
    code = main(["import", str(LEGACY / "pp-club-2015.xlsx"), "-o", str(tmp_path),
                 "--profile", str(LEGACY / "profiles" / "club-2015-pp.toml")])
    assert code == 1  # imported, but its sheet is 1 PP over budget (an error: exit 1, issue 35)
    doc = json.loads((tmp_path / "ユウ・カザマ.json").read_text(encoding="utf-8"))
    assert doc["attributes"] == {"body": 3, "reflex": 4, "sense": 3, "mind": 3, "social": 2}
    data = json.loads((tmp_path / "import-report.json").read_text(encoding="utf-8"))
    assert data["files"][0]["source"] == {"kind": "legacy", "profile": "club-2015-pp"}


@pytest.mark.parametrize("system", ["up", "mailgear"])
def test_the_docs_profile_examples_read_what_they_say(system: str, tmp_path: Path) -> None:
    """docs/import.md's up and mailgear profiles, applied to sheets laid out as they describe."""
    import re

    from converter.legacy.profile import load_profile
    from converter.legacy.sources import read_import

    text = (ROOT / "docs" / "import.md").read_text(encoding="utf-8")
    block = re.search(r'```toml\n(name = "' + ("robot-club-up" if system == "up" else "mg-campaign")
                      + r'".*?)```', text, re.S).group(1)
    (tmp_path / "p.toml").write_text(block, encoding="utf-8")
    wb = openpyxl.Workbook()
    ws = wb.active
    if system == "up":
        ws["C3"], ws["H3"] = "テストロボ", "1,200"
        for col, value in zip("CDEFGH", (200, 50, 20, 15, 15, 6), strict=True):
            ws[f"{col}6"] = value
        for col, value in zip("BCDEFG", ("ロケットパンチ", "格闘", "P2", "２Ｄ＋１０", "+5%", 120), strict=True):
            ws[f"{col}10"] = value
        ws["A26"], ws["B26"] = "使ったＵＰ", 1000
    else:
        ws["B1"], ws["B4"], ws["B7"], ws["C7"] = "ミナ", "ファルケ", 5, 2
        ws["A2"], ws["B2"] = "EXP", 12
        ws["E10"], ws["F10"] = "第六感", 1
    wb.save(tmp_path / "s.xlsx")
    [(source, _)] = read_import(tmp_path / "s.xlsx", profile=load_profile(tmp_path / "p.toml"))
    doc = source.document
    if system == "up":
        assert doc["name"] == "テストロボ" and doc["budget"] == 1200 and doc["declared_total"] == 1000
        assert doc["stats"] == {"hp": 200, "en": 50, "armor": 20, "power": 15, "mobility": 15, "move": 6}
        assert doc["weapons"] == [{"name": "ロケットパンチ", "kind": "melee", "range": 2, "post_move": True,
                                   "damage": {"dice": 2, "fixed": 10}, "accuracy": 5, "declared_cost": 120}]
    else:
        assert doc["pilot"] == {"name": "ミナ", "experience": 12}
        assert doc["gear"] == {"model": "ファルケ", "stats": {"sensor": 5, "mobility": 2}}
        assert doc["skills"] == [{"id": "sixth_sense", "level": 1}]
    assert "unmapped" not in doc["extra"]["import"]


def test_roster_stays_the_function_after_its_module_is_imported() -> None:
    """`converter.roster` is the public function; importing the module that builds rosters (as
    the audit does) must not replace it with a module."""
    import importlib

    import converter

    importlib.import_module("converter.imports.roster")
    importlib.import_module("converter.audit.folder")
    assert callable(converter.roster)

"""What import and audit read beside their outputs, and when they refuse an output (issue 33,
items 3 and 5): a file named is always read; in a folder only the command's own outputs are
passed over, and that is said; every output is refused before any file is read."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import converter.audit.folder as audit_folder
import converter.imports.importer as importer
from converter.cli import main
from converter.io.sources import find_inputs, inside

ROOT = Path(__file__).resolve().parents[2]
LEGACY = ROOT / "samples" / "legacy"
SHEET = LEGACY / "pp-side-by-side.xlsx"  # two characters, no error


def _no_reading(monkeypatch) -> list[object]:
    """Any workbook read by import or audit fails the test (and is recorded)."""
    read: list[object] = []

    def fail(*args, **kwargs):
        read.append(args)
        pytest.fail("a file was read before the outputs were checked")

    monkeypatch.setattr(importer, "run_in_workers", fail)
    monkeypatch.setattr(audit_folder, "audit_paths", fail)
    return read


def test_one_rule_for_files_named_and_found(tmp_path: Path) -> None:
    """find_inputs: what ``ours`` claims is passed over in a folder and returned as skipped; the
    same file named directly is read."""
    (tmp_path / "keep.xlsx").write_bytes(b"x")
    (tmp_path / "mine.xlsx").write_bytes(b"x")
    found = find_inputs([tmp_path], (".xlsx",), ours=lambda p: p.name == "mine.xlsx")
    assert [p.name for p in found.files] == ["keep.xlsx"] and [p.name for p in found.skipped] == ["mine.xlsx"]
    named = find_inputs([tmp_path, tmp_path / "mine.xlsx"], (".xlsx",), ours=lambda p: p.name == "mine.xlsx")
    assert sorted(p.name for p in named.files) == ["keep.xlsx", "mine.xlsx"] and named.skipped == []
    assert inside(tmp_path / "a" / ".." / "keep.xlsx", tmp_path) and not inside(tmp_path, tmp_path / "a")


def test_a_workbook_named_inside_the_output_folder_is_imported(tmp_path: Path, capsys) -> None:
    """`import out/a.xlsx -o out` imports a.xlsx (it was dropped: "0 imported from 0 files", exit 0)."""
    out = tmp_path / "out"
    out.mkdir()
    shutil.copy(SHEET, out / "a.xlsx")
    assert main(["import", str(out / "a.xlsx"), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "a.xlsx" in printed and "1 ファイルから 2 件を取り込みました" in printed
    assert len(list(out.glob("*.json"))) == 3  # the two documents and import-report.json


def test_a_stray_report_skips_nothing_and_earlier_outputs_are_said(tmp_path: Path, capsys) -> None:
    """A folder holding a stray import-report.json is read whole; an earlier import's roster and
    filled templates (listed in its report) are passed over and said, a workbook put beside them
    is read."""
    folder = tmp_path / "卓"
    folder.mkdir()
    for name in ("a.xlsx", "b.xlsx"):
        shutil.copy(SHEET, folder / name)
    (folder / "import-report.json").write_text("{}", encoding="utf-8")
    (folder / "roster.xlsx").write_bytes(SHEET.read_bytes())  # not ours: the report lists nothing
    report = importer.import_files([folder])
    assert sorted({Path(e.file).name for e in report.entries}) == ["a.xlsx", "b.xlsx", "roster.xlsx"]
    assert report.skipped == []
    (folder / "import-report.json").unlink()
    (folder / "roster.xlsx").unlink()
    earlier = folder / "out"
    assert main(["import", str(folder), "-o", str(earlier), "--templates"]) == 0
    shutil.copy(SHEET, earlier / "templates" / "put-here.xlsx")  # the GM's, not the import's
    capsys.readouterr()
    assert main(["import", str(folder), "-o", str(tmp_path / "again")]) == 0
    printed = capsys.readouterr().out
    again = json.loads((tmp_path / "again" / "import-report.json").read_text("utf-8"))
    read = sorted({Path(f["import"]["file"]).name for f in again["files"]})
    assert read == ["a.xlsx", "b.xlsx", "put-here.xlsx"]
    assert f"{earlier}: 以前の取り込みが書いたブック 5 個は読みませんでした" in printed  # roster + 2×2 templates


def test_import_beside_an_old_roster_is_refused_before_reading(tmp_path: Path, capsys, monkeypatch) -> None:
    """An output folder holding an earlier roster (or report) is refused (exit 2, naming it)
    before any workbook is read: no document is written beside the old roster."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "roster.csv").write_text("old", encoding="utf-8")
    read = _no_reading(monkeypatch)
    assert main(["import", str(SHEET), "-o", str(out)]) == 2
    assert "roster.csv" in capsys.readouterr().err
    assert read == [] and sorted(p.name for p in out.iterdir()) == ["roster.csv"]
    monkeypatch.undo()
    assert main(["import", str(SHEET), "-o", str(out), "--force"]) == 0
    assert (out / "roster.csv").read_text("utf-8-sig") != "old"


def test_a_document_name_taken_on_disk_gets_the_next_suffix(tmp_path: Path, capsys) -> None:
    """A file of the output folder that has a character's name (no earlier report: not refused) is
    left as it is, the document named with the next suffix: the run never stops halfway on it."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "ミナ.json").write_text("mine", encoding="utf-8")
    assert main(["import", str(SHEET), "-o", str(out)]) == 0
    assert (out / "ミナ.json").read_text("utf-8") == "mine"
    assert json.loads((out / "ミナ-2.json").read_text("utf-8"))["name"] == "ミナ"
    assert f"{out / 'ミナ-2.json'}" in capsys.readouterr().out


def test_audit_outputs_that_are_one_file_are_refused_before_reading(tmp_path: Path, capsys, monkeypatch) -> None:
    """`-o r.json -o ./r.json`, or two workbooks whose annotated copies share a name, are
    OUTPUT_TWICE before any file is read: nothing is written (the first report and every copy
    were, then exit 2)."""
    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(LEGACY / "up-stats-below.ods", folder / "u.ods")
    shutil.copy(SHEET, folder / "u.xlsx")
    read = _no_reading(monkeypatch)
    r = tmp_path / "r.json"
    assert main(["audit", str(folder / "u.xlsx"), "-o", str(r), "-o", str(tmp_path / "." / "r.json")]) == 2
    assert "2 度使われています" in capsys.readouterr().err
    assert main(["audit", str(folder), "-o", str(r), "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert "named twice" in err and "u.xlsx" in err
    assert read == [] and sorted(p.name for p in tmp_path.iterdir()) == ["in"]


def test_audit_passes_over_its_copies_and_says_so(tmp_path: Path, capsys) -> None:
    """A second audit of a folder holding the first one's annotated copies does not read them and
    says how many it passed over; a copy named directly is read."""
    folder = tmp_path / "卓"
    folder.mkdir()
    shutil.copy(SHEET, folder / "a.xlsx")
    args = ["-o", str(tmp_path / "r.json"), "--annotated", str(folder / "annotated")]
    assert main(["audit", str(folder), *args]) in (0, 1)
    capsys.readouterr()
    assert main(["audit", str(folder), *args, "--force"]) in (0, 1)
    printed = capsys.readouterr().out
    assert f"{folder / 'annotated'}: 注記付きの写しのフォルダーなので、中の 1 ファイルは読みませんでした" in printed
    files = json.loads((tmp_path / "r.json").read_text("utf-8"))["files"]
    assert {Path(f["audit"]["file"]).name for f in files} == {"a.xlsx"}
    copy = folder / "annotated" / "a.xlsx"
    assert main(["audit", str(copy), "-o", str(tmp_path / "r2.json"), "--no-annotated"]) in (0, 1)
    assert {f["audit"]["file"] for f in json.loads((tmp_path / "r2.json").read_text("utf-8"))["files"]} == {str(copy)}

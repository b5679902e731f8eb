"""check over several files: each transformation form's listed UP against that form's own file."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

from converter import check_paths

SAMPLES = Path(__file__).resolve().parent.parent / "samples" / "up"


def _forms_with_one_listed_wrong(folder: Path) -> Path:
    """The three transformation forms, the wing form listing its first other form at one UP more."""
    for p in SAMPLES.glob("l-transform-*.json"):
        shutil.copy(p, folder / p.name)
    wing = folder / "l-transform-wing.json"
    doc = json.loads(wing.read_text(encoding="utf-8"))
    doc["transformation"]["forms"][0]["up"] += 1
    wing.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    return wing


def test_listed_form_up_differs_from_its_file(tmp_path: Path):
    """A form listed at one UP more than its own file computes is a warning at the listed cell."""
    _forms_with_one_listed_wrong(tmp_path)
    report = check_paths([tmp_path])
    found = [(Path(fr.path).name, f.code, f.pointer) for fr in report.files for f in fr.findings
             if f.code == "UP_TRANSFORM_SET_MISMATCH"]
    assert found == [("l-transform-wing.json", "UP_TRANSFORM_SET_MISMATCH", "/transformation/forms/0/up")]


def test_samples_with_their_sheets_agree():
    """The sample forms, as JSON and as filled sheets together, list each other's UP correctly."""
    report = check_paths([SAMPLES])
    assert not [f for fr in report.files for f in fr.findings if f.code == "UP_TRANSFORM_SET_MISMATCH"]
    assert len([fr for fr in report.files if fr.document and fr.document.get("transformation")]) == 6


def test_set_findings_are_printed_after_the_streamed_files(tmp_path: Path, capsys):
    """Text output streams each file before the set checks run: their findings come after, under
    the file they concern, and in the JSON Lines run line; the counts agree."""
    from converter.cli import main

    wing = _forms_with_one_listed_wrong(tmp_path)
    assert main(["check", str(tmp_path)]) == 0  # a warning
    out = capsys.readouterr().out
    tail = out[out.index(f"{wing}: いっしょに確認したファイルとの照合"):]
    assert "UP_TRANSFORM_SET_MISMATCH" in tail and "警告 1" in tail
    assert main(["check", str(tmp_path), "--format", "jsonl"]) == 0
    run = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert [(f["path"], f["code"]) for f in run["set_findings"]] == [(str(wing), "UP_TRANSFORM_SET_MISMATCH")]


def test_partial_transformation_places_counted_across_files_and_jobs(tmp_path: Path):
    """部分変形 (issue 16.5): two forms typing 2 changed places, as a JSON file and a filled sheet,
    differ in 3 places; checked together, in one process or with two workers, each form gets the
    warning at its changed_places."""
    from converter.sheets import write_sheet
    from tests.up.test_partial_transformation import BASE, RIDER, form

    zeta = form("ゼータ", "ウェイブライダー", 2, **BASE)
    (tmp_path / "zeta.json").write_text(json.dumps(zeta, ensure_ascii=False), encoding="utf-8")
    write_sheet(form("ウェイブライダー", "ゼータ", 2, **RIDER), tmp_path / "rider.xlsx")
    for jobs in (1, 2):
        report = check_paths([tmp_path], jobs=jobs)
        found = sorted((Path(fr.path).name, f.pointer, f.params["counted"]) for fr in report.files
                       for f in fr.findings if f.code == "UP_TRANSFORM_PLACES_MISMATCH")
        assert found == [("rider.xlsx", "/transformation/changed_places", 3),
                         ("zeta.json", "/transformation/changed_places", 3)], jobs


def test_set_findings_of_two_sets_come_in_input_order_with_any_jobs(tmp_path: Path):
    """Two transformation sets, copies of one form and both kinds of mismatch: each form gets its
    set findings, listed in input order in ``set_findings``, the same with one job or two."""
    from converter.batch.checking import check_files
    from converter.sheets import write_sheet
    from tests.up.test_partial_transformation import BASE, RIDER, form

    _forms_with_one_listed_wrong(tmp_path)
    shutil.copy(tmp_path / "l-transform-wing.json", tmp_path / "l-transform-wing-copy.json")
    (tmp_path / "zeta.json").write_text(json.dumps(form("ゼータ", "ウェイブライダー", 2, **BASE), ensure_ascii=False),
                                        encoding="utf-8")
    write_sheet(form("ウェイブライダー", "ゼータ", 2, **RIDER), tmp_path / "rider.xlsx")
    codes = {"UP_TRANSFORM_SET_MISMATCH", "UP_TRANSFORM_PLACES_MISMATCH"}

    def found(report) -> list[tuple[str, str, str]]:
        return [(Path(fr.path).name, f.code, f.pointer) for fr in report.files for f in fr.findings if f.code in codes]

    one, two = check_files([tmp_path]), check_files([tmp_path], jobs=2)
    assert found(one) == found(two)
    assert {name for name, code, _ in found(one)} == {"l-transform-wing.json", "l-transform-wing-copy.json",
                                                       "rider.xlsx", "zeta.json"}
    names = [Path(p).name for p, _ in one.set_findings]
    assert names == sorted(names, key=[Path(fr.path).name for fr in one.files].index) and len(set(names)) == 4
    assert [(p, f.code) for p, f in one.set_findings] == [(p, f.code) for p, f in two.set_findings]


def test_the_mailgear_party_is_the_same_with_any_jobs(tmp_path: Path):
    """The mailgear party (a set check over every pilot, with the first pilot's catalog) is the
    same with one job or two."""
    from converter.batch.checking import check_files

    for p in (SAMPLES.parent / "mailgear").glob("*.xlsx"):
        shutil.copy(p, tmp_path / p.name)
    one = check_files([tmp_path])
    two = check_files([tmp_path], jobs=2)
    assert one.sets["mailgear.party"].to_dict("ja") == two.sets["mailgear.party"].to_dict("ja")
    assert one.summary() == two.summary() and one.sets["mailgear.party"].members >= 2

"""The GM audit over folders of documents: house rules, approvals, duplicates, the party, the
JSON and xlsx reports, exit codes. (Drift and annotated copies: test_drift.py, test_annotate.py.)"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from converter.audit.folder import audit_paths
from converter.audit.house import HouseRules, load_house
from converter.cli import main
from converter.core.errors import InputError
from converter.rules import system_ids

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def _doc(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text("utf-8"))


def _write(folder: Path, name: str, doc: dict) -> Path:
    p = folder / name
    p.write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    return p


def _codes(report, path_part: str) -> list[str]:
    return [f.code for m in report.members if path_part in m.report.path for f in m.report.findings]


def _house(tmp_path: Path, text: str) -> HouseRules:
    p = tmp_path / "house.toml"
    p.write_text(text, "utf-8")
    return load_house(p, system_ids())


# --- house rules -----------------------------------------------------------------------------------

@pytest.mark.parametrize("text, key", [
    ("colour = 1", "colour"),
    ("[budget]\npp = -3", "budget.pp"),
    ("[budget]\nfate = 3", "budget.fate"),
    ("[party]\nbalance_tolerance = 0", "party.balance_tolerance"),
    ("[[approved]]\nfile = 'a.json'\nby = 'GM'", "approved[0]"),
    ("[[approved]]\ncode = 'X_Y'", "approved[0].by"),
    ("[[approved]]\npointer = 'weapons'\nby = 'GM'", "approved[0].pointer"),
    ("[rules]\nnatural_talent = 3", "rules"),
    ("name = ", "-"),
])
def test_house_rules_errors_name_the_file_and_key(tmp_path: Path, text: str, key: str) -> None:
    """A bad house-rules file is HOUSE_INVALID naming the file and the key at fault."""
    with pytest.raises(InputError) as err:
        _house(tmp_path, text)
    assert err.value.code == "HOUSE_INVALID"
    assert err.value.params["key"] == key and "house.toml" in err.value.params["file"]
    assert "house.toml" in err.value.message("ja")


def test_house_budget_precedence(tmp_path: Path) -> None:
    """A player's own budget beats the system's, which beats the per-character one."""
    house = _house(tmp_path, "[budget]\nper_character = 100\npp = 50\n[budget.players]\n'山田' = 70\n")
    assert house.budget_for("pp", "山田") == (70, "budget.players.山田")
    assert house.budget_for("pp", "鈴木") == (50, "budget.pp")
    assert house.budget_for("up", None) == (100, "budget.per_character")
    assert HouseRules().budget_for("pp", "山田") is None


# --- the folder's views -----------------------------------------------------------------------------

def test_over_house_budget_and_approval(tmp_path: Path) -> None:
    """pilot_with_machine spends 50 PP: over a house budget of 45 by 5, an error until the GM
    approves it, then an info line that still shows, with who approved it."""
    _write(tmp_path, "akira.json", _doc("pp/pilot_with_machine.json"))
    house = _house(tmp_path, "[budget]\npp = 45\n")
    report = audit_paths([tmp_path], house=house)
    over = [f for m in report.members for f in m.report.findings if f.code == "AUDIT_OVER_HOUSE_BUDGET"]
    assert len(over) == 1 and over[0].params["over"] == 5 and over[0].level.value == "error"
    assert report.exit_code == 1
    house = _house(tmp_path, "[budget]\npp = 45\n[[approved]]\nfile = 'aki*.json'\n"
                             "code = 'AUDIT_OVER_HOUSE_BUDGET'\nby = 'GM 佐藤'\nnote = '特例'\n")
    report = audit_paths([tmp_path], house=house)
    (over,) = [f for m in report.members for f in m.report.findings if f.code == "AUDIT_OVER_HOUSE_BUDGET"]
    assert over.level.value == "info" and over.params["approved_by"] == "GM 佐藤"
    assert report.exit_code == 0 and report.approved == 1
    data = report.to_dict("ja")
    (shown,) = [f for f in data["files"][0]["findings"] if f["code"] == "AUDIT_OVER_HOUSE_BUDGET"]
    assert shown["approved"] == {"by": "GM 佐藤", "note": "特例", "severity": "error", "from": "house"}
    assert data["house"]["approved"][0]["by"] == "GM 佐藤"


def test_approval_by_pointer_only_touches_that_finding(tmp_path: Path) -> None:
    """An approval naming a pointer approves only the finding at that pointer."""
    src = SAMPLES / "broken" / "pp" / "skill_9.json"
    shutil.copy(src, tmp_path / "s.json")
    plain = audit_paths([tmp_path])
    errors = [f for m in plain.members for f in m.report.findings if f.level.value == "error"]
    target = errors[0]
    house = _house(tmp_path, f"[[approved]]\npointer = '{target.pointer}'\nby = 'GM'\n")
    report = audit_paths([tmp_path], house=house)
    after = {(f.code, f.pointer): f for m in report.members for f in m.report.findings}
    assert after[(target.code, target.pointer)].level.value == "info"
    others = [f for f in errors[1:] if f.pointer != target.pointer]
    assert all(after[(f.code, f.pointer)].level.value == "error" for f in others)


def test_duplicates(tmp_path: Path) -> None:
    """The same file twice, the same character in two files, a player with two characters."""
    doc = _doc("pp/pilot_with_machine.json")
    _write(tmp_path, "a.json", doc)
    shutil.copy(tmp_path / "a.json", tmp_path / "b.json")
    assert doc["player"] == "サンプル"
    _write(tmp_path, "c.json", {**doc, "player": "ｻﾝﾌﾟﾙ", "name": "アキラ・ハヤセ "})  # half-width kana
    vet = _doc("pp/veteran.json")
    _write(tmp_path, "d.json", {**vet, "player": "サンプル "})
    report = audit_paths([tmp_path])
    (dup,) = [f for m in report.members if "b.json" in m.report.path for f in m.report.findings
              if f.code == "AUDIT_DUPLICATE_FILE"]
    assert dup.params["other"].endswith("a.json")
    assert "AUDIT_DUPLICATE_NAME" in _codes(report, "c.json")  # NFKC, spaces ignored
    assert "AUDIT_DUPLICATE_NAME" not in _codes(report, "b.json")  # said once, as the same file
    over = [f for m in report.members for f in m.report.findings if f.code == "AUDIT_PLAYER_OVER_LIMIT"]
    assert over and all(f.params["limit"] == 1 and f.params["count"] == 3 for f in over)
    kinds = sorted(d["kind"] for d in report.duplicates)
    assert kinds == ["content", "name", "player"]
    # The house rules may allow more characters per player.
    relaxed = audit_paths([tmp_path], house=_house(tmp_path, "[party]\ncharacters_per_player = 0\n"))
    assert not [f for m in relaxed.members for f in m.report.findings if f.code == "AUDIT_PLAYER_OVER_LIMIT"]


def test_party_balance_names_the_outlier(tmp_path: Path) -> None:
    """Four pp characters of one budget (150 PP) spending 146, 146, 146 and 50: the median is 146,
    50 is 66 % away (issue 35.3: compared within their own budget)."""
    base = _doc("pp/veteran.json")
    for i, name in enumerate(("一", "二", "三")):
        _write(tmp_path, f"{i}.json", {**base, "name": name, "player": name})
    _write(tmp_path, "low.json", {**_doc("pp/pilot_with_machine.json"), "budget": 150, "player": "四"})
    report = audit_paths([tmp_path])
    view = report.party["pp"]
    assert view["median"] == 146 and len(view["members"]) == 4
    assert view["outliers"] == ["アキラ・ハヤセ"]
    (f,) = [f for f in (x for m in report.members for x in m.report.findings) if f.code == "AUDIT_PARTY_OUTLIER"]
    assert f.params["value"] == 50 and f.params["percent"] == 66
    assert "消費PP 50" in f.message("ja") and "PP spent of 50" in f.message("en")


def test_two_members_have_no_outlier(tmp_path: Path) -> None:
    """With only two members no one is called an outlier."""
    _write(tmp_path, "a.json", {**_doc("pp/ordinary_person.json"), "player": "a"})
    _write(tmp_path, "b.json", {**_doc("pp/veteran.json"), "player": "b"})
    assert audit_paths([tmp_path]).party["pp"]["outliers"] == []


def test_mailgear_party_figure_is_experience_plus_rank(tmp_path: Path) -> None:
    """A mailgear member's party figure is its experience plus its rank."""
    doc = _doc("mailgear/veteran-custom.json")
    _write(tmp_path, "v.json", doc)
    report = audit_paths([tmp_path])
    (member,) = report.party["mailgear"]["members"]
    assert member["value"] == doc["pilot"]["experience"] + doc["pilot"]["rank_points"]
    assert "mailgear.party" in report.party["mailgear"]["sets"]


# --- reports and the command line --------------------------------------------------------------------

def test_cli_json_and_xlsx_reports(tmp_path: Path, capsys) -> None:
    """The CLI writes the JSON report (valid against its schema) and the xlsx report of one folder."""
    import jsonschema
    import openpyxl

    folder = tmp_path / "in"
    folder.mkdir()
    for name in ("pp/veteran.json", "up/s-real-robot.json", "broken/pp/skill_9.json"):
        shutil.copy(SAMPLES / name, folder / Path(name).name)
    house = tmp_path / "house.toml"
    house.write_text("name = '水曜卓'\n[budget]\nper_character = 2000\n", "utf-8")
    code = main(["audit", str(folder), "-o", str(tmp_path / "r.json"), "-o", str(tmp_path / "r.xlsx"),
                 "--house", str(house), "--no-annotated"])
    assert code == 1  # skill_9 has an error
    out = capsys.readouterr().out
    assert "r.json" in out and "エラー" in out
    assert "設定: budget.per_character = 2000" in out.splitlines()[:10]  # the settings first
    data = json.loads((tmp_path / "r.json").read_text("utf-8"))
    schema = json.loads((ROOT / "schemas" / "audit-report.schema.json").read_text("utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["house"]["name"] == "水曜卓" and data["house"]["budget"]["per_character"] == 2000
    assert {r["file"].rsplit("/", 1)[-1] for r in data["roster"]} == {"veteran.json", "s-real-robot.json",
                                                                      "skill_9.json"}
    book = openpyxl.load_workbook(tmp_path / "r.xlsx", read_only=True)
    assert book.sheetnames == ["概要", "名簿", "指摘", "パーティー", "重複"]
    rows = list(book["指摘"].iter_rows(values_only=True))
    assert rows[0][:5] == ("ファイル", "シート", "名前", "重大度", "コード")
    assert any(r[4] == "PP_SKILL_MAX" for r in rows[1:])
    settings = {r[0]: r[1] for r in book["概要"].iter_rows(values_only=True)}
    assert settings["budget.per_character"] == "2000" and str(house) in settings["house"]
    book.close()
    # Never over an existing report without --force; never over an input.
    assert main(["audit", str(folder), "-o", str(tmp_path / "r.json"), "--no-annotated"]) == 2
    assert main(["audit", str(folder), "-o", str(folder / "veteran.json"), "--no-annotated", "--force"]) == 2


def test_cli_exit_codes(tmp_path: Path, capsys) -> None:
    """The audit exits 0 on a clean folder, 1 with rule errors, 2 when nothing could be read."""
    clean = tmp_path / "clean"
    clean.mkdir()
    shutil.copy(SAMPLES / "pp" / "veteran.json", clean / "v.json")
    assert main(["audit", str(clean), "-o", str(tmp_path / "a.json"), "--no-annotated"]) == 0
    broken = tmp_path / "broken-only"
    broken.mkdir()
    (broken / "x.json").write_text("{not json", "utf-8")
    assert main(["audit", str(broken), "-o", str(tmp_path / "b.json"), "--no-annotated"]) == 2
    assert main(["audit", str(clean), "-o", str(tmp_path / "c.txt")]) == 2
    assert "c.txt" in capsys.readouterr().err


def test_sheet_gm_approvals_round_trip_and_approve(tmp_path: Path) -> None:
    """A sheet's GM承認 table (template version 3) carries approvals: written and read back, and
    the audit turns the findings they name (a pointer covers what is under it) into info lines
    saying they came from the sheet."""
    from converter.sheets import read_sheet, write_sheet

    doc = _doc("broken/pp/skill_9.json")
    plain = audit_paths([_write(tmp_path, "plain.json", doc)])
    errors = [f for m in plain.members for f in m.report.findings if f.level.value == "error"]
    assert errors
    target = errors[0]
    parent = target.pointer.rsplit("/", 1)[0]
    approvals = [{"pointer": parent, "by": "GM 佐藤", "note": "伝説の達人として"}]
    sheet = write_sheet({**doc, "approvals": approvals}, tmp_path / "s.xlsx")
    back, findings, _ = read_sheet(sheet)
    assert back["approvals"] == approvals
    approved_dir = tmp_path / "approved"
    approved_dir.mkdir()
    report = audit_paths([_write(approved_dir, "a.json", {**doc, "approvals": approvals})])
    (after,) = [f for m in report.members for f in m.report.findings
                if (f.code, f.pointer) == (target.code, target.pointer)]
    assert after.level.value == "info" and after.params["approved_from"] == "sheet"
    shown = [f for f in report.to_dict()["files"][0]["findings"] if f.get("approved")]
    assert shown and shown[0]["approved"]["by"] == "GM 佐藤"


def test_cli_writes_annotated_copies_and_what_they_lose(tmp_path: Path) -> None:
    """Each workbook gets its annotated copy (in the workers), recorded in the JSON report with
    what it lost; a later audit of the same folder does not read the copies as sheets."""
    import openpyxl

    from converter.sheets import write_sheet

    folder = tmp_path / "卓"
    folder.mkdir()
    shutil.copy(SAMPLES / "up" / "s-real-robot.xlsx", folder / "ok.xlsx")
    write_sheet(_doc("broken/up/over-budget.json"), folder / "over.xlsx")
    shutil.copy(SAMPLES / "pp" / "veteran.json", folder / "v.json")
    report = tmp_path / "監査.json"
    assert main(["audit", str(folder), "-o", str(report), "--annotated", str(folder / "annotated"),
                 "--jobs", "2"]) == 1
    data = json.loads(report.read_text("utf-8"))
    by_file = {Path(f["audit"]["file"]).name: f["audit"] for f in data["files"]}
    assert by_file["v.json"]["annotated"] is None
    for name in ("ok.xlsx", "over.xlsx"):
        copy = Path(by_file[name]["annotated"])
        assert copy == folder / "annotated" / name and copy.is_file()
        assert by_file[name]["annotation_failed"] is None
        assert by_file[name]["losses"] == []  # edited as a package: nothing lost
    over = next(f for f in data["files"] if f["audit"]["file"].endswith("over.xlsx"))
    cells = {f["cell"] for f in over["findings"] if f["cell"] and f["severity"] == "error"}
    book = openpyxl.load_workbook(folder / "annotated" / "over.xlsx")
    assert book.sheetnames[0] == "監査"
    for cell in cells:
        sheet, ref = cell.split("!")
        assert book[sheet][ref].comment is not None, cell
    assert main(["audit", str(folder), "-o", str(folder / "監査2.json"), "--force"]) == 1
    files = {Path(f["audit"]["file"]).name for f in json.loads((folder / "監査2.json").read_text("utf-8"))["files"]}
    assert files == {"ok.xlsx", "over.xlsx", "v.json"}


def test_an_existing_output_is_refused_before_any_file_is_read(tmp_path: Path, capsys, monkeypatch) -> None:
    """A report or an annotated copy that exists already is refused (OUTPUT_EXISTS naming it)
    before the audit reads a file: nothing is written; with --force every output is."""
    import converter.audit.folder as folder_module

    folder = tmp_path / "in"
    folder.mkdir()
    shutil.copy(SAMPLES / "pp" / "veteran.json", folder / "v.json")
    shutil.copy(SAMPLES / "up" / "s-real-robot.xlsx", folder / "s.xlsx")
    reports = [str(tmp_path / f"r.{kind}") for kind in ("json", "xlsx", "html")]
    args = [x for r in reports for x in ("-o", r)]
    audited = []
    monkeypatch.setattr(folder_module, "audit_paths", lambda *a, **k: audited.append(a) or pytest.fail("read"))
    (tmp_path / "r.xlsx").write_bytes(b"keep")
    assert main(["audit", str(folder), *args, "--annotated", str(tmp_path / "copies")]) == 2
    assert "r.xlsx" in capsys.readouterr().err
    (tmp_path / "r.xlsx").unlink()
    (tmp_path / "copies").mkdir()
    (tmp_path / "copies" / "s.xlsx").write_bytes(b"keep")
    assert main(["audit", str(folder), *args, "--annotated", str(tmp_path / "copies")]) == 2
    assert "s.xlsx" in capsys.readouterr().err
    assert audited == [] and not any(Path(r).exists() for r in reports)
    assert (tmp_path / "copies" / "s.xlsx").read_bytes() == b"keep"
    monkeypatch.undo()
    assert main(["audit", str(folder), *args, "--annotated", str(tmp_path / "copies"), "--force"]) == 0
    assert json.loads((tmp_path / "r.json").read_text("utf-8"))["kind"] == "audit"
    assert (tmp_path / "r.xlsx").read_bytes()[:2] == b"PK" and (tmp_path / "r.html").stat().st_size > 0
    assert (tmp_path / "copies" / "s.xlsx").read_bytes()[:2] == b"PK"


def test_json_report_text_is_the_same_data_a_line_per_element(tmp_path: Path) -> None:
    """The JSON report's text parses to the same data as the report, one element a line."""
    from converter.audit.outputs import json_report_text

    for name in ("pp/veteran.json", "up/s-real-robot.json", "broken/pp/skill_9.json"):
        shutil.copy(SAMPLES / name, tmp_path / Path(name).name)
    data = audit_paths([tmp_path]).to_dict("ja")
    text = json_report_text(data)
    assert json.loads(text) == data
    lines = text.splitlines()
    assert lines[0] == "{" and lines[-1] == "}"
    files = [line for line in lines if line.startswith('    {"path"')]
    assert len(files) == len(data["files"]) == 3  # one file a line
    assert json_report_text({"empty": [], "n": 1}) == '{\n  "empty": [],\n  "n": 1\n}\n'


def test_an_audit_of_mailgear_sheets_is_the_same_with_any_jobs(tmp_path) -> None:
    """Mailgear sheets, each carrying its catalog sheet, audited with two jobs: every member
    holds its catalog, and the report equals one job's."""
    from converter.audit.outputs import json_report_text

    for k in range(2):
        for p in sorted((SAMPLES / "mailgear").glob("*.xlsx")):
            (tmp_path / f"{k}-{p.name}").write_bytes(p.read_bytes())
    one = audit_paths([tmp_path], jobs=1)
    two = audit_paths([tmp_path], jobs=2)
    assert len([m for m in two.members if m.report.context.get("catalog") is not None]) >= 4
    assert json_report_text(one.to_dict("ja")) == json_report_text(two.to_dict("ja"))


def test_report_tables_are_written_as_values(tmp_path) -> None:
    """The xlsx report's tables (and the roster) as written a row at a time: text stays text
    even when it reads as a formula, a number or a link; a missing value is an empty cell;
    numbers are numbers; the styled sheets have a bold, frozen header and a filter."""
    import openpyxl
    import pandas

    from converter.imports.roster import frames_xlsx

    frame = pandas.DataFrame({"name": ["=HYPERLINK(\"http://x\")", "0012", "http://example.com", None],
                              "total": pandas.array([1200, None, 3, 4], dtype="Int64")})
    data = frames_xlsx([("表", frame), ("概要", frame.head(1))], styled=True, unfiltered=["概要"])
    path = tmp_path / "t.xlsx"
    path.write_bytes(data)
    book = openpyxl.load_workbook(path)
    sheet = book["表"]
    assert [c.value for c in sheet[1]] == ["name", "total"] and sheet["A1"].font.b
    assert [(c.value, c.data_type) for c in sheet["A"][1:]] == [
        ('=HYPERLINK("http://x")', "s"), ("0012", "s"), ("http://example.com", "s"), (None, "n")]
    assert [c.value for c in sheet["B"][1:]] == [1200, None, 3, 4]
    assert sheet.freeze_panes == "A2" and sheet.auto_filter.ref == "A1:B5"
    assert book["概要"].auto_filter.ref is None


def test_homemade_sheets_get_the_same_findings_beside_an_xls(tmp_path) -> None:
    """Homemade .xlsx sheets are read by their labels, with the same findings whether or not the
    folder also holds an .xls file."""
    legacy = ROOT / "samples" / "legacy"
    homemade = sorted(legacy.glob("*.xlsx"))[:2]
    alone = audit_paths(homemade, jobs=2)
    with_xls = audit_paths(homemade + sorted(legacy.glob("*.xls"))[:1], jobs=2)
    findings = {f.path: [m.report.findings for m in f.members] for f in with_xls.files}
    assert {f.path: [m.report.findings for m in f.members] for f in alone.files} == \
        {str(p): findings[str(p)] for p in homemade}
    assert all(m.report.system for f in alone.files for m in f.members)  # read by their labels

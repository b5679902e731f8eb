"""The party view counts each character once (issue 35.3): a byte-identical copy and a second
file of one character are named and left out, the copy (not the original) is flagged, members
are compared within their own budget, and sheets over budget stay out of the median. Its words
in the reports are the GM's (issue 35.4): severities, 読み方, duplicate kinds and matches."""
from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest

from converter.audit.duplicates import looks_like_a_copy
from converter.audit.folder import audit_paths
from converter.audit.html_report import html_report_bytes
from converter.audit.tables import duplicates_frame, findings_frame, party_frame, roster_frame

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"


def _doc(sample: str, **changes) -> dict:
    return {**json.loads((SAMPLES / sample).read_text("utf-8")), **changes}


def _write(folder: Path, name: str, doc: dict) -> None:
    (folder / name).write_text(json.dumps(doc, ensure_ascii=False), "utf-8")


@pytest.fixture(scope="module")
def party(tmp_path_factory):
    """Four up units of one budget, a byte-identical copy of one (named as a browser names a second
    download, and sorting before its original), a unit over its budget; three pp characters of
    150 PP and one of 50 PP that spends all 50; a second file of キャラA (「キャラ Ａ」)."""
    folder = tmp_path_factory.mktemp("party")
    for name in ("l-map-combo", "l-super-robot", "l-transform-land", "l-transform-marine"):
        shutil.copy(SAMPLES / "up" / f"{name}.json", folder / f"{name}.json")
    shutil.copy(SAMPLES / "up" / "l-super-robot.json", folder / "l-super-robot (1).json")
    over = _doc("up/l-transform-wing.json", budget=1000)
    over.pop("declared_total", None)
    _write(folder, "over.json", over)
    for p in "ABC":
        _write(folder, f"pp-{p}.json", _doc("pp/veteran.json", name=f"キャラ{p}", player=f"プレイヤー{p}"))
    _write(folder, "pp-D.json", _doc("pp/pilot_with_machine.json", player="プレイヤーD"))
    _write(folder, "pp-E.json", _doc("pp/veteran.json", name="キャラ Ａ", player="プレイヤーA", notes="古い版"))
    return audit_paths([folder])


@pytest.fixture(scope="module")
def pages(party) -> dict[str, str]:
    """The HTML report of the party in each language (rendered once: matplotlib is slow)."""
    return {lang: html_report_bytes(party, lang).decode("utf-8") for lang in ("ja", "en")}


def _codes(report, name: str) -> list[str]:
    return [f.code for m in report.members if Path(m.report.path).name == name for f in m.report.findings]


def test_the_copy_is_flagged_not_the_original(party) -> None:
    """「l-super-robot (1).json」 sorts first, yet it is the copy: the duplicate warning is its own."""
    assert "AUDIT_DUPLICATE_FILE" in _codes(party, "l-super-robot (1).json")
    assert "AUDIT_DUPLICATE_FILE" not in _codes(party, "l-super-robot.json")


def test_each_character_is_counted_once_and_the_copy_named(party) -> None:
    """The copy is out of the up party, named with the original it repeats; the median is that of
    the four units (1900, 1975, 1968, 1935), not moved by the copy."""
    view = party.party["up"]
    files = [Path(m["file"]).name for m in view["members"]]
    assert sorted(files) == ["l-map-combo.json", "l-super-robot.json", "l-transform-land.json",
                             "l-transform-marine.json"]
    copy = next(x for x in view["left_out"] if x["reason"] == "copy")
    assert Path(copy["file"]).name == "l-super-robot (1).json"
    assert Path(copy["other"]).name == "l-super-robot.json"
    assert view["median"] == (1935 + 1968) / 2


def test_a_second_file_of_one_character_is_named_not_counted(party) -> None:
    """「キャラ Ａ」 in pp-E.json is キャラA again: named with the first file, not counted."""
    view = party.party["pp"]
    (same,) = [x for x in view["left_out"] if x["reason"] == "same_name"]
    assert Path(same["file"]).name == "pp-E.json" and Path(same["other"]).name == "pp-A.json"
    assert "pp-E.json" not in [Path(m["file"]).name for m in view["members"]]


def test_a_sheet_over_budget_is_left_out_of_the_median(party) -> None:
    """A unit of 1939 UP on a budget of 1000 (an error already) is named, not counted."""
    view = party.party["up"]
    (over,) = [x for x in view["left_out"] if x["reason"] == "over_budget"]
    assert Path(over["file"]).name == "over.json" and over["value"] == 1939
    assert [g["budget"] for g in view["groups"]] == [2000]


def test_members_are_compared_within_their_own_budget(party) -> None:
    """A valid 50/50 pp character among 146/150 ones is not an outlier: each budget its median."""
    view = party.party["pp"]
    assert view["outliers"] == []
    assert [(g["budget"], g["median"], g["members"]) for g in view["groups"]] == [(50, 50, 1), (150, 146, 3)]
    assert not any("AUDIT_PARTY_OUTLIER" in _codes(party, f"pp-{p}.json") for p in "ABCD")


def test_the_reports_name_what_is_left_out_in_the_gms_words(party, pages) -> None:
    """The HTML caption and the xlsx party sheet name the copy and the sheet over budget; the pp
    caption gives each budget's median."""
    page = pages["ja"]
    assert "数えていないもの" in page and "l-super-robot (1).json" in page and "予算を超えている" in page
    assert "146（予算 150、3人）" in page
    frame = party_frame(party, "ja")
    notes = dict(zip(frame["ファイル"].map(lambda f: Path(f).name), frame["備考"], strict=True))
    assert "とまったく同じファイル" in notes["l-super-robot (1).json"]
    assert notes["pp-D.json"] != notes["pp-D.json"] and "Not counted"  # NaN: counted, no note in html_report_bytes(party, "en").decode("utf-8")


def test_audit_tables_speak_japanese(party, pages) -> None:
    """Severities, 読み方 and the duplicate kinds and matches read in Japanese; no SHA-256 shown."""
    findings = findings_frame(party, "ja")
    assert set(findings["重大度"]) <= {"エラー", "警告", "情報"} and "警告" in set(findings["重大度"])
    assert set(roster_frame(party, "ja")["読み方"]) == {"JSON 文書"}
    dups = duplicates_frame(party, "ja")
    kinds = dict(zip(dups["種類"], dups["一致したもの"], strict=True))
    assert kinds["同じファイル"] == "中身すべて（バイト単位で同一）" and kinds["同じ名前"] == "キャラA（pp）"
    sha = next(d["key"] for d in party.duplicates if d["kind"] == "content")
    assert sha not in pages["ja"]
    assert {"same file", "same name"} <= set(duplicates_frame(party, "en")["kind"])


@pytest.mark.parametrize(("name", "copy"), [
    ("takashi-up (1).xlsx", True), ("takashi-up.xlsx", False), ("x - コピー.xlsx", True),
    ("x - コピー (2).xlsx", True), ("xのコピー.xlsx", True), ("Copy of x.xlsx", True), ("x copy 2.xlsx", True),
    ("x_copy.xlsx", True), ("scopy.xlsx", False), ("robot-2.xlsx", False), ("MS-06 (3).json", True)])
def test_a_copys_name(name: str, copy: bool) -> None:
    """The names browsers, Windows and macOS give copies read as copies; others do not."""
    assert looks_like_a_copy(name) is copy


def test_the_xlsx_report_sheets_hold_the_words(party) -> None:
    """audit.xlsx's findings sheet shows 警告, not warning (read back with openpyxl)."""
    import openpyxl

    from converter.audit.xlsx_report import xlsx_report_bytes

    wb = openpyxl.load_workbook(io.BytesIO(xlsx_report_bytes(party, "ja")), read_only=True)
    values = {c for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for c in row}
    assert {"警告", "同じファイル", "JSON 文書"} <= values and not {"warning", "content", "json"} & values


@pytest.mark.parametrize(("text", "ja", "en"), [
    ("[party]\nbalance_tolerence = 0.3\n", "この項目はありません。もしかして balance_tolerance",
     "did you mean balance_tolerance?"),
    ("[party]\nzzz = 1\n", "書けるのは balance_tolerance、characters_per_player です",
     "the keys here are balance_tolerance, characters_per_player"),
    ("[party]\nbalance_tolerance = -1\n", "0 より大きい数にします", "must be a number above 0"),
    ("name = ", "TOML として読めません", "not TOML")])
def test_house_rule_errors_in_the_gms_words(tmp_path: Path, text: str, ja: str, en: str) -> None:
    """A misspelt or unknown house-rules key, a bad value: said in each language with the keys
    that may be written and the closest, never Python's 「unknown key (known: …)」 (issue 35.4)."""
    from converter.audit.house import load_house
    from converter.core.errors import InputError

    house = tmp_path / "house.toml"
    house.write_text(text, "utf-8")
    with pytest.raises(InputError) as err:
        load_house(house, ["up", "pp", "mailgear"])
    assert ja in err.value.message("ja") and en in err.value.message("en")
    assert "unknown key" not in err.value.message("ja") + err.value.message("en")

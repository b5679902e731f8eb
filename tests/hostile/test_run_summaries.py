"""What import and audit print at the end, as a GM reads it (issue 35, items 4 and 6): counts
with their numbers, long formulas cut to the changed part, every file with a finding listed
(--quiet: errors only), every file written, exit 1 for an imported sheet with errors, a low
confidence warned, and --profile advised for a homemade sheet no system fits."""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import openpyxl
import pytest

from converter import evaluate
from converter.audit.drift import SHOWN_FORMULA, shown_formulas
from converter.check import FileReport
from converter.cli import main
from converter.core.findings import Finding
from converter.core.source import Origin
from converter.imports.importer import LOW_CONFIDENCE, Entry
from converter.legacy.sources import ImportRecord
from converter.sheets import sheet_bytes

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
MOBILE_SUIT = SAMPLES / "up" / "m-mobile-suit.xlsx"


def _doc(name: str) -> dict:
    data = json.loads((SAMPLES / name).read_text("utf-8"))
    return data.get("document", data)


@pytest.fixture(scope="module")
def sheets(tmp_path_factory) -> Path:
    """Our up sheets: a clean one, one over budget (an error), a typed-over total equal to the
    computed one (a warning only), and a byte-identical copy of the clean one."""
    folder = tmp_path_factory.mktemp("sheets")
    shutil.copy(SAMPLES / "up" / "s-real-robot.xlsx", folder / "clean.xlsx")
    (folder / "over.xlsx").write_bytes(sheet_bytes(_doc("broken/up/over-budget.json")))
    wb = openpyxl.load_workbook(MOBILE_SUIT)
    sheet, ref = next(iter(wb.defined_names["up.totals.computed"].destinations))
    wb[sheet][ref.replace("$", "")] = evaluate(json.loads(MOBILE_SUIT.with_suffix(".json").read_text("utf-8"))).total
    wb.save(folder / "typed.xlsx")
    return folder


def test_shown_formulas_keep_the_changed_part() -> None:
    """A 300-character formula edited in one place shows that place (with context), not the
    whole; short formulas are shown whole; beside a typed value the template's is cut."""
    body = "INDEX(rules.sizes,MATCH(A1,list.sizes,0),2)*" * 7
    template, edited = f"=IFERROR({body}+H11*2,0)", f"=IFERROR({body}+H11*3,0)"
    shown_template, shown_edited = shown_formulas(template, edited)
    assert len(template) > 300 and len(shown_template) <= SHOWN_FORMULA and len(shown_edited) <= SHOWN_FORMULA
    assert shown_template.startswith("…") and shown_template.endswith("+H11*2,0)")
    assert shown_edited.endswith("+H11*3,0)")
    assert shown_formulas("=A1+B1", "=A1-B1") == ("=A1+B1", "=A1-B1")
    cut, typed = shown_formulas(template, 1459)
    assert typed == 1459 and cut == template[:SHOWN_FORMULA - 1] + "…"


def test_import_lists_errors_and_written_files_and_exits_1(sheets: Path, tmp_path: Path, capsys) -> None:
    """A sheet imported with an error: its error under its line, the counts (each with its
    number), every file written, exit 1; --quiet prints only that sheet and the closing lines."""
    out = tmp_path / "out"
    assert main(["import", str(sheets / "clean.xlsx"), str(sheets / "over.xlsx"), "-o", str(out)]) == 1
    printed = capsys.readouterr().out
    over = printed.index("over.xlsx")
    assert "UP_OVER_BUDGET" in printed[over:] and "UP_OVER_BUDGET" not in printed[:over]
    assert "2 ファイルから 2 件を取り込みました。取り込めないファイル 0、エラーのあるシート 1、確度の低いシート 0、書いたファイル 5" in printed
    for name in ("import-report.json", "roster.csv", "roster.xlsx"):
        assert f"書きました: {out / name}" in printed
    assert main(["import", str(sheets / "clean.xlsx"), str(sheets / "over.xlsx"), "-o", str(tmp_path / "q"),
                 "--quiet", "--lang", "en"]) == 1
    quiet = capsys.readouterr().out
    assert "clean.xlsx" not in quiet and "over.xlsx" in quiet and "1 sheet(s) with errors" in quiet


def test_a_low_confidence_is_warned_under_the_line() -> None:
    """A system guessed with confidence 0.33 gets a note under its line naming the threshold and
    what to do; one of 1 (our template, or --system) does not."""
    from converter.check.text import text_options

    report = FileReport("卓.xlsx#PC", "pp", [], origin=Origin("legacy"))
    unsure = Entry(report, ImportRecord("卓.xlsx", "PC", None, "pp", 0.33))
    text = unsure.text(text_options("ja"))
    assert unsure.unsure and f"確度 0.33 は {LOW_CONFIDENCE:g} 未満" in text and "--profile" in text
    sure = Entry(report, ImportRecord("卓.xlsx", "PC", None, "pp", 1.0))
    assert not sure.unsure and "--profile" not in sure.text(text_options("en"))
    assert unsure.text(text_options("ja", quiet=True)) == ""  # no error: nothing with --quiet


def test_a_sheet_no_system_fits_is_advised_profile_first(tmp_path: Path, capsys) -> None:
    """A homemade workbook whose sheet fits no system: the advice is --profile, or this file
    alone with --system (which would read every sheet, its メモ too, as a character)."""
    wb = openpyxl.Workbook()
    wb.active.title = "メモ"
    wb.active.append(["買い物", "牛乳"])
    wb.save(tmp_path / "notes.xlsx")
    assert main(["import", str(tmp_path / "notes.xlsx"), "-o", str(tmp_path / "out")]) == 2
    printed = capsys.readouterr().out
    assert "LEGACY_NO_SYSTEM" in printed
    assert "--profile でレイアウトを渡すか、このファイルだけを --system 付きで取り込み直してください" in printed
    assert Finding("LEGACY_NO_SYSTEM", "", {"sheet": "メモ", "scores": "-"}).hint("en").startswith(
        "pass a layout profile with --profile")


def test_audit_lists_every_file_with_a_finding_and_every_file_written(sheets: Path, tmp_path: Path,
                                                                      capsys) -> None:
    """The audit lists a file with only a warning (a typed-over total), the duplicate under what
    the whole folder shows, each copy's losses with their counts, and every report and annotated
    copy written; --quiet lists only the file with an error."""
    folder = tmp_path / "卓"
    folder.mkdir()
    for name in ("clean.xlsx", "over.xlsx", "typed.xlsx"):
        shutil.copy(sheets / name, folder / name)
    shutil.copy(sheets / "clean.xlsx", folder / "clean (1).xlsx")
    shutil.copy(SAMPLES / "legacy" / "up-stats-below.ods", folder / "u.ods")
    report = tmp_path / "r.json"
    assert main(["audit", str(folder), "-o", str(report)]) == 1
    printed = capsys.readouterr().out
    typed = printed.index(f"{folder / 'typed.xlsx'}:")
    assert "AUDIT_FORMULA_REPLACED" in printed[typed:] and "UP_TOTAL_MISMATCH" not in printed[typed:]
    whole = printed.index("フォルダー全体で見つかったもの")
    assert "AUDIT_DUPLICATE_FILE" in printed[whole:] and "AUDIT_DUPLICATE_FILE" not in printed[:whole]
    assert "写しで失われるもの: 書式（値だけを写したシートの数） 1、数式（計算結果の値だけを写したシートの数） 1" in printed
    assert f"書きました: {report}" in printed
    for name in ("clean.xlsx", "clean (1).xlsx", "over.xlsx", "typed.xlsx", "u.xlsx"):
        assert f"書きました: {tmp_path / 'annotated' / name}" in printed
    assert main(["audit", str(folder), "-o", str(tmp_path / "q.json"), "--no-annotated", "--quiet"]) == 1
    quiet = capsys.readouterr().out
    assert "over.xlsx" in quiet and "typed.xlsx" not in quiet and "AUDIT_DUPLICATE_FILE" not in quiet

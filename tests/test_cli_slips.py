"""Command-line slips (issue 35.8): the language given before the command, misspelt flags,
commands and systems with the command's usage and a close spelling, names in any case, a
catalog not counted as a file checked, advice for a memo or a PDF, an audit of nothing."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
UNIT = SAMPLES / "up" / "m-mobile-suit.json"


def _refused(capsys, *argv: str) -> str:
    """What argparse says (standard error) for ``argv``, which must exit 2."""
    with pytest.raises(SystemExit) as stop:
        main(list(argv))
    assert stop.value.code == 2
    return capsys.readouterr().err


def test_lang_before_the_command_and_in_any_case(capsys) -> None:
    """`mechasheet --lang en check x` and `--lang EN` run the check in English."""
    for argv in (["--lang", "en", "check", str(UNIT)], ["check", str(UNIT), "--lang", "EN"],
                 ["--lang=EN", "check", str(UNIT)]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert "1 checked" in out and "ファイル" not in out, argv


@pytest.mark.parametrize(("lang", "usage", "error", "close"), [
    ("ja", "使い方: mechasheet check", "知らない引数です: --breakdwon", "（もしかして: --breakdown）"),
    ("en", "usage: mechasheet check", "unrecognized arguments: --breakdwon", " (did you mean --breakdown?)")])
def test_a_misspelt_flag_gets_the_commands_usage_and_a_close_spelling(capsys, lang, usage, error, close) -> None:
    """`check --breakdwon x`: the check command's usage (not the top level's), the error and the
    flag meant, in the run's language."""
    err = _refused(capsys, "check", "--breakdwon", str(UNIT), "--lang", lang)
    assert err.startswith(usage) and f"{error}{close}" in err
    assert "COMMAND" not in err and "コマンド ..." not in err


def test_a_misspelt_system_or_command_gets_a_close_spelling(capsys) -> None:
    """`template upp`, `import --system UPP`, `chek`: Japanese errors naming the close spelling."""
    err = _refused(capsys, "template", "upp")
    assert "使い方: mechasheet template" in err and "「upp」は選べません" in err and "（もしかして: up）" in err
    err = _refused(capsys, "import", str(UNIT), "-o", "out", "--system", "UPP")
    assert "（もしかして: up）" in err and "invalid choice" not in err
    assert "（もしかして: check）" in _refused(capsys, "chek", str(UNIT))
    assert "もしかして" not in _refused(capsys, "template", "zzzzzz")  # nothing close: no guess


def test_system_names_in_any_case(capsys, tmp_path) -> None:
    """`template UP` writes the up template; `convert --to PP` and `schema UP` are accepted."""
    out = tmp_path / "up.xlsx"
    assert main(["template", "UP", "-o", str(out)]) == 0 and out.is_file()
    capsys.readouterr()
    assert main(["schema", "UP"]) == 0
    assert json.loads(capsys.readouterr().out)["$id"].endswith("/up.schema.json")
    assert main(["convert", str(UNIT), "--to", "PP"]) in (0, 1)
    assert "invalid choice" not in capsys.readouterr().err


def test_the_catalog_given_is_not_a_file_checked(capsys) -> None:
    """`check --catalog cat x`: one file checked; the catalog's findings are said apart."""
    catalog = SAMPLES / "mailgear" / "catalog-example.xlsx"
    pilot = SAMPLES / "mailgear" / "starting-pilot.json"
    main(["check", "--catalog", str(catalog), str(pilot)])
    last = capsys.readouterr().out.splitlines()[-1]
    assert last.startswith("1 ファイル") and f"--catalog の {catalog}" in last
    main(["check", "--catalog", str(catalog), str(pilot), "--format", "json"])
    kinds = [f["kind"] for f in json.loads(capsys.readouterr().out)["files"]]
    assert kinds == ["catalog", "document"]  # JSON: the catalog's entry says what it is


@pytest.mark.parametrize(("name", "content", "code", "words"), [
    ("メモ.txt", "メモ: 機体は後で".encode(), "INPUT_TEXT_FILE", "テキストファイル"),
    ("x.pdf", b"%PDF-1.4\x00\x01", "INPUT_WRONG_FORMAT", "PDF"),
    ("old.xls", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(64), "INPUT_WRONG_FORMAT", "mechasheet import"),
    ("a.docx", "ただのメモ".encode(), "INPUT_UNKNOWN_FORMAT", ".json")])
def test_a_file_that_is_no_sheet_gets_advice_for_its_format(capsys, tmp_path, name, content, code, words) -> None:
    """A memo, a PDF, an old workbook: what the file is and what to do, not JSON's bracket advice."""
    path = tmp_path / name
    path.write_bytes(content)
    assert main(["check", str(path)]) == 2
    out = capsys.readouterr().out
    assert code in out and words in out and "括弧" not in out and "JSON として読めません" not in out


def test_an_audit_of_a_missing_folder_is_an_error(capsys, tmp_path) -> None:
    """`audit no-such-dir/`: exit 2 naming a file or folder, and no report written."""
    report = tmp_path / "audit.html"
    err = _refused(capsys, "audit", str(tmp_path / "no-such-dir") + "/", "-o", str(report))
    assert "ファイルもフォルダーもありません" in err and not report.exists()
    assert "there is no file or folder" in _refused(capsys, "--lang", "en", "audit", "nope/", "-o", str(report))


def test_the_breakdown_names_attributes_and_skills_as_the_sheet_does(capsys) -> None:
    """`check --breakdown` on a pp character: 〈操縦〉's 能力値 reads 反応, not reflex or piloting
    (issue 35.4); in English, Reflex."""
    pilot = SAMPLES / "pp" / "pilot_with_machine.json"
    assert main(["check", str(pilot), "--breakdown"]) == 0
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if x.startswith("/derived/skills/0/attribute"))
    assert line.split()[-1] == "反応"
    assert not {"reflex", "piloting"} & set(out.split())
    assert main(["check", str(pilot), "--breakdown", "--lang", "en"]) == 0
    en = capsys.readouterr().out
    assert next(x for x in en.splitlines() if x.startswith("/derived/skills/0/attribute")).split()[-1] == "Reflex"

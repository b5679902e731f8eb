"""The text report as a GM reads it: breakdown tables, quiet runs, colour only on a terminal,
folded catalog notes, --version, standard input, files named twice, the language from LANG."""
from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from converter import check_paths
from converter.check.text import render_text
from converter.cli import default_lang, main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
UNIT = SAMPLES / "up" / "m-mobile-suit.json"


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_breakdown_shows_every_priced_line_and_derived_value(capsys) -> None:
    """--breakdown prints each line's item and cost, the total, and each derived value."""
    code, out, _ = _run(capsys, "check", str(UNIT), "--breakdown")
    assert code == 0
    report = check_paths([UNIT]).files[0]
    for line in report.breakdown:
        assert line.item in out and line.rule in out
    assert str(report.computed) in out
    for d in report.derived.values():
        assert d.label in out and str(d.value) in out
    _, plain, _ = _run(capsys, "check", str(UNIT))
    assert report.breakdown[1].rule not in plain  # only with --breakdown


def test_quiet_prints_only_files_with_errors(capsys) -> None:
    """--quiet leaves out valid files but keeps the summary."""
    broken = SAMPLES / "broken" / "up" / "over-budget.json"
    code, out, _ = _run(capsys, "check", str(UNIT), str(broken), "--quiet")
    assert code == 1
    assert str(broken) in out and str(UNIT) not in out
    assert "2 ファイル（エラーあり 1）" in out


def test_no_colour_when_piped_or_no_color(monkeypatch) -> None:
    """ANSI colour only when asked (a terminal); never escape codes in a pipe."""
    report = check_paths([SAMPLES / "broken" / "up" / "over-budget.json"])
    assert "\x1b[" not in render_text(report)
    assert "\x1b[" in render_text(report, color=True)
    from converter.cli import _color

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("NO_COLOR", raising=False)
    assert _color(Tty()) and not _color(io.StringIO())
    monkeypatch.setenv("NO_COLOR", "1")
    assert not _color(Tty())


def test_catalog_notes_fold_into_one_line(capsys) -> None:
    """Without --catalog, the missing-table notes of all pilots are one line, not one per file."""
    _, out, _ = _run(capsys, "check", str(SAMPLES / "mailgear"))
    assert "MG_CATALOG_TABLE_MISSING" not in out
    assert out.count("カタログにない表") == 1
    _, js, _ = _run(capsys, "check", str(SAMPLES / "mailgear" / "option-cap.json"), "--format", "json")
    assert any(f["code"] == "MG_CATALOG_TABLE_MISSING" for f in json.loads(js)["files"][0]["findings"])


def test_version(capsys) -> None:
    """--version prints the version and exits 0."""
    from converter import __version__

    with pytest.raises(SystemExit) as stop:
        main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"mechasheet {__version__}"


def test_dash_reads_a_document_from_stdin() -> None:
    """`check -` reads one JSON document from standard input, named <stdin> in the report."""
    done = subprocess.run([sys.executable, "-m", "converter", "check", "-", "--format", "json"],
                          input=UNIT.read_text(encoding="utf-8"), capture_output=True, text=True,
                          cwd=ROOT, timeout=60)
    assert done.returncode == 0, done.stderr
    (fr,) = json.loads(done.stdout)["files"]
    assert fr["path"] == "<stdin>" and fr["totals"]["computed"] == 1459
    bad = subprocess.run([sys.executable, "-m", "converter", "check", "-"], input="{",
                         capture_output=True, text=True, cwd=ROOT, timeout=60)
    assert bad.returncode == 2 and "<stdin>" in bad.stdout


def test_a_file_named_twice_is_checked_once(capsys) -> None:
    """The same file by two spellings, or named and found in its folder: one report."""
    code, out, _ = _run(capsys, "check", str(UNIT), str(UNIT.parent / ".." / "up" / UNIT.name),
                        str(UNIT.parent), "--format", "json")
    paths = [Path(f["path"]).resolve() for f in json.loads(out)["files"]]
    assert len(paths) == len(set(paths)) and UNIT.resolve() in paths


@pytest.mark.parametrize(("env", "lang"), [({}, "ja"), ({"LANG": "en_US.UTF-8"}, "en"),
                                           ({"LANG": "ja_JP.UTF-8"}, "ja"), ({"LANG": "C.UTF-8"}, "ja"),
                                           ({"LC_ALL": "en_GB.UTF-8", "LANG": "ja_JP.UTF-8"}, "en")])
def test_language_follows_the_environment(monkeypatch, env: dict, lang: str) -> None:
    """LC_ALL, then LC_MESSAGES, then LANG pick English when they say en_*; Japanese otherwise."""
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for var, value in env.items():
        monkeypatch.setenv(var, value)
    assert default_lang() == lang


def test_argparse_errors_in_the_runs_language(capsys) -> None:
    """A missing argument or a bad choice: exit 2, the usage and the error in Japanese by default,
    in English with --lang en."""
    for argv, ja, en in ((["check"], "次の引数が必要です: PATH", "the following arguments are required: PATH"),
                         (["check", "x", "--format", "xml"], "「xml」は選べません", "invalid choice: 'xml'"),
                         (["check", "x", "--jobs", "0"], "1 以上を指定してください", "at least 1")):
        for lang, text in (("ja", ja), ("en", en)):
            with pytest.raises(SystemExit) as stop:
                main(argv + (["--lang", "en"] if lang == "en" else []))
            assert stop.value.code == 2
            err = capsys.readouterr().err
            assert text in err, (argv, lang, err)
            assert ("使い方:" in err) == (lang == "ja")

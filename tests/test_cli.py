"""The command line: exit codes, the text and JSON reports, options, and a light `--help`.

Most tests call ``converter.cli.main([...])`` and read what it printed with capsys; two run a real
interpreter, because only a fresh process shows what ``python -m converter`` imports.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from converter.cli import main

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
GOOD_DIR = SAMPLES / "up"
BROKEN_DIR = SAMPLES / "broken" / "up"
HEAVY = {"pandas", "openpyxl", "jsonschema", "xlwings", "matplotlib", "jinja2"}


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def _json(capsys, *argv: str) -> tuple[int, dict]:
    code, out, _ = _run(capsys, "check", "--format", "json", *argv)
    return code, json.loads(out)


# --- exit codes ----------------------------------------------------------------------------------

def test_good_samples_exit_0(capsys) -> None:
    """`check samples/up` exits 0 and says every file is fine."""
    code, out, _ = _run(capsys, "check", str(GOOD_DIR))
    assert code == 0
    for path in GOOD_DIR.glob("*.json"):
        assert f"{path}: 問題なし" in out


def test_broken_samples_exit_1_with_their_codes(capsys) -> None:
    """`check samples/broken/up` exits 1 and prints each file's error codes."""
    code, out, _ = _run(capsys, "check", str(BROKEN_DIR))
    assert code == 1
    _, report = _json(capsys, str(BROKEN_DIR))
    blocks = _blocks(out)
    for fr in report["files"]:
        codes = {f["code"] for f in fr["findings"] if f["severity"] == "error"}
        assert codes, fr["path"]
        for c in codes:
            assert c in blocks[fr["path"]], (fr["path"], c)


def _blocks(text: str) -> dict[str, str]:
    """The text report split per file: a header line `PATH: ...`, then indented findings."""
    blocks: dict[str, str] = {}
    current = None
    for line in text.splitlines():
        if line.startswith("  ") and current:
            blocks[current] += line + "\n"
        elif ": " in line:
            current = line.split(": ", 1)[0]
            blocks[current] = ""
    return blocks


def test_broken_sample_codes_appear_in_text(capsys) -> None:
    """Each broken sample's expected code is named in the text report (one code per file listed)."""
    expected = {"stat-step-and-max.json": "UP_STAT_STEP", "accuracy-and-ammo.json": "UP_ACCURACY_STEP",
                "over-budget.json": "UP_OVER_BUDGET", "unknown-ability.json": "UP_ABILITY_UNKNOWN",
                "duplicate-movement.json": "UP_MOVEMENT_DUPLICATE",
                "unknown-effect.json": "UP_EFFECT_UNKNOWN", "weapon-rules.json": "UP_WEAPON_RANGE"}
    for name, c in expected.items():
        code, out, _ = _run(capsys, "check", str(BROKEN_DIR / name))
        assert code == 1, name
        assert c in out, name


def test_missing_file_exits_2_naming_it(capsys, tmp_path: Path) -> None:
    """A file that does not exist is exit 2, and the message names it."""
    missing = tmp_path / "no-such-unit.json"
    code, out, err = _run(capsys, "check", str(missing))
    assert code == 2
    assert "INPUT_NOT_FOUND" in out  # the sharp code, in the report (issue 9)
    assert str(missing) in out + err


def test_not_json_exits_2_naming_it(capsys, tmp_path: Path) -> None:
    """A file that is not JSON is exit 2, and the message names it and says why."""
    bad = tmp_path / "garbled.json"
    bad.write_text("{ this is not json", encoding="utf-8")
    code, out, err = _run(capsys, "check", "--lang", "en", str(bad))
    assert code == 2
    assert str(bad) in out + err
    assert "not valid JSON" in out + err


def test_unreadable_file_wins_over_findings(capsys, tmp_path: Path) -> None:
    """One unreadable file among good and broken ones still makes the exit code 2."""
    code, _, _ = _run(capsys, "check", str(GOOD_DIR), str(BROKEN_DIR), str(tmp_path / "gone.json"))
    assert code == 2


def test_empty_folder_exits_2(capsys, tmp_path: Path) -> None:
    """A folder with no documents is exit 2 with a message on stderr."""
    code, out, err = _run(capsys, "check", str(tmp_path))
    assert code == 2
    assert str(tmp_path) in err


def test_whole_samples_folder_skips_broken(capsys) -> None:
    """`check samples/` exits 0: the walker skips sub-folders named `broken` (known-bad examples),
    `legacy` (homemade sheets, for `mechasheet import`) and `converted` (golden conversions)."""
    code, out, _ = _run(capsys, "check", str(SAMPLES))
    assert code == 0
    assert "broken" not in out and "legacy" not in out and "converted" not in out
    documents = [p for p in SAMPLES.rglob("*") if p.suffix in (".json", ".xlsx")
                 and not {"broken", "legacy", "converted"} & set(p.relative_to(SAMPLES).parts)
                 and not any(part.startswith(".") for part in p.relative_to(SAMPLES).parts)]
    assert out.count("問題なし") == len(documents)


# --- the JSON report -----------------------------------------------------------------------------

def test_json_report_has_exactly_the_documented_shape(capsys) -> None:
    """--format json prints the report schemas/report.schema.json describes: format, version,
    options, summary, valid, files [{path, system, kind, valid, complete, source, options, context,
    totals, breakdown, derived, findings}], sets."""
    code, report = _json(capsys, str(GOOD_DIR), str(BROKEN_DIR))
    assert code == 1
    assert set(report) == {"format", "version", "options", "summary", "valid", "files", "sets"}
    assert report["valid"] is False
    documents = [p for d in (GOOD_DIR, BROKEN_DIR) for p in d.iterdir() if p.suffix in (".json", ".xlsx")]
    assert len(report["files"]) == len(documents)
    seen_finding = False
    for fr in report["files"]:
        assert set(fr) == {"path", "system", "kind", "valid", "complete", "source", "options", "context",
                           "totals", "breakdown", "derived", "findings"}
        assert isinstance(fr["path"], str) and fr["system"] == "up"
        assert isinstance(fr["valid"], bool)
        assert set(fr["totals"]) == {"computed", "declared", "budget"}
        assert all(v is None or isinstance(v, int) for v in fr["totals"].values())
        assert fr["breakdown"], fr["path"]
        for line in fr["breakdown"]:
            assert {"pointer", "item", "cost"} <= set(line)
            assert isinstance(line["cost"], int) and isinstance(line["pointer"], str)
        assert sum(line["cost"] for line in fr["breakdown"]) == fr["totals"]["computed"]
        for f in fr["findings"]:
            seen_finding = True
            assert set(f) == {"code", "severity", "pointer", "cell", "message", "hint"}
            assert f["severity"] in {"error", "warning", "info"}
        assert fr["valid"] == (not any(f["severity"] == "error" for f in fr["findings"]))
    assert seen_finding


def test_json_report_of_a_good_sample(capsys) -> None:
    """A good sample's JSON report is valid, with its totals and no findings."""
    path = GOOD_DIR / "m-mobile-suit.json"
    code, report = _json(capsys, str(path))
    assert code == 0
    assert report["valid"] is True
    (fr,) = report["files"]
    assert fr["path"] == str(path)
    assert fr["totals"] == {"computed": 1459, "declared": 1459, "budget": 1500}
    assert fr["findings"] == []
    assert fr["breakdown"][0] == {"pointer": "/size", "item": "サイズ Ｍ", "rule": "基本ＵＰ", "cost": 400}


# --- language and options ------------------------------------------------------------------------

def test_lang_en_prints_english_messages(capsys) -> None:
    """--lang en prints the catalog's English messages, Japanese by default."""
    path = str(BROKEN_DIR / "accuracy-and-ammo.json")
    _, ja, _ = _run(capsys, "check", path)
    _, en, _ = _run(capsys, "check", "--lang", "en", path)
    assert "命中修正 35% は表にありません" in ja
    assert "accuracy 35% is not a step of the table (nearest: 30, 40)" in en
    assert "表にありません" not in en
    assert "1 checked, 1 with errors: errors 2, warnings 0, infos 1" in en


def test_lang_en_in_json(capsys) -> None:
    """--lang en also sets the language of the JSON report's messages."""
    _, report = _json(capsys, "--lang", "en", str(BROKEN_DIR / "over-budget.json"))
    messages = {f["code"]: f["message"] for f in report["files"][0]["findings"]}
    assert messages["UP_OVER_BUDGET"] == "the total 1445 UP exceeds the budget 1000 by 445"


def test_rule_damage_dice_every_die_changes_the_total(capsys) -> None:
    """--rule damage_dice=every_die charges the first die too: the total rises and no longer matches."""
    path = str(GOOD_DIR / "s-real-robot.json")
    code, plain = _json(capsys, path)
    code_every, every = _json(capsys, "--rule", "damage_dice=every_die", path)
    before, after = plain["files"][0]["totals"], every["files"][0]["totals"]
    assert code == 0 and before["computed"] == 1185
    # Four weapons with one first die each: +40 three times, and +40 × (100 − 30) % once.
    assert after["computed"] == 1185 + 40 + 40 + 40 + 28
    assert code_every == 1
    assert "UP_TOTAL_MISMATCH" in {f["code"] for f in every["files"][0]["findings"]}


def test_rule_weapon_cap_error_turns_the_warning_into_an_error(capsys) -> None:
    """--rule weapon_cap=error makes a weapon over 1/5 of the budget an error."""
    path = str(BROKEN_DIR / "over-budget.json")
    _, report = _json(capsys, "--rule", "weapon_cap=error", path)
    levels = {f["code"]: f["severity"] for f in report["files"][0]["findings"]}
    assert levels["UP_WEAPON_OVER_CAP"] == "error"


@pytest.mark.parametrize("rule", ["no_such_option=1", "damage_dice=sometimes", "damage_dice"])
def test_bad_rule_exits_2(capsys, rule: str) -> None:
    """An unknown --rule name, value, or a rule without =VALUE is exit 2 with a message."""
    code, out, err = _run(capsys, "check", "--rule", rule, str(GOOD_DIR))
    assert code == 2
    assert out == ""
    assert "--rule" in err


def test_rules_lists_every_option(capsys) -> None:
    """`mechasheet rules` lists every option with its values and default."""
    code, out, _ = _run(capsys, "rules")
    assert code == 0
    for name in ("damage_dice", "ammo3", "move_beyond_two", "terrain", "weapon_cap"):
        assert f"up: --rule {name}=VALUE" in out
    assert "every_die" in out and "既定 first_free" in out
    _, en, _ = _run(capsys, "rules", "--lang", "en")
    assert "(damage dice; default first_free)" in en and en != out
    import re
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]", en)  # no Japanese in English


# --- schema --------------------------------------------------------------------------------------

def test_schema_up_prints_the_committed_schema(capsys) -> None:
    """`mechasheet schema up` prints exactly schemas/up.schema.json."""
    code, out, _ = _run(capsys, "schema", "up")
    assert code == 0
    committed = (ROOT / "schemas" / "up.schema.json").read_text(encoding="utf-8")
    assert json.loads(out) == json.loads(committed)
    assert out == committed


def test_schema_of_unknown_system_exits_2(capsys) -> None:
    """`mechasheet schema nosuch` is exit 2 with a message (argparse's, in the run's language)."""
    with pytest.raises(SystemExit) as stop:
        main(["schema", "nosuch"])
    assert stop.value.code == 2
    assert "「nosuch」は選べません" in capsys.readouterr().err


# --- a real process ------------------------------------------------------------------------------

def test_python_m_converter_help() -> None:
    """`python -m converter --help` runs and prints the usage with its commands, in Japanese by
    default and in English with --lang en or LANG=en_*."""
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("LANG", "LC_ALL", "LC_MESSAGES")}
    runs = {"ja": ([], env), "en": (["--lang", "en"], env), "env": ([], {**env, "LANG": "en_US.UTF-8"})}
    out = {}
    for key, (extra, environ) in runs.items():
        done = subprocess.run([sys.executable, "-m", "converter", "--help", *extra], cwd=ROOT,
                              capture_output=True, text=True, timeout=60, env=environ)
        assert done.returncode == 0, done.stderr
        for command in ("check", "schema", "rules"):
            assert command in done.stdout
        out[key] = done.stdout
    assert "使い方: mechasheet" in out["ja"] and "オプション" in out["ja"]
    assert "usage: mechasheet" in out["en"] and out["en"] == out["env"]
    import re
    assert not re.search(r"[\u3040-\u30ff\u4e00-\u9fff\uff00-\uffef]", out["en"])


def test_help_imports_no_heavy_library() -> None:
    """`python -m converter --help` imports none of pandas, openpyxl, jsonschema, xlwings, matplotlib, jinja2."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "converter", "--help"],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    imported = {line.rsplit("|", 1)[-1].strip().split(".")[0]
                for line in done.stderr.splitlines() if line.startswith("import time:")}
    assert "converter" in imported  # the probe sees our own imports
    assert imported & HEAVY == set()


def test_building_the_parser_imports_no_heavy_library() -> None:
    """Importing converter.cli and building its parser loads no heavy library."""
    probe = ("import converter.cli, sys; converter.cli._parser(); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in "
             f"{sorted(HEAVY)!r}))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_command_line_starts_no_blas_thread_pool(monkeypatch) -> None:
    """numpy (under pandas: the roster, the audit's reports) starts one BLAS thread a core when
    imported; no command does linear algebra, so the command line asks for one, and a user's own
    setting stands."""
    import os

    from converter.cli import main

    monkeypatch.delenv("OPENBLAS_NUM_THREADS", raising=False)
    assert main(["rules"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "1"
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "3")
    assert main(["rules"]) == 0
    assert os.environ["OPENBLAS_NUM_THREADS"] == "3"

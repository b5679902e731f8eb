"""`mechasheet export`: files under -o, --stdout for a clipboard tool, never over an input, exit codes."""
from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path

from converter.cli import main

from .cases import SAMPLES

SUIT = SAMPLES / "up" / "m-mobile-suit.json"


def test_ccfolia_files_one_per_piece(tmp_path: Path, capsys) -> None:
    """Two inputs, two JSON files named after their characters; exit 0."""
    pilot = SAMPLES / "pp" / "pilot_with_machine.xlsx"
    assert main(["export", str(SUIT), str(pilot), "--to", "ccfolia", "-o", str(tmp_path)]) == 0
    names = sorted(p.name for p in tmp_path.iterdir())
    assert names == sorted(["ガルディア試作二号機.json", "アキラ・ハヤセ.json"])
    data = json.loads((tmp_path / "アキラ・ハヤセ.json").read_text(encoding="utf-8"))
    assert data["kind"] == "character" and data["data"]["initiative"] == 14
    assert "ガルディア試作二号機" in capsys.readouterr().out


def test_stdout_prints_a_line_per_piece_and_reports_on_stderr(capsys) -> None:
    """--stdout: the clipboard JSON alone on standard output, the report on standard error."""
    assert main(["export", str(SUIT), "--to", "ccfolia", "--stdout"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["data"]["name"] == "ガルディア試作二号機"
    assert "stdout" in err


def test_udonarium_zip_and_no_zip_on_stdout(tmp_path: Path, capsys) -> None:
    """udonarium writes a zip; asked for standard output it stops with exit 2 before any work."""
    assert main(["export", str(SUIT), "--to", "udonarium", "-o", str(tmp_path)]) == 0
    with zipfile.ZipFile(tmp_path / "ガルディア試作二号機.zip") as zf:
        assert zf.namelist() == ["ガルディア試作二号機.xml"]
    assert main(["export", str(SUIT), "--to", "udonarium", "--stdout"]) == 2
    assert "zip" in capsys.readouterr().err


def test_needs_an_output(capsys) -> None:
    """Neither -o nor --stdout: exit 2 with the reason."""
    assert main(["export", str(SUIT), "--to", "palette", "--lang", "en"]) == 2
    assert "-o OUTDIR or --stdout" in capsys.readouterr().err


def test_never_over_an_input_and_force_for_an_earlier_output(tmp_path: Path, capsys) -> None:
    """A piece whose file would be its own input is refused even with --force; an earlier
    output is replaced only with --force."""
    doc = tmp_path / "ガルディア試作二号機.json"
    shutil.copy(SUIT, doc)
    assert main(["export", str(doc), "--to", "ccfolia", "-o", str(tmp_path), "--force"]) == 2
    assert json.loads(doc.read_text(encoding="utf-8"))["system"] == "up"  # untouched
    out = tmp_path / "out"
    assert main(["export", str(doc), "--to", "palette", "-o", str(out)]) == 0
    assert main(["export", str(doc), "--to", "palette", "-o", str(out)]) == 2
    assert main(["export", str(doc), "--to", "palette", "-o", str(out), "--force"]) == 0
    assert (out / "ガルディア試作二号機.txt").read_text(encoding="utf-8").startswith("//格闘=0\n")


def test_a_workbook_without_its_profile_is_reported_exit_1(tmp_path: Path, capsys) -> None:
    """A legacy workbook no system fits is named with the reason; the others are still written."""
    club = SAMPLES / "legacy" / "pp-club-2015.xlsx"
    assert main(["export", str(club), str(SUIT), "--to", "palette", "-o", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "pp-club-2015.xlsx" in out and (tmp_path / "ガルディア試作二号機.txt").exists()
    profile = SAMPLES / "legacy" / "profiles" / "club-2015-pp.toml"
    assert main(["export", str(club), "--profile", str(profile), "--to", "palette", "-o", str(tmp_path)]) == 0

"""Outputs never replace inputs, are published whole and exclusively, with the umask's mode; a
bug of ours is exit 3 in one line, Ctrl-C is 130, quietly."""
from __future__ import annotations

import json
import multiprocessing
import os
import stat
from pathlib import Path

import pytest

from converter.cli import EXIT_INPUT, EXIT_INTERNAL, EXIT_INTERRUPTED, main
from converter.core.errors import OutputError
from converter.io.files import TEMP_MARK, write_atomic

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "samples" / "up" / "m-mobile-suit.json"


def _copy(tmp_path: Path) -> Path:
    doc = tmp_path / "unit.json"
    doc.write_bytes(UNIT.read_bytes())
    return doc


@pytest.mark.parametrize("spelling", ["same", "dotted", "link"])
def test_write_refuses_to_replace_its_input(tmp_path, capsys, spelling: str) -> None:
    """`write DOC -o DOC --force` (by any path, or through a link) is refused; DOC is untouched."""
    doc = _copy(tmp_path)
    target = {"same": doc, "dotted": tmp_path / "." / "unit.json", "link": tmp_path / "alias.json"}[spelling]
    if spelling == "link":
        target.symlink_to(doc)
    before = doc.read_bytes()
    assert main(["write", str(doc), "-o", str(target), "--force"]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "入力は置き換えません" in err and str(doc) in err  # in the user's language (Japanese default)
    assert doc.read_bytes() == before


def test_read_refuses_to_replace_its_input(tmp_path, capsys) -> None:
    """`read SHEET -o SHEET --force` is refused; the workbook is untouched."""
    sheet = tmp_path / "unit.xlsx"
    sheet.write_bytes((ROOT / "samples" / "up" / "m-mobile-suit.xlsx").read_bytes())
    before = sheet.read_bytes()
    assert main(["read", str(sheet), "-o", str(sheet), "--force"]) == EXIT_INPUT
    assert sheet.read_bytes() == before
    capsys.readouterr()


def test_files_get_the_umask_mode_and_force_keeps_it(tmp_path) -> None:
    """A new file gets 0666 & ~umask (not 0600); --force replaces with the same mode."""
    old = os.umask(0o022)
    try:
        p = write_atomic(tmp_path / "a.json", "{}")
        assert stat.S_IMODE(p.stat().st_mode) == 0o644
        write_atomic(p, "{}", force=True)
        assert stat.S_IMODE(p.stat().st_mode) == 0o644
    finally:
        os.umask(old)


def test_a_killed_writes_temporary_file_is_cleaned(tmp_path) -> None:
    """Our own leftover temporaries older than the run go; anyone else's stay."""
    stale = tmp_path / f".a.json{TEMP_MARK}dead.tmp"
    stale.write_text("half")
    os.utime(stale, (0, 0))
    other = tmp_path / ".a.json.other.tmp"
    other.write_text("not ours")
    os.utime(other, (0, 0))
    write_atomic(tmp_path / "a.json", "{}")
    assert not stale.exists() and other.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == [".a.json.other.tmp", "a.json"]


def _racer(args: tuple[str, int]) -> str:
    path, n = args
    try:
        write_atomic(path, json.dumps({"writer": n}))
        return "won"
    except OutputError:
        return "refused"


def test_parallel_writers_to_a_new_path_one_wins(tmp_path) -> None:
    """Without --force, of 8 writers racing to one new path exactly one succeeds, whole."""
    target = str(tmp_path / "race.json")
    with multiprocessing.get_context("fork").Pool(8) as pool:
        results = pool.map(_racer, [(target, n) for n in range(8)])
    assert results.count("won") == 1 and results.count("refused") == 7
    winner = results.index("won")
    assert json.loads(Path(target).read_text()) == {"writer": winner}
    assert [p.name for p in tmp_path.iterdir()] == ["race.json"]


def test_unwritable_folder_is_exit_2_not_a_traceback(tmp_path, capsys) -> None:
    """An output folder that cannot be created: a one-line error, exit 2."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    assert main(["write", str(UNIT), "-o", str(blocker / "sub" / "u.xlsx")]) == EXIT_INPUT
    err = capsys.readouterr().err
    # One line saying what, one saying what to do.
    assert err.startswith("mechasheet: ") and "Traceback" not in err and err.count("\n") == 2 and "→" in err


def test_internal_error_is_exit_3_in_one_line(monkeypatch, capsys) -> None:
    """A bug of ours: exit 3, one line saying where to report it; the traceback with --debug."""
    import converter.cli as cli

    def boom(args):
        raise RuntimeError("a bug")

    monkeypatch.setitem(cli.COMMANDS, "rules", boom)
    assert main(["rules"]) == EXIT_INTERNAL
    err = capsys.readouterr().err
    assert "internal error (RuntimeError: a bug)" in err and "Traceback" not in err
    assert main(["--debug", "rules"]) == EXIT_INTERNAL
    assert "Traceback" in capsys.readouterr().err


def test_ctrl_c_is_130_quietly(monkeypatch, capsys) -> None:
    """KeyboardInterrupt: exit 130, nothing printed."""
    import converter.cli as cli

    def interrupted(args):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli.COMMANDS, "rules", interrupted)
    assert main(["rules"]) == EXIT_INTERRUPTED
    assert capsys.readouterr() == ("", "")

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


@pytest.mark.parametrize("spelling", ["same", "dotted", "symlink", "hardlink"])
def test_many_outputs_are_checked_against_the_inputs_resolved_once(tmp_path, spelling: str) -> None:
    """AtomicWrites (an import's thousands of documents) refuses an input by any path or link,
    naming the first input it is, as write_atomic does; other files are written."""
    from converter.io.files import AtomicWrites, Inputs

    doc = _copy(tmp_path)
    other = tmp_path / "other.json"
    other.write_text("{}")
    target = {"same": doc, "dotted": tmp_path / "." / "unit.json", "symlink": tmp_path / "ln.json",
              "hardlink": tmp_path / "hard.json"}[spelling]
    if spelling == "symlink":
        target.symlink_to(doc)
    elif spelling == "hardlink":
        os.link(doc, target)
    with AtomicWrites(Inputs([other, doc]), force=True) as writes:
        refused = writes.submit(target, "{}")
        fine = writes.submit(tmp_path / "new.json", "{}")
    with pytest.raises(OutputError) as err:
        refused.result()
    assert err.value.code == "OUTPUT_IS_INPUT" and err.value.params["input"] == str(doc)
    assert fine.result().read_text() == "{}" and doc.read_bytes() == UNIT.read_bytes()


def test_many_writes_are_whole_exclusive_with_the_umask_and_clean_their_leftovers(tmp_path) -> None:
    """Writes side by side: each file whole (text or pieces), with the umask's mode; an existing
    file is OUTPUT_EXISTS without force; our leftovers of a killed earlier run go for each file
    written, anyone else's and those of files not written stay."""
    from converter.io.files import AtomicWrites

    stale = tmp_path / f".d3.json{TEMP_MARK}dead.tmp"
    kept = tmp_path / f".elsewhere.json{TEMP_MARK}dead.tmp"
    other = tmp_path / ".d3.json.other.tmp"
    for p in (stale, kept, other):
        p.write_text("half")
        os.utime(p, (0, 0))
    (tmp_path / "taken.json").write_text("old")
    old = os.umask(0o027)
    try:
        with AtomicWrites() as writes:
            futures = [writes.submit(tmp_path / f"d{k}.json", json.dumps({"k": k})) for k in range(20)]
            pieces = writes.submit(tmp_path / "pieces.json", (p for p in ("[", b"1", ",", "2]")))
            taken = writes.submit(tmp_path / "taken.json", "new")
    finally:
        os.umask(old)
    for k, f in enumerate(futures):
        assert json.loads(f.result().read_text()) == {"k": k}
        assert stat.S_IMODE(f.result().stat().st_mode) == 0o640
    assert pieces.result().read_text() == "[1,2]"
    with pytest.raises(OutputError) as err:
        taken.result()
    assert err.value.code == "OUTPUT_EXISTS" and (tmp_path / "taken.json").read_text() == "old"
    assert not stale.exists() and kept.exists() and other.exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp") and p not in (kept, other)]


def test_staged_files_are_named_only_once_published_together(tmp_path, monkeypatch) -> None:
    """A Publisher's files have no name before its flush made them durable (one sync for the
    lot), then each has its bytes and the umask's mode; a name taken meanwhile is reported with
    its file, the other files named, no temporary left."""
    from converter.io import files
    from converter.io.files import Publisher, stage_atomic

    synced: list[list[str]] = []
    real = files.sync_to_disk
    monkeypatch.setattr(files, "sync_to_disk", lambda folders, names: (synced.append(list(names)),
                                                                       real(folders, names)))
    publisher = Publisher()
    for k in range(3):
        publisher.add(stage_atomic(tmp_path / f"out{k}.json", f"doc {k}"))
    assert not any((tmp_path / f"out{k}.json").exists() for k in range(3))
    (tmp_path / "out1.json").write_text("someone else's")
    failed = publisher.flush()
    assert len(synced) == 1 and len(synced[0]) == 3
    assert [(s.target.name, e.code) for s, e in failed] == [("out1.json", "OUTPUT_EXISTS")]
    assert (tmp_path / "out0.json").read_text() == "doc 0" and (tmp_path / "out2.json").read_text() == "doc 2"
    assert (tmp_path / "out1.json").read_text() == "someone else's"
    mode = stat.S_IMODE((tmp_path / "out0.json").stat().st_mode)
    assert mode == 0o666 & ~_umask()
    assert not [p for p in tmp_path.iterdir() if TEMP_MARK in p.name]


def test_staged_files_never_published_leave_nothing_named(tmp_path) -> None:
    """Discarded (the run failed first): no name, no temporary; staging checks as write_atomic."""
    from converter.io.files import Publisher, stage_atomic

    publisher = Publisher()
    publisher.add(stage_atomic(tmp_path / "a.json", "x"))
    publisher.discard()
    assert list(tmp_path.iterdir()) == []
    (tmp_path / "b.json").write_text("there")
    with pytest.raises(OutputError) as err:
        stage_atomic(tmp_path / "b.json", "y")
    assert err.value.code == "OUTPUT_EXISTS"
    with pytest.raises(OutputError) as err:
        stage_atomic(tmp_path / "b.json", "y", inputs=[tmp_path / "b.json"], force=True)
    assert err.value.code == "OUTPUT_IS_INPUT"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_batched_writes_publish_in_batches_and_on_demand(tmp_path) -> None:
    """AtomicWrites with a batch: waiting for one file publishes what is staged (no waiting for
    the batch to fill); leaving publishes the rest; a name taken is that file's OutputError."""
    from converter.io.files import AtomicWrites

    (tmp_path / "taken.json").write_text("mine")
    with AtomicWrites(batch=8) as writer:
        futures = [writer.submit(tmp_path / f"f{k}.json", f"{k}") for k in range(19)]
        assert writer.result(futures[0]) == tmp_path / "f0.json"
        assert (tmp_path / "f0.json").read_text() == "0"
        clash = writer.submit(tmp_path / "taken.json", "theirs")
    assert all(f.done() and f.result().exists() for f in futures)
    with pytest.raises(OutputError):
        clash.result()
    assert (tmp_path / "taken.json").read_text() == "mine"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([f"f{k}.json" for k in range(19)] + ["taken.json"])


def test_batched_writes_left_by_an_error_are_not_named(tmp_path) -> None:
    """An error inside the block: files staged and not yet published get no name."""
    from converter.io.files import AtomicWrites

    with pytest.raises(RuntimeError):
        with AtomicWrites(batch=100) as writer:
            writer.submit(tmp_path / "a.json", "a")
            raise RuntimeError("stop")
    assert list(tmp_path.iterdir()) == []

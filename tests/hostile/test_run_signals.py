"""A run killed from outside leaves nothing behind: after SIGTERM or SIGKILL to `mechasheet
import … | cat`, the pipeline ends, no worker lives on, and no hidden temporary is left
(issue 33, item 2). A run never starts more workers than files, nor more than MAX_JOBS."""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

import converter.batch.pool as pool
from converter.batch.pool import MAX_JOBS, Limits, Task, run_in_workers, worker_count
from converter.io.files import TEMP_MARK

ROOT = Path(__file__).resolve().parents[2]
SHEET = ROOT / "samples" / "legacy" / "up-label-beside.xlsx"

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads processes from /proc")

# `mechasheet` itself, its reader made to hang on the files named slow*: each worker that takes one
# says so (a file in MARKS) and sleeps, as a worker stuck on a hostile workbook would. With SLOW_COPY,
# each annotated copy hangs halfway through its write instead (its temporary file on disk).
DRIVER = """
import os, sys, time
from pathlib import Path
import converter.audit.annotate as annotate
import converter.imports.importer as importer
from converter.io.files import write_atomic

real = importer.import_one
marks = Path(os.environ["MARKS"])

def import_one(path, *args, **kwargs):
    if path.stem.startswith("slow"):
        (marks / path.stem).write_text(str(os.getpid()))
        time.sleep(600)
    return real(path, *args, **kwargs)

def slow_copy(path, findings, out, lang="ja", *, force=False):
    def pieces():
        yield b"PK"
        (marks / path.stem).write_text(str(os.getpid()))
        time.sleep(600)
        yield b""
    write_atomic(out, pieces(), force)
    return []

importer.import_one = import_one
if os.environ.get("SLOW_COPY"):
    annotate.annotate = slow_copy
(marks / "parent").write_text(str(os.getpid()))
from converter.cli import main
sys.exit(main(sys.argv[1:]))
"""


def _session(sid: int) -> list[int]:
    """The live (not zombie) processes of session ``sid``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        state, _ppid, _pgrp, session = stat.rsplit(")", 1)[1].split()[:4]
        if int(session) == sid and state != "Z":
            found.append(int(entry))
    return found


def _session_ends(sid: int, seconds: float = 10.0) -> list[int]:
    """The processes of session ``sid`` still alive after up to ``seconds`` of waiting for none."""
    deadline = time.monotonic() + seconds
    while _session(sid) and time.monotonic() < deadline:
        time.sleep(0.05)
    return _session(sid)


def _reap(leader: subprocess.Popen) -> None:
    """Whatever a failed test left of ``leader``'s session, killed."""
    for pid in _session(leader.pid):
        os.kill(pid, signal.SIGKILL)
    if leader.poll() is None:
        leader.kill()
        leader.wait()


def _wait_for(paths: list[Path], seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not all(p.exists() for p in paths):
        if time.monotonic() > deadline:
            pytest.fail(f"not started: {[p.name for p in paths if not p.exists()]}")
        time.sleep(0.05)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_import_leaves_no_worker_no_pipeline_no_temporary(tmp_path: Path, sig: signal.Signals) -> None:
    """`import … | cat` with two workers each stuck on a workbook: the parent killed, cat ends,
    every process of the run is gone, and the output folder holds no hidden temporary."""
    folder, out, marks = tmp_path / "in", tmp_path / "out", tmp_path / "marks"
    folder.mkdir()
    marks.mkdir()
    for name in ("a.xlsx", "slow1.xlsx", "slow2.xlsx"):
        shutil.copy(SHEET, folder / name)
    (tmp_path / "driver.py").write_text(DRIVER, encoding="utf-8")
    command = f"'{sys.executable}' driver.py import in -o out --jobs 2 | cat"
    env = {**os.environ, "MARKS": str(marks), "PYTHONPATH": str(ROOT)}
    sh = subprocess.Popen(["sh", "-c", command], cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        _wait_for([marks / "parent", marks / "slow1", marks / "slow2"])
        deadline = time.monotonic() + 60
        while not list(out.glob("*.json")) and time.monotonic() < deadline:  # a.xlsx's document
            time.sleep(0.05)
        time.sleep(0.2)  # its line printed (flushed once its files are written)
        workers = [int((marks / name).read_text()) for name in ("slow1", "slow2")]
        assert all(pid in _session(sh.pid) for pid in workers)
        os.kill(int((marks / "parent").read_text()), sig)
        printed, _ = sh.communicate(timeout=30)  # cat ends: no process holds the pipe open
        assert _session_ends(sh.pid) == []
    finally:
        _reap(sh)
    assert "a.xlsx" in printed.decode("utf-8")  # the first workbook was imported before the kill
    left = [p.name for p in out.rglob("*") if TEMP_MARK in p.name]
    assert left == []


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_audit_leaves_no_temporary_copy(tmp_path: Path, sig: signal.Signals) -> None:
    """An audit killed while two workers are halfway through writing annotated copies: after
    SIGTERM no process and no temporary is left (each worker removed its own); after SIGKILL
    none is left once the next run has started (it removes our temporaries older than itself)."""
    folder, marks = tmp_path / "in", tmp_path / "marks"
    folder.mkdir()
    marks.mkdir()
    names = [f"slow{i}.xlsx" for i in range(1, 5)]  # two a worker: each is under way with its first
    for name in names:
        shutil.copy(SHEET, folder / name)
    (tmp_path / "driver.py").write_text(DRIVER, encoding="utf-8")
    env = {**os.environ, "MARKS": str(marks), "PYTHONPATH": str(ROOT), "SLOW_COPY": "1"}
    argv = [sys.executable, "driver.py", "audit", "in", "-o", "r.json", "--jobs", "2"]
    run = subprocess.Popen(argv, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           start_new_session=True)
    copies = tmp_path / "annotated"
    try:
        _wait_for([marks / "parent", marks / "slow1", marks / "slow3"])
        assert len([p for p in copies.iterdir() if TEMP_MARK in p.name]) == 2  # both writes under way
        os.kill(run.pid, sig)
        run.wait(timeout=30)
        assert _session_ends(run.pid) == []
    finally:
        _reap(run)
    assert not (tmp_path / "r.json").exists()
    if sig == signal.SIGKILL:  # nothing could clean up: the next run does
        del env["SLOW_COPY"]
        assert subprocess.run([*argv, "--force"], cwd=tmp_path, env=env, capture_output=True,
                              timeout=120).returncode in (0, 1)
        assert sorted(p.name for p in copies.iterdir()) == names
    assert [p.name for p in copies.iterdir() if TEMP_MARK in p.name] == []


def _count(path: Path, *, scan_first: bool = True) -> int:
    return os.getpid()


def _never(path: Path, reason: str) -> int:
    return -1


def test_workers_are_capped_at_the_files_and_at_max_jobs(tmp_path: Path, monkeypatch) -> None:
    """--jobs 100000 over three files starts three workers; over MAX_JOBS + 5 files, MAX_JOBS."""
    assert worker_count(100000, 3) == 3 and worker_count(100000, 10 ** 6) == MAX_JOBS
    assert worker_count(0, 5) == 1 and worker_count(2, 0) == 1
    started = []
    real = pool._Worker.start

    def start(cls, ctx, task, limits, others=()):
        started.append(1)
        return real(ctx, task, limits, others)

    monkeypatch.setattr(pool._Worker, "start", classmethod(start))
    files = [tmp_path / f"{i}.x" for i in range(3)]
    got: dict[int, int] = {}
    run_in_workers(files, [0, 1, 2], Task(_count, _never), 100000, Limits(), got.__setitem__)
    assert len(started) == 3 and sorted(got) == [0, 1, 2] and -1 not in got.values()
    assert pool.default_jobs() <= MAX_JOBS

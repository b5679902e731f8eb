"""Checking many files: a file that crashes, hangs or eats memory costs only itself; reports come
in input order, the same with one job or several."""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

import converter.batch.checking as checking
import converter.batch.pool as pool
from converter.batch.checking import check_files
from converter.batch.pool import Limits

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"


def _folder(tmp_path: Path, hostile: dict[str, str]) -> Path:
    """Good samples (JSON and sheets) and files named for what they do to the reader."""
    for p in sorted((SAMPLES / "up").glob("m-*")) + sorted((SAMPLES / "pp").glob("veteran.*")):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    for name in hostile:
        (tmp_path / name).write_bytes((SAMPLES / "up" / "m-mobile-suit.xlsx").read_bytes())
    return tmp_path


@pytest.fixture
def hostile_reader(monkeypatch):
    """The reader as a hostile file would drive it: abort, hang, exhaust memory, or raise.
    (The workers are forked, so they run this patched reader.)"""
    real = checking.check_one

    def reader(path, options, context, *, scan_first=True):
        name = Path(path).stem
        if name == "abort":
            os.abort()
        if name == "hang":
            time.sleep(600)
        if name == "memory":
            return bytes(10 ** 10)  # 10 GB at once: over the worker's memory limit
        if name == "bug":
            raise RuntimeError("a bug")
        return real(path, options, context, scan_first=scan_first)

    monkeypatch.setattr(checking, "check_one", reader)


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hostile_file_costs_only_itself(tmp_path, hostile_reader, jobs: int) -> None:
    """Abort, hang, memory and a bug: each that file's INPUT_CRASHED; every other file checked."""
    folder = _folder(tmp_path, {"abort.xlsx": "", "hang.xlsx": "", "memory.xlsx": "", "bug.xlsx": ""})
    started = time.monotonic()
    report = check_files([folder], jobs=jobs, limits=Limits(seconds=3, memory_bytes=2 * 1024 ** 3))
    assert time.monotonic() - started < 60
    by_name = {Path(fr.path).name: fr for fr in report.files}
    assert len(by_name) == len(list(folder.iterdir()))
    for name, reason in (("abort.xlsx", "SIGABRT"), ("hang.xlsx", "> 3 s"),
                         ("memory.xlsx", "> 2048 MB"), ("bug.xlsx", "RuntimeError: a bug")):
        (f,) = by_name[name].findings
        assert f.code == "INPUT_CRASHED" and reason in f.params["reason"], (name, f.params)
        assert by_name[name].kind == "unreadable"
    good = [fr for name, fr in by_name.items() if name.startswith(("m-", "veteran"))]
    assert len(good) == 4 and all(fr.valid for fr in good)
    assert report.unreadable and not report.valid


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_a_worker_died_on_is_read_again_scanned_first(tmp_path, monkeypatch, jobs: int) -> None:
    """A worker hands each sheet to the native reader unscanned; a file it dies on is read once
    more with every sheet scanned first (which names a sheet reaching too far), and only a second
    death is INPUT_CRASHED. The files after it are not held up."""
    real = checking.check_one

    log = tmp_path / "reads.log"

    def reader(path, options, context, *, scan_first=True):
        name = Path(path).stem
        with open(log, "a", encoding="utf-8") as fh:
            fh.write(f"{Path(path).name} {not scan_first}\n")
        if name in ("aborts-unscanned", "aborts-always") and (not scan_first or name == "aborts-always"):
            os.abort()
        return real(path, options, context, scan_first=scan_first)

    monkeypatch.setattr(checking, "check_one", reader)
    (tmp_path / "sheets").mkdir()
    folder = _folder(tmp_path / "sheets", {"aborts-unscanned.xlsx": "", "aborts-always.xlsx": ""})
    report = check_files([folder], jobs=jobs, limits=Limits(seconds=30))
    by_name = {Path(fr.path).name: fr for fr in report.files}
    assert len(by_name) == len(list(folder.iterdir())) == 6
    assert by_name["aborts-unscanned.xlsx"].valid and by_name["aborts-unscanned.xlsx"].computed
    (f,) = by_name["aborts-always.xlsx"].findings
    assert f.code == "INPUT_CRASHED" and "SIGABRT" in f.params["reason"]
    assert [fr.path for fr in report.files] == sorted(fr.path for fr in report.files)
    reads = log.read_text(encoding="utf-8").splitlines()
    for name in ("aborts-unscanned", "aborts-always"):
        assert [r for r in reads if r.startswith(name)] == [f"{name}.xlsx True", f"{name}.xlsx False"]
    assert all(r.endswith("True") for r in reads if ".xlsx" in r and not r.startswith("aborts"))


def test_a_sheet_reaching_far_is_refused_from_the_native_figures(tmp_path) -> None:
    """Read natively first (in a worker), a sheet whose cells span more than MAX_GRID_CELLS but
    that the reader can hold is refused from the reader's own figures, naming its far cell."""
    import openpyxl

    from converter.io.sources import read_source

    path = tmp_path / "far.xlsx"
    wb = openpyxl.load_workbook(SAMPLES / "up" / "m-mobile-suit.xlsx")
    wb["ユニット"]["Z100000"] = 1  # 26 x 100,000 = 2.6 million cells
    wb.save(path)
    for scan_first in (True, False):
        (f,) = read_source(path, scan_first=scan_first).findings
        assert f.code == "INPUT_TOO_LARGE" and "ユニット!Z100000" in f.params["detail"], (scan_first, f.params)


@pytest.mark.parametrize("how", ["deflated", "long-extra", "late-root", "stored"])
def test_a_dtd_in_a_sheet_read_natively_first_is_refused(tmp_path, how: str) -> None:
    """A sheet handed to the native reader unscanned has its prolog read first, however its
    zip entry is laid out: a DTD there is refused, naming the part."""
    import zipfile

    from converter.io.sources import read_source

    part = "xl/worksheets/sheet1.xml"
    with zipfile.ZipFile(SAMPLES / "up" / "m-mobile-suit.xlsx") as zf:
        parts = {i: zf.read(i) for i in zf.infolist()}
    path = tmp_path / f"dtd-{how}.xlsx"
    with zipfile.ZipFile(path, "w") as out:
        for info, data in parts.items():
            fresh = zipfile.ZipInfo(info.filename, info.date_time)
            fresh.compress_type = zipfile.ZIP_STORED if how == "stored" else zipfile.ZIP_DEFLATED
            if info.filename == part:
                declaration, _, rest = data.partition(b"?>")
                comment = b"<!--" + os.urandom(3000).hex().encode() + b"-->" if how == "late-root" else b""
                data = declaration + b"?>" + comment + b'<!DOCTYPE x [<!ENTITY e "e">]>' + rest
                if how == "long-extra":  # the data begins past what a first read of the header takes
                    fresh.extra = b"\xfe\xca" + (2000).to_bytes(2, "little") + bytes(2000)
            out.writestr(fresh, data)
    source = read_source(path, scan_first=False)
    assert [(f.code, f.params.get("detail")) for f in source.findings] == [
        ("INPUT_DAMAGED", f"{part}: <!DOCTYPE>")]


def test_reports_arrive_in_input_order_and_agree_across_jobs(tmp_path) -> None:
    """on_report sees every file in input order; 1 and 2 jobs give the same reports."""
    folder = _folder(tmp_path, {})
    for p in sorted((SAMPLES / "broken" / "up").glob("*.json"))[:5]:
        (folder / p.name).write_bytes(p.read_bytes())
    seen: dict[int, list[str]] = {}
    reports = {}
    for jobs in (1, 2):
        seen[jobs] = []
        report = check_files([folder], jobs=jobs, on_report=lambda fr, j=jobs: seen[j].append(fr.path))
        reports[jobs] = json.dumps(report.to_dict(), ensure_ascii=False, sort_keys=True)
        assert seen[jobs] == [fr.path for fr in report.files] == sorted(seen[jobs])
    assert reports[1] == reports[2]


def test_a_bug_on_a_json_file_checked_in_process_costs_only_it(tmp_path, monkeypatch) -> None:
    """JSON files are checked in this process with one job: a bug there is still that file's
    INPUT_CRASHED, and the other files are checked."""
    for p in sorted((SAMPLES / "up").glob("m-*.json")) + sorted((SAMPLES / "up").glob("s-*.json")):
        (tmp_path / p.name).write_bytes(p.read_bytes())
    real = checking.check_one

    def reader(path, options, context):
        if Path(path).name.startswith("s-"):
            raise RuntimeError("a bug")
        return real(path, options, context)

    monkeypatch.setattr(checking, "check_one", reader)
    report = check_files([tmp_path], jobs=1)
    codes = {Path(fr.path).name: [f.code for f in fr.findings] for fr in report.files}
    assert codes["s-real-robot.json"] == ["INPUT_CRASHED"]
    assert codes["m-mobile-suit.json"] == []


def test_files_for_a_worker_that_died_go_back_to_the_queue(tmp_path) -> None:
    """A worker can die between two sends (the race CI once met: an abort while the next file was
    being handed over): the file not delivered is queued again, not lost, and nothing raises."""
    import multiprocessing

    task = pool.Task(checking.check_one, checking.crashed)
    worker = pool._Worker.start(multiprocessing.get_context("fork"), task, Limits())
    worker.process.kill()
    worker.process.join()
    queue = [0, 1, 2]
    try:
        worker.fill(queue, [tmp_path / f"{i}.xlsx" for i in queue])
        assert queue == [0, 1, 2] and worker.pending == []
    finally:
        worker.stop()


def test_a_worker_that_dies_at_once_is_replaced(tmp_path, monkeypatch) -> None:
    """Workers that die before any file is sent cost no file: every file is still checked."""
    folder = _folder(tmp_path, {})
    real_start = pool._Worker.start.__func__
    started: list[int] = []

    def start(cls, ctx, task, limits, others=()):
        w = real_start(cls, ctx, task, limits, others)
        started.append(1)
        if len(started) <= 2:  # the first two workers are dead before they are sent a file
            w.process.kill()
            w.process.join()
        return w

    monkeypatch.setattr(pool._Worker, "start", classmethod(start))
    report = check_files([folder], jobs=2)
    assert len(report.files) == len(list(folder.iterdir()))
    assert all(fr.valid for fr in report.files), [fr.findings for fr in report.files if not fr.valid]
    assert len(started) >= 3


def test_mailgear_sheets_with_their_catalogs_agree_across_jobs(tmp_path) -> None:
    """Mailgear sheets, each carrying its catalog sheet: two jobs' report equals one job's, and
    each report names its catalog."""
    for k in range(2):
        for p in sorted((SAMPLES / "mailgear").glob("*.xlsx")):
            (tmp_path / f"{k}-{p.name}").write_bytes(p.read_bytes())
    one = check_files([tmp_path], jobs=1)
    two = check_files([tmp_path], jobs=2)
    assert len([fr for fr in two.files if fr.context.get("catalog") is not None]) >= 4
    assert (json.dumps(one.to_dict(), ensure_ascii=False, sort_keys=True)
            == json.dumps(two.to_dict(), ensure_ascii=False, sort_keys=True))

"""A streamed import (what `mechasheet import` runs: flat memory in a folder's size) writes the
very files a whole run writes, set checks' findings included; its workers never import pandas."""
from __future__ import annotations

import copy
import json
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from converter.importer import import_files
from converter.sheets import sheet_bytes

ROOT = Path(__file__).resolve().parents[2]
LEGACY = ROOT / "samples" / "legacy"
GOLDEN = ROOT / "tests" / "golden" / "up"


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The homemade samples, a workbook that is no spreadsheet, and the ゲッター forms as our
    filled up sheets, ライガー listing ドラゴン at a wrong UP (a set check's finding, added to a
    file after it was read)."""
    folder = tmp_path_factory.mktemp("in")
    for p in LEGACY.iterdir():
        if p.is_file() and p.suffix in (".xlsx", ".xls", ".ods"):
            shutil.copy(p, folder)
    (folder / "broken.ods").write_bytes(b"PK\x03\x04 not really a zip")
    forms = [json.loads((GOLDEN / f"getter_{k}.json").read_text("utf-8"))["document"]
             for k in ("dragon", "liger", "poseidon")]
    forms = copy.deepcopy(forms)
    forms[1]["transformation"]["forms"][0]["up"] = 2400
    for k, doc in enumerate(forms):
        (folder / f"getter-{k}.xlsx").write_bytes(sheet_bytes(doc))
    return folder


def _outputs(out: Path) -> dict[str, object]:
    """Every file written, its text with the output folder's name taken out (the report and
    documents name it); roster.xlsx by its cells (its bytes carry the time it was written)."""
    got: dict[str, object] = {}
    for p in sorted(out.rglob("*")):
        name = str(p.relative_to(out))
        if p.is_dir():
            continue
        if p.suffix == ".xlsx":
            got[name] = [list(r) for ws in openpyxl.load_workbook(p).worksheets for r in ws.iter_rows(values_only=True)]
        else:
            got[name] = p.read_text("utf-8").replace(str(out), "OUT")
    return got


def test_streamed_run_writes_what_a_whole_run_writes(folder: Path, tmp_path: Path) -> None:
    whole = import_files([folder], tmp_path / "whole", jobs=2, templates=True)
    streamed = import_files([folder], tmp_path / "streamed", jobs=2, templates=True, streamed=True)
    assert _outputs(tmp_path / "whole") == _outputs(tmp_path / "streamed")
    # the set check's finding joined ライガー's own findings, in order, in both
    [(path, finding)] = streamed.check.set_findings
    assert path.endswith("getter-1.xlsx") and finding.code == "UP_TRANSFORM_SET_MISMATCH"
    data = json.loads((tmp_path / "streamed" / "import-report.json").read_text("utf-8"))
    [liger] = [f for f in data["files"] if f["path"] == path]
    assert len(liger["findings"]) > 1 and "UP_TRANSFORM_SET_MISMATCH" in [f["code"] for f in liger["findings"]]
    # the same run as the caller sees it: the same entries, summary and exit code
    assert [e.report.path for e in whole.entries] == [e.report.path for e in streamed.entries]
    assert [[Path(o).name for o in e.outputs] for e in whole.entries] == [
        [Path(o).name for o in e.outputs] for e in streamed.entries]
    assert whole.check.summary() == streamed.check.summary() and whole.exit_code == streamed.exit_code == 1
    # ... but a streamed entry no longer holds its document, breakdown or findings' texts
    pp = [e for e in streamed.entries if e.report.system == "pp"]
    assert pp and all(e.report.document is None and e.report.evaluation is None for e in pp)
    assert all(e.report.document and "attributes" in e.report.document for e in whole.entries
               if e.report.system == "pp")


def test_a_streamed_runs_entries_wait_on_disk(folder: Path, tmp_path: Path) -> None:
    """A streamed run's entries are read back from a temporary file when asked for (so memory
    stays flat in a folder's size), equal to a whole run's; a set's members keep their report
    in memory, the very object the set checks added their findings to; what the entries share
    (the readings in force) comes back as one object, not a copy each."""
    from converter.importer import EntryStore

    whole = import_files([folder], tmp_path / "whole", jobs=1)
    streamed = import_files([folder], tmp_path / "streamed", jobs=1, streamed=True)
    entries = streamed.entries
    assert isinstance(entries, EntryStore) and len(entries) == len(whole.entries) > 5
    def where(record) -> tuple:
        return record.file, record.sheet, record.region, record.system, record.confidence

    assert [where(e.record) for e in entries] == [where(e.record) for e in whole.entries]
    assert [e.row for e in entries] == [e.row for e in entries[:]] and all(e.row for e in entries)
    assert [e.report.path for e in entries[-3:]] == [e.report.path for e in whole.entries[-3:]]
    assert entries[-1].record == entries[len(entries) - 1].record
    with pytest.raises(IndexError):
        entries[len(entries)]
    # the sets: the ゲッター forms (up's transformation group), every mailgear pilot (the party)
    members = [i for i, e in enumerate(entries) if "getter-" in e.record.file or e.report.system == "mailgear"]
    others = [i for i, e in enumerate(entries) if i not in members and e.imported]
    assert len(members) >= 4 and len(others) >= 2
    for i in members:  # in memory: the same report each time, holding the set check's finding
        assert entries[i].report is entries[i].report
    [liger] = [entries[i].report for i in members if entries[i].record.file.endswith("getter-1.xlsx")]
    assert "UP_TRANSFORM_SET_MISMATCH" in [f.code for f in liger.findings]
    first, second = entries[others[0]].report, entries[others[1]].report
    assert first is not entries[others[0]].report  # read from the file again
    assert first.options == second.options and first.options is second.options
    assert [f.level for f in first.findings] == [f.level for f in whole.entries[others[0]].report.findings]


def test_report_is_written_as_one_dump_of_the_whole_report(folder: Path, tmp_path: Path) -> None:
    """import-report.json is written an entry at a time; its text is json.dumps of the whole
    report, as it was before (and for a run that found no workbook)."""
    report = import_files([folder], tmp_path / "out", jobs=2)
    text = (tmp_path / "out" / "import-report.json").read_text("utf-8")
    assert text == json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n"
    (tmp_path / "empty").mkdir()
    none = import_files([tmp_path / "empty"], tmp_path / "out2")
    text = (tmp_path / "out2" / "import-report.json").read_text("utf-8")
    assert '"files": []' in text and text == json.dumps(none.to_dict(), ensure_ascii=False, indent=2) + "\n"


def test_a_worker_never_imports_pandas() -> None:
    """What a worker runs on a workbook (read, check, its outputs prepared, streamed) leaves
    pandas unimported: only the parent builds the roster."""
    code = ("import sys; from pathlib import Path\n"
            "from converter.importer import _Plan, _import_prepared\n"
            f"got = _import_prepared(Path({str(LEGACY / 'pp-side-by-side.xlsx')!r}), None, {{}}, None,"
            " _Plan(write=True, templates=True, streamed=True))\n"
            "assert len(got) == 2 and got[0].document and got[0].template and got[0].text\n"
            "print('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"

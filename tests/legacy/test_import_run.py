"""An import run over a folder: the files it writes do not depend on the number of jobs,
import-report.json is the whole report with the set checks' findings, and its workers never
import pandas."""
from __future__ import annotations

import copy
import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path

import openpyxl
import pytest

from converter.imports.importer import import_files
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


def test_one_job_and_two_write_the_same_files(folder: Path, tmp_path: Path) -> None:
    """One job and two write the same files, names and report, the set check's finding joined to
    ライガー's own findings (and counted in its roster row); the caller sees the same entries,
    summary and exit code."""
    one = import_files([folder], tmp_path / "one", jobs=1, templates=True)
    two = import_files([folder], tmp_path / "two", jobs=2, templates=True)
    assert _outputs(tmp_path / "one") == _outputs(tmp_path / "two")
    [(path, finding)] = two.check.set_findings
    assert path.endswith("getter-1.xlsx") and finding.code == "UP_TRANSFORM_SET_MISMATCH"
    data = json.loads((tmp_path / "two" / "import-report.json").read_text("utf-8"))
    [liger] = [f for f in data["files"] if f["path"] == path]
    assert len(liger["findings"]) > 1 and "UP_TRANSFORM_SET_MISMATCH" in [f["code"] for f in liger["findings"]]
    assert [e.data["path"] for e in one.entries] == [e.data["path"] for e in two.entries]
    assert [[Path(o).name for o in e.data["import"]["outputs"]] for e in one.entries] == [
        [Path(o).name for o in e.data["import"]["outputs"]] for e in two.entries]
    assert one.summary() == two.summary() and one.exit_code == two.exit_code == 1
    # the roster counts ライガー's set finding among its errors, as the report does
    with (tmp_path / "two" / "roster.csv").open(encoding="utf-8-sig") as fh:
        [row] = [r for r in csv.DictReader(fh) if path.startswith(r["file"])]
    assert int(row["errors"]) == [f["severity"] for f in liger["findings"]].count("error") > 0


def test_report_is_written_as_one_dump_of_the_whole_report(folder: Path, tmp_path: Path) -> None:
    """import-report.json is json.dumps of the whole report (indented, a final newline), also for
    a run that found no workbook."""
    report = import_files([folder], tmp_path / "out", jobs=2)
    text = (tmp_path / "out" / "import-report.json").read_text("utf-8")
    assert text == json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n"
    (tmp_path / "empty").mkdir()
    none = import_files([tmp_path / "empty"], tmp_path / "out2")
    text = (tmp_path / "out2" / "import-report.json").read_text("utf-8")
    assert '"files": []' in text and text == json.dumps(none.to_dict(), ensure_ascii=False, indent=2) + "\n"


def test_a_worker_never_imports_pandas() -> None:
    """What a worker runs on a workbook (read, check, its outputs prepared) leaves pandas
    unimported: only the parent builds the roster."""
    code = ("import sys; from pathlib import Path\n"
            "from converter.imports.importer import _import_prepared\n"
            f"got = _import_prepared(Path({str(LEGACY / 'pp-side-by-side.xlsx')!r}), None, {{}}, None,"
            " write=True, templates=True)\n"
            "assert len(got) == 2 and got[0].document and got[0].template\n"
            "print('pandas' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "False"

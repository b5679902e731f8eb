"""Input text as older tools save it, and numbers no sheet holds: read where possible, named
clearly where not, never a traceback."""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from converter import check_path
from converter.cli import EXIT_INPUT, EXIT_OK, main

ROOT = Path(__file__).resolve().parents[1]
UNIT = ROOT / "samples" / "up" / "m-mobile-suit.json"


@pytest.mark.parametrize(("encoding", "named"), [("utf-8", None), ("utf-8-sig", None),
                                                  ("utf-16", "UTF-16"), ("cp932", "Shift_JIS (CP932)")])
def test_json_in_older_encodings_is_read_with_a_note(tmp_path, encoding: str, named: str | None) -> None:
    """UTF-8 (BOM or not), UTF-16 with BOM, Shift_JIS: the same report, plus an info naming a
    non-UTF-8 encoding."""
    path = tmp_path / "unit.json"
    path.write_bytes(UNIT.read_text(encoding="utf-8").encode(encoding))
    report = check_path(path)
    assert report.computed == 1459 and report.valid
    notes = [f for f in report.findings if f.code == "INPUT_ENCODING"]
    if named is None:
        assert notes == []
    else:
        (note,) = notes
        assert note.level.value == "info" and note.params == {"encoding": named}


def test_binary_posing_as_json_says_to_save_as_utf8(tmp_path) -> None:
    """Bytes that are no text: unreadable, with a message saying what to do."""
    path = tmp_path / "unit.json"
    path.write_bytes(bytes(range(256)) * 4)
    report = check_path(path)
    (f,) = report.findings
    assert f.code == "INPUT_NOT_TEXT" and "UTF-8" in f.hint("en") and "UTF-8" in f.hint("ja")


def test_deeply_nested_json_is_unreadable_not_a_crash(tmp_path, capsys) -> None:
    """JSON nested 100,000 deep: exit 2 with a message, no RecursionError."""
    path = tmp_path / "deep.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    assert main(["check", str(path)]) == EXIT_INPUT
    assert "INPUT_TOO_DEEP" in capsys.readouterr().out


@pytest.mark.parametrize("value", ["NaN", "Infinity", "-Infinity", str(2 ** 53 + 1)])
def test_numbers_no_sheet_holds_are_findings(tmp_path, capsys, value: str) -> None:
    """NaN, infinities, integers beyond 2**53: a schema finding at the value in check; write refuses."""
    text = UNIT.read_text(encoding="utf-8").replace('"budget": 1500', f'"budget": {value}')
    assert value in text
    path = tmp_path / "unit.json"
    path.write_text(text, encoding="utf-8")
    report = check_path(path)
    assert ("SCHEMA_NUMBER_UNSAFE", "/budget") in {(f.code, f.pointer) for f in report.findings}
    assert not report.valid
    assert main(["write", str(path), "-o", str(tmp_path / "u.xlsx")]) == EXIT_INPUT
    err = capsys.readouterr().err
    assert "/budget" in err and "Traceback" not in err
    assert not (tmp_path / "u.xlsx").exists()


def test_a_file_name_in_shift_jis_bytes_is_checked(tmp_path) -> None:
    """A name no UTF-8 decoder reads (copied from an old Windows disk): checked, printed escaped."""
    import os
    import subprocess
    import sys

    folder = os.fsencode(tmp_path)
    with open(os.path.join(folder, "ガンダム.json".encode("cp932")), "wb") as fh:
        fh.write(UNIT.read_bytes())
    for fmt in ("text", "json"):
        done = subprocess.run([sys.executable, "-m", "converter", "check", str(tmp_path), "--format", fmt],
                              cwd=ROOT, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert b"Traceback" not in done.stderr and b"\\udc83" in done.stdout


@pytest.mark.parametrize("command", ["check", "audit", "import"])
def test_a_report_of_ours_left_in_the_folder_is_named_not_checked(tmp_path, capsys, command: str) -> None:
    """A GM who runs a command twice finds the first run's report among the sheets: the second
    run names it as our report (info) and exits as the first did, instead of calling it a broken
    document."""
    folder, out = tmp_path / "sheets", tmp_path / "out"
    folder.mkdir()
    (folder / "unit.json").write_text(UNIT.read_text(encoding="utf-8"), encoding="utf-8")
    if command == "check":
        assert main(["check", str(folder), "--format", "json"]) == EXIT_OK
        (folder / "check-report.json").write_text(capsys.readouterr().out, encoding="utf-8")
    elif command == "audit":
        assert main(["audit", str(folder), "-o", str(folder / "audit-report.json"), "--no-annotated"]) == EXIT_OK
    else:
        legacy = Path(__file__).resolve().parents[1] / "samples" / "legacy" / "up-label-beside.xlsx"
        main(["import", str(legacy), "-o", str(out)])
        (folder / "import-report.json").write_bytes((out / "import-report.json").read_bytes())
    capsys.readouterr()
    assert main(["check", str(folder), "--format", "json"]) == EXIT_OK
    files = {Path(f["path"]).name: f for f in json.loads(capsys.readouterr().out)["files"]}
    assert set(files) == {"unit.json", f"{command}-report.json"}
    entry = files[f"{command}-report.json"]
    assert entry["kind"] == "report"
    assert [(f["code"], f["severity"]) for f in entry["findings"]] == [("INPUT_OWN_REPORT", "info")]
    assert files["unit.json"]["kind"] == "document"


def _unsafe_leaves(value, at: str = "") -> list[str]:
    """The test's own reading: the pointer of every NaN, infinity or integer beyond 2**53."""
    import math

    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _unsafe_leaves(v, f"{at}/{str(k).replace('~', '~0').replace('/', '~1')}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _unsafe_leaves(v, f"{at}/{i}")]
    if isinstance(value, float) and not math.isfinite(value):
        return [at]
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) > 2 ** 53:
        return [at]
    return []


_LEAVES = st.one_of(st.none(), st.booleans(), st.integers(-(2 ** 60), 2 ** 60), st.floats(allow_nan=True),
                    st.text(max_size=3))


@settings(max_examples=300, deadline=None)
@given(st.recursive(_LEAVES, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
                    max_leaves=20))
def test_unsafe_numbers_are_found_wherever_they_are(value) -> None:
    """SCHEMA_NUMBER_UNSAFE at every NaN, infinity or integer past 2**53, and nowhere else (the
    quick look that skips the walk for a document with none must never miss one)."""
    from converter.check.schema import unsafe_number_findings

    assert sorted(f.pointer for f in unsafe_number_findings(value)) == sorted(_unsafe_leaves(value))

"""Issue 36 deliver 3: a total is advised only when every priced line was read; a roster row that
could not be read is an error, not a quiet import."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from converter.check import check_source
from converter.legacy.sources import read_import

SKILLS = [("操縦", 3), ("知覚", 2), ("運動", 2)]


def _pp_sheet(path: Path, skills: list[tuple[str, Any]], total: Any) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "PC"
    rows = [["キャラクター名", "ハル"], ["総PP", 60], ["肉体", 3], ["反応", 4], ["感覚", 3], ["精神", 2],
            ["社会", 2], [], ["技能名", "レベル"], *[[n, lv] for n, lv in skills], [], ["合計PP", total]]
    for row in rows:
        sheet.append(row)
    book.save(path)
    return path


def _check(path: Path) -> tuple[list[Any], Any]:
    ((source, _),) = read_import(path)
    return check_source(source).findings, source


def _mismatch(findings: list[Any]) -> Any:
    return next((f for f in findings if f.code == "PP_TOTAL_MISMATCH"), None)


def test_a_sum_that_skips_the_last_line_is_told_the_right_figure(tmp_path) -> None:
    """All lines read, the written total short of the last skill: the advice N is the figure that
    makes the check pass."""
    without_last = _mismatch(_check(_pp_sheet(tmp_path / "a.xlsx", SKILLS[:-1], 1))[0])
    short = without_last.params["computed"]  # what a SUM skipping the last skill gives
    told = _mismatch(_check(_pp_sheet(tmp_path / "b.xlsx", SKILLS, short))[0])
    assert told is not None and told.params["declared"] == short and told.params["computed"] > short
    fixed, _ = _check(_pp_sheet(tmp_path / "c.xlsx", SKILLS, told.params["computed"]))
    assert _mismatch(fixed) is None


def test_no_advice_when_a_priced_line_was_not_read(tmp_path) -> None:
    """A skill level that cannot be read: the total is kept at its cell with the lines missing,
    and no "correct it to N" is given."""
    findings, source = _check(_pp_sheet(tmp_path / "d.xlsx", [*SKILLS[:-1], ("運動", "高い")], 40))
    assert _mismatch(findings) is None
    (note,) = [f for f in findings if f.code == "LEGACY_TOTAL_NOT_COMPARED"]
    assert note.cell == "PC!B14" and "B12" in note.params["lines"] and note.params["total"] == 40
    assert "declared_total" not in source.document
    assert source.document["extra"]["import"]["unmapped"]["B14"] == 40


def test_roster_rows_without_a_name_are_an_error(tmp_path) -> None:
    """Rows under a roster holding values but no name: an error naming the rows, cells kept."""
    book = openpyxl.Workbook()
    sheet = book.active
    for row in [["名前", "PL", "肉体", "反応", "感覚", "精神", "社会"], ["アキラ", "a", 3, 4, 3, 2, 2],
                ["ミサキ", "b", 2, 3, 5, 3, 3], [None, "c", 4, 4, 4, 2, 2]]:
        sheet.append(row)
    book.save(tmp_path / "r.xlsx")
    got = [s for s, _ in read_import(tmp_path / "r.xlsx")]
    assert [s.document["name"] for s in got] == ["アキラ", "ミサキ"]
    (error,) = [f for f in check_source(got[0]).findings if f.code == "LEGACY_ROSTER_ROW_UNREAD"]
    assert error.params["rows"] == "4" and error.level.value == "error"
    assert got[0].document["extra"]["import"]["unmapped"]["C4"] == 4


def test_system_named_against_the_labels_is_warned(tmp_path) -> None:
    """--system up on a pp sheet reads it as named, with a warning naming the system its labels say."""
    path = _pp_sheet(tmp_path / "e.xlsx", SKILLS, 50)
    ((source, _),) = read_import(path, "up")
    (warning,) = [f for f in source.findings if f.code == "LEGACY_SYSTEM_OVERRIDDEN"]
    assert warning.params == {"sheet": "PC", "given": "up", "detected": "pp"}
    ((same, _),) = read_import(path, "pp")
    assert not [f for f in same.findings if f.code == "LEGACY_SYSTEM_OVERRIDDEN"]

"""Benchmark: one Excel function call, in process, as xlwings makes it (issue 15: < 1 ms a row).

Run: python bench/excel_functions.py [CALLS]. Prints the median microseconds per call of each
single-item function on one row of a sample (the cells as a written workbook holds them, numbers
as floats), and of a whole-sheet function first (sheet read and evaluated) and again (the same
ranges: read once per recalculation, then shared by every cell that asks).
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def per_call(fn, args, calls: int, clear=None) -> float:
    """Median microseconds of ``fn(*args)`` over ``calls`` calls (``clear`` run before each)."""
    times = []
    for _ in range(calls):
        if clear:
            clear()
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e6


def main(calls: int = 300) -> None:
    from converter.excel import udfs
    from tests.excel.cases import _table_range, sample_grids, sheet_args

    unit = ROOT / "samples" / "up" / "m-mobile-suit.json"
    grids = sample_grids(unit)
    weapons = _table_range(grids, "up", "weapons")
    abilities = _table_range(grids, "up", "abilities")
    sheets = sheet_args(grids, "up")
    rows = [
        ("UP_STAT_COST", udfs.UP_STAT_COST, ("M", "ＨＰ", 240.0), None),
        ("UP_WEAPON_COST (one row)", udfs.UP_WEAPON_COST, ([weapons[0]], 1.0), None),
        ("UP_WEAPON_COST (15-row table)", udfs.UP_WEAPON_COST, (weapons, 2.0), None),
        ("UP_ABILITY_COST (one row)", udfs.UP_ABILITY_COST, ([abilities[0]], 1.0, "M"), None),
        ("PP_ATTRIBUTE_COST", udfs.PP_ATTRIBUTE_COST, ("反応", 4.0), None),
        ("PP_SKILL_COST", udfs.PP_SKILL_COST, ("操縦", 2.0), None),
        ("UP_TOTAL (sheets, first call)", udfs.UP_TOTAL, tuple(sheets), udfs._sheet.cache_clear),
        ("UP_TOTAL (sheets, again)", udfs.UP_TOTAL, tuple(sheets), None),
    ]
    for fn_name, fn, args, clear in rows:
        fn(*args)  # warm: modules imported, tables loaded
        n = calls if clear is None else max(10, calls // 10)
        print(f"{fn_name:34s} {per_call(fn, args, n, clear):9.1f} µs/call")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

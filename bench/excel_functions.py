"""Benchmark: one Excel function call, in process, as xlwings makes it (issue 15: < 1 ms a row).

Run: python bench/excel_functions.py [CALLS]. Prints the median microseconds per call of each
single-item function on one row of a sample (the cells as a written workbook holds them, numbers
as floats), and of a whole-sheet function first (sheet read and evaluated) and again (the same
ranges: read once per recalculation, then shared by every cell that asks); mailgear's input-only
functions likewise, on one row and on the ranges a flavoured cell passes.
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
        *mailgear_rows(udfs),
    ]
    for fn_name, fn, args, clear in rows:
        fn(*args)  # warm: modules imported, tables loaded
        n = calls if clear is None else max(10, calls // 10)
        print(f"{fn_name:34s} {per_call(fn, args, n, clear):9.1f} µs/call")


def mailgear_rows(udfs) -> list[tuple]:
    """The input-only mailgear functions (what the xlwings-flavoured sheet calls) on a sample's
    ranges: on one row, and on every range the flavoured cell passes, first (ranges read and
    evaluated) and again (shared by every cell that passes the same ranges)."""
    from tests.excel.cases import part_range, rules_block

    pilot = ROOT / "samples" / "mailgear" / "veteran-fortune.json"
    p = {k: part_range(pilot, k) for k in ("gear", "stats", "boosts", "skills", "equipment", "effects")}
    c = {k: part_range(pilot, f"catalog.{k}") for k in ("levels", "model_stats", "weapons", "options", "option_effects")}
    skill = (p["skills"], p["equipment"], p["effects"], c["options"], c["option_effects"])
    gear = (p["gear"], p["stats"], p["boosts"])
    value = (*gear, p["skills"], p["equipment"], p["effects"], c["model_stats"], c["options"], c["option_effects"],
             rules_block(pilot))
    weapon = (p["equipment"], 1.0, "CR", *gear, p["skills"], p["effects"], c["model_stats"], c["weapons"],
              c["options"], c["option_effects"], rules_block(pilot))
    clear = udfs._parts.cache_clear
    return [
        ("MAILGEAR_PILOT_SKILL (one row)", udfs.MAILGEAR_PILOT_SKILL, ("鉄壁", [p["skills"][0]]), clear),
        ("MAILGEAR_LEVEL_FOR (first call)", udfs.MAILGEAR_LEVEL_FOR, (12.0, c["levels"]), clear),
        ("MAILGEAR_PILOT_SKILL (first call)", udfs.MAILGEAR_PILOT_SKILL, ("鉄壁", *skill), clear),
        ("MAILGEAR_PILOT_SKILL (again)", udfs.MAILGEAR_PILOT_SKILL, ("鉄壁", *skill), None),
        ("MAILGEAR_PILOT_VALUE (first call)", udfs.MAILGEAR_PILOT_VALUE, ("先行判定", *value), clear),
        ("MAILGEAR_PILOT_VALUE (again)", udfs.MAILGEAR_PILOT_VALUE, ("先行判定", *value), None),
        ("MAILGEAR_WEAPON_VALUE (first call)", udfs.MAILGEAR_WEAPON_VALUE, weapon, clear),
        ("MAILGEAR_WEAPON_VALUE (again)", udfs.MAILGEAR_WEAPON_VALUE, weapon, None),
    ]


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 300)

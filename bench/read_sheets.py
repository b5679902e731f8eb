"""Benchmark: reading filled sheets, mechasheet's reader against a plain openpyxl baseline.

Run: python bench/read_sheets.py [ROUNDS]. Prints seconds per sheet for each and the ratio
(reader / baseline; below 1 is faster). The baseline loads every sheet with openpyxl
(data_only=True) and looks each defined name up, which is what a straightforward reader does.
"""
from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def baseline(path: Path) -> int:
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True)
    n = 0
    for _, dn in wb.defined_names.items():
        for sheet, ref in dn.destinations:
            if sheet in wb.sheetnames:
                cells = wb[sheet][ref.replace("$", "")]
                n += 1 if not isinstance(cells, tuple) else len(cells)
    return n


def reader(path: Path) -> int:
    from converter.sheets import read_sheet

    doc, _, cells = read_sheet(path)
    return len(cells)


def timed(fn, files: list[Path], rounds: int) -> float:
    per_round = []
    for _ in range(rounds):
        start = time.perf_counter()
        for f in files:
            fn(f)
        per_round.append((time.perf_counter() - start) / len(files))
    return statistics.median(per_round)


def main() -> None:
    rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    files = sorted((ROOT / "samples").glob("*/*.xlsx"))
    for fn in (baseline, reader):  # warm imports
        fn(files[0])
    base = timed(baseline, files, rounds)
    ours = timed(reader, files, rounds)
    print(f"sheets: {len(files)}, rounds: {rounds}")
    print(f"baseline (openpyxl, all sheets): {base * 1000:8.1f} ms/sheet")
    print(f"mechasheet reader (calamine):    {ours * 1000:8.1f} ms/sheet")
    print(f"ratio reader/baseline: {ours / base:.2f}")


if __name__ == "__main__":
    main()

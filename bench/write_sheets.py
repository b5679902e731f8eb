"""Benchmark: writing sheets, mechasheet's writer against the same writer on XlsxWriter's own
formula preparation (the baseline: every formula through its ~150 regular expressions; both
write a column's repeated formula once, as shared formulas).

Run: pip install -e . && python bench/write_sheets.py [ROUNDS]

For every sample document (the three systems) and each system's empty template, times a build
both ways, side by side, and checks the two give the same bytes. Prints milliseconds per sheet
and the ratio, then the target (issue: fast folder checks): a filled sheet under 40 ms.
"""
from __future__ import annotations

import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from converter.sheets import sheet_bytes, template_bytes  # noqa: E402
import converter.sheets.xlsx_worksheet as worksheet  # noqa: E402

TARGET_MS = 40.0


def _documents() -> list[tuple[str, dict]]:
    out = []
    for system in ("up", "mailgear", "pp"):
        for path in sorted((ROOT / "samples" / system).glob("*.json")):
            doc = json.loads(path.read_text("utf-8"))
            if doc.get("system") == system:
                out.append((f"{system}/{path.stem}", doc))
    return out


def _time(build, rounds: int) -> tuple[float, bytes]:
    data = build()
    took = []
    for _ in range(rounds):
        started = time.perf_counter()
        build()
        took.append(time.perf_counter() - started)
    return statistics.median(took) * 1000, data


def main(rounds: int = 5) -> int:
    fast_class = worksheet.FastFormulaWorksheet
    cases = [(f"{s} template", lambda s=s: template_bytes(s)) for s in ("up", "mailgear", "pp")]
    cases += [(name, lambda d=doc: sheet_bytes(d)) for name, doc in _documents()]
    print(f"{'sheet':34} {'baseline ms':>12} {'mechasheet ms':>14} {'ratio':>6}")
    filled = []
    for name, build in cases:
        worksheet.FastFormulaWorksheet = worksheet.SharedFormulaWorksheet  # the writer's class
        base_ms, base_bytes = _time(build, rounds)
        worksheet.FastFormulaWorksheet = fast_class
        ms, data = _time(build, rounds)
        if data != base_bytes:
            print(f"{name}: the bytes differ from the baseline's", file=sys.stderr)
            return 1
        if "template" not in name:
            filled.append(ms)
        print(f"{name:34} {base_ms:12.1f} {ms:14.1f} {base_ms / ms:6.1f}x")
    worst, median = max(filled), statistics.median(filled)
    print(f"filled sheets: median {median:.1f} ms, slowest {worst:.1f} ms; "
          f"target < {TARGET_MS:g} ms: {'pass' if median < TARGET_MS else 'FAIL'} (median)")
    return 0


if __name__ == "__main__":
    sys.exit(main(int(sys.argv[1]) if len(sys.argv) > 1 else 5))

"""Benchmark: the GM audit of a folder against `check` of the same folder.

Run: pip install -e '.[bench]' && python bench/audit_folder.py [N] [--jobs J] [--rounds R]

Builds a folder of N filled sheets (default 600) of the three systems from the samples (as
bench/check_folder.py does), then, each in a fresh process, times `check` (the runner, J jobs)
and the audit with all three reports (.json, .xlsx, .html) and the annotated copies (J jobs),
and the audit's parts. Prints each figure and the ratio; the guard (issue 30): the audit with its
three reports within 2.5x of `check`.
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from check_folder import build_corpus, side_by_side  # noqa: E402

TARGET = 2.5  # the guard: the audit with its three reports, as a multiple of check


def runs(out: Path, jobs: int) -> dict[str, tuple[str, str]]:
    audit = ("from converter.audit.folder import audit_paths\n"
             "from converter.audit.run import AuditOptions, run_audit\n"
             f"out = Path({str(out)!r})\n"
             "reports = [out / 'a.json', out / 'a.xlsx', out / 'a.html']")
    return {
        "check": ("from converter.batch.checking import check_files",
                  f"report = check_files(files, jobs={jobs})\nassert len(report.files) == len(files)"),
        "audit, no output": (audit, f"report = audit_paths(files, jobs={jobs})"),
        # as `mechasheet audit` runs: every output name checked first, then the audit, the
        # copies (in workers) and the reports, one after another
        "audit, reports": (audit, f"run_audit(AuditOptions(files, reports, copies=False, force=True, jobs={jobs}))"),
        "audit, everything": (audit, "run_audit(AuditOptions(files, reports, annotated=out / 'annotated', "
                                     f"force=True, jobs={jobs}))"),
    }


def main() -> None:
    args = sys.argv[1:]
    n = int(args[0]) if args and args[0].isdigit() else 600
    jobs = int(args[args.index("--jobs") + 1]) if "--jobs" in args else min(2, os.cpu_count() or 1)
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 3
    with tempfile.TemporaryDirectory(prefix="mechasheet-bench-") as tmp:
        base = Path(tmp)
        sheets = build_corpus(base / "sheets", n, ".xlsx")
        table = runs(base / "out", jobs)
        results = side_by_side([(kind, kind, sheets) for kind in table], rounds, table)
    print(f"files: {n} sheets of up, mailgear and pp; jobs: {jobs}; cores: {os.cpu_count()}; "
          f"medians of {rounds} interleaved rounds")
    print(f"{'run':<20}{'ms/file':>10}{'peak MB':>10}{'x check':>10}")
    check = results["check"]["seconds"]
    for kind, r in results.items():
        print(f"{kind:<20}{r['per_file_ms']:>10.2f}{r['peak_kb'] / 1024:>10.0f}{r['seconds'] / check:>10.2f}")
    checks = results["check"]["per_file_ms_all"]
    # each round's audit against the check run just before it (the machine's speed drifts)
    ratio = results["audit, reports"]["seconds"] / check
    paired = ", ".join(f"{a / c:.2f}" for a, c in zip(results["audit, reports"]["per_file_ms_all"], checks,
                                                      strict=True))
    print(f"guard: the audit with its three reports (.json .xlsx .html) within {TARGET:g}x of check: "
          f"{ratio:.2f}x, {'met' if ratio <= TARGET else 'NOT met'} (round by round: {paired})")


if __name__ == "__main__":
    main()

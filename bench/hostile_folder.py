"""Benchmark: one folder of hostile and damaged workbooks (tests/hostile/corpus.py), checked in
one run; prints the wall time, the peak memory of the run (its workers included) and each file's
finding. Targets (issue: hostile input): under a minute, under 800 MB, every file reported.

Run: python bench/hostile_folder.py [JOBS]
"""
from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = """
import json, resource, sys, time
from converter.batch.checking import check_files
start = time.perf_counter()
report = check_files([sys.argv[1]], jobs=int(sys.argv[2]))
seconds = time.perf_counter() - start
peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
print(json.dumps({"seconds": seconds, "peak_kb": peak,
                  "files": {fr.path: [f.code for f in fr.findings] for fr in report.files}}))
"""


def main() -> None:
    jobs = sys.argv[1] if len(sys.argv) > 1 else "2"
    with tempfile.TemporaryDirectory(prefix="mechasheet-hostile-") as tmp:
        # Built in a process of its own: a process's peak memory survives exec on Linux, so the
        # measured run must not be started by the one that built 300 MB strings.
        built = subprocess.run([sys.executable, "-c", "import json, sys; from pathlib import Path; "
                                "from tests.hostile.corpus import build; "
                                "print(json.dumps(build(Path(sys.argv[1]))))", tmp],
                               cwd=ROOT, capture_output=True, text=True, timeout=600, check=True)
        expected = json.loads(built.stdout)
        done = subprocess.run([sys.executable, "-c", CHILD, tmp, jobs], cwd=ROOT, capture_output=True,
                              text=True, timeout=600)
    if done.returncode != 0:
        raise SystemExit(done.stderr)
    result = json.loads(done.stdout.strip().splitlines()[-1])
    for path, codes in sorted(result["files"].items()):
        name = Path(path).name
        print(f"{name:<30} {expected[name]:<22} {', '.join(codes) or '-'}")
    reported = len(result["files"]) == len(expected)
    crashed = sum("INPUT_CRASHED" in codes for codes in result["files"].values())
    print(f"\nfiles: {len(result['files'])} of {len(expected)}; crashed: {crashed}; jobs: {jobs}")
    print(f"time: {result['seconds']:.1f} s ({'pass' if result['seconds'] < 60 else 'FAIL'} < 60 s)")
    peak_mb = result["peak_kb"] / 1024
    print(f"peak: {peak_mb:.0f} MB ({'pass' if peak_mb < 800 else 'FAIL'} < 800 MB)")
    print(f"every file reported: {'pass' if reported else 'FAIL'}")


if __name__ == "__main__":
    main()

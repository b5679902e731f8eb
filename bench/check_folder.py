"""Benchmark: checking a folder of filled sheets, against plain readers of the same files.

Run: pip install -e '.[bench]' && python bench/check_folder.py [N] [--big M] [--rounds R]

Builds a corpus of N filled sheets (default 600) of the three systems by copying the samples,
then, each in a fresh process (so start-up and memory are its own), times per file:
  - mechasheet's full check (read, schema, rules) with one job and with --jobs 2;
  - a plain openpyxl loop (load_workbook data_only, iterate every row of every sheet);
  - pandas.read_excel(engine="calamine") of every sheet;
  - python-calamine's bare read of every sheet (the floor);
and the same for N JSON documents against a json.load + jsonschema loop, R rounds (default 3)
with the runs interleaved, each figure the median of its rounds. Prints each figure,
the ratios and peak memory, then the targets (issue 30's guards) as pass/fail: full check
>= 8x faster than the openpyxl loop and <= 3x calamine's bare read on one core; and, without a
target, --jobs 2 against one job (needs 2 idle cores) and peak memory at M files (default 10 N)
against N files (every report is kept to the end).
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"


def build_corpus(folder: Path, n: int, suffix: str) -> list[Path]:
    """``n`` copies of the samples with ``suffix`` (.xlsx, .json), the three systems in turn."""
    sources = sorted(p for s in ("up", "mailgear", "pp") for p in (SAMPLES / s).glob(f"*{suffix}")
                     if suffix != ".json" or "system" in json.loads(p.read_text("utf-8")))
    return copy_cycle(sources, folder, n)


def copy_cycle(sources: list[Path], folder: Path, n: int) -> list[Path]:
    """``n`` copies of ``sources`` in turn (bench/import_folder.py builds its larger folder so)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for i in range(n):
        src = sources[i % len(sources)]
        dst = folder / f"{i:05d}-{src.name}"
        shutil.copyfile(src, dst)
        out.append(dst)
    return out


# Each measured thing runs in a child: it prints seconds and the peak RSS (KB) of itself and its
# own children (the check's worker processes).
CHILD = textwrap.dedent("""
    import json, resource, sys, time
    from pathlib import Path
    files = [Path(p) for p in json.loads(sys.argv[2])]
    kind = sys.argv[1]
    {setup}
    start = time.perf_counter()
    {body}
    seconds = time.perf_counter() - start
    peak = max(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
               resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
    print(json.dumps({{"seconds": seconds, "peak_kb": peak}}))
""")

RUNS = {
    "check-1": ("from converter.batch.checking import check_files",
                "report = check_files(files, jobs=1)\nassert len(report.files) == len(files)"),
    "check-2": ("from converter.batch.checking import check_files",
                "report = check_files(files, jobs=2)\nassert len(report.files) == len(files)"),
    "openpyxl": ("import openpyxl",
                 "for f in files:\n"
                 "    wb = openpyxl.load_workbook(f, data_only=True)\n"
                 "    n = sum(1 for ws in wb.worksheets for row in ws.iter_rows(values_only=True) for v in row)\n"
                 "    wb.close()"),
    "pandas": ("import pandas",
               "for f in files:\n    pandas.read_excel(f, sheet_name=None, engine='calamine', header=None)"),
    "calamine": ("import python_calamine",
                 "for f in files:\n"
                 "    book = python_calamine.CalamineWorkbook.from_path(str(f))\n"
                 "    for s in book.sheet_names:\n        book.get_sheet_by_name(s).to_python()"),
    "json-check": ("from converter.batch.checking import check_files",
                   "report = check_files(files, jobs=1)\nassert len(report.files) == len(files)"),
    "json-jsonschema": ("import jsonschema\n"
                        "schemas = {s: json.loads(open(f'schemas/{s}.schema.json', encoding='utf-8').read()) "
                        "for s in ('up', 'mailgear', 'pp')}\n"
                        "validators = {s: jsonschema.Draft202012Validator(v) for s, v in schemas.items()}",
                        "for f in files:\n"
                        "    doc = json.loads(f.read_text('utf-8'))\n"
                        "    list(validators[doc['system']].iter_errors(doc))"),
}


_COMPILED: list[bool] = []


def compiled() -> None:
    """The package's bytecode written, as pip writes it when it installs: each measured process
    imports it instead of compiling every module again (which PYTHONDONTWRITEBYTECODE, or a
    source tree nobody ran yet, would have it do, an extra 80 ms per process)."""
    import compileall

    compileall.compile_dir(str(ROOT / "converter"), quiet=1, workers=1)


def measure(kind: str, files: list[Path], runs: dict[str, tuple[str, str]] | None = None) -> dict:
    """``kind`` of ``runs`` (default: this bench's) timed over ``files`` in a fresh process,
    with nothing of earlier runs left to write back."""
    if not _COMPILED:
        compiled()
        _COMPILED.append(True)
    setup, body = (runs or RUNS)[kind]
    code = CHILD.format(setup=textwrap.indent(setup, "").replace("\n", "\n"),
                        body=body.replace("\n", "\n"))
    listing = Path(tempfile.mkstemp(suffix=".json")[1])
    listing.write_text(json.dumps([str(f) for f in files]))
    # What earlier runs (or the corpus's making) left to write back goes to disk now, not during
    # this run: a run that syncs its outputs (an fsync each) would pay for it.
    os.sync()
    try:
        done = subprocess.run([sys.executable, "-c", _loader(code), kind, str(listing)], cwd=ROOT,
                              capture_output=True, text=True, timeout=3600)
    finally:
        listing.unlink(missing_ok=True)
    if done.returncode != 0:
        raise SystemExit(f"{kind} failed:\n{done.stderr}")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    out["per_file_ms"] = out["seconds"] / len(files) * 1000
    return out


def side_by_side(jobs: list[tuple[str, str, list[Path]]], rounds: int,
                 runs: dict[str, tuple[str, str]] | None = None) -> dict[str, dict]:
    """Each (label, kind, files) measured ``rounds`` times, the kinds interleaved round after
    round so that a slow spell of a shared machine falls on all of them alike; per label the
    median of its rounds (time and peak memory apart), and its spread in ``per_file_ms_all``."""
    import statistics

    seen: dict[str, list[dict]] = {}
    for _ in range(rounds):
        for label, kind, files in jobs:
            seen.setdefault(label, []).append(measure(kind, files, runs))
    out = {}
    for label, got in seen.items():
        out[label] = {
            "seconds": statistics.median(g["seconds"] for g in got),
            "peak_kb": statistics.median(g["peak_kb"] for g in got),
            "per_file_ms": statistics.median(g["per_file_ms"] for g in got),
            "per_file_ms_all": [round(g["per_file_ms"], 2) for g in got],
        }
    return out


def _loader(code: str) -> str:
    """The child reads its file list from a file (argv would be too long for thousands)."""
    return code.replace("json.loads(sys.argv[2])", "json.loads(open(sys.argv[2]).read())")


def main() -> None:
    args = sys.argv[1:]
    n = int(args[0]) if args and args[0].isdigit() else 600
    big = int(args[args.index("--big") + 1]) if "--big" in args else 10 * n
    rounds = int(args[args.index("--rounds") + 1]) if "--rounds" in args else 3
    with tempfile.TemporaryDirectory(prefix="mechasheet-bench-") as tmp:
        base = Path(tmp)
        sheets = build_corpus(base / "sheets", n, ".xlsx")
        docs = build_corpus(base / "docs", n, ".json")
        many = build_corpus(base / "many", big, ".xlsx")
        results = side_by_side(
            [(k, k, sheets) for k in ("check-1", "check-2", "openpyxl", "pandas", "calamine")]
            + [(k, k, docs) for k in ("json-check", "json-jsonschema")], rounds)
        results.update(side_by_side([("check-1-big", "check-1", many)], 1))

    print(f"files: {n} sheets and {n} JSON documents of up, mailgear and pp; cores: {os.cpu_count()}")
    print(f"medians of {rounds} rounds, the runs interleaved (the {big}-file runs: one round)")
    print(f"{'run':<26}{'ms/file':>10}{'peak MB':>10}  rounds")
    for kind, r in results.items():
        label = kind.replace("-big", f" ({big})")
        spread = " ".join(f"{x:.2f}" for x in r["per_file_ms_all"])
        print(f"{label:<26}{r['per_file_ms']:>10.2f}{r['peak_kb'] / 1024:>10.1f}  {spread}")
    ours, two = results["check-1"]["per_file_ms"], results["check-2"]["per_file_ms"]
    ratios = {
        "openpyxl loop / full check (>= 8)": (results["openpyxl"]["per_file_ms"] / ours, lambda r: r >= 8),
        "full check / calamine bare read (<= 3)": (ours / results["calamine"]["per_file_ms"], lambda r: r <= 3),
        "one job / --jobs 2": (ours / two, None),
        f"peak at {big} / peak at {n} files": (
            results["check-1-big"]["peak_kb"] / results["check-1"]["peak_kb"], None),
        "json+jsonschema loop / JSON check": (
            results["json-jsonschema"]["per_file_ms"] / results["json-check"]["per_file_ms"], None),
        "pandas.read_excel / full check": (results["pandas"]["per_file_ms"] / ours, None),
    }
    print()
    for label, (ratio, target) in ratios.items():
        verdict = "" if target is None else ("  pass" if target(ratio) else "  FAIL")
        print(f"{label:<46}{ratio:>8.2f}{verdict}")


if __name__ == "__main__":
    main()

"""Figures of the web page (issue 34), measured in the browser the tests use: Debian's chromium
driven by Playwright, the site built and served on 127.0.0.1 as tests/web/test_browser.py does.

Run: pip install -e '.[test]' && python bench/web_page.py [N] [--rounds R]

Prints, each the median of R rounds (default 3; a fresh page each round):
  - ready_ms: from the page's start to "ready" (Pyodide and every wheel loaded, page.py
    imported): `window.mechasheetTimings.ready_ms`, and the worker's steps to it (site.json,
    Pyodide, the wheels, the import), and ready_again_ms, the same after a reload (a second
    visit: the browser's cache may hold the compiled WebAssembly);
  - warm_ms: the warm-up the worker runs right after ready (a first drop waits for what is left);
  - run_ms: the samples folder (`mechasheet check samples/`: 33 sheets) picked in the page, from
    the files handed over until the cards are drawn, and party_ms, the party view after them;
  - the CLI's wall time for `mechasheet check samples/ --format json` on the same machine
    (a fresh process, start-up included), and the page's run against it;
  - memory after N sheets (default 500, copies of the samples' .json and .xlsx) checked in one
    run: the resident set (VmRSS, and its peak VmHWM) of the tab's renderer process, read from
    /proc (the worker and its WebAssembly memory live in that process), and the page's own JS
    heap from CDP's Performance.getMetrics.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.browser import BROWSER_ARGS, CHROMIUM  # noqa: E402

SAMPLES = ROOT / "samples"
TIMEOUT = 600_000


def corpus(folder: Path, n: int) -> Path:
    """``n`` copies of the samples' .json and .xlsx (the three systems in turn) in ``folder``."""
    sources = sorted(p for s in ("up", "mailgear", "pp") for suffix in ("json", "xlsx")
                     for p in (SAMPLES / s).glob(f"*.{suffix}") if p.name != "catalog-example.xlsx")
    folder.mkdir(parents=True)
    for i in range(n):
        src = sources[i % len(sources)]
        shutil.copyfile(src, folder / f"{i:05d}-{src.name}")
    return folder


def renderers(profile_hint: str) -> list[tuple[int, int, int]]:
    """(pid, VmRSS KB, VmHWM KB) of every chromium renderer process of this launch (its command
    line names our profile folder; chromium rewrites its title, so the line is read whole)."""
    out = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            line = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            status = (entry / "status").read_text()
        except OSError:
            continue
        if "--type=renderer" not in line or profile_hint not in line:
            continue
        fields = dict(row.split(":", 1) for row in status.splitlines() if ":" in row)
        kb = {k: int(fields[k].split()[0]) for k in ("VmRSS", "VmHWM") if k in fields}
        out.append((int(entry.name), kb.get("VmRSS", 0), kb.get("VmHWM", 0)))
    return out


def cli_seconds() -> float:
    """`mechasheet check samples/ --format json`, a fresh process, wall time."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "converter", "check", "samples", "--format", "json"], cwd=ROOT,
                          env=env, capture_output=True)
    assert done.returncode in (0, 1), done.stderr
    return time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("n", nargs="?", type=int, default=500)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()

    from playwright.sync_api import sync_playwright

    from converter.web.build import build_site
    from converter.web.serve import serve

    work = Path(tempfile.mkdtemp(prefix="mechasheet-web-bench-"))
    try:
        site = build_site(work / "site")
        big = corpus(work / "sheets", args.n)
        server, url = serve(site)
        figures: dict[str, list[float]] = {k: [] for k in ("ready_ms", "warm_ms", "run_ms", "party_ms", "cli_ms")}
        with sync_playwright() as pw:
            profile = work / "profile"
            for _ in range(args.rounds):
                shutil.rmtree(profile, ignore_errors=True)
                context = pw.chromium.launch_persistent_context(str(profile), executable_path=str(CHROMIUM),
                                                                args=BROWSER_ARGS)
                page = context.new_page()
                page.goto(url)
                page.wait_for_selector("body[data-state=ready]", state="attached", timeout=TIMEOUT)
                page.set_input_files("#folder", str(SAMPLES))
                page.wait_for_selector("body[data-state=done]", state="attached", timeout=TIMEOUT)
                timings = page.evaluate("window.mechasheetTimings")
                assert len(page.evaluate("window.mechasheetReport.files")) == 33
                for key in ("ready_ms", "warm_ms", "run_ms", "party_ms"):
                    figures[key].append(timings[key])
                for key, ms in timings["start"].items():
                    figures.setdefault(f"  {key}", []).append(ms)
                figures["cli_ms"].append(cli_seconds() * 1000)
                page.reload()  # a second visit: the browser's cache holds the compiled WebAssembly
                page.wait_for_selector("body[data-state=ready]", state="attached", timeout=TIMEOUT)
                figures.setdefault("ready_again_ms", []).append(page.evaluate("window.mechasheetTimings.ready_ms"))
                context.close()

            context = pw.chromium.launch_persistent_context(str(profile), executable_path=str(CHROMIUM),
                                                            args=BROWSER_ARGS)
            page = context.new_page()
            page.goto(url)
            page.wait_for_selector("body[data-state=ready]", state="attached", timeout=TIMEOUT)
            before = renderers(str(profile))
            page.set_input_files("#folder", str(big))
            page.wait_for_selector("body[data-state=done]", state="attached", timeout=TIMEOUT)
            big_timings = page.evaluate("window.mechasheetTimings")
            files = page.evaluate("window.mechasheetReport.files.length")
            after = renderers(str(profile))
            cdp = context.new_cdp_session(page)
            cdp.send("Performance.enable")
            metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
            context.close()
        server.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)

    median = {k: statistics.median(v) for k, v in figures.items()}
    print(f"rounds: {args.rounds} (each figure the median; the rounds in brackets)")
    for key in figures:
        print(f"  {key:13} {median[key]:8.0f}  {[round(v) for v in figures[key]]}")
    print(f"  page run / CLI check samples/: {median['run_ms'] / median['cli_ms']:.2f}x "
          f"(with the party view: {(median['run_ms'] + median['party_ms']) / median['cli_ms']:.2f}x)")
    print(f"{files} sheets in one run: run_ms {big_timings['run_ms']}, party_ms {big_timings['party_ms']}")
    print(f"  renderer processes before: {[(pid, rss // 1024) for pid, rss, _ in before]} (pid, MB)")
    for pid, rss, hwm in after:
        print(f"  renderer {pid}: VmRSS {rss / 1024:.0f} MB, peak VmHWM {hwm / 1024:.0f} MB")
    print(f"  page JS heap (CDP): used {metrics.get('JSHeapUsedSize', 0) / 2**20:.1f} MB, "
          f"total {metrics.get('JSHeapTotalSize', 0) / 2**20:.1f} MB")


if __name__ == "__main__":
    main()

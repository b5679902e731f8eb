"""Debian's chromium driven by Playwright, as the browser tests launch it (the audit's HTML report,
the web page): where chromium lives, its flags, and Playwright's sync API or a skip (a failure
under CI=true, where .ci/run installs both)."""
from __future__ import annotations

from pathlib import Path

from .needs import missing as needed

CHROMIUM = Path("/usr/bin/chromium")
BROWSER_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def playwright():
    """Playwright's sync API, or a skip (a failure under CI=true) when it or chromium is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        sync_playwright = None
    missing = [what for what, ok in (("playwright", sync_playwright is not None), (str(CHROMIUM), CHROMIUM.exists()))
               if not ok]
    if missing:
        needed(", ".join(missing))
    return sync_playwright

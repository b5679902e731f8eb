"""The web page (converter/web/site/) in Debian's chromium, driven by Playwright: the site built
once and served on 127.0.0.1, one page loaded once (Pyodide's start costs seconds). The page's
report equals the command line's for the same files and options, in both languages; its downloads
open and check as the command line's do; it asks nothing of any other origin, logs no error,
stores nothing until asked, and is usable by keyboard alone."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.browser import BROWSER_ARGS, CHROMIUM, playwright

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
START_MS = 90_000  # Pyodide's start on a loaded 2-core CI machine (about 5 s on a quiet one)
RUN_MS = 120_000
RULES = ["damage_dice=every_die", "feats=unused"]
CATALOG = SAMPLES / "mailgear" / "catalog-example.xlsx"
SKILLS = SAMPLES / "pp" / "skills-example.txt"


def _inputs() -> list[Path]:
    """Every sample (.json and .xlsx of the three systems), every broken sample, and a legacy
    .xlsx and .xls: what the page is given through its `files` input."""
    files = [p for system in ("up", "mailgear", "pp") for suffix in ("json", "xlsx")
             for p in sorted((SAMPLES / system).glob(f"*.{suffix}"))]
    files += sorted((SAMPLES / "broken").glob("*/*.json"))
    files += [SAMPLES / "legacy" / "up-template-v1.xlsx", SAMPLES / "legacy" / "pp-one-per-sheet.xls"]
    return files


def mechasheet(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command line, run from ``cwd`` as a GM would run it there."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "converter", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, encoding="utf-8", timeout=300)


def cli_json(*args: str, cwd: Path) -> dict:
    """`mechasheet check ARGS --format json` run from ``cwd``, parsed (exit 0; 1: findings; 2: an
    unreadable file, as the legacy .xls is to `check`)."""
    done = mechasheet("check", *args, "--format", "json", cwd=cwd)
    assert done.returncode in (0, 1, 2), done.stderr
    return json.loads(done.stdout)


def differences(a, b, at: str = "") -> list[str]:
    """Where two JSON values differ, as JSON pointers with both sides (a failure's message)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [d for k in sorted(set(a) | set(b), key=str)
                for d in (differences(a.get(k), b.get(k), f"{at}/{k}") if k in a and k in b
                          else [f"{at}/{k}: only in {'the page' if k in a else 'the CLI'}"])]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [d for i, (x, y) in enumerate(zip(a, b, strict=True)) for d in differences(x, y, f"{at}/{i}")]
    return [] if a == b else [f"{at}: page {a!r:.200} != CLI {b!r:.200}"]


def assert_same(page: dict | None, cli: dict) -> None:
    """The page's report is the CLI's, key for key (a failure names where they differ)."""
    assert page is not None
    assert page == cli, differences(page, cli)[:10]


class Browser:
    """The one page every test drives, with what it asked for and what it logged."""

    def __init__(self, page, origin: str) -> None:
        self.page = page
        self.origin = origin
        self.requests: list[str] = []
        self.problems: list[str] = []
        page.on("request", lambda req: self.requests.append(req.url))
        page.on("console", lambda msg: self.problems.append(f"console: {msg.text}") if msg.type == "error" else None)
        page.on("pageerror", lambda err: self.problems.append(f"pageerror: {err}"))

    def wait(self, state: str, timeout: int = RUN_MS) -> None:
        """Until the page's state is ``state`` (a selector: the page's CSP forbids eval)."""
        self.page.wait_for_selector(f"body[data-state={state}]", state="attached", timeout=timeout)

    def report(self) -> dict:
        return self.page.evaluate("window.mechasheetReport")

    def download(self, selector: str) -> tuple[str, bytes]:
        """Click ``selector`` and return the file the page offers: its name and bytes (or fail
        with the error the page shows instead)."""
        got: list = []
        self.page.once("download", lambda d: got.append(d))
        self.page.click(selector)
        for _ in range(RUN_MS // 100):
            if got:
                break
            failed = self.page.locator(".failed")
            assert failed.count() == 0, failed.first.text_content()
            self.page.wait_for_timeout(100)
        assert got, f"no download after {selector}"
        download = got[0]
        path = download.path()
        assert download.failure() is None
        return download.suggested_filename, Path(path).read_bytes()


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    """The site, built once (`mechasheet web -o SITE`): offline once its assets are cached."""
    playwright()  # skip (or fail under CI) first: without a browser there is nothing to build for
    from converter.web.build import build_site

    try:
        return build_site(tmp_path_factory.mktemp("web") / "site")
    except Exception as err:  # offline with an empty cache: the build names the URL it needed
        if os.environ.get("CI") == "true":
            raise
        pytest.skip(f"the site cannot be built here: {err}")


@pytest.fixture(scope="module")
def browser(site: Path):
    """The page, loaded once from the local server and started (Pyodide ready); closed with this
    file, since Playwright's sync API runs an event loop that a later file's own would meet."""
    from converter.web.serve import serve

    server, url = serve(site)
    pw = playwright()().start()
    chromium = pw.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
    try:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(url))
        context = chromium.new_context(accept_downloads=True, viewport={"width": 1280, "height": 900})
        context.grant_permissions(["clipboard-read", "clipboard-write"], origin=origin)
        b = Browser(context.new_page(), origin)
        b.page.goto(url, wait_until="load")
        b.wait("ready", START_MS)
        yield b
    finally:
        chromium.close()
        pw.stop()
        server.shutdown()


@pytest.fixture(scope="session")
def flat(tmp_path_factory) -> Path:
    """The inputs side by side in one folder (the `files` input gives the page names, not folders),
    with the option files under `_options/` where the page puts them: the command line's root."""
    root = tmp_path_factory.mktemp("flat")
    inputs = _inputs()
    assert len({p.name for p in inputs}) == len(inputs), "two inputs share a name"
    for p in inputs:
        shutil.copy(p, root / p.name)
    (root / "_options").mkdir()
    for p in (CATALOG, SKILLS):
        shutil.copy(p, root / "_options" / p.name)
    return root


def _names() -> list[str]:
    return [p.name for p in _inputs()]


def _options(lang: str = "ja") -> list[str]:
    rules = [arg for rule in RULES for arg in ("--rule", rule)]
    return [*rules, "--catalog", f"_options/{CATALOG.name}", "--skills", f"_options/{SKILLS.name}", "--lang", lang]


@pytest.fixture(scope="module")
def checked(browser: Browser, flat: Path) -> dict:
    """Every input checked in the page through its `files` input, without options."""
    assert browser.page.evaluate("localStorage.length") == 0
    browser.page.set_input_files("#files", [str(flat / name) for name in _names()])
    browser.wait("done")
    return browser.report()


def test_the_page_checks_every_sample_as_the_command_line(checked: dict, flat: Path) -> None:
    """Every sample, broken sample and legacy workbook: the page's report is the CLI's, key for key."""
    cli = cli_json(*_names(), cwd=flat)
    assert [f["path"] for f in checked["files"]] == _names()
    assert_same(checked, cli)
    assert checked["summary"]["errors"] > 10 and checked["summary"]["invalid"] > 10


def test_every_file_has_a_card_with_its_findings_errors_first(browser: Browser, checked: dict) -> None:
    """One card a file, in order, its path, totals and findings (errors first) as the report says."""
    page = browser.page
    cards = page.locator("#cards > article.card")
    assert cards.count() == len(checked["files"])
    order = {"error": 0, "warning": 1, "info": 2}
    for i, entry in enumerate(checked["files"]):
        card = cards.nth(i)
        assert card.locator("h3").text_content() == entry["path"]
        shown = card.locator(":scope > table.findings td.msg").all_text_contents()
        expected = sorted(entry["findings"], key=lambda f: order[f["severity"]])
        assert shown == [f["message"] for f in expected]
        if entry["totals"]["computed"] is not None:
            assert str(entry["totals"]["computed"]) in card.locator("dl.totals").text_content()
    s = checked["summary"]
    assert page.text_content("#summary") == (
        f"{s['files']} ファイル・エラー {s['errors']}・警告 {s['warnings']}・有効 {s['files'] - s['invalid']} / {s['files']}")


def test_the_options_give_the_command_lines_report(browser: Browser, checked: dict, flat: Path) -> None:
    """Rule readings (one chosen from the list `mechasheet rules` gives, one typed), a catalog
    and a skill list chosen in the page: the CLI's report with them."""
    page = browser.page
    chosen, typed = (rule.split("=") for rule in RULES)
    assert page.locator(f"#rule-{chosen[0]} option").count() > 2  # the default and each value
    page.select_option(f"#rule-{chosen[0]}", chosen[1])
    page.fill("#rule-text", "=".join(typed))
    page.set_input_files("#catalog", str(flat / "_options" / CATALOG.name))
    page.set_input_files("#skills", str(flat / "_options" / SKILLS.name))
    page.click("#rerun")
    browser.wait("done")
    report = browser.report()
    assert report is not None, page.text_content("#option-error")
    assert_same(report, cli_json(*_names(), *_options(), cwd=flat))
    assert report["options"] == dict(rule.split("=") for rule in RULES)
    assert report != checked


def test_the_english_switch_gives_the_english_report(browser: Browser, flat: Path) -> None:
    """English re-renders the same run with the CLI's --lang en messages, without reading again."""
    page = browser.page
    page.click("#lang")
    browser.wait("done")
    report = browser.report()
    assert_same(report, cli_json(*_names(), *_options("en"), cwd=flat))
    first = next(f for f in report["files"] if f["findings"])
    card = page.locator("article.card", has=page.locator("h3", has_text=first["path"])).first
    assert set(card.locator("td.msg").all_text_contents()) == {f["message"] for f in first["findings"]}
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.text_content("#summary").endswith("valid")
    page.click("#lang")
    browser.wait("done")
    assert_same(browser.report(), cli_json(*_names(), *_options(), cwd=flat))


def test_the_report_and_the_audit_download_as_the_command_line_writes_them(browser: Browser, flat: Path,
                                                                             tmp_path: Path) -> None:
    """The JSON report is the page's report; the audit zip holds the CLI's audit.json and
    annotated copies that check as the CLI's annotated copies do."""
    name, data = browser.download("#dl-report")
    assert name.endswith(".json") and json.loads(data) == browser.report()

    name, data = browser.download("#dl-audit")
    page_dir = tmp_path / "page"
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.testzip() is None
        z.extractall(page_dir)
    cli_dir = shutil.copytree(flat, tmp_path / "cli")  # the CLI run from the page's root
    done = mechasheet("audit", *_names(), *_options(), "-o", "audit.json", cwd=cli_dir)
    assert done.returncode in (0, 1), done.stderr
    audit = json.loads((cli_dir / "audit.json").read_bytes())
    assert_same(json.loads((page_dir / "audit.json").read_bytes()), audit)
    # a homemade workbook's card shows each character the audit read from it by its labels
    labelled = [f for f in audit["files"] if f["source"].get("kind") == "legacy"]
    assert labelled
    for entry in labelled:
        card = browser.page.locator(f'#cards > article.card[data-path="{entry["audit"]["file"]}"]')
        assert entry["path"] in card.locator("section.labelled h4").all_text_contents()
    copies = sorted(p.relative_to(cli_dir).as_posix() for p in (cli_dir / "annotated").rglob("*") if p.is_file())
    assert copies and copies == sorted(p.relative_to(page_dir).as_posix()
                                       for p in (page_dir / "annotated").rglob("*") if p.is_file())
    assert cli_json("annotated", cwd=page_dir) == cli_json("annotated", cwd=cli_dir)


def _card(browser: Browser, path: str):
    return browser.page.locator("article.card", has=browser.page.locator("h3", has_text=path)).first


def _without_path(report: dict) -> list[dict]:
    return [{k: v for k, v in entry.items() if k != "path"} for entry in report["files"]]


def test_a_filled_sheet_and_a_template_check_as_the_command_lines(browser: Browser, flat: Path,
                                                                  tmp_path: Path) -> None:
    """The filled sheet of a JSON document and an empty template check as `write` and `template`'s."""
    doc = "l-map-combo.json"
    name, data = browser.download(f'article.card[data-path="{doc}"] [data-action=filled]')
    assert name.endswith(".xlsx")
    (tmp_path / "page.xlsx").write_bytes(data)
    assert mechasheet("write", str(flat / doc), "-o", str(tmp_path / "cli.xlsx"), *_options()[:-2],
                      cwd=flat).returncode in (0, 1)
    page_report, cli_report = cli_json("page.xlsx", cwd=tmp_path), cli_json("cli.xlsx", cwd=tmp_path)
    assert _without_path(page_report) == _without_path(cli_report)
    assert page_report["files"][0]["totals"]["computed"] > 0

    name, data = browser.download("[data-action=template-pp]")
    (tmp_path / "page-template.xlsx").write_bytes(data)
    assert mechasheet("template", "pp", "-o", str(tmp_path / "cli-template.xlsx"), cwd=tmp_path).returncode == 0
    assert _without_path(cli_json("page-template.xlsx", cwd=tmp_path)) == \
        _without_path(cli_json("cli-template.xlsx", cwd=tmp_path))


def test_a_conversion_a_ccfolia_piece_and_an_udonarium_zip(browser: Browser, flat: Path) -> None:
    """Converting downloads the CLI's document and shows its account; the CCFOLIA button copies
    one piece's JSON; the Udonarium zip opens."""
    page = browser.page
    doc = "pilot_with_machine.json"  # pp, with a machine: an up unit
    card = _card(browser, doc)
    name, data = browser.download(f'article.card[data-path="{doc}"] [data-action=convert-up]')
    cli = mechasheet("convert", doc, "--to", "up", "-o", "cli.up.json", "--force", cwd=flat)
    assert cli.returncode in (0, 1), cli.stderr
    assert json.loads(data) == json.loads((flat / "cli.up.json").read_text("utf-8"))
    (flat / "cli.up.json").unlink()
    assert card.locator("pre.account").text_content().strip()

    page.evaluate("window.mechasheetLastCopy = null")
    card.locator("[data-action=ccfolia]").click()
    pieces = card.locator("[data-action=ccfolia-piece]")
    if pieces.count():
        pieces.first.click()
    copied = None
    for _ in range(100):
        copied = page.evaluate("window.mechasheetLastCopy")
        if copied:
            break
        page.wait_for_timeout(100)
    assert copied, card.locator(".action-out").text_content()
    piece = json.loads(copied)
    assert piece["kind"] == "character" and piece["data"]["name"]
    assert page.evaluate("navigator.clipboard.readText()") == copied

    name, data = browser.download(f'article.card[data-path="{doc}"] [data-action=udonarium]')
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        assert z.testzip() is None and any(n.endswith(".xml") for n in z.namelist())


def test_the_keyboard_reaches_the_drop_zone_and_the_first_cards_findings(browser: Browser, checked: dict) -> None:
    """Tab alone reaches the drop zone (visibly focused; Enter opens the picker) and the findings."""
    page = browser.page
    page.evaluate("document.activeElement && document.activeElement.blur(); window.scrollTo(0, 0)")
    page.focus("body")
    first_findings = page.locator("article.card table.findings").first
    target = first_findings.evaluate("t => t.closest('article').dataset.path")
    reached_drop = reached_findings = False
    for _ in range(400):
        page.keyboard.press("Tab")
        where = page.evaluate("""() => { const a = document.activeElement;
            return [a.id, a.matches('table.findings') ? a.closest('article').dataset.path : null,
                    getComputedStyle(a).outlineStyle]; }""")
        if where[0] == "drop" and not reached_drop:
            reached_drop = True
            assert where[2] != "none"  # the focus shows
            page.evaluate("""() => { window.mechasheetPicked = false; document.getElementById("files")
                .addEventListener("click", (e) => { window.mechasheetPicked = true; e.preventDefault(); }, { once: true }); }""")
            page.keyboard.press("Enter")
            assert page.evaluate("window.mechasheetPicked")  # Enter opens the file picker
        if where[1] == target:
            reached_findings = True
            break
    assert reached_drop and reached_findings


def test_nothing_is_stored_until_the_switch_is_on(browser: Browser) -> None:
    """localStorage stays empty through runs and options; the switch stores them; off clears it."""
    page = browser.page
    assert page.evaluate("localStorage.length") == 0
    page.check("#remember")
    page.wait_for_timeout(200)
    stored = json.loads(page.evaluate("localStorage.getItem('mechasheet.options')"))
    assert f"{stored['ruleText']}" == RULES[1] and set(stored["files"]) == {"catalog", "skills"}
    assert "=".join(next((k, v) for k, v in stored["rules"].items() if v)) == RULES[0]
    page.uncheck("#remember")
    assert page.evaluate("localStorage.length") == 0


DROP = """([files]) => { const transfer = new DataTransfer();
  for (const [name, text] of files) transfer.items.add(new File([text], name, { type: "application/json" }));
  const zone = document.getElementById("drop");
  for (const type of ["dragenter", "dragover", "drop"])
    zone.dispatchEvent(new DragEvent(type, { dataTransfer: transfer, bubbles: true, cancelable: true })); }"""


def test_files_dropped_on_the_zone_are_checked(browser: Browser, flat: Path) -> None:
    """Files dropped on the drop zone are checked as the CLI checks them."""
    names = ["veteran.json", "over_budget.json"]
    browser.page.evaluate(DROP, [[[name, (flat / name).read_text("utf-8")] for name in names]])
    browser.wait("done")
    assert_same(browser.report(), cli_json(*names, *_options(), cwd=flat))


def test_the_samples_folder_checks_as_check_samples(browser: Browser, tmp_path: Path) -> None:
    """The samples folder picked whole: the report of `mechasheet check samples/`; a screenshot."""
    page = browser.page
    for selector in ("#catalog", "#skills"):
        page.set_input_files(selector, [])
    page.fill("#rule-text", "")
    page.select_option(f"#rule-{RULES[0].split('=')[0]}", "")
    page.set_input_files("#folder", str(SAMPLES))
    browser.wait("done")
    report = browser.report()
    assert_same(report, cli_json("samples", cwd=ROOT))
    assert len(report["files"]) == 33
    assert browser.page.evaluate("window.mechasheetTimings.run_ms") > 0
    shots = Path(os.environ.get("MECHASHEET_ARTIFACTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    png = page.screenshot(path=str(shots / "web-page.png"), full_page=True)
    assert png.startswith(b"\x89PNG\r\n\x1a\n")


def test_no_request_left_the_origin_and_nothing_was_logged(browser: Browser) -> None:
    """Every request the page made went to its own server; no console error, no page error."""
    assert browser.requests
    foreign = [url for url in browser.requests
               if "{0.scheme}://{0.netloc}".format(urlsplit(url)) != browser.origin and not url.startswith(("blob:", "data:"))]
    assert foreign == []
    assert browser.problems == []
    assert browser.page.evaluate("window.mechasheetTimings.ready_ms") > 0

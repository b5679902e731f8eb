"""The audit's HTML report: a well-formed page holding every roster row and every finding, with
nothing fetched from outside and everything a sheet supplies escaped; then the bundled samples'
report in a real browser (Debian's chromium driven by Playwright): no console error, sorting and
filtering work, the charts draw Japanese glyphs (no tofu), a screenshot is written."""
from __future__ import annotations

import json
import re
import shutil
from html.parser import HTMLParser
from pathlib import Path

import pytest

from converter.audit.folder import audit_paths
from converter.audit.html_report import html_report_bytes, spent_by_category
from converter.audit.report import ROSTER_COLUMNS, AuditReport
from converter.cli import main
from tests.browser import BROWSER_ARGS, CHROMIUM, playwright

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
HOSTILE = '<script>alert("x")</script>$\\frac{$'  # markup, and a mathtext that would not parse


class Page(HTMLParser):
    """The page's structure as the tests read it: tags balanced, links, the roster's rows and
    each sheet section's findings as (code, cell)."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.errors: list[str] = []
        self.links: list[tuple[str, str, str]] = []
        self.ids: set[str] = set()
        self.roster: list[list[str]] = []
        self.findings: dict[str, list[list[str]]] = {}
        self.section: str | None = None
        self.row: list[str] | None = None
        self.cell: list[str] | None = None
        self.where: str | None = None
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        for name, value in attrs:
            if name in ("href", "src", "xlink:href", "action", "srcset", "poster"):
                self.links.append((tag, name, value or ""))
        if "id" in a:
            if a["id"] in self.ids:
                self.errors.append(f"id {a['id']} twice")
            self.ids.add(a["id"] or "")
        if tag == "table" and a.get("id") == "roster":
            self.where = "roster"
        elif tag == "section" and (a.get("id") or "").startswith("m-"):
            self.section = a["id"]
            self.findings[self.section] = []
        elif tag == "table" and "findings" in (a.get("class") or ""):
            self.where = "findings"
        elif tag == "tr" and self.where is not None:
            self.row = []
        elif tag == "td" and self.row is not None:
            self.cell = []
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> closes <{self.stack[-1] if self.stack else None}>")
            return
        self.stack.pop()
        if tag == "td" and self.cell is not None and self.row is not None:
            self.row.append("".join(self.cell).strip())
            self.cell = None
        elif tag == "tr" and self.row is not None:
            if self.row:  # the heading row has no td
                (self.roster if self.where == "roster" else self.findings[self.section]).append(self.row)
            self.row = None
        elif tag == "table":
            self.where = None

    def handle_data(self, data: str) -> None:
        self.text.append(data)
        if self.cell is not None:
            self.cell.append(data)


def _parse(page: bytes) -> Page:
    parsed = Page()
    parsed.feed(page.decode("utf-8"))
    parsed.close()
    assert parsed.errors == [] and parsed.stack == [], (parsed.errors, parsed.stack)
    return parsed


def _folder(tmp_path: Path) -> Path:
    """JSON documents of the three systems, one broken, one twice (a duplicate), one hostile."""
    folder = tmp_path / "sheets"
    folder.mkdir()
    for system in ("up", "pp", "mailgear"):
        for p in sorted((SAMPLES / system).glob("*.json")):
            shutil.copy(p, folder / f"{system}-{p.name}")
    for p in sorted((SAMPLES / "broken" / "pp").glob("*.json"))[:3]:
        shutil.copy(p, folder / f"broken-{p.name}")
    shutil.copy(SAMPLES / "pp" / "veteran.json", folder / "pp-veteran-copy.json")
    doc = json.loads((SAMPLES / "pp" / "ordinary_person.json").read_text("utf-8"))
    doc["name"], doc["player"] = HOSTILE, "<b>player</b>"
    (folder / "hostile.json").write_text(json.dumps(doc, ensure_ascii=False), "utf-8")
    return folder


@pytest.fixture(scope="module")
def audited(tmp_path_factory) -> tuple[AuditReport, bytes]:
    report = audit_paths([_folder(tmp_path_factory.mktemp("html"))])
    return report, html_report_bytes(report, "ja")


def test_the_page_is_well_formed_and_holds_every_roster_row(audited) -> None:
    """The page is an HTML document with every roster row, in the report's order and with its names."""
    report, page = audited
    parsed = _parse(page)
    assert page.startswith(b"<!DOCTYPE html>")
    assert len(parsed.roster) == len(report.members) > 10
    files = [row["file"] for row in report.roster()]
    assert [r[0] for r in parsed.roster] == files
    status = len(ROSTER_COLUMNS)
    assert all(len(r) == status + 1 for r in parsed.roster)
    names = [row[ROSTER_COLUMNS.index("name")] for row in parsed.roster]
    assert names == [row["name"] or "" for row in report.roster()]


def test_every_finding_shows_its_code_and_cell_in_its_sheets_section(audited) -> None:
    """Each member's section lists all its findings with code, cell and message."""
    report, page = audited
    parsed = _parse(page)
    shown = 0
    for i, m in enumerate(report.members):
        rows = parsed.findings[f"m-{i}"]
        assert [(r[1], r[2]) for r in rows] == [(f.code, f.cell or f.pointer) for f in m.report.findings]
        assert [r[3] for r in rows] == [f.message("ja") for f in m.report.findings]
        shown += len(rows)
    assert shown == sum(len(m.report.findings) for m in report.members) > 5


def test_nothing_is_fetched_from_outside(audited) -> None:
    """The page links only to its own anchors and loads nothing from outside (one inline script)."""
    _, page = audited
    parsed = _parse(page)
    assert parsed.links and all(value.startswith("#") for _, _, value in parsed.links), \
        [link for link in parsed.links if not link[2].startswith("#")]
    assert {value[1:] for _, _, value in parsed.links} <= parsed.ids  # every anchor leads somewhere
    text = page.decode("utf-8")
    assert not re.search(r"url\((?!#)|@import|<link|<iframe|<img|<object|<embed", text)
    assert text.count("<script") == 1 and "<script src" not in text


def test_a_hostile_name_is_text_not_markup(audited) -> None:
    """A name holding markup is escaped and shown as typed, in the roster and the charts."""
    report, page = audited
    text = page.decode("utf-8")
    assert "<script>alert" not in text and "<b>player" not in text
    assert "&lt;script&gt;alert(" in text and "&lt;b&gt;player&lt;/b&gt;" in text
    parsed = _parse(page)
    assert HOSTILE in "".join(parsed.text)  # shown as the player typed it, in the roster and in the chart
    assert "".join(parsed.text).count(HOSTILE[:20]) >= 3


def test_the_spent_bars_sum_the_breakdown_by_category(audited) -> None:
    """Each member's spent-points legend sums its breakdown by category, named in the report's language."""
    report, page = audited
    files = report.to_dict("ja")["files"]
    text = page.decode("utf-8")
    priced = 0
    for i, (m, entry) in enumerate(zip(report.members, files, strict=True)):
        expected: dict[str, int] = {}
        for line in entry["breakdown"]:
            part = line["pointer"].split("/")[1]
            expected[part] = expected.get(part, 0) + line["cost"]
        assert spent_by_category(m) == expected
        section = text[text.index(f'id="m-{i}"'):]
        section = section[:section.index("</section>")]
        legend = re.findall(r'class="swatch"[^>]*></span>([^<]*) (-?\d+)</li>', section)
        assert [int(c) for _, c in legend] == list(expected.values())
        priced += bool(expected)
    assert priced > 5
    assert "武装" in text and "能力値" in text  # categories named in the report's language


def test_one_party_chart_per_system_with_its_outliers(audited) -> None:
    """One party chart per system, with its median and each outlier named in its caption."""
    report, page = audited
    text = page.decode("utf-8")
    assert text.count("<svg") == len(report.party) == 3
    for n, system in enumerate(report.party):
        figure = text[text.index(f'id="party-{n}"'):]
        figure = figure[:figure.index("</figure>")]
        assert "Noto Sans CJK JP" in figure and "中央値" in figure
        outliers = [m.name for m in report.members
                    if any(f.code == "AUDIT_PARTY_OUTLIER" for f in m.report.findings) and m.report.system == system]
        caption = figure[figure.index("<figcaption>"):]
        assert all(name in caption for name in outliers if name and "<" not in name)


def test_the_report_in_english(audited) -> None:
    """The English page has English headings and no Japanese ones."""
    report, _ = audited
    page = html_report_bytes(report, "en").decode("utf-8")
    assert '<html lang="en">' in page and "GM audit report" in page and "Points spent by category" in page
    assert "名簿" not in page


def test_audit_writes_the_html_report(tmp_path: Path, capsys) -> None:
    """`audit -o audit.html` writes the HTML report (exit 1 for the broken samples)."""
    out = tmp_path / "audit.html"
    code = main(["audit", str(_folder(tmp_path)), "-o", str(out), "--no-annotated"])
    assert code == 1  # the broken samples
    parsed = _parse(out.read_bytes())
    assert len(parsed.roster) >= 10


# --- the bundled samples' report in a real browser -------------------------------------------------

def _samples_report(tmp_path: Path) -> Path:
    legacy = [p for suffix in ("xlsx", "xls", "ods") for p in sorted((SAMPLES / "legacy").glob(f"*.{suffix}"))]
    report = audit_paths([SAMPLES, SAMPLES / "broken", *legacy])
    target = tmp_path / "report.html"
    target.write_bytes(html_report_bytes(report, "ja"))
    return target


def _column(page, index: int) -> list[str]:
    return page.eval_on_selector_all(
        "#roster tbody tr:not([hidden])", f"rows => rows.map(r => r.cells[{index}].textContent.trim())")


def _numbers(values: list[str]) -> list[float]:
    return [float(v) for v in values if v]


def _not_blank(png: bytes) -> int:
    """How many colours the image has (a blank one has one)."""
    import io

    from PIL import Image

    image = Image.open(io.BytesIO(png)).convert("RGB")
    image.thumbnail((400, 400))
    return len(image.getcolors(maxcolors=1 << 16) or [])


# Each all-CJK text of a chart, its drawn length against its character count × font size: CJK
# glyphs are one em wide; a missing glyph's box (tofu) is not.
CJK_WIDTHS = """svg => Array.from(svg.querySelectorAll("text"))
  .filter(t => /^[\\u3000-\\u30ff\\u4e00-\\u9fff\\uff01-\\uff5e]{2,}$/.test(t.textContent.trim()))
  .map(t => [t.textContent.trim(), t.getComputedTextLength() / (parseFloat(getComputedStyle(t).fontSize)
                                                                 * t.textContent.trim().length)])"""
# 「経験」 drawn in the chart's font stack against two characters no font has (U+0378, U+0379:
# unassigned): tofu would draw the same missing-glyph boxes, real glyphs draw other pixels.
TOFU = """svg => { const font = "40px " + getComputedStyle(svg.querySelector("text")).fontFamily;
  const ink = s => { const c = document.createElement("canvas"); c.width = 120; c.height = 60;
    const x = c.getContext("2d"); x.font = font; x.textBaseline = "top"; x.fillText(s, 5, 5);
    return [x.measureText(s).width, Array.from(x.getImageData(0, 0, 120, 60).data.filter((v, i) => i % 4 === 3))]; };
  const [width, glyphs] = ink("経験"), [, tofu] = ink("\\u0378\\u0379");
  return [width, glyphs.filter(v => v > 0).length, glyphs.some((v, i) => v !== tofu[i])]; }"""


def test_the_samples_report_in_chromium(tmp_path: Path) -> None:
    """In Chromium the page loads cleanly from disk, sorts and filters its roster and draws its charts."""
    sync_playwright = playwright()
    report = _samples_report(tmp_path)
    shot = tmp_path / "report.png"
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=BROWSER_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 900})
            problems: list[str] = []
            requests: list[str] = []
            page.on("console", lambda msg: problems.append(msg.text) if msg.type == "error" else None)
            page.on("pageerror", lambda err: problems.append(str(err)))
            page.on("request", lambda req: requests.append(req.url))
            page.goto(report.as_uri(), wait_until="load")
            assert problems == []
            assert requests and all(url.startswith("file://") for url in requests), requests

            rows = page.locator("#roster tbody tr")
            total = rows.count()
            assert total > 40
            computed = ROSTER_COLUMNS.index("computed")
            before = _column(page, computed)
            heading = page.locator("#roster thead th").nth(computed)
            heading.click()
            ascending = _column(page, computed)
            assert heading.get_attribute("aria-sort") == "ascending"
            assert ascending != before and sorted(ascending) == sorted(before)
            numbers = _numbers(ascending)
            assert numbers == sorted(numbers) and len(numbers) > 10
            assert all(v == "" for v in ascending[len(numbers):])  # rows without a total go last
            heading.click()
            descending = _numbers(_column(page, computed))
            assert descending == sorted(numbers, reverse=True)
            assert page.locator("#roster thead th").nth(0).get_attribute("aria-sort") is None

            page.select_option("#filters select[name=system]", "pp")
            systems = _column(page, ROSTER_COLUMNS.index("system"))
            assert systems and set(systems) == {"pp"} and len(systems) < total
            page.select_option("#filters select[name=status]", "error")
            statuses = page.eval_on_selector_all("#roster tbody tr:not([hidden])", "rs => rs.map(r => r.dataset.status)")
            assert statuses and set(statuses) == {"error"} and len(statuses) < len(systems)
            assert page.locator("#shown").text_content() == f"表示中 {len(statuses)} / {total} 件"
            page.select_option("#filters select[name=system]", "")
            page.select_option("#filters select[name=status]", "")
            assert page.locator("#roster tbody tr:not([hidden])").count() == total

            charts = page.locator("figure.chart svg")
            assert charts.count() == 3
            for i in range(charts.count()):
                svg = charts.nth(i)
                box = svg.bounding_box()
                assert box is not None and box["width"] > 300 and box["height"] > 100
                widths = svg.evaluate(CJK_WIDTHS)
                assert len(widths) >= 4, widths  # the legend's words at least
                assert all(0.9 < ratio < 1.1 for _, ratio in widths), widths
                width, inked, differs = svg.evaluate(TOFU)
                assert abs(width - 80) < 4 and inked > 100 and differs, (width, inked, differs)
                assert _not_blank(svg.screenshot()) > 3

            page.screenshot(path=str(shot), full_page=True)
            assert problems == []

            still = browser.new_page(java_script_enabled=False)  # read without script: all rows, no filters
            still.goto(report.as_uri(), wait_until="load")
            assert still.locator("#roster tbody tr:visible").count() == total
            assert not still.locator("#filters").is_visible()
        finally:
            browser.close()
    png = shot.read_bytes()
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 50_000
    assert _not_blank(png) > 20

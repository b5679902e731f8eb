"""converter.web.page under Pyodide 314 in Node, loaded as the page's worker loads it: the site
`mechasheet web` builds (its Pyodide core and every wheel site.json names, from local files),
the samples under /in. Its check reports are the CLI's (so jsonschema 4.17.3 there finds what
4.26 finds here), its audit.json the CLI's bytes.

Skips without Node, or when the pinned assets are neither cached nor downloadable, except under
CI=true; skips on a branch without the site's build (converter.web.build).
"""
from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import zipfile
from pathlib import Path

import pytest

from ..needs import missing

from .test_page import BAD_CATALOG, BROKEN, HOUSE, LEGACY, OPTIONS, ROOT, cli, cli_options

HERE = Path(__file__).resolve().parent

SCRIPT = r'''
import json, shutil, sys, time
cases = json.load(open("/work/cases.json", encoding="utf-8"))
shutil.copytree("/work/in", "/in")
from converter.web import page
out = {"platform": sys.platform, "version": json.loads(page.version()), "checks": [], "seconds": {}}
t = time.perf_counter()
out["warm"] = json.loads(page.warm())
out["seconds"]["warm"] = time.perf_counter() - t
session = page.Session()
for n, req in enumerate(cases["checks"]):
    t = time.perf_counter()
    out["checks"].append(json.loads(session.check(json.dumps({"root": "/in", **req}))))
    out["seconds"][f"check {n}"] = time.perf_counter() - t
out["english"] = json.loads(session.report(json.dumps({"lang": "en"})))
t = time.perf_counter()
out["audit"] = json.loads(session.audit(json.dumps({"root": "/in", **cases["audit"]})))
out["seconds"]["audit"] = time.perf_counter() - t
if "ok" in out["audit"]:
    shutil.copy(out["audit"]["ok"]["file"], "/work/audit.zip")
from converter.check.schema import validate
t = time.perf_counter()
out["schema"] = [[f.to_dict("en") for f in validate(doc, system)] for system, doc in cases["mangled"]]
out["seconds"]["schema"] = time.perf_counter() - t
out["modules"] = sorted({m.split(".")[0] for m in sys.modules} & {
    "jsonschema", "python_calamine", "openpyxl", "xlsxwriter", "pandas", "numpy", "matplotlib", "jinja2", "rich"})
json.dump(out, open("/work/out.json", "w", encoding="utf-8"), ensure_ascii=False)
'''

CHECKS = [{"paths": ["samples", *BROKEN, *LEGACY, "nowhere.json"]},
          {"paths": ["samples", *BROKEN], **OPTIONS, "lang": "en", "party": False},
          {"paths": ["samples/mailgear"], "catalog": BAD_CATALOG, "party": False}]
AUDIT = {"paths": ["samples/mailgear", "samples/legacy"], "house": HOUSE, "catalog": OPTIONS["catalog"]}
MANGLED_EVERY = 60  # one variant in so many of each sample's (tests/mangled.py): ~240 documents


def _mangled() -> list[tuple[str, object]]:
    """Documents with one value replaced or one key dropped, every system's samples and broken
    samples: what the schema check must answer alike under jsonschema 4.17.3 and 4.26."""
    from tests.mangled import samples, variants

    out = []
    for system in ("up", "mailgear", "pp"):
        for path in samples(system):
            docs = [doc for _, _, doc in variants(json.loads(path.read_text("utf-8")))]
            out += [(system, doc) for doc in docs[::MANGLED_EVERY]]
    return out


def _inputs(folder: Path) -> Path:
    """The samples and option files, laid out as the worker lays out dropped files."""
    shutil.copytree(ROOT / "samples", folder / "samples")
    (folder / "_options").mkdir()
    (folder / BAD_CATALOG).write_text('{"system": "mailgear-catalog", "weapons": "x"}', "utf-8")
    (folder / HOUSE).write_text('[party]\nbalance_tolerance = 0.1\n[budget]\npp = 150\n', "utf-8")
    return folder


def test_the_page_under_pyodide_reports_what_the_cli_reports(tmp_path: Path) -> None:
    """Under Pyodide (Node, the built site's wheels), Session.check gives the CLI's JSON report
    for every sample, broken sample and legacy file, with and without options; its English
    report the CLI's; its audit zip the CLI's audit.json; the schema check CPython's findings on
    mangled documents; pandas and matplotlib never loaded."""
    if importlib.util.find_spec("converter.web.build") is None:
        pytest.skip("the site's build (converter.web.build) is not on this branch")
    from converter.core.errors import MechasheetError
    from converter.web.build import build_site

    node = shutil.which("node")
    if node is None:
        missing("Node")
    try:
        site = build_site(tmp_path / "site")
    except MechasheetError as exc:  # offline and not cached
        missing("the site's pinned assets", str(exc))
    work = tmp_path / "work"
    _inputs(work / "in")
    (work / "run.py").write_text(SCRIPT, "utf-8")
    mangled = _mangled()
    (work / "cases.json").write_text(json.dumps({"checks": CHECKS, "audit": AUDIT, "mangled": mangled}), "utf-8")
    done = subprocess.run([str(node), str(HERE / "page_run.mjs"), str(site), str(work)], capture_output=True,
                          text=True, timeout=600)
    assert done.returncode == 0, done.stderr[-3000:]
    out = json.loads((work / "out.json").read_text("utf-8"))
    assert out["platform"] == "emscripten" and out["warm"] == {"ok": True}
    assert "jsonschema" in out["modules"] and "python_calamine" in out["modules"]
    assert not {"pandas", "numpy", "matplotlib", "jinja2", "rich"} & set(out["modules"])
    root = _inputs(tmp_path / "cli")
    for req, answer in zip(CHECKS, out["checks"], strict=True):
        assert "ok" in answer, answer
        _, printed = cli(root, "check", *req["paths"], "--format", "json", *cli_options(req))
        assert answer["ok"]["report"] == json.loads(printed), req
    assert [t["system"] for t in out["checks"][0]["ok"]["party"]] == ["mailgear", "pp", "up"]
    _, printed = cli(root, "check", *CHECKS[-1]["paths"], "--format", "json",
                     *cli_options({**CHECKS[-1], "lang": "en"}))
    assert out["english"] == {"ok": json.loads(printed)}
    assert "ok" in out["audit"], out["audit"]
    cli(root, "audit", *AUDIT["paths"], "-o", "audit.json", *cli_options(AUDIT))
    with zipfile.ZipFile(work / "audit.zip") as z:
        assert z.read("audit.json") == (root / "audit.json").read_bytes()
        assert sorted(n for n in z.namelist() if n != "audit.json") == sorted(
            p.relative_to(root).as_posix() for p in (root / "annotated").rglob("*") if p.is_file())
    from converter.check.schema import validate

    assert out["schema"] == [[f.to_dict("en") for f in validate(doc, system)] for system, doc in mangled]
    assert sum(map(len, out["schema"])) > len(mangled)  # the variants do break the schema
    print(json.dumps(out["seconds"]))

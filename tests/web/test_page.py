"""converter.web.page, what the browser page runs under Pyodide, gives what the command line
gives: each Session method called on samples copied under a root, compared with the CLI run
from that root (in this process, as tests/test_cli.py runs it)."""
from __future__ import annotations

import contextlib
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import pytest

from converter.cli import main
from converter.web.page import Session, version

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ["samples/broken/up", "samples/broken/mailgear", "samples/broken/pp"]
LEGACY = ["samples/legacy/up-two-units.xls", "samples/legacy/pp-skill-table.ods",
          "samples/legacy/up-label-beside.xlsx"]
OPTIONS = {"rules": ["damage_dice=every_die", "option_copies=error"],
           "catalog": "samples/mailgear/catalog-example.xlsx", "skills": "samples/pp/skills-example.txt"}
BAD_CATALOG = "_options/catalog.json"  # a catalog the schema refuses (findings, not an error)
HOUSE = "_options/house.toml"


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The samples as the page's worker lays them out (``/in/samples/...``), with option files."""
    where = tmp_path_factory.mktemp("in")
    shutil.copytree(ROOT / "samples", where / "samples")
    (where / "_options").mkdir()
    (where / BAD_CATALOG).write_text('{"system": "mailgear-catalog", "weapons": "x"}', "utf-8")
    (where / HOUSE).write_text('[party]\nbalance_tolerance = 0.1\n[budget]\npp = 150\n', "utf-8")
    return where


@pytest.fixture
def session(tmp_path: Path) -> Session:
    return Session(out=tmp_path / "out")


def cli(folder: Path, *argv: str) -> tuple[int, str]:
    """``mechasheet ARGV`` run from ``folder``: its exit code and what it printed."""
    code, out, _ = cli_err(folder, *argv)
    return code, out


def cli_err(folder: Path, *argv: str) -> tuple[int, str, str]:
    """``mechasheet ARGV`` run from ``folder``: its exit code, standard output and error."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.chdir(folder), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


def cli_options(req: dict[str, Any]) -> list[str]:
    """The CLI's options for a request's rules, catalog, skills and language."""
    argv = [a for r in req.get("rules", []) for a in ("--rule", r)]
    argv += [a for k in ("catalog", "skills", "house") if req.get(k) for a in (f"--{k}", req[k])]
    return argv + ["--lang", req.get("lang", "ja")]


def ok(answer: str) -> Any:
    """The value of an ``{"ok": ...}`` answer (a failure shows the error)."""
    parsed = json.loads(answer)
    assert "ok" in parsed, parsed
    return parsed["ok"]


CASES = {
    "samples": {"paths": ["samples"]},
    "broken-and-legacy": {"paths": BROKEN + LEGACY + ["nowhere.json"], "lang": "en"},
    "options": {"paths": ["samples"], **OPTIONS},
    "schema-broken-catalog": {"paths": ["samples/mailgear", "samples/broken/mailgear"], "catalog": BAD_CATALOG,
                              "lang": "en"},
}


@pytest.mark.parametrize("case", CASES)
def test_check_equals_the_cli_json_report(root: Path, session: Session, case: str) -> None:
    """Session.check's report is the dict `mechasheet check PATHS --format json` prints."""
    req = {"root": str(root), **CASES[case]}
    got = ok(session.check(json.dumps(req)))
    _, printed = cli(root, "check", *req["paths"], "--format", "json", *cli_options(req))
    assert got["report"] == json.loads(printed)
    assert got["report"]["files"]  # every file of the case reported


def test_report_in_english_equals_the_cli(root: Path, session: Session) -> None:
    """Session.report re-renders the last check in English as `check --lang en` prints it."""
    req = {"root": str(root), "paths": ["samples"] + BROKEN, **OPTIONS}
    japanese = ok(session.check(json.dumps(req)))["report"]
    english = ok(session.report(json.dumps({"lang": "en"})))
    _, printed = cli(root, "check", *req["paths"], "--format", "json", *cli_options({**req, "lang": "en"}))
    assert english == json.loads(printed)
    assert english != japanese and ok(session.report(json.dumps({"lang": "ja"}))) == japanese


def test_check_reports_progress_per_file(root: Path, session: Session) -> None:
    """on_progress(done, total, path) counts up to its total, once per file checked and audited."""
    calls: list[tuple[int, int, str]] = []
    report = ok(session.check(json.dumps({"root": str(root), "paths": ["samples/up"]}),
                              lambda done, total, path: calls.append((done, total, path))))["report"]
    files = [f["path"] for f in report["files"]]
    assert [c[0] for c in calls] == list(range(1, 2 * len(files) + 1))
    assert {c[1] for c in calls} == {2 * len(files)}
    assert [c[2] for c in calls] == files + files


def test_party_is_the_audits(root: Path, session: Session, tmp_path: Path) -> None:
    """The party tables hold the members and left-out sheets of `audit`'s party view, per system,
    under the house rules given; in the language asked (Session.party)."""
    req = {"root": str(root), "paths": ["samples", "samples/legacy"], "house": HOUSE}
    party = ok(session.check(json.dumps(req)))["party"]
    audit = _cli_audit(root, tmp_path, req, "--no-annotated")
    assert [t["system"] for t in party] == list(audit["party"])
    for table in party:
        view = audit["party"][table["system"]]
        assert [r[0] for r in table["rows"]] == [m["file"] for m in view["members"] + view["left_out"]]
        assert [r[3] for r in table["rows"]] == [m["value"] for m in view["members"] + view["left_out"]]
        assert len(table["columns"]) == len(table["rows"][0]) and table["title"]
    english = ok(session.party(json.dumps({"lang": "en"})))
    assert [[r[:-1] for r in t["rows"]] for t in english] == [[r[:-1] for r in t["rows"]] for t in party]
    assert english[0]["columns"] != party[0]["columns"]  # the headings (and the notes) in English


def test_audit_report_is_the_clis_audit_json(root: Path, session: Session, tmp_path: Path) -> None:
    """Session.audit_report gives the dict `audit --no-annotated -o audit.json` writes for the
    last check's files, homemade workbooks read by their labels."""
    req = {"root": str(root), "paths": ["samples/pp", "samples/legacy"], "house": HOUSE, "lang": "en",
           "party": False}
    ok(session.check(json.dumps(req)))
    got = ok(session.audit_report(json.dumps({"lang": "en"})))
    assert got == _cli_audit(root, tmp_path, req, "--no-annotated")
    assert any(f["audit"]["sheet"] for f in got["files"])  # legacy sheets read by their labels


def test_party_later_is_the_party_now(root: Path, tmp_path: Path) -> None:
    """A check with "party": false leaves the party out (null); Session.party then reads the
    files the audit's way and gives the tables the check would have given."""
    req = {"root": str(root), "paths": ["samples", "samples/legacy"], "house": HOUSE, "lang": "en"}
    now = ok(Session(out=tmp_path / "a").check(json.dumps(req)))
    later = Session(out=tmp_path / "b")
    first = ok(later.check(json.dumps({**req, "party": False})))
    assert first == {**now, "party": None}
    calls: list[int] = []
    assert ok(later.party(json.dumps({"lang": "en"}), lambda done, total, path: calls.append(done))) == now["party"]
    assert calls == list(range(1, len(calls) + 1)) and len(calls) > len(first["report"]["files"])


def test_warm_prepares_without_changing_a_report(root: Path, session: Session) -> None:
    """warm() answers ok, and a check after it reports what a check without it reports."""
    from converter.web.page import warm

    before = ok(session.check(json.dumps({"root": str(root), "paths": ["samples/up"], "party": False})))
    assert json.loads(warm()) == {"ok": True}
    assert ok(session.check(json.dumps({"root": str(root), "paths": ["samples/up"], "party": False}))) == before


def _cli_audit(root: Path, scratch: Path, req: dict[str, Any], *more: str) -> dict[str, Any]:
    """`mechasheet audit PATHS -o audit.json` run from a copy of ``root`` (it writes beside the
    inputs); its report, and the copy's folder under ``scratch``/cli."""
    copy = scratch / "cli"
    shutil.copytree(root, copy)
    cli(copy, "audit", *req["paths"], "-o", "audit.json", *cli_options(req), *more)
    return json.loads((copy / "audit.json").read_text("utf-8"))


def test_audit_zip_holds_the_clis_report_and_copies(root: Path, session: Session, tmp_path: Path) -> None:
    """Session.audit's zip holds audit.json with the CLI's bytes and the annotated copies it
    writes, by the same names, each one a workbook that opens; the root is left as it was."""
    import openpyxl

    req = {"root": str(root), "paths": ["samples/mailgear", "samples/legacy"], "house": HOUSE, "rules": OPTIONS["rules"],
           "catalog": OPTIONS["catalog"]}
    before = sorted(p.relative_to(root) for p in root.rglob("*"))
    got = ok(session.audit(json.dumps(req)))
    assert got["name"] == "audit.zip" and got["mime"] == "application/zip"
    assert sorted(p.relative_to(root) for p in root.rglob("*")) == before
    _cli_audit(root, tmp_path, req)
    cli_root = tmp_path / "cli"
    copies = sorted(p.relative_to(cli_root).as_posix() for p in (cli_root / "annotated").rglob("*") if p.is_file())
    with zipfile.ZipFile(got["file"]) as z:
        assert sorted(z.namelist()) == sorted(["audit.json", *copies])
        assert z.read("audit.json") == (cli_root / "audit.json").read_bytes()
        assert len(copies) > 12  # the samples' workbooks and the legacy ones
        for name in copies:
            if name.endswith((".xlsx", ".xlsm")):
                book = openpyxl.load_workbook(io.BytesIO(z.read(name)), read_only=True)
                assert book.sheetnames == openpyxl.load_workbook(cli_root / name, read_only=True).sheetnames


@pytest.mark.parametrize("system, formulas", [("up", "native"), ("mailgear", "native"), ("pp", "native"),
                                              ("pp", "xlwings")])
def test_template_bytes_equal_the_clis(root: Path, session: Session, tmp_path: Path, system: str,
                                       formulas: str) -> None:
    """Session.template writes `mechasheet template SYSTEM`'s bytes (the writer's fixed date)."""
    got = ok(session.template(json.dumps({"system": system, "formulas": formulas})))
    cli(tmp_path, "template", system, "-o", "t.xlsx", "--formulas", formulas)
    assert got["name"] == f"{system}.xlsx"
    assert Path(got["file"]).read_bytes() == (tmp_path / "t.xlsx").read_bytes()


@pytest.mark.parametrize("doc", ["samples/up/l-map-combo.json", "samples/mailgear/veteran-custom.json",
                                 "samples/pp/veteran.json"])
def test_filled_sheet_is_the_clis_and_checks_as_its_document(root: Path, session: Session, tmp_path: Path,
                                                             doc: str) -> None:
    """Session.filled writes `mechasheet write`'s workbook, which `check` reads back to the
    document's own totals."""
    req = {"root": str(root), "path": doc, "catalog": OPTIONS["catalog"]}
    got = ok(session.filled(json.dumps(req)))
    shutil.copy(got["file"], tmp_path / got["name"])
    cli(root, "write", doc, "-o", str(tmp_path / "cli.xlsx"), "--catalog", OPTIONS["catalog"])
    assert Path(got["file"]).read_bytes() == (tmp_path / "cli.xlsx").read_bytes()
    _, sheet = cli(tmp_path, "check", got["name"], "--format", "json", "--catalog", str(root / OPTIONS["catalog"]))
    _, json_doc = cli(root, "check", doc, "--format", "json", "--catalog", OPTIONS["catalog"])
    read, source = json.loads(sheet)["files"][-1], json.loads(json_doc)["files"][-1]
    assert read["kind"] == "document" and read["valid"] == source["valid"]
    assert read["totals"] == source["totals"] and read["derived"] == source["derived"]


MAPPING = "_options/mapping.toml"


@pytest.mark.parametrize("src, to, options", [
    ("samples/up/l-super-robot.json", "pp", {}), ("samples/pp/veteran.xlsx", "mailgear", {}),
    ("samples/mailgear/veteran-custom.json", "up", {"catalog": OPTIONS["catalog"]}),
    ("samples/up/s-real-robot.json", "pp", {"mapping": MAPPING})])
def test_convert_gives_the_clis_document(root: Path, session: Session, src: str, to: str,
                                         options: dict[str, str]) -> None:
    """Session.convert's document (and its file) is `convert --format json`'s (with its
    --catalog or --mapping), its conversion the same."""
    (root / MAPPING).write_text('[parameters]\nspeed_per_grid = "1/2"\n', "utf-8")
    got = ok(session.convert(json.dumps({"root": str(root), "path": src, "to": to, "lang": "en", **options})))
    _, printed = cli(root, "convert", src, "--to", to, "--format", "json", "--lang", "en",
                     *[a for k, v in options.items() for a in (f"--{k}", v)])
    expected = json.loads(printed)
    assert got["document"] == expected["document"]
    assert got["conversion"] == expected["conversion"]
    assert json.loads(Path(got["file"]).read_text("utf-8")) == expected["document"]
    assert got["name"] == f"{Path(src).stem}.{to}.json" and got["text"].strip()


@pytest.mark.parametrize("src", ["samples/up/l-map-combo.json", "samples/pp/veteran.xlsx",
                                 "samples/mailgear/veteran-fortune.json", "samples/legacy/up-two-units.xls"])
def test_ccfolia_pieces_are_the_clis_one_json_value_each(root: Path, session: Session, tmp_path: Path,
                                                         src: str) -> None:
    """Each CCFOLIA piece parses as one JSON value and is the file `export --to ccfolia` writes."""
    got = ok(session.ccfolia(json.dumps({"root": str(root), "path": src})))
    cli(root, "export", src, "--to", "ccfolia", "-o", str(tmp_path / "cli"))
    written = sorted((tmp_path / "cli").glob("*.json"))
    assert sorted(got["names"]) == [p.stem for p in written] and got["skipped"] == []
    by_name = dict(zip(got["names"], got["pieces"], strict=True))
    for p in written:
        assert by_name[p.stem] + "\n" == p.read_text("utf-8")
        assert json.loads(by_name[p.stem])["kind"] == "character"


@pytest.mark.parametrize("src", ["samples/up/lll-carrier.xlsx", "samples/legacy/up-two-units.xls"])
def test_udonarium_zip_is_the_clis(root: Path, session: Session, tmp_path: Path, src: str) -> None:
    """Session.udonarium writes the zip(s) `export --to udonarium` writes, byte for byte."""
    got = ok(session.udonarium(json.dumps({"root": str(root), "path": src})))
    cli(root, "export", src, "--to", "udonarium", "-o", str(tmp_path / "cli"))
    written = sorted((tmp_path / "cli").glob("*.zip"))
    assert sorted(f["name"] for f in got["files"]) == [p.name for p in written]
    assert got["file"] == got["files"][0]["file"]
    for f in got["files"]:
        assert Path(f["file"]).read_bytes() == (tmp_path / "cli" / f["name"]).read_bytes()


@pytest.mark.parametrize("method, req, code, argv", [
    ("check", {"paths": ["samples/mailgear"], "catalog": "_options/broken.json"}, "INPUT_NOT_JSON",
     ["check", "samples/mailgear", "--catalog", "_options/broken.json"]),
    ("check", {"paths": ["samples/up"], "rules": ["damage_dice=sometimes"]}, None,
     ["check", "samples/up", "--rule", "damage_dice=sometimes"]),
    ("check", {"paths": ["_options/empty"]}, "NO_DOCUMENTS", ["check", "_options/empty"]),
    ("audit", {"paths": ["samples/up"], "house": "_options/broken.toml"}, "HOUSE_INVALID",
     ["audit", "samples/up", "-o", "audit.json", "--house", "_options/broken.toml"]),
    ("filled", {"path": "samples/up/l-map-combo.json", "rules": ["terrain=maybe"]}, None,
     ["write", "samples/up/l-map-combo.json", "-o", "x.xlsx", "--rule", "terrain=maybe"]),
    ("udonarium", {"path": "samples/mailgear/catalog-example.xlsx"}, "EXPORT_NOT_A_CHARACTER", None),
])
def test_errors_come_back_as_values_with_the_clis_code(root: Path, session: Session, method: str,
                                                       req: dict[str, Any], code: str | None,
                                                       argv: list[str] | None) -> None:
    """A refused request is {"error": {code, message, hint}}: the code of the error the CLI
    stops with, its message and hint as the CLI prints them (in the request's language), never
    an exception."""
    (root / "_options" / "broken.json").write_text("{", "utf-8")
    (root / "_options" / "broken.toml").write_text("colour = 1", "utf-8")
    (root / "_options" / "empty").mkdir(exist_ok=True)
    answer = json.loads(getattr(session, method)(json.dumps({"root": str(root), "lang": "en", **req})))
    assert list(answer) == ["error"] and set(answer["error"]) == {"code", "message", "hint"}
    error = answer["error"]
    assert error["code"] != "INTERNAL" and error["message"] and error["hint"]
    if code is not None:
        assert error["code"] == code
    if argv is not None:
        status, _, said = cli_err(root, *argv, "--lang", "en")
        assert status == 2 and said == f"mechasheet: {error['message']}\n  → {error['hint']}\n"
    assert not (root / "x.xlsx").exists() and not (root / "audit.json").exists()


def test_a_bad_request_is_an_internal_error_value(session: Session) -> None:
    """Requests the page should never send (not JSON, no path) are INTERNAL error values."""
    for method, request in [("check", "{"), ("filled", "{}"), ("template", '{"system": "gurps"}'),
                            ("report", "{}")]:
        answer = json.loads(getattr(session, method)(request))
        assert answer["error"]["code"] == "INTERNAL" and answer["error"]["message"], (method, answer)


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_rules_are_what_mechasheet_rules_lists(lang: str) -> None:
    """page.rules gives every reading `mechasheet rules` prints: each line of the listing, in
    its order, is one of its options or one of its values, with its label in the language."""
    from converter.web.page import rules

    readings = ok(rules(json.dumps({"lang": lang})))
    _, printed = cli(ROOT, "rules", "--lang", lang)
    default = "default" if lang == "en" else "既定"
    lines = []
    for r in readings:
        lines.append(f"{r['system']}: --rule {r['name']}=VALUE  ({r['label']}; {default} {r['default']})")
        lines += [f"    {value}: {label}" for value, label in r["values"].items()]
        assert r["default"] in r["values"]
    assert "\n".join(lines) + "\n" == printed


def test_version_is_the_packages() -> None:
    """version() names the installed mechasheet."""
    from converter.core.version import __version__

    assert json.loads(version()) == {"ok": __version__}


def test_the_page_loads_none_of_the_libraries_pyodide_lacks(root: Path, tmp_path: Path) -> None:
    """warm() and every method run with pandas, numpy, matplotlib, Jinja2, rich and
    jsonschema-rs unimportable, as under Pyodide (a fresh interpreter: only it shows what is
    imported); warm() has imported what a check needs."""
    script = f"""
import json, sys
for name in ("pandas", "numpy", "matplotlib", "jinja2", "rich", "jsonschema_rs", "xlwings"):
    sys.modules[name] = None
from converter.web.page import WARM_MODULES, Session, warm
assert json.loads(warm()) == {{"ok": True}}
assert all(m in sys.modules for m in WARM_MODULES + ("jsonschema", "converter.rules.pp.engine")), "not warmed"
s = Session(out={str(tmp_path / "out")!r})
base = {{"root": {str(root)!r}, "catalog": "samples/mailgear/catalog-example.xlsx"}}
calls = [("check", {{"paths": ["samples", "samples/legacy"]}}), ("party", {{"lang": "en"}}),
         ("audit", {{"paths": ["samples/up", "samples/legacy/pp-skill-table.ods"]}}),
         ("template", {{"system": "mailgear"}}), ("filled", {{"path": "samples/pp/veteran.json"}}),
         ("convert", {{"path": "samples/up/l-map-combo.json", "to": "pp"}}),
         ("ccfolia", {{"path": "samples/mailgear/veteran-custom.xlsx"}}),
         ("udonarium", {{"path": "samples/pp/veteran.json"}})]
for method, req in calls:
    answer = json.loads(getattr(s, method)(json.dumps({{**base, **req}})))
    assert "ok" in answer, (method, answer)
report = json.loads(s.report("{{}}"))["ok"]
assert not any(f["code"] == "INPUT_CRASHED" for fr in report["files"] for f in fr["findings"])
print("ok")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, timeout=300)
    assert done.stdout.strip() == "ok", done.stderr[-3000:]


def test_an_exclusive_write_works_without_hard_links(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where os has no link at all (Pyodide), write_atomic still writes a new file exclusively
    and refuses an existing one (the audit's outputs in the page)."""
    from converter.core.errors import OutputError
    from converter.io.files import write_atomic

    monkeypatch.delattr(os, "link")
    target = tmp_path / "audit.json"
    write_atomic(target, b"{}")
    assert target.read_bytes() == b"{}"
    with pytest.raises(OutputError):
        write_atomic(target, b"[]")
    assert target.read_bytes() == b"{}" and [p.name for p in tmp_path.iterdir()] == ["audit.json"]

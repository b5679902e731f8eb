"""The contract between the rules and every front end.

- the rules import and evaluate with the heavy libraries blocked (as under Pyodide), and give
  the same numbers as with them;
- the checker works without any reader;
- the JSON report of every sample carries its derived values, options, source and counts, and
  matches schemas/report.schema.json;
- a sheet's own rules readings (its ルール cells) are read back: a sheet written with any reading
  checks as its JSON document does under that reading, also after LibreOffice recalculates it;
  ``--rule`` wins and the report says so.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from converter import check_document, check_path, evaluate
from converter.cli import main
from converter.sheets.source import load_catalog
from converter.rules import system_ids
from converter.rules.options import option_declarations

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "samples"
CATALOG = SAMPLES / "mailgear" / ".catalog" / "catalog-example.json"
HEAVY = ("jsonschema", "openpyxl", "python_calamine", "xlsxwriter", "pandas", "xlwings", "numpy")


def _run_blocked(code: str, blocked: tuple[str, ...]) -> subprocess.CompletedProcess:
    """Run ``code`` in a fresh interpreter where importing any of ``blocked`` fails."""
    guard = (
        "import sys\n"
        f"BLOCKED = {blocked!r}\n"
        "class Block:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if any(name == b or name.startswith(b + '.') for b in BLOCKED):\n"
        "            raise ImportError(f'blocked for this test: {name}')\n"
        "        return None\n"
        "sys.meta_path.insert(0, Block())\n"
    )
    return subprocess.run([sys.executable, "-c", guard + code], cwd=ROOT, capture_output=True,
                          text=True, timeout=120)


# --- the rules: standard library only ----------------------------------------------------------

RULES_ONLY = """
import json, pathlib
from converter.rules import get_system, system_ids
from converter.rules.mailgear.catalog import Catalog
from converter.rules.pp.skills import parse_skill_list
root = pathlib.Path('samples')
catalog = Catalog.from_data(json.loads((root / 'mailgear/.catalog/catalog-example.json').read_text('utf-8')))
skills = parse_skill_list('操縦: 人型, 戦闘機\\n整備\\n', 'inline.txt', '.txt')
out = {}
for system in system_ids():
    rules = get_system(system)
    for p in sorted((root / system).glob('*.json')):
        doc = json.loads(p.read_text('utf-8'))
        if 'system' not in doc:
            continue
        ev = rules.evaluate_with(doc, None, {'catalog': catalog, 'skills': skills})
        out[str(p)] = {'total': ev.total, 'complete': ev.complete,
                       'codes': sorted(f.code for f in ev.findings),
                       'derived': {k: d.value for k, d in ev.derived.items()}}
print(json.dumps(out, ensure_ascii=False, sort_keys=True))
blocked = [m for m in sys.modules if m.split('.')[0] in BLOCKED]
assert not blocked, blocked
"""


def test_rules_evaluate_with_heavy_libraries_blocked() -> None:
    """Every system imports and evaluates every sample with jsonschema, openpyxl, calamine,
    XlsxWriter, pandas, xlwings and numpy blocked, and gives what the full install gives."""
    done = _run_blocked(RULES_ONLY, HEAVY)
    assert done.returncode == 0, done.stderr
    blocked = json.loads(done.stdout)
    from converter.rules.pp.skills import parse_skill_list

    catalog = load_catalog(CATALOG)
    skills = parse_skill_list("操縦: 人型, 戦闘機\n整備\n", "inline.txt", ".txt")
    assert len(blocked) >= 15
    for path, got in blocked.items():
        doc = json.loads(Path(ROOT, path).read_text(encoding="utf-8"))
        ev = evaluate(doc, None, {"catalog": catalog, "skills": skills})
        assert got == {"total": ev.total, "complete": ev.complete,
                       "codes": sorted(f.code for f in ev.findings),
                       "derived": {k: d.value for k, d in ev.derived.items()}}, path


def test_checker_needs_no_reader() -> None:
    """converter.check runs with converter.io and converter.sheets blocked: it takes Sources."""
    code = """
from converter.check import check_source, check_sources
from converter.core.source import Origin, Source
import json
doc = json.loads(open('samples/up/m-mobile-suit.json', encoding='utf-8').read())
doc['stats']['hp'] += 1
src = Source('sheet.xlsx', Origin('workbook', template='up/1'), document=doc,
             cells={'/stats/hp': 'ユニット!C8'}, options={'damage_dice': 'every_die'})
report = check_sources([src])
fr = report.files[0]
assert fr.options['damage_dice'] == {'value': 'every_die', 'from': 'file'}, fr.options
assert any(f.code == 'UP_STAT_STEP' and f.cell == 'ユニット!C8' for f in fr.findings), fr.findings
import sys
assert not [m for m in sys.modules if m.startswith(('converter.io', 'converter.sheets'))]
print('ok')
"""
    done = _run_blocked(code, ("converter.io", "converter.sheets"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "ok"


# --- the JSON report ------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sample_report(tmp_path_factory) -> dict:
    """`check samples/ --format json` with the example catalog, as printed."""
    import contextlib
    import io

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        code = main(["check", str(SAMPLES), "--format", "json", "--catalog", str(CATALOG)])
    assert code == 0
    return json.loads(buf.getvalue())


def test_report_matches_its_schema(sample_report: dict) -> None:
    """The report of every sample validates against schemas/report.schema.json."""
    import jsonschema

    schema = json.loads((ROOT / "schemas" / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(sample_report)


def test_every_sample_report_carries_its_derived_values(sample_report: dict) -> None:
    """Each document's report has derived values, typed, with dice parts for rolls."""
    documents = [fr for fr in sample_report["files"] if fr["kind"] == "document"]
    assert {fr["system"] for fr in documents} == set(system_ids())
    for fr in documents:
        assert fr["derived"], fr["path"]
        assert fr["complete"] is True, fr["path"]
    by_system = {fr["system"]: fr for fr in documents}
    fortune = next(fr for fr in documents if fr["path"].endswith("veteran-custom.json"))["derived"]["/derived/fortune"]
    assert fortune["type"] == "roll" and fortune["roll"]["sides"] == 6
    assert fortune["value"] == f"{fortune['roll']['dice']}d6" + (
        f"{fortune['roll']['fixed']:+d}" if fortune["roll"]["fixed"] else "")
    damage = by_system["up"]["derived"]["/weapons/0/effective_damage"]
    assert damage["value"] == f"{damage['roll']['dice']}D10+{damage['roll']['fixed']}"
    pilot = next(fr for fr in documents if fr["path"].endswith("pilot_with_machine.json"))["derived"]
    assert pilot["/derived/initiative"]["type"] == "integer"
    assert "/derived/unit_initiative" in pilot


def test_report_head_counts_and_sources(sample_report: dict) -> None:
    """The head carries version, options and counts; each file its source and options in force."""
    from converter import __version__

    assert sample_report["version"] == __version__ and sample_report["options"] == {}
    s = sample_report["summary"]
    assert s["files"] == len(sample_report["files"])
    findings = [f for fr in sample_report["files"] for f in fr["findings"]]
    findings += [f for st in sample_report["sets"].values() for f in st.get("findings", [])]
    assert (s["errors"], s["warnings"], s["infos"]) == tuple(
        sum(1 for f in findings if f["severity"] == level) for level in ("error", "warning", "info"))
    for fr in sample_report["files"]:
        if fr["path"].endswith(".xlsx") and fr["kind"] == "document":
            from converter.sheets.layout import load_layout

            assert fr["source"]["kind"] == "workbook"
            assert fr["source"]["template"] == load_layout(fr["system"]).template  # today's version
            assert {o["from"] for o in fr["options"].values()} == {"file"}
        elif fr["kind"] == "document":
            assert fr["source"] == {"kind": "json"}
            assert {o["from"] for o in fr["options"].values()} == {"default"}
    assert sample_report["sets"]["mailgear.party"]["unit_level"] is not None


# --- a sheet's own rules readings -------------------------------------------------------------------

def _non_default_readings() -> list[tuple[str, str, str]]:
    return [(system, name, value) for system in system_ids()
            for name, decl in option_declarations(system).items()
            for value in decl["values"] if value != decl["default"]]


SAMPLE_OF = {"up": SAMPLES / "up" / "l-map-combo.json", "mailgear": SAMPLES / "mailgear" / "veteran-custom.json",
             "pp": SAMPLES / "pp" / "veteran.json"}


def _context(system: str) -> dict:
    return {"catalog": load_catalog(CATALOG)} if system == "mailgear" else {}


def _document(system: str, options: dict[str, str]) -> dict:
    """The system's sample with its written total as the engine computes it under ``options``."""
    doc = json.loads(SAMPLE_OF[system].read_text(encoding="utf-8"))
    if "declared_total" in doc:
        doc["declared_total"] = evaluate(doc, options, _context(system)).total
    return doc


def _where(report) -> set[tuple[str, str, str]]:
    return {(f.code, f.level.value, f.pointer) for f in report.findings}


@pytest.fixture(scope="module")
def written_with_readings(tmp_path_factory) -> dict[tuple[str, str, str], Path]:
    """One sheet per non-default rules reading of every system, written with that reading."""
    from converter.sheets import sheet_bytes

    out = {}
    base = tmp_path_factory.mktemp("readings")
    for system, name, value in _non_default_readings():
        doc = _document(system, {name: value})
        path = base / f"{system}-{name}-{value}.xlsx"
        path.write_bytes(sheet_bytes(doc, {name: value}, _context(system)))
        out[(system, name, value)] = path
    return out


@pytest.mark.parametrize("reading", _non_default_readings(), ids="-".join)
def test_sheet_checks_under_its_own_reading(reading, written_with_readings) -> None:
    """Checked without --rule, a sheet written with a reading is checked under it: the same
    findings as its JSON document checked with that --rule (no UP_TOTAL_MISMATCH)."""
    system, name, value = reading
    report = check_path(written_with_readings[reading], None, _context(system))
    assert report.options[name] == {"value": value, "from": "file"}
    expected = check_document(_document(system, {name: value}), {name: value}, "", _context(system))
    assert _where(report) == _where(expected)
    assert report.computed == expected.computed and report.value("/derived/fortune") == expected.value("/derived/fortune")


@pytest.fixture(scope="module")
def recalculated_readings(written_with_readings, tmp_path_factory) -> dict[tuple[str, str, str], Path]:
    """The same sheets after LibreOffice recalculated every formula."""
    from .sheets.libreoffice import recalculate

    base = tmp_path_factory.mktemp("readings-lo")
    keys = list(written_with_readings)
    out = recalculate([written_with_readings[k] for k in keys], base / "out", base / "profile")
    return dict(zip(keys, out, strict=True))


@pytest.mark.parametrize("reading", _non_default_readings(), ids="-".join)
def test_recalculated_sheet_checks_under_its_own_reading(reading, recalculated_readings) -> None:
    """After LibreOffice recalculates, the sheet still checks as its document under its reading."""
    system, name, value = reading
    report = check_path(recalculated_readings[reading], None, _context(system))
    expected = check_document(_document(system, {name: value}), {name: value}, "", _context(system))
    assert report.options[name]["value"] == value
    assert _where(report) == _where(expected)


def test_rule_on_the_command_line_wins_and_is_reported(written_with_readings) -> None:
    """--rule overrides the sheet's reading; an info finding at the ルール cell says so."""
    sheet = written_with_readings[("up", "damage_dice", "every_die")]
    report = check_path(sheet, {"damage_dice": "first_free"})
    assert report.options["damage_dice"] == {"value": "first_free", "from": "rule"}
    (note,) = [f for f in report.findings if f.code == "OPTION_OVERRIDDEN"]
    assert note.level.value == "info" and note.cell.startswith("ルール!")
    assert note.params == {"label_ja": "ダメージのダイス", "label_en": "damage dice", "sheet": "every_die",
                           "rule": "first_free"}
    # The written total was computed under every_die: under first_free it differs.
    assert any(f.code == "UP_TOTAL_MISMATCH" for f in report.findings)


def test_unknown_reading_typed_on_the_sheet_is_a_warning(written_with_readings, tmp_path) -> None:
    """A value the option does not offer, typed into a ルール cell: a warning there, the default used."""
    import openpyxl

    src = written_with_readings[("up", "damage_dice", "every_die")]
    wb = openpyxl.load_workbook(src)
    sheet, ref = next(iter(wb.defined_names["up.options.damage_dice"].destinations))
    wb[sheet][ref.replace("$", "")] = "全部有料"
    edited = tmp_path / "edited.xlsx"
    wb.save(edited)
    report = check_path(edited)
    (warning,) = [f for f in report.findings if f.code == "SHEET_OPTION_UNKNOWN"]
    assert warning.level.value == "warning" and warning.cell == f"{sheet}!{ref.replace('$', '')}"
    assert report.options["damage_dice"] == {"value": "first_free", "from": "default"}


def test_ci_has_libreoffice() -> None:
    """Under CI=true the recalculation above may not skip."""
    if os.environ.get("CI") == "true":
        from .sheets.libreoffice import soffice

        assert soffice()


def test_a_document_states_its_readings(tmp_path) -> None:
    """A JSON document's ``rules`` are its readings: checked under them, reported from the file."""
    doc = _document("up", {"damage_dice": "every_die"})
    doc["rules"] = {"damage_dice": "every_die"}
    path = tmp_path / "unit.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    report = check_path(path)
    assert report.options["damage_dice"] == {"value": "every_die", "from": "file"}
    under_rule = check_document(_document("up", {"damage_dice": "every_die"}), {"damage_dice": "every_die"})
    assert _where(report) == _where(under_rule)
    assert not any(f.code == "UP_TOTAL_MISMATCH" for f in report.findings)
    assert check_document(doc).options["damage_dice"]["from"] == "file"
    doc["rules"] = {"damage_dice": "all"}  # not a reading: the schema names it, the default is used
    report = check_document(doc)
    assert report.options["damage_dice"]["from"] == "default"
    assert any(f.code == "SCHEMA_ENUM" and f.pointer == "/rules/damage_dice" for f in report.findings)


def test_write_and_read_carry_the_readings(tmp_path, capsys) -> None:
    """write takes the document's readings onto the ルール sheet; read gives them back in ``rules``."""
    doc = _document("up", {"damage_dice": "every_die", "weapon_cap": "off"})
    doc["rules"] = {"damage_dice": "every_die"}
    src = tmp_path / "unit.json"
    src.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    sheet = tmp_path / "unit.xlsx"
    assert main(["write", str(src), "-o", str(sheet), "--rule", "weapon_cap=off"]) == 0
    assert main(["read", str(sheet), "-o", str(tmp_path / "back.json")]) == 0
    back = json.loads((tmp_path / "back.json").read_text(encoding="utf-8"))
    assert back["rules"] == {"damage_dice": "every_die", "weapon_cap": "off"}
    report = check_path(sheet)
    assert report.options["damage_dice"] == {"value": "every_die", "from": "file"}
    assert report.options["weapon_cap"] == {"value": "off", "from": "file"}
    capsys.readouterr()

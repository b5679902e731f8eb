"""The command line's extra inputs: a mailgear catalog, a pp skill list, the party view."""
from __future__ import annotations

import json
from pathlib import Path

from converter.cli import main

ROOT = Path(__file__).resolve().parent.parent
CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_catalog_enables_its_checks_and_the_party_unit_level(capsys):
    """JSON pilots alone: catalog checks skipped and no unit level; with --catalog, the
    catalog-table info findings go away and the party gets its unit level."""
    pilots = [str(p) for p in sorted((ROOT / "samples" / "mailgear").glob("*.json"))]
    code, out, _ = _run(capsys, "check", *pilots, "--format", "json")
    report = json.loads(out)
    assert code == 0
    assert any(f["code"] == "MG_CATALOG_TABLE_MISSING" for fr in report["files"] for f in fr["findings"])
    assert report["sets"]["mailgear.party"]["unit_level"] is None
    assert report["sets"]["mailgear.party"]["members"] == len(pilots)
    code, out, _ = _run(capsys, "check", str(ROOT / "samples" / "mailgear"), "--format", "json",
                        "--catalog", str(CATALOG))
    report = json.loads(out)
    assert code == 0
    assert report["files"][0]["system"] == "mailgear-catalog"
    assert not any(f["code"] == "MG_CATALOG_TABLE_MISSING" for fr in report["files"] for f in fr["findings"])
    party = report["sets"]["mailgear.party"]
    assert party["floor"] == party["total"] // party["members"] and party["unit_level"] is not None


def test_mailgear_reports_no_point_total(capsys):
    """A system without point costs reports no computed total (null), not 0."""
    code, out, _ = _run(capsys, "check", str(ROOT / "samples" / "mailgear" / "starting-pilot.json"),
                        "--format", "json")
    assert json.loads(out)["files"][0]["totals"] == {"computed": None, "declared": None, "budget": None}


def test_catalog_files_are_checked_as_catalogs(tmp_path: Path, capsys):
    """A catalog JSON (or catalog workbook) in a searched folder is checked as a catalog, not
    reported as a document of an unknown system, and its own errors are found."""
    (tmp_path / "catalog.json").write_text(CATALOG.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "catalog.xlsx").write_bytes((ROOT / "samples" / "mailgear" / "catalog-example.xlsx").read_bytes())
    doc = ROOT / "samples" / "pp" / "ordinary_person.json"
    (tmp_path / doc.name).write_text(doc.read_text(encoding="utf-8"), encoding="utf-8")
    code, out, _ = _run(capsys, "check", str(tmp_path), "--format", "json")
    report = json.loads(out)
    assert code == 0
    assert {Path(f["path"]).name: f["system"] for f in report["files"]} == {
        "catalog.json": "mailgear-catalog", "catalog.xlsx": "mailgear-catalog", doc.name: "pp"}
    broken = json.loads(CATALOG.read_text(encoding="utf-8"))
    broken["levels"] = "not a table"
    (tmp_path / "catalog.json").write_text(json.dumps(broken, ensure_ascii=False), encoding="utf-8")
    code, out, _ = _run(capsys, "check", str(tmp_path / "catalog.json"))
    assert code == 1


def test_group_skill_list_turns_unknown_skill_into_known(tmp_path: Path, capsys):
    """--skills FILE: a skill named in the group's list is no longer an unknown-skill info."""
    doc = json.loads((ROOT / "samples" / "pp" / "pilot_with_machine.json").read_text(encoding="utf-8"))
    doc.setdefault("skills", []).append({"name": "射撃管制", "level": 0})
    doc.pop("declared_total", None)
    path = tmp_path / "p.json"
    path.write_text(json.dumps(doc, ensure_ascii=False), encoding="utf-8")
    _, out, _ = _run(capsys, "check", str(path), "--format", "json")
    codes = [f["code"] for f in json.loads(out)["files"][0]["findings"]]
    skills = tmp_path / "skills.txt"
    skills.write_text("射撃管制\n", encoding="utf-8")
    _, out, _ = _run(capsys, "check", str(path), "--format", "json", "--skills", str(skills))
    codes_with = [f["code"] for f in json.loads(out)["files"][0]["findings"]]
    assert len(codes_with) == len(codes) - 1


def test_missing_skill_list_is_exit_2(capsys, tmp_path: Path):
    """A --skills file that does not exist stops with exit 2 and names it."""
    code, _, err = _run(capsys, "check", str(ROOT / "samples" / "pp"), "--skills", str(tmp_path / "no.txt"))
    assert code == 2 and "no.txt" in err


def test_catalog_schema_command(capsys):
    """`mechasheet schema mailgear-catalog` prints the committed catalog schema."""
    code, out, _ = _run(capsys, "schema", "mailgear-catalog")
    assert code == 0
    assert out == (ROOT / "schemas" / "mailgear-catalog.schema.json").read_text(encoding="utf-8")


def test_party_uses_the_catalog_a_pilot_workbook_carries(capsys):
    """Pilot sheets written with a catalog give the party its unit level without --catalog."""
    code, out, _ = _run(capsys, "check", str(ROOT / "samples" / "mailgear" / "veteran-custom.xlsx"),
                        "--format", "json")
    party = json.loads(out)["sets"]["mailgear.party"]
    assert code == 0 and party["members"] == 1 and party["unit_level"] is not None

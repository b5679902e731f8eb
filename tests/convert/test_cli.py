"""`mechasheet convert`: the account printed (Japanese by default, --lang en, --format json), the
document written as .json or .xlsx (read back as a valid template of the target), never over an
input; --mapping overrides anchors and names the file and key of a mistake."""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from converter.check import check_document
from converter.cli import main
from converter.sheets import read_sheet

ROOT = Path(__file__).resolve().parents[2]
SUIT = ROOT / "samples" / "up" / "m-mobile-suit.json"
CATALOG = ROOT / "samples" / "mailgear" / ".catalog" / "catalog-example.json"


def _run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_json_output_is_the_target_document(tmp_path: Path, capsys) -> None:
    """-o OUT.json: a pp document with the carried source; the account on the terminal in Japanese."""
    out = tmp_path / "suit.pp.json"
    code, text, _ = _run(capsys, "convert", str(SUIT), "--to", "pp", "-o", str(out))
    assert code == 0
    doc = json.loads(out.read_text("utf-8"))
    assert doc["system"] == "pp" and doc["machine"]["name"] == "ガルディア試作二号機"
    assert doc["extra"]["mechasheet:conversion"]["source"] == json.loads(SUIT.read_text("utf-8"))
    assert "変換: up → pp" in text and "使った目安" in text and "GM が決めること" in text


def test_anchor_authorities_in_the_readers_words(tmp_path: Path, capsys) -> None:
    """The anchors' authority says 「このツールの提案」 and 「カタログ」 in Japanese, never the
    internal "(proposal)" or "(catalog)"; English keeps "proposal"; a seed's line stays as it is."""
    code, text, _ = _run(capsys, "convert", str(SUIT), "--to", "mailgear", "-o", str(tmp_path / "a.json"))
    assert code == 0 and "(proposal)" not in text and "(catalog)" not in text
    anchors = text.split("使った目安")[1].split("変換元の項目")[0]
    assert "(カタログ)" in anchors and "(seed 000:28-62)" in anchors
    code, text, _ = _run(capsys, "convert", str(SUIT), "--to", "pp", "-o", str(tmp_path / "b.json"))
    assert "(このツールの提案)" in text and "proposal" not in text
    code, text, _ = _run(capsys, "convert", str(SUIT), "--to", "pp", "--lang", "en", "-o", str(tmp_path / "c.json"))
    assert "(proposal)" in text


@pytest.mark.parametrize("to", ["up", "mailgear", "pp"])
def test_xlsx_output_reads_back_as_the_target(tmp_path: Path, capsys, to: str) -> None:
    """-o OUT.xlsx: the target's filled template, read back to the same document (the carried
    source included), which the target's check accepts by its schema."""
    src = ROOT / "samples" / "mailgear" / "veteran-custom.json" if to != "mailgear" else SUIT
    out = tmp_path / f"out.{to}.xlsx"
    code, _, err = _run(capsys, "convert", str(src), "--to", to, "-o", str(out), "--catalog", str(CATALOG))
    assert code in (0, 1), err
    doc, findings, _ = read_sheet(out)
    assert doc["system"] == to
    assert doc["extra"]["mechasheet:conversion"]["source"] == json.loads(src.read_text("utf-8"))
    assert [f.code for f in check_document(doc).findings if f.code.startswith("SCHEMA_")] == []
    back = tmp_path / "back.json"
    assert _run(capsys, "convert", str(out), "--to", json.loads(src.read_text("utf-8"))["system"],
                "-o", str(back))[0] in (0, 1)
    assert json.loads(back.read_text("utf-8")) == json.loads(src.read_text("utf-8"))


def test_the_input_is_never_overwritten(tmp_path: Path, capsys) -> None:
    """-o naming the input is refused (exit 2), with or without --force; the input is unchanged."""
    src = tmp_path / "suit.json"
    shutil.copy(SUIT, src)
    before = src.read_bytes()
    for extra in ((), ("--force",)):
        code, _, err = _run(capsys, "convert", str(src), "--to", "pp", "-o", str(src), *extra)
        assert code == 2 and "suit.json" in err
    assert src.read_bytes() == before


def test_json_account_in_english(capsys) -> None:
    """--format json --lang en: the conversion (findings, target findings, account) and the document."""
    code, text, _ = _run(capsys, "convert", str(SUIT), "--to", "mailgear", "--format", "json", "--lang", "en")
    got = json.loads(text)
    assert code == 0 and got["output"] is None and got["document"]["system"] == "mailgear"
    assert got["conversion"]["findings"][0]["code"] == "CONVERT_EXAMPLE_CATALOG"
    assert got["conversion"]["account"]["source"][0]["pointer"] == "/system"
    assert got["conversion"]["account"]["decisions"][0].startswith("the pilot")


def test_refusal_has_its_reason(capsys) -> None:
    """A pp character with no machine into up: exit 2, the reason in the user's language."""
    code, _, err = _run(capsys, "convert", str(ROOT / "samples/pp/veteran.json"), "--to", "up", "--lang", "en")
    assert code == 2 and "has no machine" in err


def test_mapping_overrides_an_anchor(tmp_path: Path, capsys) -> None:
    """A user's anchor row replaces the packaged one: pp 耐久性 3/6/12 makes HP 240 (grade 1.2) 7.2 → 7."""
    mapping = tmp_path / "ours.toml"
    mapping.write_text('[[anchors]]\nquantity = "durability"\nsystem = "pp"\nfield = "/machine/durability"\n'
                       'values = [3, 6, 12]\n', "utf-8")
    code, text, _ = _run(capsys, "convert", str(SUIT), "--to", "pp", "--mapping", str(mapping), "--format", "json")
    got = json.loads(text)
    assert code == 0 and got["document"]["machine"]["durability"] == 7
    assert any(a["values"] == [3, 6, 12] and a["source"].startswith("ours.toml") for a in got["conversion"]["account"]["anchors"])


@pytest.mark.parametrize("body,key", [
    ("[weights]\nx = 1\n", "weights"),
    ("[parameters]\nspeed = 1\n", "parameters.speed"),
    ("[parameters]\nspeed_per_grid = \"fast\"\n", "parameters.speed_per_grid"),
    ('[[anchors]]\nquantity = "durability"\nsystem = "up"\nvalues = [3, 2, 1]\n', "anchors[0].values"),
    ('[[anchors]]\nquantity = "armour"\nsystem = "pp"\nvalues = [1, 2, 3]\n', "anchors[0]"),
    ("not toml = = 1\n", "-"),
])
def test_a_bad_mapping_names_file_and_key(tmp_path: Path, capsys, body: str, key: str) -> None:
    """Each mistake in a mapping file stops the command (exit 2) naming the file and the key."""
    mapping = tmp_path / "bad.toml"
    mapping.write_text(body, "utf-8")
    code, _, err = _run(capsys, "convert", str(SUIT), "--to", "pp", "--mapping", str(mapping), "--lang", "en")
    assert code == 2
    assert f"{mapping}: {key}:" in err
    code, _, err = _run(capsys, "convert", str(SUIT), "--to", "pp", "--mapping", str(mapping), "--lang", "ja")
    assert code == 2 and f"{mapping} の {key}:" in err
    assert re.search(r"[ぁ-んァ-ン]", err.split(f"{key}:", 1)[1]), "the reason is in Japanese too"


def test_a_source_with_errors_converts_with_a_note() -> None:
    """A pp character over its budget converts, and the conversion says first that its source has
    errors of its own, naming the file, the count and the codes (issue 35, item 7)."""
    from converter.convert.files import convert_file, render_text

    src = ROOT / "samples/broken/pp/over_budget.json"
    result, written = convert_file(src, "mailgear")
    assert written is None
    note = result.findings[0]
    assert (note.code, note.level.value) == ("CONVERT_SOURCE_ERRORS", "error")
    assert note.params["count"] >= 1 and "PP_OVER_BUDGET" in note.params["codes"]
    assert note.message("ja") in render_text(result, "ja") and str(src) in note.message("en")
    clean, _ = convert_file(ROOT / "samples/pp/veteran.json", "mailgear")
    assert not any(f.code == "CONVERT_SOURCE_ERRORS" for f in clean.findings)


def test_a_source_with_errors_converts_with_exit_one(tmp_path: Path, capsys) -> None:
    """A source whose own check has errors converts, says so first (CONVERT_SOURCE_ERRORS), exits 1."""
    src = ROOT / "samples" / "broken" / "up" / "over-budget.json"
    code, text, _ = _run(capsys, "convert", str(src), "--to", "pp", "-o", str(tmp_path / "x.pp.json"))
    assert code == 1
    assert (tmp_path / "x.pp.json").exists()
    code, text, _ = _run(capsys, "convert", str(src), "--to", "pp", "--format", "json")
    codes = [f["code"] for f in json.loads(text)["conversion"]["findings"]]
    assert codes[0] == "CONVERT_SOURCE_ERRORS" and code == 1

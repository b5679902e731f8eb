"""The golden conversions in samples/converted/: each sample converted into each other system,
committed with its account, equal to a fresh conversion (regenerate with
samples/make_converted.py); each written to its target's template reads back as itself and
passes the target's schema; `mechasheet check samples/` passes the folder over."""
from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

from converter.check import check_document
from converter.convert import convert
from converter.convert.files import workbook_bytes
from converter.io import expand_paths
from converter.sheets.source import load_catalog
from converter.sheets import read_sheet

ROOT = Path(__file__).resolve().parents[2]
FOLDER = ROOT / "samples" / "converted"
_spec = importlib.util.spec_from_file_location("make_converted", ROOT / "samples" / "make_converted.py")
make_converted = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(make_converted)
FRESH = make_converted.converted()
DOCUMENTS = sorted(n for n in FRESH if n.endswith(".json"))


def test_every_sample_has_every_other_system() -> None:
    """One account (.txt) per sample and other system; a document beside each but the refusals."""
    samples = make_converted.sample_documents()
    want = {f"{p.stem}.{t}.txt" for p in samples for t in make_converted.SYSTEMS
            if t != json.loads(p.read_text("utf-8"))["system"]}
    assert {n for n in FRESH if n.endswith(".txt")} == want
    refused = {n[: -len(".txt")] for n in want if FRESH[n].startswith("CONVERT_")}
    assert refused == {"ordinary_person.up", "veteran.up"}  # pp characters with no machine
    assert {n[: -len(".json")] for n in DOCUMENTS} == {n[: -len(".txt")] for n in want} - refused


def test_the_committed_files_are_a_fresh_conversion() -> None:
    """samples/converted/ holds exactly what samples/make_converted.py writes, byte for byte."""
    committed = {p.name: p.read_text("utf-8") for p in FOLDER.iterdir() if p.name != "README.md"}
    assert sorted(committed) == sorted(FRESH)
    assert [n for n in FRESH if committed[n] != FRESH[n]] == []


@pytest.mark.parametrize("name", DOCUMENTS)
def test_a_golden_conversion_is_a_valid_sheet_of_its_target(tmp_path: Path, name: str) -> None:
    """Written to the target's template (with its 変換メモ), read back it is the document, and the
    target's schema accepts it."""
    doc = json.loads(FRESH[name])
    source = doc["extra"]["mechasheet:conversion"]["source"]
    catalog = load_catalog(make_converted.EXAMPLE_CATALOG)
    result = convert(source, doc["system"], catalog=catalog)
    assert result.document == doc
    out = tmp_path / "out.xlsx"
    out.write_bytes(workbook_bytes(result, catalog))
    back, findings, _ = read_sheet(out)
    assert back == doc and findings == []
    assert [f.code for f in check_document(back).findings if f.code.startswith("SCHEMA_")] == []


def test_checking_the_samples_passes_the_converted_folder_over() -> None:
    """samples/converted/ is skipped like broken/ and legacy/ (its documents repeat the samples'
    names, which the audit would report as duplicates), and read when named."""
    found = expand_paths([ROOT / "samples"])
    assert not any("converted" in p.relative_to(ROOT / "samples").parts for p in found)
    assert len(expand_paths([FOLDER])) == len(DOCUMENTS)

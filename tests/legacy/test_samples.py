"""The legacy samples (samples/legacy/): each homemade sheet imports to the documents written by
hand beside it, whatever its layout or format (.xlsx, .xls, .ods)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from converter.legacy.profile import load_profile
from converter.legacy.sources import read_import

LEGACY = Path(__file__).resolve().parents[2] / "samples" / "legacy"
EXPECTED = sorted((LEGACY / ".expected").glob("*.json"))


def _imported(path: Path, profile: str | None = None) -> list[dict]:
    out = []
    for source, _ in read_import(path, profile=load_profile(LEGACY / profile) if profile else None):
        doc = json.loads(json.dumps(source.document, ensure_ascii=False))
        assert doc["extra"]["import"].pop("file") == str(path)
        out.append(doc)
    return out


def _sample(expected: Path) -> Path:
    stem = expected.stem
    return next(p for p in LEGACY.iterdir() if p.stem == stem and p.suffix != ".json")


def test_at_least_ten_samples_across_systems_and_formats() -> None:
    """Ten homemade sheets or more, every system, .xls and .ods among them, and an older template."""
    samples = [_sample(e) for e in EXPECTED]
    assert len(samples) + 1 >= 10  # + up-template-v1.xlsx, read by names
    assert {json.loads(e.read_text("utf-8"))["documents"][0]["system"] for e in EXPECTED} == {"up", "pp", "mailgear"}
    assert {p.suffix for p in samples} >= {".xlsx", ".xls", ".ods"}


@pytest.mark.parametrize("expected", EXPECTED, ids=lambda p: p.stem)
def test_sample_imports_to_its_documents(expected: Path) -> None:
    """Each homemade sample workbook imports to its expected documents."""
    data = json.loads(expected.read_text(encoding="utf-8"))
    assert _imported(_sample(expected), data.get("profile")) == data["documents"]


def test_a_sheet_of_an_older_template_imports_by_its_names() -> None:
    """up-template-v1.xlsx (template up/1) is read through its defined names: the unit's document,
    no label guessing, no cell left over."""
    [(source, record)] = read_import(LEGACY / "up-template-v1.xlsx")
    assert source.origin.kind == "workbook" and source.origin.template == "up/1"
    want = json.loads((LEGACY.parent / "up" / "l-transform-marine.json").read_text(encoding="utf-8"))
    want["weapons"][1].pop("terrain_b")  # up/1 had no Ｂ位置 column
    got = {k: v for k, v in source.document.items() if k != "rules"}
    assert got == {k: v for k, v in want.items() if k != "rules"}
    assert record.system == "up" and record.unmapped == {}


def test_the_expected_documents_are_the_makers() -> None:
    """Each .expected/<name>.json is what samples/legacy/make_legacy.py says the sheet holds (the
    documents are written by hand there, not copied from an import)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("make_legacy", LEGACY / "make_legacy.py")
    maker = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(maker)
    assert sorted(s["name"] for s in maker.SAMPLES) == sorted(e.stem for e in EXPECTED)
    for s in maker.SAMPLES:
        data = json.loads((LEGACY / ".expected" / f"{s['name']}.json").read_text(encoding="utf-8"))
        assert data["documents"] == s["documents"], s["name"]

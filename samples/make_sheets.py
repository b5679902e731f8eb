"""Regenerate the filled sheets beside every sample document: python samples/make_sheets.py

tests/sheets/test_samples_sheets.py fails when a committed sheet differs from what this writes.
"""
from __future__ import annotations

import json
from pathlib import Path

from converter.sheets import write_sheet, write_template

HERE = Path(__file__).resolve().parent
SHEET_SYSTEMS = ("up", "pp", "mailgear")
# The invented example catalog, and the workbook that carries it (the template with its catalog
# sheet filled and no pilot): `mechasheet write DOC --catalog samples/mailgear/catalog-example.xlsx`.
# `mechasheet check` reports either file as a catalog, not as a pilot.
EXAMPLE_CATALOG = HERE / "mailgear" / ".catalog" / "catalog-example.json"
EXAMPLE_CATALOG_SHEET = HERE / "mailgear" / "catalog-example.xlsx"


def sample_documents() -> list[Path]:
    """Every sample document (catalogs, which have no ``system``, are not documents)."""
    return sorted(p for system in SHEET_SYSTEMS for p in (HERE / system).glob("*.json")
                  if "system" in json.loads(p.read_text(encoding="utf-8")))


def context_for(doc_path: Path, doc: dict) -> dict:
    """The engine's extra inputs a sample names: the mailgear catalog in the sample folder's
    ``.catalog/`` whose name is the document's ``catalog``."""
    name = doc.get("catalog")
    if doc.get("system") != "mailgear" or not isinstance(name, str):
        return {}
    from converter.sheets.source import load_catalog

    for path in sorted((doc_path.parent / ".catalog").glob("*.json")):
        catalog = load_catalog(path)
        if catalog.name == name:
            return {"catalog": catalog}
    return {}


def main() -> None:
    for doc_path in sample_documents():
        doc = json.loads(doc_path.read_text(encoding="utf-8"))
        print(write_sheet(doc, doc_path.with_suffix(".xlsx"), force=True,
                          context=context_for(doc_path, doc)))
    from converter.sheets.source import load_catalog

    print(write_template("mailgear", EXAMPLE_CATALOG_SHEET, force=True,
                         context={"catalog": load_catalog(EXAMPLE_CATALOG)}))


if __name__ == "__main__":
    main()

"""Regenerate the filled sheets beside every sample document: python samples/make_sheets.py

tests/sheets/test_samples_sheets.py fails when a committed sheet differs from what this writes.
"""
from __future__ import annotations

import json
from pathlib import Path

from converter.sheets import write_sheet

HERE = Path(__file__).resolve().parent
SHEET_SYSTEMS = ("up", "pp")


def sample_documents() -> list[Path]:
    return sorted(p for system in SHEET_SYSTEMS for p in (HERE / system).glob("*.json"))


def main() -> None:
    for doc_path in sample_documents():
        doc = json.loads(doc_path.read_text(encoding="utf-8"))
        print(write_sheet(doc, doc_path.with_suffix(".xlsx"), force=True))


if __name__ == "__main__":
    main()

"""docs/conversion.md prints the mapping's anchors, parameters and direction tables as the data holds them."""
from __future__ import annotations

from pathlib import Path

from converter.convert.tables_doc import BEGIN, END, generated

ROOT = Path(__file__).resolve().parents[2]


def test_the_page_matches_the_data() -> None:
    """The generated part of the page is byte for byte what mapping.toml gives (regenerate it
    with converter.convert.tables_doc.generated())."""
    text = (ROOT / "docs" / "conversion.md").read_text(encoding="utf-8")
    start, end = text.index(BEGIN), text.index(END) + len(END)
    assert text[start:end] + "\n" == generated()


def test_every_direction_has_a_table_and_decisions() -> None:
    """Six directions, each with its table and a numbered list of the GM's decisions."""
    page = generated()
    for source in ("up", "mailgear", "pp"):
        for target in ("up", "mailgear", "pp"):
            if source != target:
                section = page.split(f"### {source} → {target}\n")[1].split("\n### ")[0]
                assert "| from | to | kind |" in section
                assert "\n1. " in section

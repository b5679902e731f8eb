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


def test_what_a_gm_gets_is_the_samples_conversions_today() -> None:
    """The page's "what a GM gets" table is what converting every sample in every direction
    gives now (regenerate with converter.convert.tables_doc.what_a_gm_gets)."""
    import json

    from converter.convert.tables_doc import GM_BEGIN, GM_END, what_a_gm_gets
    from converter.sheets.source import load_catalog

    samples = [(f"{p.parent.name}/{p.stem}", json.loads(p.read_text("utf-8"))) for s in ("up", "mailgear", "pp")
               for p in sorted((ROOT / "samples" / s).glob("*.json")) if "system" in json.loads(p.read_text("utf-8"))]
    catalog = load_catalog(ROOT / "samples/mailgear/.catalog/catalog-example.json")
    text = (ROOT / "docs" / "conversion.md").read_text(encoding="utf-8")
    start, end = text.index(GM_BEGIN), text.index(GM_END) + len(GM_END)
    assert text[start:end] + "\n" == what_a_gm_gets(samples, catalog)

"""Regenerate the golden conversions: python samples/make_converted.py

Each sample document (samples/up, samples/pp, samples/mailgear) converted into each other system,
with the example catalog for mailgear's anchors, as samples/converted/<sample>.<target>.json (the
document; its account and the carried source under extra["mechasheet:conversion"]) and
<sample>.<target>.txt (the account as `mechasheet convert` prints it, or the refusal's reason).
tests/convert/test_converted_samples.py fails when a committed file differs from what this writes.
"""
from __future__ import annotations

import json
from pathlib import Path

from converter.convert import convert
from converter.convert.files import render_text
from converter.core.errors import InputError
from converter.sheets.source import load_catalog
from converter.io.files import dump_document

HERE = Path(__file__).resolve().parent
OUT = HERE / "converted"
SYSTEMS = ("up", "mailgear", "pp")
EXAMPLE_CATALOG = HERE / "mailgear" / ".catalog" / "catalog-example.json"


def sample_documents() -> list[Path]:
    """Every sample document of the three systems (catalogs, which have no ``system``, are not)."""
    return sorted(p for system in SYSTEMS for p in (HERE / system).glob("*.json")
                  if "system" in json.loads(p.read_text(encoding="utf-8")))


def converted() -> dict[str, str]:
    """File name → text of every golden conversion (the .json only when it converts)."""
    catalog = load_catalog(EXAMPLE_CATALOG)
    out: dict[str, str] = {}
    for path in sample_documents():
        doc = json.loads(path.read_text(encoding="utf-8"))
        for target in SYSTEMS:
            if target == doc["system"]:
                continue
            name = f"{path.stem}.{target}"
            assert f"{name}.txt" not in out, f"two samples named {path.stem}"
            try:
                result = convert(doc, target, catalog=catalog)
            except InputError as exc:  # a refusal, with its reason
                out[f"{name}.txt"] = f"{exc.code}: {exc.message('ja')}\n"
                continue
            out[f"{name}.json"] = dump_document(result.document)
            out[f"{name}.txt"] = render_text(result, "ja")
    return out


def main() -> None:
    OUT.mkdir(exist_ok=True)
    files = converted()
    for stale in set(p.name for p in OUT.iterdir()) - set(files) - {"README.md"}:
        (OUT / stale).unlink()
    for name, text in files.items():
        (OUT / name).write_text(text, encoding="utf-8")
        print(OUT / name)


if __name__ == "__main__":
    main()

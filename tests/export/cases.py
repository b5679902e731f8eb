"""The export's golden cases: every sample document and every legacy sample, each character or
unit one case, and how each target renders it as text (the Udonarium zip's XML, not its bytes).

``python -m tests.export.cases`` rewrites the golden files after an intended change; the tests
hold a fresh export to them.
"""
from __future__ import annotations

import io
import zipfile
from pathlib import Path

from converter.export.ccfolia import clipboard_text
from converter.export.files import export_paths, file_stems
from converter.export.model import Piece
from converter.export.udonarium import zip_bytes
from converter.legacy.profile import load_profile

ROOT = Path(__file__).resolve().parents[2]
GOLDEN = Path(__file__).resolve().parent / "golden"
SAMPLES = ROOT / "samples"
#: the legacy samples that need their layout profile (docs/import.md)
PROFILES = {"pp-club-2015.xlsx": SAMPLES / "legacy" / "profiles" / "club-2015-pp.toml"}
SUFFIXES = {"ccfolia": ".json", "udonarium": ".xml", "palette": ".txt"}


def inputs() -> list[Path]:
    """Every sample document of the three systems, then every legacy sample workbook."""
    docs = sorted(p for system in ("up", "mailgear", "pp") for p in (SAMPLES / system).glob("*.json"))
    legacy = sorted(p for p in (SAMPLES / "legacy").iterdir()
                    if p.is_file() and p.suffix in (".xlsx", ".xls", ".ods"))
    return docs + legacy


def pieces_of(path: Path) -> list[Piece]:
    """The pieces of one input (a legacy workbook's profile applied when it needs one)."""
    profile = load_profile(PROFILES[path.name]) if path.name in PROFILES else None
    done = export_paths([path], None, profile)
    assert all(e.piece is not None for e in done), [(e.path, [f.code for f in e.findings]) for e in done]
    return [e.piece for e in done]


def rendered(piece: Piece, target: str, stem: str) -> str:
    """``piece`` as ``target`` writes it, as text."""
    if target == "ccfolia":
        return clipboard_text(piece) + "\n"
    if target == "palette":
        return piece.palette_text()
    with zipfile.ZipFile(io.BytesIO(zip_bytes(piece, stem))) as zf:
        return zf.read(f"{stem}.xml").decode("utf-8")


def golden_cases() -> list[tuple[str, Piece, str]]:
    """(case name, piece, file stem) for every piece of every input."""
    out = []
    for path in inputs():
        pieces = pieces_of(path)
        folder = "legacy" if path.parent.name == "legacy" else path.parent.name
        for piece, stem in zip(pieces, file_stems(pieces), strict=True):
            out.append((f"{folder}/{path.stem}--{stem}", piece, stem))
    return out


def main() -> None:
    for name, piece, stem in golden_cases():
        for target, suffix in SUFFIXES.items():
            out = GOLDEN / target / f"{name}{suffix}"
            out.parent.mkdir(parents=True, exist_ok=True)
            out.write_text(rendered(piece, target, stem), encoding="utf-8")
            print(out.relative_to(ROOT))


if __name__ == "__main__":
    main()

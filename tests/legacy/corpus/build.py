"""Write a corpus layout (``<name>.toml``) as the workbook a group would have made, and score an
import of it against the layout's ground truth.

A layout file::

    class = "roster"                 # which failure class of issue 36 it covers
    format = "xlsx"                  # or "xls" / "ods": the committed <name>.<format> is read
    sheet = "名簿"
    hidden_rows = [3]                # 1-based, as a spreadsheet shows them
    hidden_cols = ["C"]
    merged = ["A1:C1"]
    system = "pp"                    # given as --system (default: detected)
    profile = "profiles/x.toml"      # read with this layout profile
    [cells]
    A1 = "名前"
    [sheets."二枚目".cells]          # more sheets
    [[doc]]                          # each document the sheet holds, in order
    "/name" = ["A2", "ユウ"]         # pointer = [cell, value as the document holds it]
    "/skills/0" = ["H2", { name = "操縦", level = 3 }]

Values compare exactly; an object compares the keys it names.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from converter.core.pointers import get

HERE = Path(__file__).parent


def layouts() -> list[Path]:
    return sorted(HERE.glob("*.toml"))


def load(path: Path) -> dict[str, Any]:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def write_xlsx(spec: dict[str, Any], out: Path) -> Path:
    """The layout as an .xlsx (openpyxl): its cells, hidden rows and columns, merged ranges."""
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = spec.get("sheet", "Sheet1")
    _fill(sheet, spec)
    for name, more in spec.get("sheets", {}).items():
        _fill(book.create_sheet(name), more)
    book.save(out)
    return out


def _fill(sheet: Any, spec: dict[str, Any]) -> None:
    for a1, value in spec.get("cells", {}).items():
        sheet[a1] = value
    for r in spec.get("hidden_rows", ()):
        sheet.row_dimensions[r].hidden = True
    for c in spec.get("hidden_cols", ()):
        sheet.column_dimensions[c].hidden = True
    for rng in spec.get("merged", ()):
        sheet.merge_cells(rng)


def workbook(path: Path, tmp: Path) -> Path:
    """The workbook of the layout at ``path``: written into ``tmp`` (.xlsx) or the committed file."""
    spec = load(path)
    fmt = spec.get("format", "xlsx")
    if fmt != "xlsx":
        return path.with_suffix("." + fmt)
    return write_xlsx(spec, tmp / (path.stem + ".xlsx"))


# --- scoring ---------------------------------------------------------------------------------------

@dataclass
class Score:
    """How an import of one layout compares with its ground truth."""

    layout: str
    klass: str
    fields: int = 0
    right: int = 0
    wrong: list[str] = field(default_factory=list)  # a value other than the truth, no finding at its cell
    flagged: list[str] = field(default_factory=list)  # other than the truth, a finding names its cell
    lost: list[str] = field(default_factory=list)  # absent, its cell neither kept nor named
    kept: list[str] = field(default_factory=list)  # absent, its cell kept in extra or named by a finding
    misplaced: list[str] = field(default_factory=list)  # absent, found in another document
    refused: list[str] = field(default_factory=list)  # absent, its file reported not imported at all
    documents: tuple[int, int] = (0, 0)  # (expected, imported)


def resolve(doc: Any, pointer: str) -> Any:
    """The value at ``pointer`` (its leading / optional), or _MISSING."""
    return get(doc, "/" + pointer.strip("/"), _MISSING)


_MISSING = object()


def same(got: Any, want: Any) -> bool:
    if isinstance(want, dict):
        return isinstance(got, dict) and all(same(got.get(k, _MISSING), v) for k, v in want.items())
    if isinstance(want, list):
        return isinstance(got, list) and len(got) == len(want) and all(map(same, got, want))
    if isinstance(want, float) or isinstance(got, float):
        return isinstance(got, (int, float)) and not isinstance(got, bool) and abs(got - want) < 1e-9
    return type(got) is type(want) and got == want


def score(path: Path, sources: list[Any]) -> Score:
    """Each ground-truth value against the documents ``sources`` (read_import's) hold."""
    spec = load(path)
    result = Score(path.stem, spec["class"])
    docs = [s for s in sources if s.document is not None]
    result.documents = (len(spec["doc"]), len(docs))
    for k, truth in enumerate(spec["doc"]):
        doc_source = _match(truth, docs, k)
        for pointer, (cell, want) in truth.items():
            result.fields += 1
            where = f"{path.stem}#{k}{pointer}@{cell}"
            got = resolve(doc_source.document, pointer) if doc_source is not None else _MISSING
            if got is not _MISSING and same(got, want):
                result.right += 1
            elif got is not _MISSING:
                (result.flagged if _named(doc_source, cell) else result.wrong).append(f"{where}: {got!r}")
            elif any(same(resolve(o.document, pointer), want) for o in docs if o is not doc_source):
                result.misplaced.append(where)
            elif any(_kept(o, cell) for o in docs):
                result.kept.append(where)
            elif not docs and sources:  # the file is reported unimported (LEGACY_NO_SYSTEM, ...)
                result.refused.append(where)
            else:
                result.lost.append(where)
    return result


def _match(truth: dict[str, Any], docs: list[Any], k: int) -> Any:
    """The imported document that is this truth's character: the one with its name, else the k-th."""
    for pointer in ("/name", "/pilot/name"):
        if pointer in truth:
            for d in docs:
                if resolve(d.document, pointer) == truth[pointer][1]:
                    return d
    return docs[k] if k < len(docs) else None


def _named(source: Any, cell: str) -> bool:
    return any(f.cell.split("!")[-1] == cell for f in source.findings)


def _kept(source: Any, cell: str) -> bool:
    imp = source.document.get("extra", {}).get("import", {})
    return cell in imp.get("unmapped", {}) or cell in imp.get("hidden", {}) or _named(source, cell)


def run(tmp: Path) -> list[Score]:
    """Every layout written, imported (read_import, as ``mechasheet import`` reads it) and scored."""
    from converter.legacy.profile import load_profile
    from converter.legacy.sources import read_import

    scores = []
    for path in layouts():
        spec = load(path)
        profile = load_profile(HERE / spec["profile"]) if "profile" in spec else None
        sources = [s for s, _ in read_import(workbook(path, tmp), spec.get("system"), profile)]
        scores.append(score(path, sources))
    return scores


def figures(scores: list[Score]) -> str:
    """The corpus figures as a Markdown table: fields right per class, and the failures."""
    classes: dict[str, list[Score]] = {}
    for s in scores:
        classes.setdefault(s.klass, []).append(s)
    lines = ["| class | layouts | fields | right | wrong (no finding) | flagged | kept | refused | misplaced | lost |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for name, group in [*classes.items(), ("all", scores)]:
        n = sum(s.fields for s in group)
        right = sum(s.right for s in group)
        lines.append(f"| {name} | {len(group)} | {n} | {right} ({100 * right / n:.1f} %) | "
                     f"{sum(len(s.wrong) for s in group)} | {sum(len(s.flagged) for s in group)} | "
                     f"{sum(len(s.kept) for s in group)} | {sum(len(s.refused) for s in group)} | "
                     f"{sum(len(s.misplaced) for s in group)} | "
                     f"{sum(len(s.lost) for s in group)} |")
    docs = sum(s.documents[0] for s in scores), sum(min(s.documents) for s in scores)
    lines.append(f"\ndocuments: {docs[0]} expected, {docs[1]} imported")
    return "\n".join(lines)


if __name__ == "__main__":
    import sys
    import tempfile

    with tempfile.TemporaryDirectory() as out:
        got = run(Path(out))
    print(figures(got))
    if "-v" in sys.argv:
        for s in got:
            for kind in ("wrong", "flagged", "misplaced", "lost", "refused", "kept"):
                for item in getattr(s, kind):
                    print(kind, item)

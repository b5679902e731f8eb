"""The roster: one row per character or unit of an import run, as a pandas DataFrame.

Groups analyse their sheets in notebooks (``converter.roster(paths)``); the import command writes
the same table as ``roster.csv`` (UTF-8 with a byte-order mark, so Excel opens it in Japanese) and
``roster.xlsx``.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping

from .core.findings import Severity

if TYPE_CHECKING:
    import pandas

    from .importer import Entry

COLUMNS = ("file", "sheet", "system", "name", "player", "confidence", "computed", "declared", "budget",
           "errors", "warnings", "unmapped")


def roster_row(entry: "Entry") -> dict[str, Any]:
    """One entry's row: where it came from, who it is, its totals and how many problems it has."""
    fr, rec = entry.report, entry.record
    doc = fr.document or {}
    pilot = doc.get("pilot") if isinstance(doc.get("pilot"), Mapping) else {}
    name = doc.get("name") or pilot.get("name")
    player = doc.get("player") or pilot.get("player") or (doc.get("pilot") if fr.system == "up" else None)
    levels = [f.level for f in fr.findings]
    return {"file": rec.file, "sheet": rec.sheet, "system": fr.system or rec.system, "name": name,
            "player": player, "confidence": rec.confidence, "computed": fr.computed,
            "declared": fr.declared, "budget": fr.budget, "errors": levels.count(Severity.ERROR),
            "warnings": levels.count(Severity.WARNING), "unmapped": len(rec.unmapped)}


def roster_frame(entries: Iterable["Entry"]) -> "pandas.DataFrame":
    import pandas

    frame = pandas.DataFrame([roster_row(e) for e in entries], columns=list(COLUMNS))
    for column in ("computed", "declared", "budget"):
        frame[column] = frame[column].astype("Int64")  # a missing total stays missing, not NaN float
    return frame


def roster(paths: Iterable[str | Path], *, system: str | None = None, jobs: int = 1) -> "pandas.DataFrame":
    """Import the workbooks at ``paths`` (nothing written) and return their roster."""
    from .importer import import_files

    return import_files(paths, system=system, jobs=jobs).roster()


def write_roster(frame: "pandas.DataFrame", outdir: Path, *, force: bool = False,
                 inputs: Iterable[str] = ()) -> list[Path]:
    """``roster.csv`` and ``roster.xlsx`` in ``outdir``, each written whole or not at all."""
    from .io.files import write_atomic

    inputs = list(inputs)
    csv = frame.to_csv(index=False).encode("utf-8-sig")
    buffer = io.BytesIO()
    frame.to_excel(buffer, index=False, sheet_name="roster", engine="xlsxwriter")
    return [write_atomic(outdir / "roster.csv", csv, force=force, inputs=inputs),
            write_atomic(outdir / "roster.xlsx", buffer.getvalue(), force=force, inputs=inputs)]

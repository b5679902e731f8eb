"""A workbook to import, as Sources: one per character or unit it holds, whatever its layout.

A workbook made from one of our templates (any version) is read by its defined names, as
``check`` reads it. Any other is read by its labels (:mod:`.reader`): each sheet is given to the
system its labels say (or the one named), and split where it holds several characters. Nothing is
dropped: cells no field took, and sheets no system fits, are kept in the document's ``extra``
under ``import`` with their addresses and values as written.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.errors import InputError
from ..core.findings import Finding
from ..core.source import DOCUMENT, Origin, Source, unreadable
from ..io.xlsx_package import check_spreadsheet
from .grid import SUFFIXES, Grid, address, read_grids
from .labels import legacy_systems, system_labels
from .profile import Profile
from .reader import Imported, detect, read_grid

#: the Origin's profile of a sheet read by its labels (a profile file names itself instead)
LABELS = "labels"
TEMPLATE_SUFFIXES = (".xlsx", ".xlsm")


@dataclass(slots=True)  # a folder's thousands are kept to the end of an import
class ImportRecord:
    """What the import report says of one Source beyond the check: where in the file it was,
    which system and how sure, and which cells no field took."""

    file: str
    sheet: str | None = None
    region: str | None = None
    system: str | None = None
    confidence: float | None = None
    unmapped: dict[str, Any] = field(default_factory=dict)
    scores: dict[str, float] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "sheet": self.sheet, "region": self.region, "system": self.system,
                "confidence": self.confidence, "unmapped": len(self.unmapped),
                "unmapped_cells": sorted(self.unmapped, key=_cell_order)}


def read_import(path: str | Path, system: str | None = None, profile: Profile | None = None, *,
                scan_first: bool = True) -> list[tuple[Source, ImportRecord]]:
    """Every character or unit in the workbook at ``path``; a file that cannot be imported is one
    unreadable Source saying why. With a ``profile``, its system and its sheets are read, its
    pinned cells first. Never raises for what the file holds. ``scan_first=False``: one of our
    templates has its sheets read natively before their reach is scanned (a worker only)."""
    p = Path(path)
    if profile is not None:
        system = profile.system
    if p.suffix.lower() in TEMPLATE_SUFFIXES:
        ours = _our_template(p, scan_first)
        if ours is not None:
            return [ours]
    try:
        # the opening check gives: DTDs, far cells, half-written XML, content not of its suffix
        check_spreadsheet(p)
        grids = read_grids(p)
    except InputError as exc:
        return [(unreadable(str(p), str(exc), "legacy", exc.finding), ImportRecord(str(p)))]
    outside: list[Grid] = []  # sheets a profile does not read: kept, not dropped
    if profile is not None:
        outside = [g for g in grids if not profile.takes(g.sheet)]
        grids = [g for g in grids if profile.takes(g.sheet)]
    if not grids and outside and profile is not None:
        found_none = Finding("LEGACY_PROFILE_NO_SHEET", "", {"patterns": ", ".join(profile.sheets),
                                                           "sheets": ", ".join(g.sheet for g in outside)})
        return [(unreadable(str(p), "no sheet", "legacy", found_none), ImportRecord(str(p)))]
    if not grids:
        return [(unreadable(str(p), "empty", "legacy", Finding("LEGACY_EMPTY", "", {})), ImportRecord(str(p)))]
    systems = legacy_systems()
    found: list[tuple[Imported, dict[str, float]]] = []
    skipped: list[tuple[Grid, dict[str, float]]] = []
    for grid in grids:
        if system is not None:
            read = read_grid(grid, system, 1.0, profile)
            if profile is None:
                _against_labels(read, grid, system, systems)
            found.extend((got, {}) for got in read)
            continue
        seen = detect([grid], systems)
        if seen.system is None:
            skipped.append((grid, seen.scores))
        else:
            found.extend((got, seen.scores) for got in read_grid(grid, seen.system, seen.confidence))
    if found and skipped:
        # A sheet beside sheets of a system needs only half the evidence to be one of them too
        # (a second character on its own sheet, with fewer labels).
        main = max({got.system for got, _ in found}, key=lambda sid: sum(g.system == sid for g, _ in found))
        weak = system_labels(main).min_score / 2
        for grid, scores in list(skipped):
            if scores.get(main, 0) >= weak:
                skipped.remove((grid, scores))
                share = round(min(1.0, scores[main] / system_labels(main).min_score) * 0.5, 2)
                found.extend((got, scores) for got in read_grid(grid, main, share))
    if not found:
        grid, scores = skipped[0]
        ranked = ", ".join(f"{k} {v:g}" for k, v in sorted(scores.items(), key=lambda kv: -kv[1]))
        return [(unreadable(f"{p}#{grid.sheet}", "no system", "legacy",
                            Finding("LEGACY_NO_SYSTEM", "", {"sheet": grid.sheet, "scores": ranked})),
                 ImportRecord(str(p), grid.sheet, scores=scores))]
    origin = Origin("legacy", profile=profile.name if profile is not None else LABELS)
    return [_source(p, got, scores, system is None, skipped if k == 0 else [], origin, outside if k == 0 else [])
            for k, (got, scores) in enumerate(found)]


def _source(p: Path, got: Imported, scores: dict[str, float], detected: bool,
            skipped: list[tuple[Grid, dict[str, float]]], origin: Origin,
            outside: list[Grid]) -> tuple[Source, ImportRecord]:
    doc = got.document
    kept: dict[str, Any] = {"file": str(p), "sheet": got.sheet}
    if got.region:
        kept["region"] = got.region
    if got.unmapped:
        kept["unmapped"] = got.unmapped
    if got.guessed:
        kept["guessed"] = dict(sorted(got.guessed.items()))
    findings = list(got.findings)
    if detected:
        findings.insert(0, Finding("LEGACY_SYSTEM_DETECTED", "", {"system": got.system,
                                                                  "confidence": got.confidence}))
    if got.unmapped:
        cells = sorted(got.unmapped, key=_cell_order)
        findings.append(Finding("LEGACY_UNMAPPED", "/extra/import/unmapped",
                                {"count": len(cells), "cells": _short(cells)}))
    others = [g for g, _ in skipped] + outside
    if others:
        kept["other_sheets"] = {g.sheet: {address(r, c): v for (r, c), v in sorted(g.cells.items())}
                                for g in others}
    for g, _ in skipped:
        findings.append(Finding("LEGACY_SHEET_SKIPPED", "/extra/import/other_sheets",
                                {"sheet": g.sheet, "count": len(g.cells)}))
    for g in outside:
        findings.append(Finding("LEGACY_SHEET_OUTSIDE_PROFILE", "/extra/import/other_sheets",
                                {"sheet": g.sheet, "count": len(g.cells)}))
    extra = doc.setdefault("extra", {})
    extra["import"] = kept
    name = f"{p}#{got.sheet}" + (f"!{got.region}" if got.region else "")
    source = Source(name, origin, DOCUMENT, document=doc, cells=dict(got.cells),
                    findings=findings)
    return source, ImportRecord(str(p), got.sheet, got.region, got.system, got.confidence,
                                dict(got.unmapped), scores)


def _our_template(p: Path, scan_first: bool) -> tuple[Source, ImportRecord] | None:
    """A workbook made from one of our templates, read by its names (the reader registered
    with io for its suffix); None for any other."""
    from ..io.sources import reader_for

    try:
        source = reader_for(p)(p, scan_first=scan_first)
    except InputError as exc:
        if exc.code == "SHEET_NOT_TEMPLATE":
            return None
        return unreadable(str(p), str(exc), "workbook", exc.finding), ImportRecord(str(p))
    system = (source.document or {}).get("system")
    return source, ImportRecord(str(p), system=system, confidence=1.0)


def _against_labels(read: list[Imported], grid: Grid, system: str, systems: list[str]) -> None:
    """A sheet read as ``--system`` names whose labels say another system (``--system up`` on a
    folder holding pp sheets): each document read from it says so, as a warning."""
    seen = detect([grid], systems)
    if seen.system is not None and seen.system != system:
        for got in read:
            got.findings.insert(0, Finding("LEGACY_SYSTEM_OVERRIDDEN", "/system",
                                           {"sheet": grid.sheet, "given": system, "detected": seen.system}))


def _cell_order(a1: str) -> tuple[int, int, str]:
    letters = a1.rstrip("0123456789")
    return int(a1[len(letters):] or 0), len(letters), letters


def _short(cells: list[str], most: int = 8) -> str:
    return ", ".join(cells[:most]) + (f", … (+{len(cells) - most})" if len(cells) > most else "")


__all__ = ["ImportRecord", "SUFFIXES", "read_import"]

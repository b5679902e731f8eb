"""The CLI's front end for an export: each input read (a JSON document, one of our sheets, a
homemade workbook by its labels), checked, turned into pieces, and each piece written atomically
under the output folder (never over an input) or printed.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from ..core.errors import InputError
from ..core.evaluation import Evaluation
from ..core.findings import Finding
from . import mailgear, pp, up
from .ccfolia import clipboard_text
from .model import Piece
from .pieces import Reading, build_piece, system_data
from .udonarium import zip_bytes

PER_ITEM = {"up": up.weapons, "mailgear": mailgear.equipment, "pp": pp.pools}
#: target → (file suffix, the file's bytes)
TARGETS: dict[str, tuple[str, Callable[[Piece, str], bytes]]] = {
    "ccfolia": (".json", lambda piece, stem: (clipboard_text(piece) + "\n").encode("utf-8")),
    "udonarium": (".zip", zip_bytes),
    "palette": (".txt", lambda piece, stem: piece.palette_text().encode("utf-8")),
}


@dataclass
class Exported:
    """One character or unit of an input: its piece, or the findings that kept it from one."""

    path: str
    piece: Piece | None
    findings: list[Finding]


def piece_of(system: str, document: Mapping[str, Any], evaluation: Evaluation, source: str,
             errors: int = 0) -> Piece:
    """The piece of a checked document."""
    from ..imports.importer import document_name

    piece = build_piece(Reading(system, document, evaluation), source,
                        document_name(document, Path(source).stem), PER_ITEM[system])
    piece.errors = errors
    return piece


def export_paths(paths: Iterable[str | Path], context: Mapping[str, Any] | None = None,
                 profile: Any = None) -> list[Exported]:
    """Every character or unit in ``paths`` (folders searched), checked and made a piece."""
    from ..check import check_source
    from ..io import expand_paths, read_source
    from ..io.sources import INPUT_SUFFIXES
    from ..legacy.grid import SUFFIXES
    from ..legacy.sources import read_import

    files = expand_paths(paths, tuple(dict.fromkeys(INPUT_SUFFIXES + SUFFIXES)))
    if not files:
        raise InputError("no documents found in: " + ", ".join(map(str, paths)), "NO_DOCUMENTS",
                         paths=[str(p) for p in paths])
    out: list[Exported] = []
    for path in files:
        sources = ([s for s, _ in read_import(path, profile=profile)] if path.suffix.lower() in SUFFIXES
                   else [read_source(path)])
        for source in sources:
            report = check_source(source, None, context)
            if report.evaluation is None or report.system not in PER_ITEM or report.document is None:
                findings = list(report.findings)
                if report.system and report.system not in PER_ITEM:  # a catalog: no one to play
                    kind = system_data("not_a_character").get(report.system, {})
                    findings.append(Finding("EXPORT_NOT_A_CHARACTER", params={
                        "file": str(path), "kind_ja": kind.get("ja", report.system),
                        "kind_en": kind.get("en", report.system)}))
                out.append(Exported(str(path), None, findings))
                continue
            errors = sum(f.level.value == "error" for f in report.findings)
            out.append(Exported(str(path), piece_of(report.system, report.document, report.evaluation,
                                                    str(path), errors), report.findings))
    return out


def file_stems(pieces: Iterable[Piece]) -> list[str]:
    """A file name for each piece, from its name, made unique (``名前``, ``名前-2``)."""
    from ..imports.importer import document_name

    seen: dict[str, int] = {}
    stems = []
    for piece in pieces:
        stem = document_name({"name": piece.name}, "piece")
        n = seen.get(stem.casefold(), 0) + 1
        seen[stem.casefold()] = n
        stems.append(stem if n == 1 else f"{stem}-{n}")
    return stems


def write_pieces(pieces: list[Piece], target: str, outdir: str | Path, inputs: list[str],
                 force: bool = False) -> list[Path]:
    """Each piece written under ``outdir`` as ``target`` gives it, atomically, never over an input."""
    from ..io.files import Inputs, write_atomic

    suffix, render = TARGETS[target]
    guard = Inputs(inputs)
    return [write_atomic(Path(outdir) / f"{stem}{suffix}", render(piece, stem), force, guard)
            for piece, stem in zip(pieces, file_stems(pieces), strict=True)]


def printed(pieces: list[Piece], target: str) -> str:
    """What ``--stdout`` prints: one piece's CCFOLIA JSON or palette. A clipboard paste takes one
    piece (CCFOLIA reads one JSON value; two palettes would share their variables' names), so
    several pieces are refused with the names to choose from."""
    if target not in ("ccfolia", "palette"):
        raise InputError("a zip cannot go to standard output", "EXPORT_STDOUT_BINARY", target=target)
    if len(pieces) > 1:
        raise InputError(f"{len(pieces)} pieces cannot go to standard output at once", "EXPORT_STDOUT_MANY",
                         n=len(pieces), names=[p.name for p in pieces],
                         files=list(dict.fromkeys(p.source for p in pieces)))
    if not pieces:
        return ""
    return clipboard_text(pieces[0]) + "\n" if target == "ccfolia" else pieces[0].palette_text()


def export_files(paths: list[str], target: str, outdir: str | None = None, profile: str | None = None,
                 catalog: str | None = None, skills: str | None = None, force: bool = False,
                 to_stdout: bool = False) -> tuple[list[Exported], list[Path | None], str]:
    """`mechasheet export`: every input's pieces written under ``outdir`` (never over an input), or
    printed when ``to_stdout``; (what each input gave, each piece's file, the printed text)."""
    from ..legacy.profile import load_profile
    from ..sheets.source import load_context

    if to_stdout:
        printed([], target)  # a target that cannot be printed stops before any work
    loaded = load_profile(profile) if profile else None
    done = export_paths(paths, load_context(catalog, skills), loaded)
    pieces = [e.piece for e in done if e.piece is not None]
    if to_stdout:
        return done, [None] * len(pieces), printed(pieces, target)
    inputs = [p for p in (*paths, profile, catalog, skills) if p]
    assert outdir is not None
    return done, list(write_pieces(pieces, target, outdir, inputs, force)), ""


def export_lines(done: list[Exported], written: list[Path | None], lang: str) -> str:
    """What ``mechasheet export`` says of each input: where each piece went (and its errors), or
    why an input gave none."""
    from ..core.source import shown_name
    from ..core.texts import texts

    t, lines, outputs = texts(lang), [], iter(written)
    for e in done:
        if e.piece is None:
            reason = "; ".join(f.message(lang) for f in e.findings) or "—"
            lines.append(t["export_skipped"].format(path=shown_name(e.path), reason=reason))
            lines += [f"  → {f.hint(lang)}" for f in e.findings if f.code.startswith("EXPORT_")]
            continue
        lines.append(t["export_line"].format(path=shown_name(e.path), name=e.piece.name, system=e.piece.system,
                                             output=next(outputs) or "stdout"))
        if e.piece.errors:
            lines.append(t["export_errors"].format(n=e.piece.errors))
        for f in e.piece.findings:
            lines += [f"  ※ {f.message(lang)}", f"    → {f.hint(lang)}"]
    return "".join(line + "\n" for line in lines)

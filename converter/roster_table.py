"""The roster: one row per character or unit of an import run, as a pandas DataFrame.

Groups analyse their sheets in notebooks (``converter.roster(paths)``); the import command writes
the same table as ``roster.csv`` (UTF-8 with a byte-order mark, so Excel opens it in Japanese) and
``roster.xlsx``.
"""
from __future__ import annotations

import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from .core.findings import Severity

if TYPE_CHECKING:
    import pandas

    from .importer import Entry
    from .io.files import Inputs

COLUMNS = ("file", "sheet", "system", "name", "player", "confidence", "computed", "declared", "budget",
           "errors", "warnings", "unmapped")


COUNTED = ("errors", "warnings")  # the columns that count the entry's findings
FIXED = tuple(c for c in COLUMNS if c not in COUNTED)  # the columns read from the entry


def roster_row(entry: "Entry") -> tuple[Any, ...]:
    """One entry's row (COLUMNS): where it came from, who it is, its totals and how many
    problems it has (counted now: the set checks may have added some)."""
    levels = [f.level for f in entry.report.findings]
    row = dict(zip(FIXED, entry.row if entry.row is not None else fixed_row(entry)),
               errors=levels.count(Severity.ERROR), warnings=levels.count(Severity.WARNING))
    return tuple(row[c] for c in COLUMNS)


def fixed_row(entry: "Entry") -> tuple[Any, ...]:
    """The row but its counts of findings (FIXED): what a streamed run keeps of the entry's
    document and totals, as a tuple (thousands of them are kept to the run's end)."""
    fr, rec = entry.report, entry.record
    name, player = who(fr.document or {}, fr.system)
    return (rec.file, rec.sheet, fr.system or rec.system, name, player, rec.confidence, fr.computed,
            fr.declared, fr.budget, len(rec.unmapped))


def who(doc: Mapping[str, Any], system: str | None) -> tuple[Any, Any]:
    """A document's name and player (a pilot's, or up's pilot field, which names the player)."""
    pilot = doc.get("pilot") if isinstance(doc.get("pilot"), Mapping) else {}
    name = doc.get("name") or pilot.get("name")
    player = doc.get("player") or pilot.get("player") or (doc.get("pilot") if system == "up" else None)
    return name, player


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


ROSTER_CHUNK = 2000  # rows of the roster made into one DataFrame at a time when it is written


def write_roster(frames: "pandas.DataFrame | Iterable[pandas.DataFrame]", outdir: Path, *,
                 force: bool = False, inputs: "Iterable[str] | Inputs" = ()) -> list[Path]:
    """``roster.csv`` and ``roster.xlsx`` in ``outdir``, each written whole or not at all, from
    one DataFrame or from successive ones (the rows of a large import, ``RosterChunks``: the
    whole run's table is then never in memory at once); successive ones must be iterable twice."""
    from .io.files import Inputs, write_atomic

    inputs = inputs if isinstance(inputs, Inputs) else Inputs(inputs)
    csv = write_atomic(outdir / "roster.csv", _csv_pieces(_frames(frames)), force=force, inputs=inputs)
    return [csv, write_atomic(outdir / "roster.xlsx", frames_xlsx([("roster", frames)]), force=force, inputs=inputs)]


def _frames(frames: "pandas.DataFrame | Iterable[pandas.DataFrame]") -> Iterable["pandas.DataFrame"]:
    """One DataFrame or successive ones, as successive ones."""
    import pandas

    return [frames] if isinstance(frames, pandas.DataFrame) else frames


class RosterChunks:
    """The roster of ``entries`` as DataFrames of ``size`` rows each, made one at a time as it is
    iterated, and made again on each iteration (``write_roster`` writes two files from it); the
    first one even when there are no entries (it carries the columns)."""

    def __init__(self, entries: Sequence["Entry"], size: int = ROSTER_CHUNK) -> None:
        self.entries, self.size = entries, size

    def __iter__(self) -> Iterator["pandas.DataFrame"]:
        for start in range(0, max(len(self.entries), 1), self.size):
            yield roster_frame(self.entries[start:start + self.size])


def _csv_pieces(frames: Iterable["pandas.DataFrame"]) -> Iterator[bytes]:
    """The frames as one CSV: the header once, UTF-8 with a BOM (Excel opens it as UTF-8)."""
    first = True
    for frame in frames:
        if first or len(frame):
            yield frame.to_csv(index=False, header=first).encode("utf-8-sig" if first else "utf-8")
        first = False


def frames_xlsx(sheets: Sequence[tuple[str, "pandas.DataFrame | Iterable[pandas.DataFrame]"]], *,
                styled: bool = False, unfiltered: Iterable[str] = ()) -> bytes:
    """Each (name, frame) as a sheet (a frame, or successive frames of the same columns whose
    rows follow one another): the columns' names, then a row per line, a missing value
    an empty cell, text always text (never a formula, number or link), written a row at a time
    in XlsxWriter's constant memory mode. pandas' ``to_excel`` writes column by column, holding
    the whole table (about 2 KB a row: 20 MB for a folder of 10,000 sheets), and serialises a
    style for every cell (the audit's 22,000 cells: 0.4 s). ``styled``: the header bold and
    frozen, each column as wide as its first 200 values, an autofilter on every sheet but those
    ``unfiltered``."""
    import math

    import xlsxwriter

    buffer = io.BytesIO()
    book = xlsxwriter.Workbook(buffer, {"constant_memory": True, "strings_to_numbers": False,
                                        "strings_to_formulas": False, "strings_to_urls": False})
    bold = book.add_format({"bold": True}) if styled else None
    plain = set(unfiltered)
    na = _na()
    for name, frames in sheets:
        sheet = book.add_worksheet(name)
        r = 0
        for k, frame in enumerate(_frames(frames)):
            if k == 0:
                rows, cols = frame.shape
                if styled:  # from the first frame (the audit's tables are one frame each)
                    sheet.freeze_panes(1, 0)
                    if rows and name not in plain:
                        sheet.autofilter(0, 0, rows, cols - 1)
                    for c, column in enumerate(frame.columns):
                        width = max([len(str(column))] + [len(str(v)) for v in frame.iloc[:200, c]])
                        sheet.set_column(c, c, min(60, max(8, width * 1.6)))
                sheet.write_row(0, 0, [str(c) for c in frame.columns], bold)
            for r, row in enumerate(frame.itertuples(index=False, name=None), start=r + 1):
                for c, value in enumerate(row):
                    if value is None or value is na or (isinstance(value, float) and math.isnan(value)):
                        continue
                    sheet.write(r, c, value.item() if hasattr(value, "item") else value)
    book.close()
    return buffer.getvalue()


def _na() -> Any:
    import pandas

    return pandas.NA

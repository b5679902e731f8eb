"""The roster: one row per character or unit of an import run, as a pandas DataFrame.

Groups analyse their sheets in notebooks (``converter.roster(paths)``); the import command writes
the same table as ``roster.csv`` (UTF-8 with a byte-order mark, so Excel opens it in Japanese) and
``roster.xlsx``.
"""
from __future__ import annotations

import codecs
import io
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Mapping, Sequence

from ..core.findings import Severity
from ..io.files import utf8

if TYPE_CHECKING:
    import pandas

    from ..io.files import Inputs

COLUMNS = ("file", "sheet", "system", "name", "player", "confidence", "computed", "declared", "budget",
           "errors", "warnings", "unmapped")


def roster_row(entry: Mapping[str, Any], name: Any, player: Any) -> tuple[Any, ...]:
    """One character's or unit's row (COLUMNS) from its object in import-report.json and who it
    is (:func:`who`): where it came from, its totals and how many problems it has."""
    source, totals = entry["import"], entry["totals"]
    levels = [f["severity"] for f in entry["findings"]]
    return (source["file"], source["sheet"], entry["system"] or source["system"], name, player,
            source["confidence"], totals["computed"], totals["declared"], totals["budget"],
            levels.count(Severity.ERROR), levels.count(Severity.WARNING), source["unmapped"])


def who(doc: Mapping[str, Any], system: str | None) -> tuple[Any, Any]:
    """A document's name and player (a pilot's, or up's pilot field, which names the player)."""
    raw = doc.get("pilot")
    pilot: Mapping[str, Any] = raw if isinstance(raw, Mapping) else {}
    name = doc.get("name") or pilot.get("name")
    player = doc.get("player") or pilot.get("player") or (raw if system == "up" else None)
    return name, player


def roster_frame(rows: Iterable[Any], columns: Sequence[str] = COLUMNS) -> "pandas.DataFrame":
    """Rows (``roster_row``, or the audit's) as a DataFrame of ``columns``, a missing total
    missing (not NaN)."""
    import pandas

    frame = pandas.DataFrame(list(rows), columns=list(columns))
    for column in ("computed", "declared", "budget"):
        frame[column] = frame[column].astype("Int64")  # a missing total stays missing, not NaN float
    return frame


def write_roster(frame: "pandas.DataFrame", outdir: Path, *, force: bool = False,
                 inputs: "Iterable[str] | Inputs" = ()) -> list[Path]:
    """``roster.csv`` (UTF-8 with a BOM: Excel opens it as UTF-8) and ``roster.xlsx`` in
    ``outdir``, each written whole or not at all."""
    from ..io.files import Inputs, write_atomic

    inputs = inputs if isinstance(inputs, Inputs) else Inputs(inputs)
    csv = write_atomic(outdir / "roster.csv", csv_bytes(frame), force=force, inputs=inputs)
    return [csv, write_atomic(outdir / "roster.xlsx", frames_xlsx([("roster", frame)]), force=force, inputs=inputs)]


#: what a spreadsheet opening a CSV reads as the start of a formula (OWASP, CSV injection): = + - @,
#: and the tab and carriage return some spreadsheets skip before one
FORMULA_LEADS = ("=", "+", "-", "@", "\t", "\r")


def neutral(value: Any) -> Any:
    """``value`` as a CSV cell no spreadsheet runs: text starting like a formula gets a leading
    ``'`` (OWASP's advice: the player named 「=HYPERLINK(…)」 stays a name); numbers, whose minus
    is their sign, are written as they are."""
    if isinstance(value, str) and value.startswith(FORMULA_LEADS):
        return "'" + value
    return value


def csv_bytes(frame: "pandas.DataFrame") -> bytes:
    """``frame`` as CSV (UTF-8 with a BOM), every text cell :func:`neutral`: the one way the
    project writes a CSV."""
    from pandas.api.types import is_numeric_dtype

    safe = frame.copy()
    for column in safe.columns:
        if not is_numeric_dtype(safe[column]):
            safe[column] = safe[column].map(neutral).astype(object)
    safe.columns = [neutral(str(c)) for c in safe.columns]
    # CRLF, as RFC 4180 says: a cell holding a lone CR is then quoted, never a row break
    return codecs.BOM_UTF8 + utf8(safe.to_csv(index=False, lineterminator="\r\n"))


def frames_xlsx(sheets: Sequence[tuple[str, "pandas.DataFrame"]], *,
                styled: bool = False, unfiltered: Iterable[str] = ()) -> bytes:
    """Each (name, frame) as a sheet: the columns' names, then a row per line, a missing value
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
    for name, frame in sheets:
        sheet = book.add_worksheet(name)
        rows, cols = frame.shape
        if styled:
            sheet.freeze_panes(1, 0)
            if rows and name not in plain:
                sheet.autofilter(0, 0, rows, cols - 1)
            for c, column in enumerate(frame.columns):
                width = max([len(str(column))] + [len(str(v)) for v in frame.iloc[:200, c]])
                sheet.set_column(c, c, min(60, max(8, width * 1.6)))
        sheet.write_row(0, 0, [str(c) for c in frame.columns], bold)
        for r, row in enumerate(frame.itertuples(index=False, name=None), start=1):
            for c, value in enumerate(row):
                if value is None or value is na or (isinstance(value, float) and math.isnan(value)):
                    continue
                if isinstance(value, str):  # a file name's foreign bytes: shown as their escapes
                    value = utf8(value).decode("utf-8")
                sheet.write(r, c, value.item() if hasattr(value, "item") else value)
    book.close()
    return buffer.getvalue()


def _na() -> Any:
    import pandas

    return pandas.NA

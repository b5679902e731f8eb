"""How a sheet reads and prints: column widths from its texts, wrapping, A4 page setup.

A person prints the character or unit for the table, so every label must show whole and each
input sheet fits a page. Widths are measured, not guessed: a full-width character (Japanese,
ＵＰ) takes about two units of Excel's column width, a half-width one about one. The page setup
of each sheet is layout data (``[print]`` in ``<system>/layout.toml``); this module applies it.
"""
from __future__ import annotations

import unicodedata
from dataclasses import dataclass
from typing import Any, Iterable, Iterator, Mapping

A4 = 9  # Excel's paper code
MIN_WIDTH = 5.0  # a column never narrower (a ○ or a two-digit number and its border)
MAX_WIDTH = 30.0  # a longer label is cut; a longer typed or computed text wraps
VALUE_WIDTH = 20.0  # a dropdown's longer label wraps in its cell rather than widen the column
PADDING = 1.5  # the cell's margins and a bold label's wider glyphs
LINE_HEIGHT = 15.0  # points, one line of the default font
HEADER_LINES = 2  # a table's header wraps onto two lines at most


def text_width(text: str) -> float:
    """Units of Excel's column width ``text`` takes: two for a full-width (or East Asian
    ambiguous, such as ○) character, one for any other; the longest line of a wrapped text."""
    return max((sum(2 if unicodedata.east_asian_width(ch) in "WFA" else 1 for ch in line)
                for line in str(text).splitlines() or [""]), default=0)


def column_width(texts: Iterable[str], floor: float = MIN_WIDTH, cap: float = MAX_WIDTH,
                 lines: int = 1) -> float:
    """The width that shows the longest of ``texts`` whole on ``lines`` lines, at least
    ``floor``, at most ``cap`` (a longer text wraps in its cell)."""
    widest = max((text_width(t) / lines + PADDING for t in texts), default=0.0)
    return min(max(floor, widest), max(cap, floor))


def lines_needed(text: str, width: float) -> int:
    """How many lines ``text`` wraps onto in a column ``width`` units wide."""
    room = max(width - PADDING, 1.0)
    return sum(max(1, -(-int(text_width(line)) // int(room)) if text_width(line) > room else 1)
               for line in str(text).splitlines() or [""])


@dataclass(frozen=True)
class SheetPrint:
    """One sheet's page setup: A4, one page wide, ``pages`` tall (0: as many as needed)."""

    landscape: bool = False
    pages: int = 1
    repeat_rows: int = 0  # the rows repeated at the top of every page (a table's header), 1-based last row


def sheet_print(layout_raw: Mapping[str, Any], sheet: str) -> SheetPrint:
    """The ``[print]`` settings of ``sheet``: the layout's defaults, then the sheet's own."""
    section = layout_raw.get("print", {})
    defaults = {k: v for k, v in section.items() if k in SheetPrint.__dataclass_fields__}
    return SheetPrint(**{**defaults, **section.get("sheets", {}).get(sheet, {})})


def set_up_page(ws, setup: SheetPrint, title: str, last_row: int, last_col: int) -> None:
    """A4, one page wide and ``setup.pages`` tall; the print area from A1 to the last written
    cell; the sheet's name and the title in the header, the page in the footer."""
    ws.set_paper(A4)
    if setup.landscape:
        ws.set_landscape()
    else:
        ws.set_portrait()
    ws.set_margins(left=0.4, right=0.4, top=0.6, bottom=0.6)
    ws.fit_to_pages(1, setup.pages)
    ws.center_horizontally()
    ws.print_area(0, 0, last_row, last_col)
    if setup.repeat_rows:
        ws.repeat_rows(0, setup.repeat_rows - 1)
    ws.set_header(f"&L&A&R{_header_text(title)}", {"margin": 0.25})
    ws.set_footer("&C&P / &N", {"margin": 0.25})


def _header_text(text: str) -> str:
    """``text`` as a header's literal (an ampersand doubled)."""
    return text.replace("&", "&&")


def written_cells(ws) -> Iterator[tuple[int, int, Any, Any]]:
    """Each written cell of an XlsxWriter worksheet as (row, col, text or None, format): its
    strings resolved from the workbook's shared strings. XlsxWriter keeps no public view of what
    was written, so this reads its cell table, as the measured widths need."""
    strings = {index: s for s, index in ws.str_table.string_table.items()}
    for r, row in ws.table.items():
        for c, cell in row.items():
            text = strings.get(cell.string) if type(cell).__name__ == "String" else None
            yield r, c, text, getattr(cell, "format", None)


def measured_widths(ws, floors: Mapping[int, float], wrapped: Iterable[Any] = (),
                    headers: Iterable[Any] = ()) -> dict[int, float]:
    """Each column's width: the longest text that must show whole there, at least its floor
    (a table column's width, the longest label of a dropdown in it). A text must show whole when
    the cell to its right is written (it cannot overflow); a cell in a ``wrapped`` format (a
    typed text) wraps instead and is not measured; a table header (``headers`` formats) shows
    whole on :data:`HEADER_LINES` lines."""
    cells = list(written_cells(ws))
    taken = {(r, c) for r, c, _, _ in cells}
    wrap, head = set(map(id, wrapped)), set(map(id, headers))
    texts: dict[int, list[str]] = {}
    heads: dict[int, list[str]] = {}
    for r, c, text, fmt in cells:
        if text and id(fmt) in head:
            heads.setdefault(c, []).append(text)
        elif text and (r, c + 1) in taken and id(fmt) not in wrap:
            texts.setdefault(c, []).append(text)
    widths = {}
    for c in sorted(set(texts) | set(heads) | set(floors)):
        floor = column_width(heads.get(c, ()), floors.get(c, MIN_WIDTH), lines=HEADER_LINES)
        widths[c] = column_width(texts.get(c, ()), floor)
    return widths


def row_heights(ws, widths: Mapping[int, float], wrapped: Iterable[Any]) -> dict[int, float]:
    """The height (points) of each row where a text in a ``wrapped`` format needs more than one
    line at its column's width. Set here because LibreOffice keeps a row's height as the file
    says, and only Excel fits a row to its wrapped text when it opens the file."""
    wrap = set(map(id, wrapped))
    lines: dict[int, int] = {}
    for r, c, text, fmt in written_cells(ws):
        if text and id(fmt) in wrap:
            n = lines_needed(text, widths.get(c, MIN_WIDTH))
            if n > 1:
                lines[r] = max(n, lines.get(r, 1))
    return {r: n * LINE_HEIGHT for r, n in sorted(lines.items())}

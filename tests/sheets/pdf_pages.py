"""Pages per sheet of a PDF that LibreOffice printed from a workbook.

LibreOffice writes one bookmark per printed sheet (its title the sheet's name, its destination
the sheet's first page) and a flat page tree, with each object's dictionary as plain text: a
sheet's pages run from its bookmark's page to the next one's. Enough of PDF for that, no more.
"""
from __future__ import annotations

import re
from pathlib import Path

_KIDS = re.compile(rb"/Type\s*/Pages\b.*?/Kids\s*\[([^\]]*)\]", re.S)
_BOOKMARK = re.compile(rb"/Title\s*<FEFF([0-9A-Fa-f]*)>\s*/Dest\s*\[\s*(\d+)\s+0\s+R")


def sheet_pages(pdf: Path) -> dict[str, int]:
    """Sheet name → the number of pages it printed on, in the workbook's order."""
    data = pdf.read_bytes()
    kids = _KIDS.search(data)
    if kids is None:
        raise AssertionError(f"{pdf.name}: no page tree")
    order = [int(n) for n in re.findall(rb"(\d+)\s+0\s+R", kids.group(1))]
    starts = sorted((order.index(int(page)), bytes.fromhex(title.decode()).decode("utf-16-be"))
                    for title, page in _BOOKMARK.findall(data))
    if not starts or starts[0][0] != 0:
        raise AssertionError(f"{pdf.name}: no bookmark on its first page: {starts}")
    ends = [start for start, _ in starts[1:]] + [len(order)]
    return {name: end - start for (start, name), end in zip(starts, ends, strict=True)}

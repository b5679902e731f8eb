"""Where each defined name of a template points, and how each of its sheets is recognised, as
data (``template_names.json``): value grids passed to an Excel function are read through it.

The file is generated from the writer's templates (:func:`build`) and a test keeps it equal, so
the functions read a grid exactly as the reader reads the workbook, under Pyodide too.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any

from ..io.xlsx_package import Area

FILE = "template_names.json"


@dataclass(frozen=True)
class TemplateNames:
    """One system's template: its version, each sheet's mark (the text its first row starts
    with, and that cell's column) and every defined name's area."""

    system: str
    template: str
    marks: dict[str, tuple[int, str]]
    names: dict[str, Area]


@lru_cache(maxsize=None)
def template_names(system: str) -> TemplateNames:
    """The committed names of ``system``'s template."""
    raw = json.loads(resources.files(__package__).joinpath(FILE).read_text("utf-8"))[system]
    return TemplateNames(system, raw["template"], {s: (c, t) for s, (c, t) in raw["marks"].items()},
                         {n: Area(*a) for n, a in raw["names"].items()})


def build() -> dict[str, Any]:
    """The file's content from the templates the writer makes now (CPython only: XlsxWriter)."""
    import tempfile
    from pathlib import Path

    import python_calamine

    from ..io.xlsx_package import open_package
    from ..sheets import template_bytes
    from ..sheets.system_sheet import sheet_systems, system_sheet

    out: dict[str, Any] = {}
    firsts: dict[tuple[str, str], list[tuple[int, str]]] = {}  # (system, sheet) → row 1's texts
    with tempfile.TemporaryDirectory(prefix="mechasheet-") as tmp:
        for system in sheet_systems():
            path = Path(tmp) / f"{system}.xlsx"
            path.write_bytes(template_bytes(system))
            package = open_package(path)
            book = python_calamine.CalamineWorkbook.from_path(str(path))
            try:
                for sheet in package.sheets:
                    first = book.get_sheet_by_name(sheet).to_python(skip_empty_area=False)[:1]
                    firsts[system, sheet] = [(c, v) for c, v in enumerate(first[0] if first else [])
                                             if isinstance(v, str) and v]
                names = {n: [a.sheet, a.top, a.left, a.bottom, a.right]
                         for n, a in sorted(package.names.items())}
            finally:
                package.close()
                book.close()
            out[system] = {"template": system_sheet(system).layout.template, "marks": {}, "names": names}
    # A sheet's mark: the first text of its first row that no other sheet's first row holds
    # (every data sheet starts with "template"; its version, "up/3", tells them apart).
    for (system, sheet), texts in firsts.items():
        others = {t for key, more in firsts.items() if key != (system, sheet) for _, t in more}
        out[system]["marks"][sheet] = list(next(((c, t) for c, t in texts if t not in others), (0, "")))
    return out


def build_text() -> str:
    """The file as committed."""
    return json.dumps(build(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m converter.excel.template_names > converter/excel/template_names.json
    import sys

    sys.stdout.write(build_text())

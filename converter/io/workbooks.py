"""The workbook reader: our templates, filled, read by defined names (``converter.sheets``).

A workbook that carries only a catalog sheet (no pilot) is a catalog Source."""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..core.source import CATALOG, Origin, Source

SUFFIXES = (".xlsx", ".xlsm")


def read(path: Path) -> Source:
    from ..sheets import read_workbook

    got = read_workbook(path)
    origin = Origin("workbook", template=got.template)
    catalog = got.context.get("catalog")
    if catalog is not None and _pilot_free(got.document):
        return Source(str(path), origin, CATALOG, cells=dict(got.cells), context={"catalog": catalog})
    return Source(str(path), origin, document=got.document, cells=dict(got.cells),
                  context=dict(got.context), options=dict(got.options),
                  option_cells=dict(got.option_cells), findings=list(got.findings))


def _pilot_free(doc: Mapping[str, Any]) -> bool:
    """Nothing but identity and empty tables: a workbook that only carries a catalog."""
    return not any(v not in (None, "", [], {}) for k, v in doc.items() if k not in ("system", "format"))

"""Our workbooks as Sources, registered with io for ``.xlsx``/``.xlsm`` (``converter/__init__.py``);
and the engines' extra inputs named on the command line (``--catalog``, ``--skills``), since a
catalog may be a workbook's catalog sheet.

A workbook that carries only a catalog sheet (no pilot) is a catalog Source.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..core.errors import InputError
from ..core.source import CATALOG, Origin, Source

SUFFIXES = (".xlsx", ".xlsm")


def read(path: Path, *, scan_first: bool = True) -> Source:
    """The workbook read by its defined names (``reader.read_workbook``); ``scan_first=False``
    only in a disposable worker (:class:`~converter.sheets.cells.NamedCells`)."""
    from .reader import read_workbook

    got = read_workbook(path, scan_first=scan_first)
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


def load_catalog(path: str | Path) -> Any:
    """The catalog of a JSON file or of a workbook's catalog sheet; InputError if it has none."""
    from ..check.context import catalog_from
    from ..io.files import load_json_document

    p = Path(path)
    if p.suffix.lower() in SUFFIXES:
        from .reader import read_workbook

        catalog = read_workbook(p).context.get("catalog")
        if catalog is None:
            raise InputError(f"{p}: the workbook has no catalog sheet", "CATALOG_SHEET_MISSING", file=str(p))
        return catalog
    return catalog_from(load_json_document(p), source=str(p))


def load_context(catalog: str | Path | None = None, skills: str | Path | None = None) -> dict[str, Any]:
    """The context named on the command line (``--catalog``, ``--skills``)."""
    from ..io.context import load_skill_list

    out: dict[str, Any] = {}
    if catalog:
        out["catalog"] = load_catalog(catalog)
    if skills:
        out["skills"] = load_skill_list(skills)
    return out

"""A group's catalog (mailgear) checked: its schema's findings and the rules' own.

The rules parse a catalog from data (``Catalog.from_data``); validating it against its generated
schema is the checker's part. Readers are given this function (the JSON reader when it is
registered, the workbook's catalog sheet), so io imports no schema.
"""
from __future__ import annotations

from typing import Any, Mapping


def catalog_from(raw: Any, *, cells: Mapping[str, str] | None = None, source: str = "") -> Any:
    """A checked catalog: its schema's findings and the rules' own, placed at their cells."""
    from ..rules.mailgear.catalog import Catalog
    from .schema import catalog_findings

    return Catalog.from_data(raw, cells=cells, source=source, structure=catalog_findings(raw))

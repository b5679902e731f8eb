"""The engines' extra inputs from files: a group's catalog (mailgear), a skill list (pp).

The rules parse them from data (``Catalog.from_data``, ``parse_skill_list``); reading the file
and validating a catalog against its schema happen here, in the front end.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..core.errors import InputError
from .files import load_json_document, read_input_text


def catalog_from(raw: Any, *, cells: Mapping[str, str] | None = None, source: str = ""):
    """A checked catalog: its schema's findings and the rules' own, placed at their cells."""
    from ..rules.mailgear.catalog import Catalog
    from ..schema import catalog_findings

    return Catalog.from_data(raw, cells=cells, source=source, structure=catalog_findings(raw))


def load_catalog(path: str | Path):
    """The catalog of a JSON file or of a workbook's catalog sheet; InputError if it has none."""
    p = Path(path)
    if p.suffix.lower() in (".xlsx", ".xlsm"):
        from ..sheets import read_workbook

        catalog = read_workbook(p).context.get("catalog")
        if catalog is None:
            raise InputError(f"{p}: the workbook has no catalog sheet", "CATALOG_SHEET_MISSING", file=str(p))
        return catalog
    return catalog_from(load_json_document(p), source=str(p))


def load_skill_list(path: str | Path) -> list:
    """A group's skill list from a .json, .toml or text file; SkillListError names file and line."""
    from ..rules.pp.skills import SkillListError, parse_skill_list

    p = Path(path)
    return parse_skill_list(read_input_text(p, SkillListError), str(p), p.suffix)


def load_context(catalog: str | Path | None = None, skills: str | Path | None = None) -> dict[str, Any]:
    """The context named on the command line (``--catalog``, ``--skills``)."""
    out: dict[str, Any] = {}
    if catalog:
        out["catalog"] = load_catalog(catalog)
    if skills:
        out["skills"] = load_skill_list(skills)
    return out

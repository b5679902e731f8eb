"""Excel workbooks: templates, filled sheets, and reading them back (front end; uses openpyxl
and XlsxWriter, imported only when a workbook is written or read).

One mechanism serves every system: ``writer.py`` and ``reader.py`` follow the system's layout
(``<system>/layout.toml``) and its :class:`~converter.sheets.system_sheet.SystemSheet`
(``<system>/sheet.py``); ``kept.py`` keeps, in the hidden data sheet, whatever of a document
the cells cannot say, the same way for every system.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping

from ..io.files import write_atomic

SHEET_SUFFIXES = (".xlsx", ".xlsm")


def template_bytes(system: str, options: Mapping[str, str] | None = None,
                   context: Mapping[str, Any] | None = None, formulas: str = "native") -> bytes:
    """The empty template of ``system`` as .xlsx bytes (byte-stable for the same version);
    ``context`` fills what the workbook holds besides a document (mailgear's catalog sheet);
    ``formulas="xlwings"``: computed cells call our Excel functions (``xlwings_flavour``)."""
    from .system_sheet import system_sheet
    from .writer import build_workbook

    return build_workbook(system_sheet(system), None, options, context, formulas=formulas)


def sheet_bytes(doc: Mapping[str, Any], options: Mapping[str, str] | None = None,
                context: Mapping[str, Any] | None = None, appendix: Any = None,
                formulas: str = "native") -> bytes:
    """The template filled with ``doc``, formulas carrying the engine's results; ``appendix``
    (a :class:`~converter.sheets.writer.Appendix`) adds one visible sheet of rows after the others."""
    from .system_sheet import system_sheet
    from .writer import build_workbook

    return build_workbook(system_sheet(str(doc.get("system"))), doc, options, context, appendix, formulas)


def write_template(system: str, path: str | Path, force: bool = False,
                   options: Mapping[str, str] | None = None,
                   context: Mapping[str, Any] | None = None, formulas: str = "native") -> Path:
    return write_atomic(path, template_bytes(system, options, context, formulas), force)


def write_sheet(doc: Mapping[str, Any], path: str | Path, force: bool = False,
                options: Mapping[str, str] | None = None,
                context: Mapping[str, Any] | None = None, formulas: str = "native") -> Path:
    return write_atomic(path, sheet_bytes(doc, options, context, formulas=formulas), force)


def read_sheet(path: str | Path):
    """(document, reader findings, pointer → cell) of a mechasheet workbook."""
    from .reader import read_sheet as _read

    return _read(path)


def read_workbook(path: str | Path):
    """A :class:`~converter.sheets.reader.SheetRead`: document, findings, cells, context."""
    from .reader import read_workbook as _read

    return _read(path)

"""Excel workbooks: templates, filled sheets, and reading them back (front end; uses openpyxl
and XlsxWriter, imported only when a workbook is written or read).

One mechanism serves every system: ``writer.py`` and ``reader.py`` follow the system's layout
(``<system>/layout.toml``) and its :class:`~converter.sheets.system_sheet.SystemSheet`
(``<system>/sheet.py``); ``kept.py`` keeps, in the hidden data sheet, whatever of a document
the cells cannot say, the same way for every system.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Mapping, Sequence

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


def write_document_file(document: str | Path, output: str | Path | None = None, force: bool = False,
                        rules: Sequence[str] = (), catalog: str | None = None, skills: str | None = None,
                        formulas: str = "native", lang: str = "ja") -> Path:
    """`mechasheet write`: a JSON document's sheet at ``output`` (DOC.xlsx by default), with the
    document's own readings (its ``rules``) unless ``rules`` (NAME=VALUE) names another."""
    from ..check.schema import unsafe_number_findings
    from ..core.errors import InputError
    from ..io.files import load_json_document, refuse_inputs
    from ..rules import system_ids
    from ..rules.options import document_readings, parse_rule_args
    from .source import load_context

    doc = load_json_document(document)
    unsafe = next(unsafe_number_findings(doc), None)
    if unsafe is not None:  # NaN, infinities, integers beyond 2**53: no cell holds them as written
        raise InputError(f"{document}: {unsafe.pointer}: {unsafe.message(lang)}")
    output = output or Path(document).with_suffix(".xlsx")
    refuse_inputs(output, [p for p in (document, catalog, skills) if p])
    options = {**document_readings(doc), **parse_rule_args(rules, system_ids())}
    return write_sheet(doc, output, force, options, load_context(catalog, skills), formulas)


def read_document_text(path: str | Path) -> tuple[str, list]:
    """`mechasheet read`: (the workbook's document as JSON text, what reading it found); a
    system's sheet's rules readings (its ルール cells) go with the document."""
    from ..io.files import dump_document
    from ..rules import system_ids
    from ..rules.options import with_readings

    got = read_workbook(path)
    doc = with_readings(got.document, got.options) if got.document.get("system") in system_ids() else got.document
    return dump_document(doc), got.findings

"""mechasheet: Japanese mecha TRPG sheets as checked JSON documents and Excel workbooks.

The public API, re-exported once. Importing this package stays light: the core and the rules
use only the standard library (they also run under Pyodide in xlwings Lite); readers, the
checker and workbooks are imported when first used.
"""
from __future__ import annotations

from pathlib import Path
from typing import Any, Iterable, Mapping

from .core.errors import (CatalogError, InputError, MechasheetError, OutputError, RuleOptionError,
                          RuleTableError)
from .core.evaluation import CostLine, Derived, Evaluation, Roll
from .core.findings import Finding, Severity, catalog
from .core.source import Origin, Source, register as _register
from .core.version import __version__
from .rules import System, get_system, system_ids
from .rules.options import resolve_options


# --- the readers ``converter.io`` dispatches to, registered by suffix in ``core.source.READERS`` ---
# Every process that reads (the command line, this API, a spawned worker) imports this package
# first, so they are registered wherever a file is read; each imports its reader when it first
# reads, so importing the package stays light. io imports no front end: what a reader needs
# beyond io (the catalog's schema check, our workbooks' layouts) is given here.

def _read_json(path: Path, *, scan_first: bool = True) -> Source:
    from .check.context import catalog_from
    from .io.json_files import read

    return read(path, catalog_from=catalog_from, scan_first=scan_first)


def _read_workbook(path: Path, *, scan_first: bool = True) -> Source:
    from .sheets.source import read

    return read(path, scan_first=scan_first)


_register(_read_json, ".json")
_register(_read_workbook, ".xlsx", ".xlsm")


def evaluate(doc: Mapping[str, Any], options: Mapping[str, str] | None = None,
             context: Mapping[str, Any] | None = None) -> Evaluation:
    """Evaluate a document with its system's engine (no schema validation): priced lines,
    derived values, findings."""
    return get_system(doc["system"]).evaluate_with(doc, options, context)


def check_document(doc: Mapping[str, Any], options: Mapping[str, str] | None = None, path: str = "",
                   context: Mapping[str, Any] | None = None):
    """Check one document (schema + rules): a :class:`~converter.check.FileReport`."""
    from .check import check_document as _check

    return _check(doc, options, path, context)


def check_paths(paths: Iterable[str | Path], options: Mapping[str, str] | None = None,
                context: Mapping[str, Any] | None = None, *, jobs: int = 1):
    """Read every file named (folders searched) and check them together: a
    :class:`~converter.check.CheckReport`. Each workbook is read in a worker process, so a
    damaged one costs only itself (:mod:`converter.batch`)."""
    from .batch.checking import check_files

    return check_files(paths, options, context, jobs=jobs)


def check_path(path: str | Path, options: Mapping[str, str] | None = None,
               context: Mapping[str, Any] | None = None):
    """One file read and checked on its own (no set checks)."""
    from .check import check_source
    from .io import read_source

    return check_source(read_source(path), options, context)


def import_paths(paths: Iterable[str | Path], outdir: str | Path | None = None, *, system: str | None = None,
                 jobs: int = 1, templates: bool = False):
    """Import workbooks, homemade or from our templates (folders searched): an
    :class:`~converter.imports.importer.ImportReport`; with ``outdir``, the documents, report and roster
    written there as ``mechasheet import`` writes them."""
    from .imports.importer import import_files

    return import_files(paths, outdir, system=system, jobs=jobs, templates=templates)


def convert(document: Mapping[str, Any], to: str, mapping: Any = None, catalog: Any = None):
    """``document`` (of any system) converted into ``to``'s system through the common model: a
    :class:`~converter.convert.Conversion` (the document, its account, the target's check)."""
    from .convert import convert as _convert

    return _convert(document, to=to, mapping=mapping, catalog=catalog)


def roster(paths: Iterable[str | Path], *, system: str | None = None, jobs: int = 1):
    """The roster of the workbooks at ``paths`` as a pandas DataFrame: file, sheet, system, name,
    player, confidence, computed and declared totals, budget, errors, warnings, unmapped cells."""
    from .imports.importer import import_files

    return import_files(paths, system=system, jobs=jobs).roster()


__all__ = ["CatalogError", "CostLine", "Derived", "Evaluation", "Finding", "InputError",
           "MechasheetError", "Origin", "OutputError", "Roll", "RuleOptionError", "RuleTableError",
           "Severity", "Source", "System", "__version__", "catalog", "check_document", "check_path",
           "check_paths", "convert", "evaluate", "get_system", "import_paths", "resolve_options", "roster",
           "system_ids"]

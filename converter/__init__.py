"""mechasheet: Japanese mecha TRPG sheets as checked JSON documents and Excel workbooks.

The public API, re-exported once. Importing this package stays light: the rules and engine
use only the standard library (they also run under Pyodide in xlwings Lite).
"""
from __future__ import annotations

from .errors import (CatalogError, InputError, MechasheetError, OutputError, RuleOptionError,
                     RuleTableError)
from .findings import Finding, Severity, catalog
from .rules import CostLine, Pricing, System, get_system, system_ids
from .rules.options import resolve_options

__version__ = "0.1.0"


def check_document(doc, options=None, path=""):
    """Check one document (schema + rules); see :func:`converter.checking.check_document`."""
    from .checking import check_document as _check

    return _check(doc, options, path)


def price(doc, options=None) -> Pricing:
    """Price a document with its system's engine (no schema validation)."""
    return get_system(doc["system"]).price(doc, options)


__all__ = ["CatalogError", "CostLine", "Finding", "InputError", "MechasheetError", "OutputError",
           "Pricing", "RuleOptionError", "RuleTableError", "Severity", "System", "__version__",
           "catalog", "check_document", "get_system", "price", "resolve_options", "system_ids"]

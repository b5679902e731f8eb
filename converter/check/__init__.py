"""Checking: Sources in, a report out (schema, engine, set checks; text and JSON forms)."""
from __future__ import annotations

from .checker import CATALOG_SYSTEM, check_document, check_source, check_sources
from .report import CheckReport, FileReport, build_report_schema

__all__ = ["CATALOG_SYSTEM", "CheckReport", "FileReport", "build_report_schema", "check_document",
           "check_source", "check_sources"]

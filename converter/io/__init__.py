"""Reading inputs: a registry of readers, each turning one kind of file into Sources.

JSON documents and catalogs (``json_files``) and our workbooks (``converter.sheets.source``)
are registered here by ``converter/__init__.py``; io imports only core and rules, and the
checker takes the Sources and never imports a reader. Also: a workbook package opened safely
(``xlsx_package``), a skill list (``context``) and atomic output (``files``).
"""
from __future__ import annotations

from .sources import INPUT_SUFFIXES, SKIPPED_FOLDERS, expand_paths, read_source, read_sources

__all__ = ["INPUT_SUFFIXES", "SKIPPED_FOLDERS", "expand_paths", "read_source", "read_sources"]

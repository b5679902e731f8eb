"""Reading inputs: a registry of readers, each turning one kind of file into Sources.

JSON documents and catalogs (``json_files``), our workbooks (``workbooks``), and later legacy
profiles register here; the checker takes the Sources and never imports a reader. Also: the
engines' extra inputs named on the command line (``context``) and atomic output (``files``).
"""
from __future__ import annotations

from .sources import INPUT_SUFFIXES, SKIPPED_FOLDERS, expand_paths, read_source, read_sources

__all__ = ["INPUT_SUFFIXES", "SKIPPED_FOLDERS", "expand_paths", "read_source", "read_sources"]

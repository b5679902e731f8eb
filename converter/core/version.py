"""The package's version (pyproject.toml's), here in the core so that a report or the command
line names it without importing the top-level package."""
from __future__ import annotations

__version__ = "0.1.0"

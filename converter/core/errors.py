"""Exceptions for work that must stop; each knows its exit code and carries a finding if any."""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .findings import Finding


class MechasheetError(Exception):
    """Base of every error mechasheet raises on purpose."""

    exit_code = 2

    def __init__(self, message: str, finding: "Finding | None" = None) -> None:
        super().__init__(message)
        self.finding = finding


class InputError(MechasheetError, ValueError):
    """An input file cannot be read at all (missing, not JSON, not a sheet)."""


class RuleTableError(MechasheetError, ValueError):
    """A rule table shipped with the package is malformed (a packaging bug)."""


class CatalogError(MechasheetError, LookupError):
    """A finding code is missing from the catalog (a programming bug)."""


class RuleOptionError(MechasheetError, ValueError):
    """A ``--rule NAME=VALUE`` names an unknown option or value."""


class OutputError(MechasheetError, OSError):
    """Output cannot be written (exists without --force, or the write failed)."""

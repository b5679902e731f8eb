"""Exceptions for work that must stop; each knows its exit code and carries a finding if any.

An error carries a finding, so this module depends on ``findings``, never the reverse: a broken
catalog (``CatalogError``) is defined there and re-exported here."""
from __future__ import annotations

from .findings import CatalogError, Finding


class MechasheetError(Exception):
    """Base of every error mechasheet raises on purpose.

    ``message`` is for logs and tracebacks (English); with a ``code`` from the finding catalog and
    its parameters the error also carries a :class:`Finding`, which a front end prints in the
    user's language (and a file's report shows)."""

    exit_code = 2

    def __init__(self, message: str, code: str = "", **params: object) -> None:
        super().__init__(message)
        self.code = code
        self.params = params

    @property
    def finding(self) -> "Finding | None":
        if not self.code:
            return None
        return Finding(self.code, "", dict(self.params))

    def message(self, lang: str = "ja") -> str:
        """What the user reads: the catalog's text in ``lang``, or the plain message; a file name
        in it shown escaped (``core.source.shown_name``: no control character or lone surrogate
        reaches the terminal)."""
        from .source import shown_name

        finding = self.finding
        return shown_name(finding.message(lang) if finding is not None else str(self))


class InputError(MechasheetError, ValueError):
    """An input file cannot be read at all (missing, not JSON, not a sheet)."""


class RuleTableError(MechasheetError, ValueError):
    """A rule table shipped with the package is malformed (a packaging bug)."""


class RuleOptionError(MechasheetError, ValueError):
    """A ``--rule NAME=VALUE`` names an unknown option or value."""


class OutputError(MechasheetError, OSError):
    """Output cannot be written (exists without --force, or the write failed)."""


__all__ = ["CatalogError", "InputError", "MechasheetError", "OutputError", "RuleOptionError",
           "RuleTableError"]

"""The short message an Excel function shows instead of a value: Japanese, then English.

Classic xlwings shows the exception's text in the cell; xlwings Lite shows #VALUE! with the
text on hover. Texts live in ``core/texts.toml`` (keys ``excel_*``).
"""
from __future__ import annotations

from typing import Any

from ..core.errors import MechasheetError
from ..core.texts import texts


class ExcelFunctionError(MechasheetError, ValueError):
    """An Excel function cannot give a value for what it was given."""


def excel_error(key: str, **params: Any) -> ExcelFunctionError:
    """The error for text ``key`` with ``params`` filled in, in both languages."""
    ja, en = (texts(lang)[key].format(**params) for lang in ("ja", "en"))
    return ExcelFunctionError(f"{ja} / {en}")


def finding_error(finding: Any) -> ExcelFunctionError:
    """The error for an item the engine could not evaluate: its finding's message."""
    return ExcelFunctionError(f"{finding.message('ja')} / {finding.message('en')}")

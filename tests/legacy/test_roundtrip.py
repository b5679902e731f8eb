"""Generated documents rendered into randomised homemade layouts (tests/legacy/layouts.py) and
written as real .xlsx files import back to the same document, with no cell left over."""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings

from converter.legacy.sources import read_import

from .layouts import mailgear_case, pp_case, up_case


def _write(rows: list[list[Any]], path: Path) -> Path:
    import xlsxwriter

    wb = xlsxwriter.Workbook(str(path))
    ws = wb.add_worksheet("シート1")
    for r, row in enumerate(rows):
        for c, value in enumerate(row):
            if value is not None:
                ws.write(r, c, value)
    wb.close()
    return path


def _import(rows: list[list[Any]], system: str) -> dict[str, Any]:
    """The document read from ``rows`` written as a real workbook. The system is named: a sheet
    with few labels is rightly not detected (never forced); where detection decides, it must
    decide right."""
    with tempfile.TemporaryDirectory() as tmp:
        path = _write(rows, Path(tmp) / "s.xlsx")
        [(detected, _)] = read_import(path)
        assert detected.document is None or detected.document["system"] == system
        [(source, record)] = read_import(path, system)
    assert record.unmapped == {}, record.unmapped
    doc = dict(source.document)
    doc.pop("extra")
    return doc


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(pp_case())
def test_pp_layouts_round_trip(case) -> None:
    """A generated pp document in a random homemade layout imports back to itself."""
    rows, doc = case
    assert _import(rows, doc["system"]) == doc


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(up_case())
def test_up_layouts_round_trip(case) -> None:
    """A generated up document in a random homemade layout imports back to itself."""
    rows, doc = case
    assert _import(rows, doc["system"]) == doc


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mailgear_case())
def test_mailgear_layouts_round_trip(case) -> None:
    """A generated mailgear document in a random homemade layout imports back to itself."""
    rows, doc = case
    assert _import(rows, doc["system"]) == doc

"""The faster worksheet prepares every formula exactly as XlsxWriter's own does."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings, strategies as st
from xlsxwriter.worksheet import Worksheet

from converter.sheets.xlsx_worksheet import _name_endings, worksheet_class

FAST = worksheet_class()


def _names() -> list[str]:
    """Every name XlsxWriter's patterns substitute, with their `.` wildcards as written."""
    endings = _name_endings() or {}
    return [p.pattern.replace("\\b", "").replace("\\S", "S").replace("\\(", "")
            for found in endings.values() for p, _ in found]


NAMES = _names()


def _same(formula: str) -> None:
    for expand in (False, True):
        for future in (False, True):
            fast, plain = FAST(), Worksheet()
            fast.use_future_functions = plain.use_future_functions = future
            assert fast._prepare_formula(formula, expand) == plain._prepare_formula(formula, expand), \
                (formula, expand, future)


def test_the_installed_xlsxwriter_is_read() -> None:
    """The speed-up is in force: the patterns were read from the installed source."""
    assert FAST is not None and issubclass(FAST, Worksheet)
    assert len(NAMES) > 100 and "XLOOKUP" in NAMES and "BETA.DIST" in NAMES


@pytest.mark.parametrize("context", ["={}(A1)", "{{={}(A1)}}", "=1+{}(A1)", "=X{}(A1)",
                                     "=_xlfn.{}(A1)", "={}  (A1)", "=IF(A1,{}(B1),0)",
                                     "={}", "=lower({}(A1))", "= {}(A1)"])
def test_every_name_in_context(context: str) -> None:
    for name in NAMES:
        _same(context.format(name))
        _same(context.format(name.replace(".", "_")))  # the wildcard matches any character
        _same(context.format(name.lower()))


def test_the_sheets_formulas() -> None:
    """Each formula our templates write, prepared both ways."""
    from converter.sheets import template_bytes
    import zipfile, io

    for system in ("up", "mailgear", "pp"):
        with zipfile.ZipFile(io.BytesIO(template_bytes(system))) as package:
            for name in package.namelist():
                if name.startswith("xl/worksheets/"):
                    xml = package.read(name).decode()
                    for formula in re.findall(r"<(?:f|formula1|formula)>([^<]*)<", xml):
                        _same("=" + formula)


PIECES = st.sampled_from(NAMES + ["SUM", "IF", "INDEX", "MATCH", "SINGLE", "INGLE", "T", "P", "S",
                                  "(", ")", ",", " ", "=", "{", "}", ".", "_", "_xlfn.", "X", "1",
                                  "A1", "\"", "'", "!", "$", "-", "&", "ー", "装甲"])


@settings(max_examples=500, deadline=None)
@given(st.lists(PIECES, max_size=12).map("".join))
def test_any_formula(formula: str) -> None:
    _same(formula)

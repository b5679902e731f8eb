"""What docs/excel-plugin.md tells a user, read from the page itself, and arguments shaped as
xlwings Lite sends them: the xlwings tests (CPython and Pyodide) call what the docs show.

Lite sends every argument as a matrix (one cell: [[v]]), whole numbers as JSON integers, and an
empty cell as "" or as null; its dispatcher (``xlwings.server.custom_functions_call``) takes a
call as ``{"func_name", "args", "version", "client", "runtime", ...}``.
"""
from __future__ import annotations

import json
import re
import textwrap
from typing import Any

from .cases import ROOT, sample_grids

DOC = ROOT / "docs" / "excel-plugin.md"
RANGE = re.compile(r"^(?P<sheet>[^!]+)!(?P<c1>[A-Z]+)(?P<r1>\d+):(?P<c2>[A-Z]+)(?P<r2>\d+)$")


def doc_text() -> str:
    return DOC.read_text("utf-8")


def doc_blocks() -> list[tuple[str, str]]:
    """Every fenced block of the page: (its language, its text as a reader copies it, without
    the indentation of the list item it sits in)."""
    return [(m.group(1), textwrap.dedent(m.group(2))) for m in re.finditer(r"```(\w*)\n(.*?)\n\s*```", doc_text(), re.S)]


def doc_main_py() -> str:
    """The `main.py` the Lite steps show, exactly."""
    return next(text for lang, text in doc_blocks() if lang == "python" and "converter.excel.udfs" in text) + "\n"


def doc_wheel_name() -> str:
    """The wheel file name of the Lite `requirements.txt` line."""
    line = next(text for lang, text in doc_blocks() if lang == "" and ".whl" in text).strip()
    return line.rsplit("/", 1)[1]


def _table(header: str) -> list[list[str]]:
    """The rows of the table whose header line starts with ``header`` (cells stripped)."""
    lines = doc_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header))
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def doc_signatures() -> dict[str, list[str]]:
    """Each function of the docs' table → its arguments as listed (optional ones in brackets)."""
    out = {}
    for row in _table("| function | gives |"):
        m = re.fullmatch(r"`(\w+)\((.*)\)`", row[0])
        assert m, row[0]
        out[m.group(1)] = [a.strip() for a in m.group(2).split(",")]
    return out


def doc_ranges() -> dict[str, tuple[list[str], list[str]]]:
    """system → (the ranges the whole-sheet functions take, the ones SHEET_CHECK also takes)."""
    return {row[0].strip("`"): tuple(re.findall(r"`([^`]+)`", cell) for cell in row[1:3])
            for row in _table("| system | the whole-sheet functions |")}


def doc_examples() -> list[tuple[str, str, str]]:
    """(formula, sample path or "", the result the docs give) of the examples table."""
    return [(f.strip("`"), "" if s == "(none)" else s.strip("`"), r) for f, s, r in _table("| formula | sample |")]


def cut(grids: dict[str, list[list[Any]]], ref: str) -> list[list[Any]]:
    """The values of range ``ref`` (``Sheet!A1:J60``) of a workbook's grids, blanks as ""."""
    m = RANGE.match(ref)
    assert m, ref
    top, bottom = int(m["r1"]) - 1, int(m["r2"]) - 1
    left, right = _column(m["c1"]), _column(m["c2"])
    grid = grids.get(m["sheet"], [])
    rows = [grid[r] if r < len(grid) else [] for r in range(top, bottom + 1)]
    return [[row[c] if c < len(row) else "" for c in range(left, right + 1)] for row in rows]


def covers(grids: dict[str, list[list[Any]]], ref: str) -> bool:
    """Whether range ``ref`` holds every filled cell of its sheet."""
    m = RANGE.match(ref)
    assert m, ref
    bottom, right = int(m["r2"]), _column(m["c2"]) + 1
    return all(v in ("", None) for r, row in enumerate(grids[m["sheet"]]) for c, v in enumerate(row)
               if r >= bottom or c >= right)


def _column(letters: str) -> int:
    n = 0
    for ch in letters:
        n = n * 26 + ord(ch) - 64
    return n - 1


def formula_args(formula: str, grids: dict[str, list[list[Any]]] | None) -> tuple[str, list[Any]]:
    """(function, arguments) of a formula of the examples: strings, numbers and ranges."""
    m = re.fullmatch(r"=(\w+)\((.*)\)", formula)
    assert m, formula
    args: list[Any] = []
    for part in re.findall(r'"[^"]*"|[^,]+', m.group(2)):
        if part.startswith('"'):
            args.append(part[1:-1])
        elif RANGE.match(part):
            assert grids is not None, formula
            args.append(cut(grids, part))
        else:
            args.append(float(part))
    return m.group(1), args


def example_calls() -> list[dict[str, Any]]:
    """The docs' examples as calls: function, arguments (cells as the workbook holds them) and
    the result the docs give (a number where it reads as one), under Lite where it differs."""
    out = []
    for formula, sample, result in doc_examples():
        grids = sample_grids(ROOT / sample) if sample else None
        function, args = formula_args(formula, grids)
        result, _, lite = result.partition("; Lite: ")
        want: Any = int(result) if result.isdigit() else result
        out.append({"formula": formula, "function": function, "args": args, "result": want,
                    "lite": lite or want})
    return out


def lite_value(value: Any, blank: Any) -> Any:
    """One cell as Lite sends it: a whole number as an integer, an empty cell as ``blank``."""
    if value is None or value == "":
        return blank
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def lite_arg(value: Any, blank: Any) -> list[list[Any]]:
    """One argument as Lite sends it: always a matrix (rows of cells)."""
    if not isinstance(value, (list, tuple)):
        rows: list[Any] = [[value]]
    elif value and not any(isinstance(v, (list, tuple)) for v in value):
        rows = [list(value)]
    else:
        rows = [list(r) for r in value] or [[None]]
    return [[lite_value(v, blank) for v in row] for row in rows]


def lite_call(function: str, args: list[Any], blank: Any) -> dict[str, Any]:
    """The body of a call as xlwings Lite's add-in posts it to the dispatcher (a JSON value)."""
    return json.loads(json.dumps({"func_name": function, "args": [lite_arg(a, blank) for a in args]},
                                 ensure_ascii=False))


DISPATCH = '''
import asyncio, json, os
os.environ["XLWINGS_ON_SERVER"] = "true"            # xlwings' switch for its server decorators (Lite's)
os.environ["XLWINGS_LICENSE_KEY"] = "noncommercial"  # xlwings.pro's documented noncommercial key
import xlwings
import xlwings.server as server


async def dispatch(module, calls):
    """Each call through xlwings' own dispatcher: ["ok", matrix] or ["error", message]."""
    base = {"version": xlwings.__version__, "client": "Office.js", "runtime": "1.16",
            "caller_address": "Sheet1!A1"}
    out = []
    for call in calls:
        try:
            out.append(["ok", await server.custom_functions_call({**base, **call}, module)])
        except Exception as exc:
            out.append(["error", f"{type(exc).__name__}: {exc}"])
    return out
'''
"""The dispatcher both runtimes run (CPython in a subprocess, Pyodide in Node): the
environment xlwings needs is set here, inside the test's own process only."""


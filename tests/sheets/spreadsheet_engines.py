"""The spreadsheet engines besides LibreOffice that recalculate our workbooks in the tests:
Gnumeric (``ssconvert --recalc``, Debian's ``gnumeric``) and the Python package ``formulas``.

Each gives, for a workbook, what it computes in every formula cell; a workbook written by us
holds the engine's value as each formula's cached result, so the two must be equal. Gnumeric
is skipped without ``ssconvert`` and ``formulas`` without the package, except under CI=true,
where a missing one fails (``.ci/run`` installs Gnumeric; the ``test`` extra brings formulas).
"""
from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any


from ..needs import missing as _missing

Cell = tuple[str, str]  # (sheet title, A1)




def ssconvert() -> str:
    """Gnumeric's converter; skip without it, fail under CI=true."""
    exe = shutil.which("ssconvert")
    if exe is None:
        _missing("Gnumeric (ssconvert)")
    return exe


def require_formulas() -> None:
    """Skip without the ``formulas`` package, fail under CI=true."""
    try:
        import formulas  # noqa: F401
    except ImportError:
        _missing("the formulas package")


def recalculate_gnumeric(files: list[Path], outdir: Path) -> dict[Path, Path]:
    """Each file recalculated by Gnumeric and saved as .xlsx in ``outdir``. ssconvert takes one
    file per run (about 0.2 s each); two run side by side."""
    exe = ssconvert()
    outdir.mkdir(parents=True, exist_ok=True)

    def one(f: Path) -> Path:
        out = outdir / f.name
        proc = subprocess.run([exe, "--recalc", str(f), str(out)], capture_output=True, text=True,
                              timeout=120)
        if proc.returncode or not out.exists():
            raise AssertionError(f"ssconvert failed on {f.name} ({proc.returncode}): {proc.stderr[-2000:]}")
        return out

    with ThreadPoolExecutor(max_workers=2) as pool:
        return dict(zip(files, pool.map(one, files), strict=True))


def formula_cells(path: Path) -> dict[Cell, Any]:
    """Every formula cell of a workbook → its cached result ("" read as None)."""
    import openpyxl

    formulas = openpyxl.load_workbook(path)
    values = openpyxl.load_workbook(path, data_only=True)
    out: dict[Cell, Any] = {}
    for ws in formulas.worksheets:
        for row in ws.iter_rows():
            for c in row:
                if isinstance(c.value, str) and c.value.startswith("="):
                    out[(ws.title, c.coordinate)] = plain(values[ws.title][c.coordinate].value)
    return out


def cached_values(path: Path, cells) -> dict[Cell, Any]:
    """The saved results of ``cells`` in a workbook a spreadsheet recalculated."""
    import openpyxl

    wb = openpyxl.load_workbook(path, data_only=True)
    return {cell: plain(wb[cell[0]][cell[1]].value) for cell in cells}


def formulas_values(path: Path, cells) -> dict[Cell, Any]:
    """What the ``formulas`` package computes in ``cells`` of the workbook at ``path``."""
    import formulas

    model = formulas.ExcelModel().loads(str(path)).finish()
    solution = model.calculate()
    out: dict[Cell, Any] = {}
    for sheet, ref in cells:
        got = solution.get(f"'[{path.name}]{sheet.upper()}'!{ref}")
        out[(sheet, ref)] = "(not computed)" if got is None else plain(got.value[0][0])
    return out


def plain(value: Any) -> Any:
    """A value as the comparison reads it: blank is None, a whole float an int, an error its text."""
    if value is None or value == "":
        return None
    if isinstance(value, bool):
        return value
    if hasattr(value, "dtype"):  # numpy scalars from formulas
        value = value.item()
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, (int, float, str)):
        return value
    return str(value)  # an error value (#N/A, #NAME?, ...) or an empty marker


def differences(want: dict[Cell, Any], got: dict[Cell, Any]) -> dict[str, tuple[Any, Any]]:
    """Cells whose computed value differs from the cached one: "Sheet!A1" → (engine, spreadsheet)."""
    return {f"{s}!{r}": (v, got.get((s, r))) for (s, r), v in want.items() if got.get((s, r)) != v}

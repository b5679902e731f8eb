"""An independent formula evaluator (the `formulas` package) with our Excel functions in it.

Each function of ``converter.excel.udfs`` is registered under its name through a thin adapter
that turns what `formulas` passes (``Ranges`` of numpy arrays, its ``empty`` token, numpy
numbers) into what classic xlwings sends (a scalar for one cell, a list of rows for a range,
None for a blank, numbers as floats). An exception a function raises becomes ``#VALUE!``, as
Lite shows it, and is recorded with its message so a test can name it. A loaded workbook
recalculates again with a function swapped (:class:`Recalculation`): loading takes the time.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable


@dataclass
class Evaluated:
    """Every formula cell's value after recalculation, and what the functions did."""

    values: dict[tuple[str, str], Any]  # (sheet, A1) → value ("" for an empty result)
    calls: dict[str, int] = field(default_factory=dict)  # function → times called
    raised: list[tuple[str, str]] = field(default_factory=list)  # (function, message)


def _plain(value: Any) -> Any:
    """One cell as classic xlwings sends it."""
    import numpy as np
    import schedula as sh

    if value is sh.EMPTY or value is None:
        return None
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        return float(value)
    return value


def _argument(value: Any) -> Any:
    """A function's argument: one cell as a scalar, a range as a list of rows."""
    import numpy as np
    from formulas.ranges import Ranges

    if isinstance(value, Ranges):
        value = value.value
    if isinstance(value, np.ndarray):
        rows = [[_plain(v) for v in row] for row in value.reshape(value.shape[0], -1)]
        return rows[0][0] if len(rows) == 1 and len(rows[0]) == 1 else rows
    return _plain(value)


def _adapter(name: str, functions: dict[str, Callable[..., Any]], result: Evaluated) -> Callable[..., Any]:
    """What `formulas` calls for ``name``: ``functions[name]`` at the time of the call (a test may
    swap one and recalculate the loaded model)."""
    from formulas.functions import Error

    def call(*args: Any) -> Any:
        result.calls[name] = result.calls.get(name, 0) + 1
        try:
            return functions[name](*(_argument(a) for a in args))
        except Exception as exc:  # the cell shows #VALUE!; the test reads the message
            result.raised.append((name, str(exc)))
            return Error.errors["#VALUE!"]
    return call


class Recalculation:
    """A workbook loaded once by `formulas` with our functions registered; :meth:`run`
    recalculates it with the functions :attr:`functions` holds then."""

    def __init__(self, path: Path) -> None:
        import formulas

        from converter.excel import udfs

        self.path = path
        self.functions: dict[str, Callable[..., Any]] = {n: getattr(udfs, n) for n in udfs.__all__}
        self._result = Evaluated({})
        registered = formulas.get_functions()
        for name in udfs.__all__:
            registered[name] = _adapter(name, self.functions, self._result)
        self.model = formulas.ExcelModel().loads(str(path)).finish()

    def run(self) -> Evaluated:
        result = self._result
        result.values.clear()
        result.calls.clear()
        result.raised.clear()
        prefix = f"'[{self.path.name}]".upper()
        for key, value in self.model.calculate().items():
            text = str(key)
            if not text.upper().startswith(prefix) or "!" not in text or ":" in text:
                continue
            sheet, cell = text[len(prefix):].split("'!")
            got = value.value[0, 0] if hasattr(value, "value") else value
            result.values[(sheet, cell.upper())] = _plain(got)
        return Evaluated(dict(result.values), dict(result.calls), list(result.raised))


def evaluate(path: Path) -> Evaluated:
    """Recalculate the workbook at ``path`` with our functions registered."""
    return Recalculation(path).run()

"""``func``, ``arg`` and ``ret``: xlwings' decorators where Excel calls Python, else their no-ops.

xlwings' own ``from xlwings import func, arg, ret`` gives the decorators of the runtime it
runs in: under xlwings Lite (Pyodide) and xlwings Server (``XLWINGS_ON_SERVER=true``) those of
``xlwings.server`` (its ``xlwings.pro`` part, which Lite licenses for everyone), under classic
xlwings (Windows with pywin32) those of ``xlwings.udfs`` (BSD). Everywhere else they return the
function untouched, but importing xlwings there imports numpy and pandas; these no-ops do the
same without them, so importing the Excel functions stays light (tests/test_startup.py).
"""
from __future__ import annotations

import os
import sys
from typing import Any, Callable, TypeVar

_F = TypeVar("_F", bound=Callable[..., Any])

EXCEL_RUNTIME = (sys.platform == "emscripten" or sys.platform.startswith("win")
                 or os.environ.get("XLWINGS_ON_SERVER") == "true")


def _func(f: Any = None, *args: Any, **kwargs: Any) -> Any:
    """Marks a custom function (nothing to do outside Excel)."""
    return f if f is not None else (lambda g: g)


def _arg(*args: Any, **kwargs: Any) -> Callable[[_F], _F]:
    """Configures an argument (nothing to do outside Excel)."""
    return lambda f: f


def _ret(*args: Any, **kwargs: Any) -> Callable[[_F], _F]:
    """Configures the result (nothing to do outside Excel)."""
    return lambda f: f


func, arg, ret = _func, _arg, _ret
if EXCEL_RUNTIME:
    try:
        from xlwings import arg, func, ret  # noqa: F811 (the runtime's own, when installed)
    except ImportError:  # the engine used without xlwings (Pyodide in Node, a plain Windows Python)
        pass

__all__ = ["EXCEL_RUNTIME", "arg", "func", "ret"]

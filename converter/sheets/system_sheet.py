"""What a system supplies to the one workbook mechanism: lists, rules sheet, formulas, values.

The writer (``writer.py``) and reader (``reader.py``) are shared by every system; a system's
:class:`SystemSheet` subclass (``sheets/<system>/sheet.py``) answers only what is its own. Hooks
default to doing nothing. :func:`system_sheet` finds a system's instance.
"""
from __future__ import annotations

import importlib
from functools import lru_cache
from typing import TYPE_CHECKING, Any, Mapping, Protocol

from ..core.errors import MechasheetError
from .layout import Layout, Table, load_layout

if TYPE_CHECKING:
    from .cells import CellReader

TRUE, FALSE = "○", "×"


class Cached(Protocol):
    """The engine's value of each computed cell (what a spreadsheet shows after recalculating)."""

    def scalar(self, name: str) -> Any: ...

    def row(self, table: Table, index: int, key: str) -> Any: ...


class SheetWriting(Protocol):
    """What a system's hooks use of the one writer (``writer.SheetWriter``): the workbook, its
    formats, the document as shown and the engine's values; input and computed cells."""

    wb: Any
    fmt: dict[str, Any]
    doc: Mapping[str, Any] | None
    cached: Cached | None

    def input(self, ws: Any, r: int, c: int, value: Any, kind: str, name: str | None = None, *,
              list_id: str | None = None, lo: int | None = None, hi: int | None = None,
              pointer: str = "", keep_false: bool = True, in_table: bool = False) -> None: ...

    def computed(self, ws: Any, r: int, c: int, formula: str, value: Any,
                 name: str | None = None) -> None: ...

    def widen(self, ws: Any, col: int, width: float) -> None: ...

    def fold(self, ws: Any, col: int) -> None: ...


class SystemSheet:
    """Base of a system's workbook specifics."""

    system: str = ""

    @property
    def layout(self) -> Layout:
        return load_layout(self.system)

    def lists(self) -> dict[str, list[tuple[Any, str]]]:
        """list id → [(document value, label shown)] for every dropdown."""
        raise NotImplementedError

    def write_rules(self, wb, ws, options: Mapping[str, str], fmt: dict[str, Any]) -> None:
        raise NotImplementedError

    def write_rules_for(self, wb, ws, options: Mapping[str, str], fmt: dict[str, Any],
                        doc: Mapping[str, Any] | None, context: Mapping[str, Any]) -> None:
        """The rules sheet of one workbook; a system whose lists depend on the document or the
        context (a group's skill list) overrides this. Defaults to :meth:`write_rules`."""
        self.write_rules(wb, ws, options, fmt)

    def formula(self, name: str, table: Table | None = None, index: int | None = None) -> str:
        raise NotImplementedError

    def cached(self, doc: Mapping[str, Any] | None, options: Mapping[str, str],
               context: Mapping[str, Any]) -> Cached:
        """The engine's values; ``context`` holds the engine's extra inputs (catalog, skills)."""
        raise NotImplementedError

    # Hooks.
    def shown(self, doc: Mapping[str, Any]) -> Mapping[str, Any]:
        """The document as the sheet lays it out (e.g. a list flattened into columns); the
        writer fills fields, blocks and tables from it. Default: the document itself."""
        return doc

    def write_blocks(self, writer: SheetWriting, ws, doc, cached: Any) -> None:
        """Input areas a plain field or table cannot describe; ``cached`` is what this system's
        :meth:`cached` returned."""

    def decorate_table(self, writer: SheetWriting, ws, table: Table) -> None:
        """Extra red-cell rules for a table."""

    def finish(self, writer: SheetWriting, ws) -> None:
        """Last touches on the input sheet (red-cell rules on totals)."""

    def check_capacity(self, doc: Mapping[str, Any]) -> None:
        """Raise OutputError where a document holds more than the sheet can."""

    def after_read(self, doc: dict[str, Any], rd: "CellReader") -> None:
        """Read the areas ``write_blocks`` wrote."""

    def after_tables(self, doc: dict[str, Any], rd: "CellReader") -> None:
        """Reshape what fields and tables read into the document (the inverse of ``shown``)."""

    def computed_cell(self, pointer: str) -> tuple[str, int | None] | None:
        """The defined name (and row) of the computed cell that shows the document value at
        ``pointer`` (mailgear's derived values), or None: a written value equal to what the cell
        shows reads back as the cell computes it. Default: none."""
        return None

    def normal(self, doc: Mapping[str, Any], read: Mapping[str, Any]) -> dict[str, Any]:
        """The document as the sheet states it on purpose, given what its workbook reads back as
        (``read``): what the sheet writes differently because it means the same (a set in the
        table's order, a default made explicit). Whatever else ``read`` lacks or changes is kept
        (``kept.py``). Default: the document, with the total the sheet shows where it has none
        (a layout's ``declared_total``)."""
        out = dict(doc)
        if (self.layout.raw.get("declared_total") and "declared_total" not in out
                and "declared_total" in read):
            out["declared_total"] = read["declared_total"]
        return out

    def read_context(self, rd: "CellReader") -> dict[str, Any]:
        """What the workbook holds for the engine besides the document (a catalog sheet)."""
        return {}

    def input_parts(self) -> dict[str, tuple[str, ...]]:
        """The ranges of input cells the Excel functions take in place of a whole sheet (a
        sheet whose computed cells lie among its inputs): part → the defined names it holds,
        every one an input cell or an input column. Default: none."""
        return {}


_MODULES = {"up": "converter.sheets.up.sheet", "mailgear": "converter.sheets.mailgear.sheet",
            "pp": "converter.sheets.pp.sheet"}


def sheet_systems() -> list[str]:
    """Systems whose workbook module is installed."""
    from importlib.util import find_spec

    return [s for s, mod in _MODULES.items() if find_spec(mod) is not None]


@lru_cache(maxsize=None)
def system_sheet(system: str) -> SystemSheet:
    """The workbook specifics of ``system``; MechasheetError if it has no sheet yet."""
    if system not in sheet_systems():
        raise MechasheetError(f"no sheet layout for system {system!r} (available: {', '.join(_MODULES)})")
    return importlib.import_module(_MODULES[system]).SHEET

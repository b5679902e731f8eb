"""Writing a rules sheet: titled price tables, dropdown lists and the group's rules readings.

Every system's rules sheet is written with this one helper; each named range it creates is
what the formulas and dropdowns refer to (``rules.<table>``, ``rules.<table>.<n>`` for column n,
``list.<id>``, ``<system>.options.<name>``).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..rules.options import option_declarations
from .layout import a1


class RulesSheetWriter:
    """Places blocks top to bottom in column A, lists to the right; defines names at the end."""

    def __init__(self, wb, ws, sheet: str, fmt: dict[str, Any]) -> None:
        self.wb, self.ws, self.fmt = wb, ws, fmt
        self.q = f"'{sheet}'"
        self.names: dict[str, str] = {}
        self.row = 0
        self.width = 1

    def block(self, name: str, header: list[str], rows: list[list[Any]]) -> None:
        """A titled table; names the data area and each of its columns."""
        ws, row = self.ws, self.row
        ws.write(row, 0, name, self.fmt["h"])
        for j, h in enumerate(header):
            ws.write(row + 1, j, h, self.fmt["h"])
        for i, r in enumerate(rows):
            for j, v in enumerate(r):
                if v is not None and v != "":
                    ws.write(row + 2 + i, j, v)
        first, last = row + 2, row + 1 + max(len(rows), 1)
        self.names[f"rules.{name}"] = f"{self.q}!{a1(first, 0, True)}:{a1(last, len(header) - 1, True)}"
        self.names[f"rules.{name}.body"] = f"{self.q}!{a1(first, 1, True)}:{a1(last, len(header) - 1, True)}"
        for j in range(len(header)):
            self.names[f"rules.{name}.{j + 1}"] = f"{self.q}!{a1(first, j, True)}:{a1(last, j, True)}"
        self.width = max(self.width, len(header))
        self.row = last + 2

    def lists(self, lists: Mapping[str, list[tuple[Any, str]]]) -> int:
        """Each dropdown list in its own column right of the widest block; returns the next column.

        Numbers stay numbers, so a chosen value can be looked up in a price table."""
        col = self.width + 1
        for list_id, items in lists.items():
            self.ws.write(0, col, list_id, self.fmt["h"])
            for i, (value, label) in enumerate(items):
                numeric = isinstance(value, (int, float)) and not isinstance(value, bool)
                self.ws.write(1 + i, col, value if numeric else label)
            self.names[f"list.{list_id}"] = f"{self.q}!{a1(1, col, True)}:{a1(max(len(items), 1), col, True)}"
            col += 1
        return col

    def options(self, system: str, chosen: Mapping[str, str], col: int) -> None:
        """The group's rules readings (the options of docs/rules-*.md) as cells the formulas read."""
        self.ws.write(0, col + 1, "ルール選択", self.fmt["h"])
        for i, (name, spec) in enumerate(option_declarations(system).items()):
            self.ws.write(1 + i, col + 1, spec["label"])
            self.ws.write(1 + i, col + 2, chosen[name], self.fmt["input"])
            self.names[f"{system}.options.{name}"] = f"{self.q}!{a1(1 + i, col + 2, True)}"
            self.ws.data_validation(1 + i, col + 2, 1 + i, col + 2,
                                    {"validate": "list", "source": list(spec["values"])})
        self.ws.set_column(col + 1, col + 1, 34)

    def define(self) -> None:
        for name, ref in self.names.items():
            self.wb.define_name(name, "=" + ref)

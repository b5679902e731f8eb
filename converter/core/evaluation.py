"""What every system's engine returns: priced lines, findings, typed derived values, completeness.

Front ends (the report, the workbook's cached results, Excel functions, conversion) read derived
values from here; none re-derives them. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Iterator

from .findings import Finding


def round_half_up(value: Fraction | int | float) -> int:
    """Round to the nearest whole point, halves up (RULES-NOTES: round half up at the end)."""
    frac = Fraction(value)
    return int((frac * 2 + 1) // 2)


@dataclass(frozen=True)
class CostLine:
    """One priced item: where it is, what it is, the rule that priced it, and its cost."""

    pointer: str
    item: str
    rule: str
    cost: int

    def to_dict(self) -> dict[str, Any]:
        return {"pointer": self.pointer, "item": self.item, "rule": self.rule, "cost": self.cost}


@dataclass(frozen=True)
class Roll:
    """A dice expression's parts: ``dice`` dice of ``sides``, plus ``fixed``, plus ``each`` on
    every die (pp's pools). A bonus added to a base roll (mailgear's ``+1d+3``) counts only the
    added dice."""

    dice: int
    sides: int
    fixed: int = 0
    each: int = 0

    def to_dict(self) -> dict[str, int]:
        return {"dice": self.dice, "sides": self.sides, "fixed": self.fixed, "each": self.each}


@dataclass(frozen=True)
class Derived:
    """A value the rules compute from the document (never typed in): where a sheet shows it,
    what it is called, its value as the sheet shows it, and, for a roll, its parts."""

    pointer: str
    label: str
    value: Any
    roll: Roll | None = None

    @property
    def type(self) -> str:
        if self.roll is not None:
            return "roll"
        if isinstance(self.value, bool):
            return "boolean"
        if isinstance(self.value, int):
            return "integer"
        if isinstance(self.value, float):
            return "number"
        if self.value is None:
            return "null"
        return "text"

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "type": self.type, "value": self.value}
        if self.roll is not None:
            out["roll"] = self.roll.to_dict()
        return out


@dataclass
class Evaluation:
    """The engine's answer for one document.

    ``complete`` is computed: it is False when some item could not be evaluated (its pointer is
    in ``unevaluated``), so a total built from the rest is not the document's total."""

    lines: list[CostLine] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    budget: int | None = None
    declared: int | None = None
    derived: dict[str, Derived] = field(default_factory=dict)
    unevaluated: list[str] = field(default_factory=list)
    priced: bool = True  # False for a system without point costs (mailgear): no total

    @property
    def complete(self) -> bool:
        return not self.unevaluated

    @property
    def total(self) -> int:
        return sum(line.cost for line in self.lines)

    @property
    def remainder(self) -> int | None:
        return None if self.budget is None else self.budget - self.total

    def add(self, pointer: str, item: str, rule: str, cost: int) -> CostLine:
        line = CostLine(pointer, item, rule, int(cost))
        self.lines.append(line)
        return line

    def find(self, code: str, pointer: str = "", **params: Any) -> Finding:
        finding = Finding(code, pointer, params)
        self.findings.append(finding)
        return finding

    def skip(self, pointer: str) -> None:
        """Mark the item at ``pointer`` as not evaluated (a finding says why)."""
        self.unevaluated.append(pointer)

    def derive(self, pointer: str, label: str, value: Any, roll: Roll | None = None) -> Derived:
        d = Derived(pointer, label, value, roll)
        self.derived[pointer] = d
        return d

    def value(self, pointer: str, default: Any = None) -> Any:
        """The derived value at ``pointer`` (its value only), or ``default``."""
        d = self.derived.get(pointer)
        return default if d is None else d.value

    def cost_at(self, pointer: str, default: Any = None) -> Any:
        """The cost of the line at ``pointer``, or ``default``."""
        return next((line.cost for line in self.lines if line.pointer == pointer), default)

    def derived_under(self, prefix: str) -> Iterator[Derived]:
        """Derived values at ``prefix`` or below it."""
        return (d for p, d in self.derived.items() if p == prefix or p.startswith(prefix + "/"))

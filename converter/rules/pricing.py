"""What every system's engine returns: a breakdown of priced items, derived values, findings."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..findings import Finding


def round_half_up(value: Fraction | int | float) -> int:
    """Round to the nearest whole UP, halves up (RULES-NOTES: round half up at the end)."""
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


@dataclass
class Pricing:
    """The engine's answer for one document."""

    lines: list[CostLine] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    budget: int | None = None
    declared: int | None = None
    derived: dict[str, Any] = field(default_factory=dict)
    complete: bool = True  # False when an error kept an item from being priced

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

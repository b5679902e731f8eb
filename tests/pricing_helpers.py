"""Helpers every engine's tests share for reading a Evaluation's breakdown."""
from __future__ import annotations

from converter.core.evaluation import Evaluation


def cost_at(pricing: Evaluation, pointer: str) -> int:
    """The cost of the one line priced at ``pointer``."""
    lines = [line for line in pricing.lines if line.pointer == pointer]
    assert len(lines) == 1, f"expected one line at {pointer}, got {pricing.lines}"
    return lines[0].cost


def has_line(pricing: Evaluation, pointer: str) -> bool:
    return any(line.pointer == pointer for line in pricing.lines)

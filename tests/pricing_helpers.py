"""Helpers every engine's tests share for reading a Evaluation's breakdown."""
from __future__ import annotations

import re

from converter.core.evaluation import Evaluation

LEFTOVER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}")


def cost_at(pricing: Evaluation, pointer: str) -> int:
    """The cost of the one line priced at ``pointer``."""
    lines = [line for line in pricing.lines if line.pointer == pointer]
    assert len(lines) == 1, f"expected one line at {pointer}, got {pricing.lines}"
    return lines[0].cost


def has_line(pricing: Evaluation, pointer: str) -> bool:
    return any(line.pointer == pointer for line in pricing.lines)


def problems(pricing: Evaluation) -> list[str]:
    """What keeps an engine's answer from being shown whole: a finding whose message or hint
    keeps a placeholder, in either language; a cost that is not a whole number. Empty if none."""
    out = []
    for f in pricing.findings:
        for lang in ("ja", "en"):
            for text in (f.message(lang), f.hint(lang)):
                if LEFTOVER.search(text):
                    out.append(f"{f.code} {f.pointer}: {text}")
    out += [f"{line.pointer}: cost {line.cost!r}" for line in pricing.lines
            if not isinstance(line.cost, int) or isinstance(line.cost, bool)]
    return out

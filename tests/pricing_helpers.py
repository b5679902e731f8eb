"""Helpers every engine's tests share for reading a Evaluation's breakdown."""
from __future__ import annotations

import re
from typing import Any, Callable

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


#: A limit of the rules: (id, the document for a value, the code past the limit and its pointer,
#: values at the limit and on its allowed side, values past it, rules options).
Limit = tuple[str, Callable[[Any], dict], str, str, list, list, dict]


def check_limit(limit: Limit, codes: Callable[[dict, dict], list[tuple[str, str]]]) -> None:
    """At the limit and on its allowed side, no finding of the limit's code at its pointer; past
    it, exactly one. ``codes`` gives a document's (code, pointer) under options."""
    _, make, code, at, allowed, past, options = limit
    for value in allowed:
        assert (code, at) not in codes(make(value), options), value
    for value in past:
        assert codes(make(value), options).count((code, at)) == 1, value

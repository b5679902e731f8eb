"""Set checks: what only several documents of one system, checked together, can show.

A system declares its set checks (``SET_CHECKS`` in its package: up's transformation forms, the
mailgear party); the checker runs them over the members it checked and places each finding in
its member's report. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Sequence

from .evaluation import Evaluation
from .findings import Finding


@dataclass(frozen=True)
class Member:
    """One checked document of the set: the document, its evaluation, the context it used."""

    document: Mapping[str, Any]
    evaluation: Evaluation
    context: Mapping[str, Any] = field(default_factory=dict)


@dataclass
class SetOutcome:
    """What a set check found: findings by member index, and a summary for the report
    (``None`` when the set check has nothing to show, e.g. no member of its system)."""

    name: str
    findings: list[tuple[int, Finding]] = field(default_factory=list)
    summary: Any = None  # an object with ``to_dict(lang)``


SetCheck = Callable[[Sequence[Member]], SetOutcome]

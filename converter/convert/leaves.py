"""A document as its leaves: every scalar (and every empty list or object) by JSON pointer.

The account names each leaf of the source and of the target; lifting keeps each source leaf with
its value, so lowering into the same system rebuilds the document exactly. Standard library only.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..core.pointers import parse, pointer, walk


@dataclass
class Leaves:
    """The leaves of a document in document order, and the kind of every container on the way
    (so that an object whose keys are digits is rebuilt as an object, not a list)."""

    values: dict[str, Any] = field(default_factory=dict)
    shapes: dict[str, type] = field(default_factory=dict)

    def rebuild(self) -> dict[str, Any]:
        """The document these leaves came from."""
        root: dict[str, Any] = {}
        for ptr, value in self.values.items():
            node: Any = root
            parts = parse(ptr)
            for depth, part in enumerate(parts):
                here = pointer(*parts[: depth + 1])
                last = depth == len(parts) - 1
                new = _copy(value) if last else self.shapes[here]()
                if isinstance(node, list):
                    if int(part) == len(node):
                        node.append(new)
                    node = node[int(part)]
                else:
                    node = node.setdefault(part, new)
        return root


def _copy(value: Any) -> Any:
    return type(value)() if isinstance(value, (list, dict)) else value


def leaves(doc: Any) -> Leaves:
    """Every leaf of ``doc`` with its pointer."""
    out = Leaves()
    for ptr, value in walk(doc):
        if isinstance(value, (dict, list)) and value:
            out.shapes[ptr] = type(value)
        else:
            out.values[ptr] = value
    return out


def matches(pattern: str, ptr: str) -> bool:
    """Whether ``ptr`` is named by ``pattern``: ``*`` is one step, a final ``**`` any number
    (none included): ``/weapons/*/damage/*`` names ``/weapons/0/damage/dice``."""
    want, got = parse(pattern), parse(ptr)
    if want and want[-1] == "**":
        want = want[:-1]
        if len(got) < len(want):
            return False
        got = got[: len(want)]
    return len(want) == len(got) and all(w in ("*", g) for w, g in zip(want, got, strict=True))

"""Documents with one value replaced by an odd one, or one key dropped: what a hand-edited file or
a damaged sheet may hold where the schema wants something else. The engines must answer every
one of them with findings, never an exception (each engine's ``test_malformed.py``);
bench/mutation.py runs the same documents as part of its corpus.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any, Callable, Iterator

import pytest

from converter.core.evaluation import Evaluation

from .pricing_helpers import problems

ROOT = Path(__file__).resolve().parent.parent

#: Odd values: nothing, texts, numbers around the rules' limits, a fraction, booleans, lists and
#: objects empty or not, a full-width number, a text longer than a message shows.
ODD: list[Any] = [None, "", "x", "陸", -1, 0, 1, 2, 3, 8, 12, 13, 99, 2.5, True, False, [], {}, [1], {"a": 1},
                  "１２", "x" * 45]
#: The shapes every value is replaced by; each also gets one more of ODD, in turn.
SHAPES: list[Any] = [None, "x", -1, [1], {"a": 1}]


def samples(system: str) -> list[Path]:
    """The samples and broken samples of ``system``."""
    return sorted((ROOT / "samples" / system).glob("*.json")) + sorted(
        (ROOT / "samples" / "broken" / system).glob("*.json"))


def paths(doc: Any, skip: tuple[str, ...] = ("system",)) -> list[tuple]:
    """The path of every value in ``doc`` (keys and list indexes), parents before their values;
    the top-level keys in ``skip`` left out."""
    out: list[tuple] = []

    def walk(node: Any, at: tuple) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if at or key not in skip:
                out.append(at + (key,))
                walk(value, at + (key,))
    walk(doc, ())
    return out


def _parent(doc: Any, path: tuple) -> Any:
    node = doc
    for part in path[:-1]:
        node = node[part]
    return node


def put(doc: Any, path: tuple, value: Any) -> None:
    """Set the value at ``path`` in ``doc`` itself."""
    _parent(doc, path)[path[-1]] = value


def replaced(doc: Any, path: tuple, value: Any) -> Any:
    """A copy of ``doc`` with the value at ``path`` replaced by ``value``."""
    doc = json.loads(json.dumps(doc))
    put(doc, path, copy.deepcopy(value))
    return doc


def dropped(doc: Any, path: tuple) -> Any:
    """A copy of ``doc`` without the key at ``path`` (an object's key)."""
    doc = json.loads(json.dumps(doc))
    del _parent(doc, path)[path[-1]]
    return doc


def variants(doc: Any) -> Iterator[tuple[tuple, Any, Any]]:
    """(path, what was put there, the document) for every value of ``doc`` replaced by each of
    SHAPES and one more odd value (in turn along the document), and every key dropped."""
    extra = [v for v in ODD if v not in SHAPES]
    for k, path in enumerate(paths(doc)):
        for value in SHAPES + [extra[k % len(extra)]]:
            yield path, value, replaced(doc, path, value)
        if isinstance(path[-1], str):
            yield path, "(dropped)", dropped(doc, path)


def assert_every_variant_answered(doc: Any, answer: Callable[[Any], Evaluation]) -> None:
    """``answer`` (an engine run) gives every variant of ``doc`` an answer that renders whole
    (tests/pricing_helpers.py's problems), never an exception."""
    for where, value, mangled in variants(doc):
        try:
            pricing = answer(mangled)
        except Exception as exc:  # the finding a user would need instead
            pytest.fail(f"{'/'.join(map(str, where))} = {value!r}: {type(exc).__name__}: {exc}")
        assert not problems(pricing), (where, value)

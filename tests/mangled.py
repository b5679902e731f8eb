"""Documents with one value replaced by an odd one, or one key dropped: what a hand-edited file or
a damaged sheet may hold where the schema wants something else. The engines must answer every
one of them with findings, never an exception (each engine's ``test_malformed.py``);
bench/mutation.py runs the same documents as part of its corpus.
"""
from __future__ import annotations

import copy
import json
from typing import Any, Iterator

#: Odd values: nothing, texts, numbers around the rules' limits, a fraction, booleans, lists and
#: objects empty or not, a full-width number, a text longer than a message shows.
ODD: list[Any] = [None, "", "x", "陸", -1, 0, 1, 2, 3, 8, 12, 13, 99, 2.5, True, False, [], {}, [1], {"a": 1},
                  "１２", "x" * 45]
#: The shapes every value is replaced by; each also gets one more of ODD, in turn.
SHAPES: list[Any] = [None, "x", -1, [1], {"a": 1}]


def paths(doc: Any) -> list[tuple]:
    """The path of every value in ``doc`` (keys and list indexes), its ``system`` left out."""
    out: list[tuple] = []

    def walk(node: Any, at: tuple) -> None:
        items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
        for key, value in items:
            if at or key != "system":
                out.append(at + (key,))
            walk(value, at + (key,))
    walk(doc, ())
    return out


def replaced(doc: Any, path: tuple, value: Any) -> Any:
    """A copy of ``doc`` with the value at ``path`` replaced by ``value``."""
    doc = json.loads(json.dumps(doc))
    node = doc
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = copy.deepcopy(value)
    return doc


def dropped(doc: Any, path: tuple) -> Any:
    """A copy of ``doc`` without the key at ``path`` (an object's key)."""
    doc = json.loads(json.dumps(doc))
    node = doc
    for part in path[:-1]:
        node = node[part]
    del node[path[-1]]
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

"""JSON pointers (RFC 6901): building, parsing, reading, writing, and the cell nearest to one.

Every layer names a place in a document by a pointer (findings, breakdown lines, derived values,
the pointer → cell map of a workbook); this module is the one implementation of them.
Standard library only.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Iterator


def pointer(*parts: str | int) -> str:
    """A JSON pointer from path parts: ``pointer("weapons", 0, "name")`` → ``/weapons/0/name``."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


def walk(node: Any, at: str = "") -> Iterator[tuple[str, Any]]:
    """(pointer, value) of ``node`` and of everything inside it, parents before children."""
    yield at, node
    if isinstance(node, dict):
        for key, value in node.items():
            yield from walk(value, at + pointer(key))
    elif isinstance(node, list):
        for k, value in enumerate(node):
            yield from walk(value, f"{at}/{k}")


def parse(ptr: str) -> list[str]:
    """The unescaped parts of ``ptr`` (``"/a~1b/0"`` → ``["a/b", "0"]``); ``""`` → ``[]``."""
    if not ptr:
        return []
    if "~" not in ptr:  # nearly every pointer: nothing escaped
        return ptr.split("/")[1:]
    return [p.replace("~1", "/").replace("~0", "~") for p in ptr.split("/")[1:]]


def get(doc: Any, ptr: str, default: Any = None) -> Any:
    """The value at ``ptr`` in ``doc``, or ``default`` where there is none (never raises)."""
    node = doc
    for part in parse(ptr):
        if isinstance(node, Mapping):
            if part not in node:
                return default
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return default
    return node


def put(doc: dict[str, Any], ptr: str, value: Any, *, overwrite: bool = True) -> bool:
    """Set ``value`` at ``ptr``, creating objects (or, before a numeric part, lists) on the way.

    A list index equal to the list's length appends. Returns False, leaving ``doc`` unchanged,
    where the path runs through a value that is neither an object nor a list, or past a list's
    end; with ``overwrite=False`` an existing value is kept (and True returned only if placed)."""
    parts = parse(ptr)
    if not parts:
        return False
    node: Any = doc
    for k, part in enumerate(parts[:-1]):
        nxt = parts[k + 1]
        if isinstance(node, dict):
            if part not in node or node[part] is None:
                node[part] = [] if nxt.isdigit() else {}
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) <= len(node):
            if int(part) == len(node):
                node.append([] if nxt.isdigit() else {})
            node = node[int(part)]
        else:
            return False
    last = parts[-1]
    if isinstance(node, dict):
        if not overwrite and last in node:
            return False
        node[last] = value
        return True
    if isinstance(node, list) and last.isdigit() and int(last) <= len(node):
        if int(last) == len(node):
            node.append(value)
        elif overwrite:
            node[int(last)] = value
        else:
            return False
        return True
    return False


def parent(ptr: str) -> str:
    """The pointer one level up (``/a/b`` → ``/a``; ``/a`` → ``""``)."""
    return ptr.rsplit("/", 1)[0] if ptr else ""


def nearest(ptr: str, places: Mapping[str, str]) -> str:
    """What ``places`` holds for ``ptr`` or for its nearest parent ('' if none): the cell of a
    finding whose own field has no cell (a missing field is shown at its object's cell)."""
    p = ptr
    while p:
        found = places.get(p)
        if found:
            return found
        p = parent(p)
    return places.get("", "")

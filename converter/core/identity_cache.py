"""Values worked out once per object, found by the object's identity.

For objects that live as long as the process and cost more to hash or compare than to look up
by ``id`` (a frozen layout Table, a sheet's lists, a catalog's content): the entry keeps the
object itself, so an id reused after it is gone never answers for another. Bounded: when full it
is emptied, so objects made per call (the Excel functions' empty lists) cannot make it grow.
Standard library only.
"""
from __future__ import annotations

from typing import Any, Callable, Generic, TypeVar

V = TypeVar("V")


class IdentityCache(Generic[V]):
    """``make(obj)`` once per live object ``obj``, at most ``size`` kept."""

    def __init__(self, size: int = 256) -> None:
        self._size = size
        self._items: dict[int, tuple[Any, V]] = {}

    def get(self, obj: Any, make: Callable[[Any], V]) -> V:
        got = self._items.get(id(obj))
        if got is not None and got[0] is obj:
            return got[1]
        value = make(obj)
        if len(self._items) >= self._size:
            self._items.clear()
        self._items[id(obj)] = (obj, value)
        return value

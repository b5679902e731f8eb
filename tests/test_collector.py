"""core.collector.set_aside: what is alive on entry is left out of the collector's passes for
the block, and given back after it (an exception too), unless some was set aside already."""
from __future__ import annotations

import gc

import pytest

from converter.core.collector import set_aside


def test_alive_objects_are_set_aside_for_the_block_only() -> None:
    gc.unfreeze()
    kept = [object() for _ in range(100)]
    with set_aside():
        assert gc.get_freeze_count() >= len(kept)
        made = [[] for _ in range(10)]
        cycle: list = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1  # objects made inside are collected as usual
    assert gc.get_freeze_count() == 0
    assert made and kept


def test_an_exception_gives_them_back() -> None:
    gc.unfreeze()
    with pytest.raises(ValueError):
        with set_aside():
            raise ValueError("boom")
    assert gc.get_freeze_count() == 0


def test_objects_set_aside_before_stay_aside() -> None:
    gc.unfreeze()
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        with set_aside():
            pass
        assert gc.get_freeze_count() >= before > 0
    finally:
        gc.unfreeze()

"""Leaving the objects alive now out of the cyclic garbage collector's passes for a while.

A run that has read a folder holds a large, long-lived heap (every file's report, the report
libraries' modules); each full pass of the collector walks all of it while the reports are
written, and a process forked meanwhile copies every page such a pass touches. Standard
library only."""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def set_aside() -> Iterator[None]:
    """While the block runs, what is alive on entry is never walked by the collector (it is not
    garbage: the caller holds it); objects made inside are collected as usual. On the way out
    (an exception too) they are given back to the collector, unless objects were set aside
    already on entry: ``gc.unfreeze`` would give back those too, so all stay aside."""
    frozen = gc.get_freeze_count()
    gc.freeze()
    try:
        yield
    finally:
        if not frozen:
            gc.unfreeze()

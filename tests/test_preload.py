"""core.preload: modules imported in a background thread, then a warm-up."""
from __future__ import annotations

import sys
from pathlib import Path

from converter.core.preload import Preload

ROOT = Path(__file__).resolve().parents[1]


def test_modules_then_the_warm_up_in_a_thread(monkeypatch) -> None:
    monkeypatch.delitem(sys.modules, "colorsys", raising=False)
    order: list[str] = []
    preload = Preload(["colorsys", "no_such_module_here", "colorsys"],
                      then=lambda: order.append("colorsys" in sys.modules))
    assert preload.modules == ["colorsys", "no_such_module_here"]
    preload.start()
    preload.join()
    assert order == [True] and "colorsys" in sys.modules


def test_join_starts_it_and_a_failing_warm_up_is_left_to_its_user() -> None:
    def boom() -> None:
        raise RuntimeError("no font")

    preload = Preload([], then=boom)
    preload.join()  # never started: join starts it, and the warm-up's failure does not escape
    preload.start()  # once only
    assert not preload._thread.is_alive()

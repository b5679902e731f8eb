"""core.preload: modules imported in a background thread, then a warm-up; the import run starts
it once its workers are forked, so the roster's pandas is imported while they read."""
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


def test_an_import_loads_the_rosters_libraries_while_its_workers_read(tmp_path: Path, monkeypatch) -> None:
    """The preload is started from the runner's ``started`` (the workers forked), before the
    first entry is handed on, and joined before the roster is written."""
    import converter.importer as importer

    events: list[str] = []

    class Recording(Preload):
        def start(self) -> None:
            events.append("started")
            super().start()

        def join(self) -> None:
            events.append("joined")
            super().join()

    monkeypatch.setattr(importer, "Preload", Recording)
    legacy = sorted((ROOT / "samples" / "legacy").glob("*.xlsx"))[:3]
    report = importer.import_files(legacy, tmp_path / "out", jobs=2, on_entry=lambda e: events.append("entry"))
    assert report.files == len(legacy) and (tmp_path / "out" / "roster.xlsx").exists()
    assert events[0] == "started" and events.index("joined") > max(i for i, e in enumerate(events) if e == "entry")

"""Modules a run will need at its end, imported in a thread while its workers read the files.

pandas alone takes a third of a second to import; a run that writes a roster or a report with it
would otherwise import it after the last file, when nothing else is left to do. Standard library
only."""
from __future__ import annotations

import importlib
import threading
from typing import Callable, Iterable


class Preload:
    """``modules`` imported in a background thread, then ``then()`` (a warm-up: a template
    compiled, a font opened).

    Start it once the workers are forked (``runner.run_in_workers(started=...)``): begun
    earlier, it holds the forking thread back (the GIL), and a process forked while a module is
    half imported inherits its lock. Join it before forking anything else. A module that cannot
    be imported, or a warm-up that fails, is left for its user to report when it runs."""

    def __init__(self, modules: Iterable[str], then: Callable[[], None] | None = None) -> None:
        self.modules = list(dict.fromkeys(modules))
        self.then = then
        self._thread = threading.Thread(target=self._load, name="mechasheet-preload", daemon=True)
        self._started = False

    def _load(self) -> None:
        for name in self.modules:
            try:
                importlib.import_module(name)
            except ImportError:
                pass
        if self.then is not None:
            try:
                self.then()
            except Exception:  # noqa: BLE001 - the writer that needs it will say what is wrong
                pass

    def start(self) -> None:
        if not self._started:
            self._started = True
            self._thread.start()

    def join(self) -> None:
        """Everything loaded (started here if no worker was ever forked)."""
        self.start()
        self._thread.join()

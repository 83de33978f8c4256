"""Python's cyclic garbage collector, run on the GUI thread only: automatic collection off, a GUI-thread timer.

Python collects a cycle on whichever thread allocates next. When that cycle holds a QObject, its C++ destructor
runs on that worker: it takes Qt's connection lock for the object and then waits for the GIL, while the GUI thread,
holding the GIL, waits for that lock in `QObject::connect` — a deadlock seen as a frozen window and a hung test
suite (the index lane collected a QObject inside markdown-it's parser). So once the window's controller exists,
automatic collection is off for every thread and this timer collects on the GUI thread, generation by generation,
by the thresholds the automatic collector would have used (the pattern of pyqtgraph's GarbageCollector).
app/cycles.py keeps the app's own QObjects out of cycles besides, so even a collection forced on a worker frees
none of them.
"""

from __future__ import annotations

import gc
import threading
from typing import Any

from PySide6.QtCore import QObject, QTimer

INTERVAL_MS = 500  # the GUI thread looks at the counts twice a second (a check costs microseconds)


class GuiThreadCollector(QObject):
    """Turns automatic collection off and collects on the GUI thread (the thread that makes it) from a timer.

    `off_thread` counts the collections that started on another thread while installed (a library's or a test's
    `gc.collect()`): the tests fail on any.
    """

    def __init__(self, interval_ms: int = INTERVAL_MS) -> None:
        super().__init__()
        self.gui_thread = threading.current_thread()
        self.thresholds = gc.get_threshold()
        self.was_enabled = gc.isenabled()
        self.off_thread: list[str] = []
        self.collections = 0
        gc.disable()
        gc.callbacks.append(self._watch)
        self.timer = QTimer(self)
        self.timer.setInterval(interval_ms)
        self.timer.timeout.connect(self.check)
        self.timer.start()

    def check(self) -> None:
        """Collect the oldest generation whose count passed its threshold, as the automatic collector would."""
        counts = gc.get_count()
        generation = -1
        for g in range(3):
            if counts[g] > self.thresholds[g]:
                generation = g
        if generation >= 0:
            gc.collect(generation)
            self.collections += 1

    def _watch(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start" and threading.current_thread() is not self.gui_thread:
            self.off_thread.append(f"{threading.current_thread().name} (generation {info.get('generation')})")

    def uninstall(self) -> None:
        """Back to Python's own collection (the tests, between one window and the next)."""
        self.timer.stop()
        if self._watch in gc.callbacks:
            gc.callbacks.remove(self._watch)
        if self.was_enabled:
            gc.enable()


_installed: GuiThreadCollector | None = None


def install() -> GuiThreadCollector:
    """The process's collector, made on the first call (on the GUI thread: the window's controller calls it)."""
    global _installed
    if _installed is None:
        _installed = GuiThreadCollector()
    return _installed


def installed() -> GuiThreadCollector | None:
    return _installed


def uninstall() -> GuiThreadCollector | None:
    """Stop the collector and turn automatic collection back on; returns the collector that ran (None: none)."""
    global _installed
    was, _installed = _installed, None
    if was is not None:
        was.uninstall()
    return was

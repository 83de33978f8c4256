"""Crossing threads: run_on_main, and the query lane (one reader thread; the newest request wins)."""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from vaultrag.app.words import user_message
from vaultrag.errors import UserFacingError

log = logging.getLogger(__name__)


class MainThreadBridge(QObject):
    """Lives on the GUI thread; `run_on_main(fn)` from any thread queues `fn` to run there."""

    _call = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self._call.connect(self._on_call)

    def run_on_main(self, fn: Callable[[], None]) -> None:
        self._call.emit(fn)

    @Slot(object)
    def _on_call(self, fn: Callable[[], None]) -> None:
        fn()


class QueryLane:
    """A worker thread for reads (search, diagnosis, health, eval) with its own connections.

    Each request carries a kind; a newer request of the same kind supersedes an older one that has not started,
    and a finished result whose generation is stale is dropped. Callbacks run on the GUI thread.
    """

    def __init__(self, bridge: MainThreadBridge) -> None:
        self.bridge = bridge
        self._queue: queue.Queue[tuple[int, str, Callable[[], Any], Callable[[Any], None],
                                       Callable[[str], None]] | None] = queue.Queue()
        self._latest: dict[str, int] = {}
        self._gen = 0
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._run, name="vaultrag-query-lane", daemon=True)
        self._thread.start()

    def submit(self, kind: str, work: Callable[[], Any], done: Callable[[Any], None],
               failed: Callable[[str], None]) -> int:
        with self._lock:
            self._gen += 1
            gen = self._gen
            self._latest[kind] = gen
        self._queue.put((gen, kind, work, done, failed))
        return gen

    def stop(self, timeout: float = 10.0) -> None:
        self._queue.put(None)
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            gen, kind, work, done, failed = item
            if self._latest.get(kind) != gen:
                continue  # superseded before it started
            try:
                result = work()
            except UserFacingError as e:  # worded on the GUI thread, in the window's language
                self.bridge.run_on_main(lambda err=e, f=failed: f(user_message(err)))  # type: ignore[misc]
                continue
            except Exception as e:  # a bug: log it with its traceback, show one line
                log.exception("%s failed", kind)
                message = f"{kind} failed: {e}"
                self.bridge.run_on_main(lambda m=message, f=failed: f(m))  # type: ignore[misc]
                continue
            if self._latest.get(kind) == gen:
                # bind `done` now: the loop rebinds it before the GUI thread runs this
                self.bridge.run_on_main(lambda r=result, d=done: d(r))  # type: ignore[misc]

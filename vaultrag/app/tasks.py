"""Crossing threads: run_on_main, named workers (every app thread), and the query lane (the newest request wins)."""

from __future__ import annotations

import logging
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import QObject, Signal, Slot

from vaultrag.app.words import user_message
from vaultrag.errors import UserFacingError

log = logging.getLogger(__name__)
QUERY_LANE = "vaultrag-query-lane"


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


class Workers:
    """The app's background threads, started by name and joined at shutdown (every thread the app starts is one).

    Workers are daemons so that a worker stuck in the network (a download, a language model server that never
    answers) cannot keep the process alive after the window closed; `join` waits for each up to a timeout and
    returns the names of those still running, so a test sees a leak.
    """

    def __init__(self) -> None:
        self._threads: list[threading.Thread] = []
        self._lock = threading.Lock()

    def start(self, name: str, target: Callable[[], None]) -> threading.Thread:
        thread = threading.Thread(target=target, name=name, daemon=True)
        with self._lock:
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
        thread.start()
        return thread

    def running(self, name: str) -> bool:
        """Whether a worker of this name is still running."""
        with self._lock:
            return any(t.name == name and t.is_alive() for t in self._threads)

    def join(self, timeout: float = 30.0, name: str | None = None, exclude: str = "") -> list[str]:
        """Wait for the workers (of `name`, or all but `exclude`) up to `timeout` seconds in all; returns the names
        of those still running."""
        deadline = time.monotonic() + timeout
        with self._lock:
            threads = [t for t in self._threads if (name is None or t.name == name) and t.name != exclude]
        for t in threads:
            if t is not threading.current_thread():
                t.join(max(0.0, deadline - time.monotonic()))
        return [t.name for t in threads if t.is_alive()]


class QueryLane:
    """A worker thread for reads (search, diagnosis, health, eval) with its own connections.

    Each request carries a kind; a newer request of the same kind supersedes an older one that has not started,
    and a finished result whose generation is stale is dropped. Callbacks run on the GUI thread.
    """

    def __init__(self, bridge: MainThreadBridge, workers: Workers) -> None:
        self.bridge = bridge
        self._queue: queue.Queue[_Request | None] = queue.Queue()
        self._latest: dict[str, int] = {}
        self._gen = 0
        self._lock = threading.Lock()
        self._stopped = False
        self._thread = workers.start(QUERY_LANE, self._run)

    def submit(self, kind: str, work: Callable[[], Any], done: Callable[[Any], None],
               failed: Callable[[str], None]) -> int:
        with self._lock:
            self._gen += 1
            gen = self._gen
            self._latest[kind] = gen
            if self._stopped:  # after shutdown nothing runs it: kept, it would hold its closure's objects
                return gen
        self._queue.put(_Request(gen, kind, work, done, failed))
        return gen

    def always(self, kind: str, work: Callable[[], None]) -> None:
        """Queue `work` to run even when more requests follow (closing a store: a superseded close would leave
        its connection and helper threads open)."""
        if self._stopped:
            return
        self._queue.put(_Request(0, kind, work, lambda _: None, lambda _: None, supersedable=False))

    def stop(self, timeout: float = 10.0) -> None:
        """Run what is queued, then end the thread; what is asked later is dropped (a request left in the queue
        keeps its closures, and through them the QObjects that asked: app/cycles.py)."""
        with self._lock:
            self._stopped = True
        self._queue.put(None)
        self._thread.join(timeout)
        if not self._thread.is_alive():
            while not self._queue.empty():
                self._queue.get_nowait()

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            if item is None:
                return
            if item.supersedable and self._latest.get(item.kind) != item.gen:
                continue  # superseded before it started
            kind, done, failed = item.kind, item.done, item.failed
            try:
                result = item.work()
            except UserFacingError as e:  # worded on the GUI thread, in the window's language
                self.bridge.run_on_main(lambda err=e, f=failed: f(user_message(err)))  # type: ignore[misc]
                continue
            except Exception as e:  # a bug: log it with its traceback, show one line
                log.exception("%s failed", kind)
                message = f"{kind} failed: {e}"
                self.bridge.run_on_main(lambda m=message, f=failed: f(m))  # type: ignore[misc]
                continue
            if not item.supersedable or self._latest.get(kind) == item.gen:
                self.bridge.run_on_main(lambda r=result, d=done: d(r))  # type: ignore[misc]


@dataclass(frozen=True)
class _Request:
    gen: int
    kind: str
    work: Callable[[], Any]
    done: Callable[[Any], None]
    failed: Callable[[str], None]
    supersedable: bool = True

"""Keeps every exchange of the window in its vault's history (core/history.py), on a writer thread of its own.

The GUI thread only queues: a question's trace when it is shown, the model's answer when it comes; the writer
commits each at once (a killed app keeps every finished exchange). The History pane's reads go through the same
thread (one SQLite connection) and come back on the GUI thread as signals. The writer and its queued jobs hold
the keeper only weakly (app/cycles.py: no reference cycle through a QObject).
"""

from __future__ import annotations

import logging
import queue
import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from vaultrag.app.tasks import MainThreadBridge, Workers
from vaultrag.core.history import History, new_conversation_id
from vaultrag.core.model import QueryTrace

log = logging.getLogger(__name__)
WRITER = "history-writer"


class _Writer:
    """The writer thread's state: the open history and the queue it works through (no Qt object)."""

    def __init__(self) -> None:
        self.jobs: queue.Queue[Callable[[_Writer], None] | None] = queue.Queue()
        self.history: History | None = None
        self.path: Path | None = None
        self.last: tuple[str, int] | None = None  # the last question recorded and its exchange id

    def open(self, path: Path | None) -> None:
        if path == self.path:
            return
        if self.history is not None:
            self.history.close()
        self.history, self.path, self.last = (History(path) if path is not None else None), path, None

    def loop(self, failed: Callable[[str], None]) -> None:
        while True:
            job = self.jobs.get()
            if job is None:
                self.open(None)
                return
            try:
                job(self)
            except Exception as e:  # a full disk, a damaged file: said, and the next exchange is tried again
                log.warning("history: %s", e)
                failed(str(e))


class HistoryKeeper(QObject):
    """The open vault's history. Signals: conversations_listed (list[Conversation]), exchanges_listed
    (list[Exchange]), trace_read (QueryTrace), exported (the file written), changed (after a write or a deletion),
    failed (a message)."""

    conversations_listed = Signal(object)
    exchanges_listed = Signal(object)
    trace_read = Signal(object)
    exported = Signal(str)
    changed = Signal()
    failed = Signal(str)

    def __init__(self, bridge: MainThreadBridge, workers: Workers) -> None:
        super().__init__()
        self.bridge = bridge
        self.workers = workers
        self.conversation = new_conversation_id()
        self._writer = _Writer()
        self._started = False
        self._stopped = False  # the app is closing: nothing more is queued (no writer started again)

    # -- on the GUI thread ---------------------------------------------------------------------
    def use(self, path: Path | None) -> None:
        """Keep the exchanges in `path` from now on (None: no vault)."""
        self._submit(lambda w: w.open(path))

    def new_conversation(self) -> None:
        self.conversation = new_conversation_id()

    def record(self, trace: QueryTrace) -> None:
        conversation = self.conversation

        def work(w: _Writer) -> None:
            if w.history is not None:
                w.last = (trace.question, w.history.record(conversation, trace))

        self._submit(work, "changed")

    def answered(self, trace: QueryTrace) -> None:
        """The model's answer to the question recorded last."""
        def work(w: _Writer) -> None:
            if w.history is not None and w.last is not None and w.last[0] == trace.question:
                w.history.update(w.last[1], trace)

        self._submit(work, "changed")

    def list_conversations(self, search: str = "") -> None:
        self._read(lambda h: h.conversations(search), "conversations_listed")

    def list_exchanges(self, conversation: str) -> None:
        self._read(lambda h: h.exchanges(conversation), "exchanges_listed")

    def read_trace(self, exchange: int) -> None:
        self._read(lambda h: h.trace(exchange), "trace_read")

    def export(self, conversation: str, vault: str, out: str) -> None:
        def work(h: History) -> str:
            Path(out).write_text(h.export_markdown(conversation, vault), encoding="utf-8")
            return out

        self._read(work, "exported")

    def delete(self, conversation: str | None) -> None:
        """Delete one conversation, or all of them (None)."""
        self._read(lambda h: h.delete_all() if conversation is None else h.delete(conversation), "changed")

    def keep_only(self, indexed: set[str]) -> None:
        """Forget the exchanges citing a note no longer in the index (made private, ignored, deleted)."""
        def forget(h: History) -> int:
            cited = {s[2] for c in h.conversations() for x in h.exchanges(c.id) for s in x.sources}
            return h.forget_notes(cited - indexed)

        self._read(forget, "changed", only_if_any=True)

    def keep_indexed(self, info: dict[str, list[str]]) -> None:
        """`keep_only` the notes of a notes listing (the session's `notes_listed`)."""
        self.keep_only(set(info.get("notes", [])))

    def stop(self) -> None:
        """Let the writer finish what is queued, close the file and end (the app's exit)."""
        self._stopped = True
        if self._started:
            self._writer.jobs.put(None)

    # -- plumbing --------------------------------------------------------------------------------
    def _post(self) -> Callable[..., None]:
        """What a job calls to emit one of this keeper's signals on the GUI thread (holding the keeper weakly)."""
        ref, bridge = weakref.ref(self), self.bridge

        def post(signal: str, value: Any = None) -> None:
            def emit() -> None:
                keeper = ref()
                if keeper is not None:
                    s = getattr(keeper, signal)
                    s.emit() if signal == "changed" else s.emit(value)

            bridge.run_on_main(emit)

        return post

    def _submit(self, job: Callable[[_Writer], None], then: str = "") -> None:
        if self._stopped:
            return
        post = self._post()
        if not self._started:
            self._started = True
            writer = self._writer
            self.workers.start(WRITER, lambda: writer.loop(lambda message: post("failed", message)))

        def run(w: _Writer) -> None:
            job(w)
            if then:
                post(then)

        self._writer.jobs.put(run)

    def _read(self, fn: Callable[[History], Any], signal: str, only_if_any: bool = False) -> None:
        """`fn(history)` on the writer, its result emitted as `signal` (`only_if_any`: only a result that is not 0
        or empty: a purge that forgot nothing says nothing)."""
        post = self._post()

        def work(w: _Writer) -> None:
            if w.history is not None:
                result = fn(w.history)
                if result or not only_if_any:
                    post(signal, result)

        self._submit(work)

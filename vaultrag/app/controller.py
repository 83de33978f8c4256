"""AppController: owns the workspace, the models, the index lane, the watcher and the query lane; speaks signals."""

from __future__ import annotations

import contextlib
import logging
import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from vaultrag import settings as settings_mod
from vaultrag.app.tasks import MainThreadBridge, QueryLane
from vaultrag.app.words import user_message
from vaultrag.core.index.lane import IndexLane, LaneEvent
from vaultrag.core.scope import Scope
from vaultrag.core.vocab import LaneEventKind
from vaultrag.errors import ModelUnavailable, UserFacingError
from vaultrag.settings import Settings

log = logging.getLogger(__name__)


# calibration stores a threshold only from at least this many answerable and unanswerable questions each
MIN_CALIBRATION_QUESTIONS = 15

class AppController(QObject):
    """Everything the window asks for happens here, off the GUI thread; results come back as signals.

    Signals:
        status_changed: one line for the status bar ("loading model…", "indexing…", "ready").
        model_ready: the embedding model is loaded.
        index_progress: a core Progress of the running index job.
        index_changed: a LaneEvent (applied, embedded, error, recovered).
        search_finished: a QueryTrace.
        diagnosis_finished: a Diagnosis.
        health_ready: a Health.
        eval_finished: (EvalResult, calibration dict or None).
        eval_progress: a Progress of the running evaluation.
        answer_started: the model's name: a language model is writing the answer (after search_finished).
        answer_delta: the next piece of the answer's text.
        answer_finished: the QueryTrace with the model's checked answer (also after Stop: marked stopped).
        answer_failed: a message (server down, timeout…); the trace already shown keeps the extractive answer.
        notes_listed: the indexed note paths (for pickers and scope chips), with folders and tags.
        note_read: a NoteText (a note's text for the preview), read on the query lane.
        local_llm_found: the FoundServers with models answering on this machine (offered when none is set).
        failed: a message a person can act on (shown once).
    """

    status_changed = Signal(str)
    model_ready = Signal()
    index_progress = Signal(object)
    index_changed = Signal(object)
    search_finished = Signal(object)
    diagnosis_finished = Signal(object)
    health_ready = Signal(object)
    eval_finished = Signal(object)
    eval_progress = Signal(object)
    notes_listed = Signal(object)
    answer_started = Signal(str)
    answer_delta = Signal(str)
    answer_finished = Signal(object)
    answer_failed = Signal(str)
    note_read = Signal(object)
    failed = Signal(str)
    model_download_progress = Signal(object)  # Progress (bytes) of a cross-encoder download
    model_download_finished = Signal(str)  # the folder of the downloaded model
    model_download_failed = Signal(str)  # why a download stopped (no network, cancelled, a wrong id)
    local_llm_found = Signal(object)

    def __init__(self, home: str | Path | None = None) -> None:
        super().__init__()
        from vaultrag.paths import Paths

        self.paths = Paths(home)
        self.bridge = MainThreadBridge()
        self.queries = QueryLane(self.bridge)
        self.settings: Settings = Settings()
        self.ws: Any = None
        self.embedder: Any = None
        self.lane: IndexLane | None = None
        self.watcher: Any = None
        self._searcher: Any = None  # lives on the query lane's thread
        self.pipeline: Any = None  # the query units (None: the shipped PIPELINE); checked when the Searcher is built
        self._searcher_key: Any = None
        self._loader: threading.Thread | None = None
        self._reapers: list[threading.Thread] = []
        self._download: threading.Thread | None = None
        self._download_cancel = threading.Event()
        self._download_ended = threading.Event()  # set once the running download has posted how it ended
        from vaultrag.core.query.conversation import Conversation

        self.conversation = Conversation()  # the window's questions so far (follow-ups build on them)
        self._generators: list[threading.Thread] = []  # the language model's answers being written
        self._cancel: threading.Event | None = None  # Stop for the current answer
        self._detector: threading.Thread | None = None  # looking for a local language model server
        try:
            self.settings = settings_mod.load(self.paths.settings_file)
        except UserFacingError as e:  # a broken settings file: say so once, run on defaults
            message = str(e)
            self.bridge.run_on_main(lambda: self.failed.emit(message))
        self._load_token_table()
        from vaultrag.core import embed

        embed.preload(self.settings)  # the same reason as the token table's, for e5 on onnxruntime

    def _load_token_table(self) -> None:
        """Load the o200k token table now, before any window shows. Building it holds the GIL for ~0.3 s (tiktoken
        turns 200k ranks into its Rust table), which froze the window for that long whichever thread did it
        (measured 250 ms in test_gui_thread_never_blocks_while_indexing); before the window exists it freezes
        nothing. A missing package is reported when a vault opens, as before."""
        from vaultrag.core import tokens

        tokens.configure(self.paths.tiktoken_cache)
        with contextlib.suppress(UserFacingError):
            tokens.encoding()

    # -- vault lifecycle ----------------------------------------------------------------------
    def open_vault(self, vault: str | Path) -> None:
        """Check the vault at once; load the model, then index and watch in the background."""
        from vaultrag.core.workspace import Workspace

        self.close_vault()
        try:
            self.ws = Workspace.load(vault, self.paths.home, self.settings)
        except UserFacingError as e:
            self.failed.emit(user_message(e))
            return
        self.status_changed.emit(self.tr("loading model…"))
        ws = self.ws

        def load() -> None:
            from vaultrag.core import embed

            try:
                model = embed.from_settings(ws.settings)
            except UserFacingError as e:
                error = e
                self.bridge.run_on_main(lambda: self._start_lane(ws, None, user_message(error)))
                return
            self.bridge.run_on_main(lambda: self._start_lane(ws, model, ""))
            from vaultrag.core.query.search import warm_up

            warm_up()  # after the lane has started: the first question then waits for no table to load

        self._loader = threading.Thread(target=load, name="vaultrag-model-loader", daemon=True)
        self._loader.start()

    def _start_lane(self, ws: Any, model: Any, error: str) -> None:
        from vaultrag.core.index.watcher import VaultWatcher

        if ws is not self.ws:  # another vault was opened meanwhile
            return
        if error:
            self.failed.emit(self.tr("{why} — keyword search (BM25) still works.").format(why=error))
        else:
            self.model_ready.emit()
        self.embedder = model
        self.lane = IndexLane(ws, model, self._on_lane_event)
        self.watcher = VaultWatcher(ws.vault, self.lane.submit)
        self.lane.start()
        self.watcher.start()
        self.lane.reconcile()
        self.status_changed.emit(self.tr("indexing…"))

    def close_vault(self) -> None:
        """Stop watching and stop the lane at its next checkpoint (it resumes next time).

        The lane may be in the middle of an embedding batch (seconds with e5), so the joining happens on a
        helper thread: switching vaults never freezes the window. `shutdown` waits for it.
        """
        watcher, lane = self.watcher, self.lane
        self.watcher = self.lane = None
        self._drop_searcher()
        if watcher is None and lane is None:
            return

        def stop() -> None:
            if watcher is not None:
                watcher.stop()
            if lane is not None:
                lane.stop()

        reaper = threading.Thread(target=stop, name="vaultrag-close-vault")
        reaper.start()
        self._reapers.append(reaper)

    def download_cross_encoder(self, repo_id: str, endpoint: str | None = None) -> None:
        """Download a hub cross-encoder into the app's models folder on a helper thread (progress and the result
        come as signals; a failure or a cancel as `model_download_failed` with its message). One at a time."""
        from vaultrag.core import download as hub

        if self._download is not None and self._download.is_alive():
            if not self._download_ended.is_set():
                self.model_download_failed.emit(self.tr("A model download is already running."))
                return
            self._download.join(5)  # it has said how it ended and is only returning: Download again must work
        self._download_cancel.clear()
        ended = self._download_ended = threading.Event()

        def run() -> None:
            try:
                folder = hub.download(repo_id, self.paths.models_dir,
                                      lambda p: self.bridge.run_on_main(lambda: self.model_download_progress.emit(p)),
                                      self._download_cancel.is_set, endpoint)
            except UserFacingError as e:
                error = e
                ended.set()
                self.bridge.run_on_main(lambda: self.model_download_failed.emit(user_message(error)))
                return
            ended.set()
            self.bridge.run_on_main(lambda: self.model_download_finished.emit(str(folder)))

        self._download = threading.Thread(target=run, name="vaultrag-model-download", daemon=True)
        self._download.start()

    def cancel_model_download(self) -> None:
        """Stop the running download at its next chunk (finished files are kept for the next attempt)."""
        self._download_cancel.set()

    def shutdown(self) -> None:
        """Close the vault and wait for every thread: the clean exit of the app."""
        self.cancel_model_download()
        if self._download is not None:
            self._download.join(30)
        self.close_vault()
        for reaper in self._reapers:
            reaper.join(30)
        self.queries.stop()
        self.stop_answer()
        for gen in self._generators:
            gen.join(30)
        if self._detector is not None:
            self._detector.join(30)
        if self._loader is not None:
            self._loader.join(10)

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

    # -- reads on the query lane ---------------------------------------------------------------
    def _searcher_for(self) -> Any:
        """The query lane's Searcher (rebuilt when the vault, model or settings change)."""
        from vaultrag.core import rerank
        from vaultrag.core.query.search import Searcher

        if self.ws is None:
            raise UserFacingError(self.tr("Open a vault first (File › Open vault…)."))
        key = (id(self.ws), id(self.embedder), self.settings, id(self.pipeline))
        if self._searcher is None or self._searcher_key != key:
            self._drop_searcher()
            if not self.ws.index_path.exists():
                raise UserFacingError(self.tr("Indexing has just started: ask again in a moment (keyword search "
                                              "works as soon as the first notes are in)."))
            try:
                reranker = rerank.from_settings(self.settings, self.paths.models_dir)
            except ModelUnavailable as e:  # a cross-encoder that cannot load: say why, rank with the built-in one
                error = e
                self.bridge.run_on_main(lambda: self.failed.emit(
                    self.tr("{why} The built-in ranker is used meanwhile.").format(why=user_message(error))))
                reranker = rerank.from_settings(self.settings.replace(reranker="builtin"))
            store, _ = self.ws.open_store(readonly=True)
            units = {} if self.pipeline is None else {"pipeline": self.pipeline}
            self._searcher = Searcher(store, self.settings, self.embedder, reranker, **units)
            self._searcher_key = key
        return self._searcher

    def _drop_searcher(self) -> None:
        if self._searcher is not None:
            searcher = self._searcher
            self._searcher = None
            self.queries.submit("close", searcher.store.close, lambda _: None, lambda _: None)

    def ask(self, question: str, scope: Scope, k: int | None, threshold: float | None) -> None:
        """Search on the query lane (a follow-up is rewritten first); the trace is shown at once, then a
        configured language model writes the answer: the same pipeline's `generate` unit, run after the read
        snapshot on its own thread (`answer_*` signals), so the query lane stays free meanwhile."""
        from vaultrag.core.query.conversation import Conversation
        from vaultrag.core.query.search import conversation_pipeline

        self.stop_answer()  # a new question replaces the answer being written
        try:
            generator = self._generator()
        except UserFacingError as e:
            self.failed.emit(str(e))
            generator = None
        earlier = Conversation(list(self.conversation.turns))  # the lane reads a copy; the window owns the original
        cancel = threading.Event()
        self._cancel = cancel

        def delta(piece: str) -> None:  # a newer question or Stop: this answer's pieces are no longer shown
            self.bridge.run_on_main(lambda: self.answer_delta.emit(piece) if self._cancel is cancel else None)

        def work() -> Any:
            searcher = self._searcher_for()
            return searcher.start(question, scope, k=k, threshold=threshold,
                                  pipeline=conversation_pipeline(earlier, generator, delta, cancel, searcher.pipeline))

        def done(asked: Any) -> None:
            trace = asked.trace()
            self.conversation.add(trace, question)
            self.search_finished.emit(trace)
            if generator is not None and trace.prompt and not cancel.is_set():  # not stopped or replaced meanwhile
                self._generate(asked, generator.model, cancel)

        self.queries.submit("ask", work, done, self.failed.emit)

    # -- the language model's answer (after the read snapshot, on its own thread: the query lane stays free) ---
    def _generator(self) -> Any:
        """The configured language model (a Generator), or None."""
        from vaultrag.core.llm import registry

        return registry.from_settings(self.settings)

    def _generate(self, asked: Any, model: str, cancel: threading.Event) -> None:
        """Finish `asked` (its units after the snapshot: the model's answer) on a helper thread."""
        self.answer_started.emit(model)

        def work() -> None:
            result = asked.finish()
            g = result.generation

            def finish() -> None:
                if self._cancel is not cancel:  # a newer question: this answer is no longer shown
                    return
                if g is not None and g.failure is not None:
                    self.answer_failed.emit(g.error)
                else:
                    if self.conversation.turns:
                        self.conversation.turns[-1].answer = result.answer.text
                    self.answer_finished.emit(result)

            self.bridge.run_on_main(finish)

        self._generators = [t for t in self._generators if t.is_alive()]
        thread = threading.Thread(target=work, name="vaultrag-generate")
        self._generators.append(thread)
        thread.start()

    def look_for_local_llm(self) -> bool:
        """When no language model is set and the offer was not turned off, look for a local server on a helper
        thread (each port answers or refuses within a second); `local_llm_found` brings those with a model.
        Returns whether it looks."""
        from vaultrag.core.llm import registry

        s = self.settings
        if s.llm_base_url.strip() or not s.llm_offer_local:
            return False
        if self._detector is not None and self._detector.is_alive():
            return True

        def work() -> None:
            found = [f for f in registry.detect_local_servers(s) if f.models]  # no model: nothing to use
            if found:
                self.bridge.run_on_main(lambda: self._offer_found(found))

        self._detector = threading.Thread(target=work, name="vaultrag-detect-llm", daemon=True)
        self._detector.start()
        return True

    def _offer_found(self, found: list[Any]) -> None:
        if not self.settings.llm_base_url.strip() and self.settings.llm_offer_local:  # not set meanwhile
            self.local_llm_found.emit(found)

    def use_local_llm(self, base_url: str, model: str) -> None:
        """The user took the offered server: answers come from it from the next question on."""
        self.save_settings(self.settings.replace(llm_base_url=base_url, llm_model=model))

    def never_offer_local_llm(self) -> None:
        """The user said Never: no more looking at start (Settings › Language model turns it back on)."""
        self.save_settings(self.settings.replace(llm_offer_local=False))

    def stop_answer(self) -> None:
        """Stop the answer being written (the part written so far is kept and marked stopped)."""
        if self._cancel is not None:
            self._cancel.set()

    def new_conversation(self) -> None:
        """Forget the earlier questions: the next one is read on its own."""
        self.stop_answer()
        self.conversation.reset()

    def why(self, question: str, note: str, heading: str | None, scope: Scope, k: int | None,
            threshold: float | None) -> None:
        from vaultrag.core.quality.diagnose import diagnose

        def work() -> Any:
            return diagnose(self._searcher_for(), self.ws.vault, question, note, heading, scope, k, threshold)

        self.queries.submit("why", work, self.diagnosis_finished.emit, self.failed.emit)

    def refresh_health(self, check: bool = False) -> None:
        from vaultrag.core.health import health

        ws = self.ws

        def work() -> Any:
            if ws is None:
                raise UserFacingError(self.tr("Open a vault first."))
            store, _ = ws.open_store(readonly=not check)
            try:
                return health(store, str(ws.vault), ws.settings, check=check)
            finally:
                store.close()

        self.queries.submit("health", work, self.health_ready.emit, self.failed.emit)

    def list_notes(self) -> None:
        def work() -> Any:
            store = self._searcher_for().store
            notes = store.indexed_paths()
            folders = sorted({n.rpartition("/")[0] for n in notes} - {""})
            return {"notes": notes, "folders": folders, "tags": store.all_tags()}

        self.queries.submit("notes", work, self.notes_listed.emit, lambda _: None)

    def read_note(self, cand: Any) -> None:
        """Read the note of a candidate for the preview (off the GUI thread: a slow disk must not freeze it)."""
        from vaultrag.core.index.vault import note_text

        ws = self.ws
        if ws is None:
            return
        self.queries.submit("note", lambda: note_text(ws.vault, cand.note, ws.settings.max_note_bytes,
                                                      cand.char_start), self.note_read.emit, self.failed.emit)

    def run_eval(self, golden: str, limit: int | None, calibrate_max_pass: float | None) -> None:
        """Evaluate a golden file (the same seeded sample as `vaultrag eval --limit`); calibrate and store the
        threshold when `calibrate_max_pass` is given."""
        from vaultrag.core.quality import evaluate

        ws = self.ws

        def work() -> Any:
            s = self._searcher_for()
            progress = lambda p: self.bridge.run_on_main(lambda: self.eval_progress.emit(p))  # noqa: E731
            run = evaluate.run_golden(s, golden, limit, progress)
            ev = evaluate.summarize(run.results, str(ws.vault), golden, {}, run.seconds, run.skipped_lines,
                                    run.inputs)
            cal = None
            if calibrate_max_pass is not None:
                cal = evaluate.calibrate(run.results, calibrate_max_pass)
                cal["too_small"] = min(ev.n_answerable, ev.n_unanswerable) < MIN_CALIBRATION_QUESTIONS
                if cal.get("available") and not cal["too_small"]:  # a tiny golden set never moves the threshold
                    store, _ = ws.open_store()
                    try:
                        cal["stored_as"] = evaluate.store_threshold(store, s.reranker_id, cal["threshold"])
                    finally:
                        store.close()
            return ev, cal

        self.queries.submit("eval", work, self.eval_finished.emit, self.failed.emit)

    # -- settings ----------------------------------------------------------------------------
    def save_settings(self, new: Settings) -> None:
        """Persist `new`; re-open the vault when a change needs re-indexing or another model."""
        old = self.settings
        settings_mod.save(new, self.paths.settings_file)
        self.settings = new
        if self.ws is not None and old.reopens(new):
            self.open_vault(self.ws.vault)
        elif self.ws is not None:
            self.ws.settings = new

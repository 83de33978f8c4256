"""AppController: the window's one entry point, a thin facade over the vault session, the answer writer, the
downloads and the evaluation; holds the settings and the threads they share, and re-emits their signals."""

from __future__ import annotations

import contextlib
import functools
import logging
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from vaultrag import settings as settings_mod
from vaultrag.app import collector
from vaultrag.app.answers import AnswerWriter
from vaultrag.app.downloads import Downloads
from vaultrag.app.evaluation import Evaluation
from vaultrag.app.keeper import HistoryKeeper
from vaultrag.app.llm_setup import LlmSetup
from vaultrag.app.session import EmbedderFactory, FastFactory, VaultSession, real_embedder, real_fast_tier
from vaultrag.app.tasks import QUERY_LANE, MainThreadBridge, QueryLane, Workers
from vaultrag.app.words import user_message
from vaultrag.core import translators
from vaultrag.core.embed import Embedder
from vaultrag.core.index.lane import IndexLane
from vaultrag.core.llm import registry
from vaultrag.core.llm.catalog import CatalogModel
from vaultrag.core.model import Candidate
from vaultrag.core.query.conversation import Conversation
from vaultrag.core.query.state import StageUnit
from vaultrag.core.scope import Scope
from vaultrag.core.workspace import Workspace
from vaultrag.errors import UserFacingError
from vaultrag.paths import Paths
from vaultrag.settings import Settings

log = logging.getLogger(__name__)


class Current:
    """The settings in force, as the parts read them (`current()`): holds no QObject, so no cycle runs through it."""

    __slots__ = ("value",)

    def __init__(self, value: Settings) -> None:
        self.value = value

    def __call__(self) -> Settings:
        return self.value


SHUTDOWN_S = 30.0  # the longest the app waits for its workers when it closes


class AppController(QObject):
    """Everything the window asks for happens off the GUI thread, in one of four parts; results come back as
    signals of this object.

    Parts: `session` (VaultSession: workspace, model loading, index lane, watcher, reads on the query lane),
    `answers` (AnswerWriter: the question and the language model's answer), `downloads` (Downloads: hub
    cross-encoders), `evaluation` (Evaluation: golden runs and calibration), `llm_setup` (LlmSetup: Settings'
    model list and test answer).

    Signals:
        status_changed: one line for the status bar ("loading model…", "indexing…", "ready").
        model_ready: the embedding model is loaded.
        index_progress: a core Progress of the running index job.
        index_changed: a LaneEvent (applied, embedded, error, recovered).
        search_finished: a QueryTrace.
        diagnosis_finished: a Diagnosis.
        health_ready: a Health.
        eval_finished: (EvalResult, Calibration or None).
        eval_progress: a Progress of the running evaluation.
        answer_started: the model's name: a language model is writing the answer (after search_finished).
        answer_delta: the next piece of the answer's text.
        answer_finished: the QueryTrace with the model's checked answer (also after Stop: marked stopped).
        answer_failed: a message (server down, timeout…); the trace already shown keeps the extractive answer.
        model_state_changed: a ModelState while the language model gets ready (loading, restarting, ready).
        llm_unavailable: why no language model writes the next answer, in words ("" when none is set or one is).
        notes_listed: the indexed note paths (for pickers and scope chips), with folders and tags.
        note_read: a NoteText (a note's text for the preview), read on the query lane.
        local_llm_found: the FoundServers with models answering on this machine (offered when none is set).
        llm_models_listed / llm_tested: Settings' model list (a ModelsListed) and test answer (a Tested).
        model_download_progress / _finished / _failed: a model download's bytes, where it is (a cross-encoder's
            folder, a language model's file), or why it stopped.
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
    model_state_changed = Signal(object)
    llm_unavailable = Signal(str)
    llm_models_listed = Signal(object)
    llm_tested = Signal(object)
    note_read = Signal(object)
    web_read = Signal(object)
    failed = Signal(str)
    model_download_progress = Signal(object)
    model_download_finished = Signal(str)
    model_download_failed = Signal(str)
    local_llm_found = Signal(object)

    def __init__(self, home: str | Path | None = None, embedder_factory: EmbedderFactory | None = None,
                 fast_factory: FastFactory = real_fast_tier) -> None:
        """`embedder_factory` builds the embedding model from the settings (on a worker); None is the real one
        (tests pass a fake); `fast_factory` its fast tier (core/fast_tier.py; tests pass a fake one)."""
        super().__init__()
        collector.install()  # before any worker starts: Python's collector runs on the GUI thread only
        translators.prepare()  # on the GUI thread: the translator's native module must outlive the query lanes
        self.paths = Paths(home)
        self.bridge = MainThreadBridge()
        self.workers = Workers()
        self.queries = QueryLane(self.bridge, self.workers)
        # the parts read the settings in force through a plain holder: a lambda over `self` made a reference cycle
        # through these QObjects, and Python's collector frees a cycle on whichever thread allocates next — a
        # QObject freed on a worker deadlocks against the GUI thread (app/collector.py)
        current = self._current = Current(Settings())
        # a settings file that cannot be read: its privacy rules (private tag, ignore patterns) are unknown, so no
        # vault is indexed on the defaults (that would index the notes they leave out) until it is fixed or saved
        self.settings_problem = ""
        try:
            self.settings = settings_mod.load(self.paths.settings_file)
        except UserFacingError as e:
            self.settings_problem = user_message(e)
            self.bridge.run_on_main(functools.partial(self.failed.emit, self.settings_problem))
        self.session = VaultSession(self.paths, current, self.bridge, self.queries, self.workers,
                                    embedder_factory or real_embedder, fast_factory)
        self.answers = AnswerWriter(current, self.session.searcher, self.bridge, self.queries, self.workers)
        self.downloads = Downloads(self.paths.models_dir, self.bridge, self.workers)
        self.evaluation = Evaluation(self.session, self.bridge, self.queries)
        self.llm_setup = LlmSetup(self.bridge, self.workers)
        # every exchange kept in the open vault's history (the History tab binds to it directly)
        self.history = HistoryKeeper(self.bridge, self.workers)
        self.answers.search_finished.connect(self.history.record)
        self.answers.answer_finished.connect(self.history.answered)
        self.session.notes_listed.connect(self.history.keep_indexed)
        self._forward()
        self._load_token_table()
        if embedder_factory is None:
            from vaultrag.core import embed

            embed.preload(self.settings)  # the same reason as the token table's, for e5 on onnxruntime

    def _forward(self) -> None:
        """Re-emit the parts' signals as this object's (the widgets connect to the facade only)."""
        s, a, d, e, m = self.session, self.answers, self.downloads, self.evaluation, self.llm_setup
        for part, names in ((s, ("status_changed", "model_ready", "index_progress", "index_changed",
                                 "diagnosis_finished", "health_ready", "notes_listed", "note_read", "web_read",
                                 "failed")),
                            (a, ("search_finished", "answer_started", "answer_delta", "answer_finished",
                                 "answer_failed", "model_state_changed", "llm_unavailable", "local_llm_found",
                                 "failed")),
                            (m, ("llm_models_listed", "llm_tested")),
                            (d, ("model_download_progress", "model_download_finished", "model_download_failed")),
                            (e, ("eval_finished", "eval_progress", "failed"))):
            for name in names:
                getattr(part, name).connect(getattr(self, name))

    def _load_token_table(self) -> None:
        """Load the o200k token table now, before any window shows. Building it holds the GIL for ~0.3 s (tiktoken
        turns 200k ranks into its Rust table), which froze the window for that long whichever thread did it
        (measured 250 ms in test_gui_thread_never_blocks_while_indexing); before the window exists it freezes
        nothing. A missing package is reported when a vault opens, as before."""
        from vaultrag.core import tokens

        tokens.configure(self.paths.tiktoken_cache)
        with contextlib.suppress(UserFacingError):
            tokens.encoding()

    # -- what the window reads ---------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self._current.value

    @settings.setter
    def settings(self, new: Settings) -> None:
        self._current.value = new

    @property
    def ws(self) -> Workspace | None:
        return self.session.ws

    @property
    def lane(self) -> IndexLane | None:
        return self.session.lane

    @property
    def embedder(self) -> Embedder | None:
        return self.session.embedder

    @property
    def conversation(self) -> Conversation:
        return self.answers.conversation

    @property
    def pipeline(self) -> Sequence[StageUnit] | None:
        """The query units (None: the shipped PIPELINE); checked when the query lane's Searcher is built."""
        return self.session.pipeline

    @pipeline.setter
    def pipeline(self, units: Sequence[StageUnit] | None) -> None:
        self.session.pipeline = units

    # -- the vault ---------------------------------------------------------------------------------
    def open_vault(self, vault: str | Path) -> None:
        """Check the vault at once; load the model, then index and watch in the background."""
        if self.settings_problem:
            self.failed.emit(self.tr("No vault is indexed while the settings file cannot be read: its private tag "
                                     "and ignore patterns are unknown. Fix the file, or save Settings to replace "
                                     "it. ({problem})").format(problem=self.settings_problem))
            return
        self.session.open(vault)
        ws = self.session.ws
        self.history.use(self.paths.history_file(ws.vault) if ws is not None else None)
        self.history.new_conversation()

    def close_vault(self) -> None:
        """Stop watching and stop the lane at its next checkpoint, on a worker (the window never waits)."""
        self.session.close()
        self.history.use(None)

    def pause_indexing(self, paused: bool) -> None:
        self.session.pause_indexing(paused)

    def reindex(self) -> None:
        self.session.reindex()

    # -- reads on the query lane -------------------------------------------------------------------
    def ask(self, question: str, scope: Scope, k: int | None, threshold: float | None) -> None:
        """Search on the query lane (a follow-up is rewritten first); the trace is shown at once, then a
        configured language model writes the answer (`answer_*` signals)."""
        self.answers.ask(question, scope, k, threshold)

    def stop_answer(self) -> None:
        self.answers.stop_answer()

    def new_conversation(self) -> None:
        self.answers.new_conversation()
        self.history.new_conversation()

    def why(self, question: str, note: str, heading: str | None, scope: Scope, k: int | None,
            threshold: float | None) -> None:
        self.session.why(question, note, heading, scope, k, threshold)

    def refresh_health(self, check: bool = False) -> None:
        self.session.refresh_health(check)

    def list_notes(self) -> None:
        self.session.list_notes()

    def read_note(self, cand: Candidate) -> None:
        self.session.read_note(cand)

    def read_web(self, note: str, hide_linked: bool) -> None:
        self.session.read_web(note, hide_linked)

    def run_eval(self, golden: str, limit: int | None, calibrate_max_pass: float | None) -> None:
        self.evaluation.run_eval(golden, limit, calibrate_max_pass)

    # -- models ------------------------------------------------------------------------------------
    def download_cross_encoder(self, repo_id: str, endpoint: str | None = None) -> None:
        self.downloads.download_cross_encoder(repo_id, endpoint)

    def download_llm(self, model: CatalogModel, endpoint: str | None = None) -> None:
        self.downloads.download_gguf(model, endpoint)

    def cancel_model_download(self) -> None:
        self.downloads.cancel()

    def list_llm_models(self, s: Settings) -> None:
        """The models the server of `s` lists (`llm_models_listed`), asked on a worker."""
        self.llm_setup.list_llm_models(s)

    def test_llm(self, s: Settings) -> None:
        """A short test answer from the model of `s` (`llm_tested`), asked on a worker."""
        self.llm_setup.test_llm(s)

    def look_for_local_llm(self) -> bool:
        return self.answers.look_for_local_llm()

    def use_local_llm(self, base_url: str, model: str) -> None:
        """The user took the offered server: answers come from it from the next question on."""
        self.save_settings(self.settings.replace(llm_base_url=base_url, llm_model=model))

    def never_offer_local_llm(self) -> None:
        """The user said Never: no more looking at start (Settings › Language model turns it back on)."""
        self.save_settings(self.settings.replace(llm_offer_local=False))

    # -- settings ----------------------------------------------------------------------------------
    def save_settings(self, new: Settings) -> None:
        """Persist `new`; re-open the vault when a change needs re-indexing or another model."""
        old = self.settings
        settings_mod.save(new, self.paths.settings_file)
        self.settings = new
        self.settings_problem = ""  # the file is the user's settings again
        self.session.settings_changed(old, new)

    # -- the end -----------------------------------------------------------------------------------
    def shutdown(self) -> None:
        """Close the vault and wait for every worker: the clean exit of the app."""
        self.downloads.cancel()
        self.session.close()
        self.answers.stop_answer()
        self.history.stop()  # what is queued is written first
        registry.shutdown()  # the built-in model's server: stopped now, so an answer waiting on it ends too
        # the loader, the lane's closer (which fails a write the query lane may wait on), a download, the answers
        # being written, the detector
        self.workers.join(SHUTDOWN_S, exclude=QUERY_LANE)
        self.queries.stop()
        left = self.workers.join(SHUTDOWN_S)
        if left:
            log.warning("still running after %.0f s: %s", SHUTDOWN_S, ", ".join(left))

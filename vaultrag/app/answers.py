"""AnswerWriter: a question asked on the query lane, then the language model's answer written on a worker."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from vaultrag.app.cycles import detached
from vaultrag.app.tasks import MainThreadBridge, QueryLane, Workers
from vaultrag.app.words import backend_missing, llm_failure_text, user_message
from vaultrag.core.query.conversation import Conversation
from vaultrag.core.scope import Scope
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

if TYPE_CHECKING:
    from vaultrag.core.llm.generator import FoundServer, Generator
    from vaultrag.core.query.search import Asked, Searcher
    from vaultrag.core.vocab import ModelState

DETECTOR = "vaultrag-detect-llm"
GENERATOR = "vaultrag-generate"


class AnswerWriter(QObject):
    """The window's conversation: each question searched on the query lane (a follow-up rewritten first), then,
    when a language model is set, its answer streamed from a worker; and the first run's look for a local server.

    Signals: search_finished (a QueryTrace), answer_started (the model's name), model_state_changed (a ModelState
    while the model gets ready: loading it, restarting it), answer_delta (the next piece), answer_finished (the
    trace with the checked answer, also after Stop), answer_failed (a message), llm_unavailable (why no model writes
    this question's answer: a missing package, no model name…; "" when one does or none is set), local_llm_found
    (the FoundServers with models), failed (a message).
    """

    search_finished = Signal(object)
    answer_started = Signal(str)
    answer_delta = Signal(str)
    answer_finished = Signal(object)
    answer_failed = Signal(str)
    model_state_changed = Signal(object)
    llm_unavailable = Signal(str)
    local_llm_found = Signal(object)
    failed = Signal(str)

    def __init__(self, settings: Callable[[], Settings], searcher: Callable[[], Searcher], bridge: MainThreadBridge,
                 queries: QueryLane, workers: Workers) -> None:
        super().__init__()
        self._settings = settings
        self._searcher_for = searcher  # the query lane's Searcher (call it on the query lane only)
        self.bridge = bridge
        self.queries = queries
        self.workers = workers
        self.conversation = Conversation()  # the window's questions so far (follow-ups build on them)
        self._cancel: threading.Event | None = None  # Stop for the current answer

    @property
    def settings(self) -> Settings:
        return self._settings()

    def ask(self, question: str, scope: Scope, k: int | None, threshold: float | None) -> None:
        """Search on the query lane (a follow-up is rewritten first); the trace is shown at once, then a
        configured language model writes the answer: the same pipeline's `generate` unit, run after the read
        snapshot on a worker (`answer_*` signals), so the query lane stays free meanwhile."""
        from vaultrag.core.query.search import start_in_conversation

        self.stop_answer()  # a new question replaces the answer being written
        try:
            generator = self._generator()
        except UserFacingError as e:  # said with every answer until it is fixed, not once in a passing banner
            self.llm_unavailable.emit(user_message(e))
            generator = None
        else:
            missing = backend_missing(self.settings.llm_backend) if generator is not None else ""
            self.llm_unavailable.emit(missing)
            generator = None if missing else generator
        earlier = Conversation(list(self.conversation.turns))  # the lane reads a copy; the window owns the original
        cancel = threading.Event()
        self._cancel = cancel

        def delta(piece: str) -> None:  # a newer question or Stop: this answer's pieces are no longer shown
            self.bridge.run_on_main(lambda: self.answer_delta.emit(piece) if self._cancel is cancel else None)

        def work() -> Asked:
            return start_in_conversation(self._searcher_for(), question, earlier, generator, delta, cancel, scope,
                                         k=k, threshold=threshold)

        def done(asked: Asked) -> None:
            trace = asked.trace()
            self.conversation.add(trace, question)
            self.search_finished.emit(trace)
            if generator is not None and trace.prompt and not cancel.is_set():  # not stopped or replaced meanwhile
                self._generate(asked, generator, cancel)

        self.queries.submit("ask", work, done, self.failed.emit)

    # -- the language model's answer (after the read snapshot, on its own thread: the query lane stays free) ---
    def _generator(self) -> Generator | None:
        """The configured language model (a Generator), or None."""
        from vaultrag.core.llm import registry

        return registry.from_settings(self.settings)

    def _generate(self, asked: Asked, generator: Generator, cancel: threading.Event) -> None:
        """Make the model ready (a model file is loaded on the first question: `model_state_changed` says so), then
        finish `asked` (its units after the snapshot: the model's answer) on a helper thread."""
        self.answer_started.emit(generator.model)

        def state(s: ModelState) -> None:
            self.bridge.run_on_main(lambda: self.model_state_changed.emit(s) if self._cancel is cancel else None)

        def work() -> None:
            try:
                generator.prepare(state)
            except UserFacingError as e:  # the model cannot start (a missing runtime or file): said in words
                error = detached(e)  # no frames: they would hold this closure (app/cycles.py)
                self.bridge.run_on_main(
                    lambda: self.answer_failed.emit(user_message(error)) if self._cancel is cancel else None)
                return
            result = asked.finish()
            g = result.generation

            def finish() -> None:
                if self._cancel is not cancel:  # a newer question: this answer is no longer shown
                    return
                if g is not None and g.failure is not None:
                    self.answer_failed.emit(llm_failure_text(g.failure, g.failure_details))
                else:
                    if self.conversation.turns:
                        self.conversation.turns[-1].answer = result.answer.text
                    self.answer_finished.emit(result)

            self.bridge.run_on_main(finish)

        self.workers.start(GENERATOR, work)

    def stop_answer(self) -> None:
        """Stop the answer being written (the part written so far is kept and marked stopped)."""
        if self._cancel is not None:
            self._cancel.set()

    # -- the conversation and the first run's offer --------------------------------------------------
    def new_conversation(self) -> None:
        """Forget the earlier questions: the next one is read on its own."""
        self.stop_answer()
        self.conversation.reset()

    def look_for_local_llm(self) -> bool:
        """When no language model is set and the offer was not turned off, look for a local server on a worker
        (each port answers or refuses within a second); `local_llm_found` brings those with a model.
        Returns whether it looks."""
        from vaultrag.core.llm import registry

        s = self.settings
        if s.llm_base_url.strip() or not s.llm_offer_local:
            return False
        if self.workers.running(DETECTOR):
            return True

        def work() -> None:
            found = [f for f in registry.detect_local_servers(s) if f.models]  # no model: nothing to use
            if found:
                self.bridge.run_on_main(lambda: self._offer_found(found))

        self.workers.start(DETECTOR, work)
        return True

    def _offer_found(self, found: list[FoundServer]) -> None:
        if not self.settings.llm_base_url.strip() and self.settings.llm_offer_local:  # not set meanwhile
            self.local_llm_found.emit(found)

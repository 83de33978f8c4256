"""LlmSetup: Settings › Language model's questions to a model — its server's model list, a test answer — on workers."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from vaultrag.app.cycles import detached
from vaultrag.app.tasks import MainThreadBridge, Workers
from vaultrag.app.words import user_message
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

if TYPE_CHECKING:
    from vaultrag.core.llm.generator import ConnectionTest

LISTER = "vaultrag-llm-models"
TESTER = "vaultrag-llm-test"


@dataclass(frozen=True)
class ModelsListed:
    """A server's models (`models`), or why they could not be listed (`error`, in the window's words)."""

    address: str
    models: list[str] = field(default_factory=list)
    error: str = ""


@dataclass(frozen=True)
class Tested:
    """A test answer: the core's ConnectionTest, or `error` when the model could not even be asked (no model name,
    a backend whose package is missing)."""

    address: str
    test: ConnectionTest | None = None
    error: str = ""


class LlmSetup(QObject):
    """Lists a server's models and tests a model on named workers (the dialog never waits on a network).

    Signals: llm_models_listed (a ModelsListed), llm_tested (a Tested). A newer request makes an older one's
    result stale: only the newest of each kind is reported.
    """

    llm_models_listed = Signal(object)
    llm_tested = Signal(object)

    def __init__(self, bridge: MainThreadBridge, workers: Workers) -> None:
        super().__init__()
        self.bridge = bridge
        self.workers = workers
        self._asked = {LISTER: 0, TESTER: 0}
        self._lock = threading.Lock()

    def _ticket(self, kind: str) -> int:
        with self._lock:
            self._asked[kind] += 1
            return self._asked[kind]

    def _post(self, kind: str, ticket: int, emit: Callable[[object], None], result: Callable[[], object]) -> None:
        """Emit `result()` on the GUI thread (errors are worded there, in the window's language) unless a newer
        request of this kind was made meanwhile."""
        def post() -> None:
            if self._asked[kind] == ticket:
                emit(result())

        self.bridge.run_on_main(post)

    def list_llm_models(self, s: Settings) -> None:
        """The models the server of `s` lists at /v1/models (`llm_models_listed`)."""
        from vaultrag.core.llm import registry

        ticket = self._ticket(LISTER)

        def work() -> None:
            address = s.llm_base_url.strip()
            try:
                generator = registry.from_settings(s, need_model=False)
                listed = ModelsListed(generator.address if generator else address,
                                      generator.list_models() if generator else [])
                result: Callable[[], object] = lambda: listed  # noqa: E731
            except UserFacingError as e:
                error = detached(e)  # no frames: they would hold this closure (app/cycles.py)
                result = lambda: ModelsListed(address, error=user_message(error, in_settings=True))  # noqa: E731
            self._post(LISTER, ticket, self.llm_models_listed.emit, result)

        self.workers.start(LISTER, work)

    def test_llm(self, s: Settings) -> None:
        """Ask the model of `s` for one short sentence (`llm_tested`: its latency and sample, or why not)."""
        from vaultrag.core.llm import registry

        ticket = self._ticket(TESTER)

        def work() -> None:
            address = s.llm_base_url.strip()
            try:
                generator = registry.from_settings(s)
                tested = Tested(address) if generator is None else Tested(generator.address,
                                                                          generator.test_connection())
                result: Callable[[], object] = lambda: tested  # noqa: E731
            except UserFacingError as e:
                error = detached(e)  # no frames: they would hold this closure (app/cycles.py)
                result = lambda: Tested(address, error=user_message(error, in_settings=True))  # noqa: E731
            self._post(TESTER, ticket, self.llm_tested.emit, result)

        self.workers.start(TESTER, work)

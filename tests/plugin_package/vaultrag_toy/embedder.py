"""A toy embedder: each word hashed into one of 64 axes (a stand-in for a model; vaultrag sees only its protocol)."""

from __future__ import annotations

import hashlib
import re
from typing import Any

import numpy as np

MODEL_ID = "toy/hash-64"
DIM = 64


class ToyEmbedder:
    model_id = MODEL_ID
    dim = DIM
    max_tokens = 10_000

    def _vec(self, text: str) -> np.ndarray:
        v = np.zeros(DIM, dtype=np.float32)
        for word in re.findall(r"\w+", text.lower()):
            v[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIM] += 1.0
        n = float(np.linalg.norm(v))
        return v / n if n else v + 1.0 / np.sqrt(DIM)

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        return np.stack([self._vec(t) for t in texts]) if texts else np.zeros((0, DIM), np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        return self._vec(text)

    def count_tokens(self, text: str) -> int:
        return len(text.split())


def build(settings: Any, one_question: bool) -> ToyEmbedder:
    return ToyEmbedder()


def describe(settings: Any) -> str:
    return MODEL_ID

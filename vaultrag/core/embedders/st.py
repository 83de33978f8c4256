"""Any sentence-transformers model as the embedder (a hub id or a local folder), with its prefixes; needs torch."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vaultrag.core.embedders.common import default_threads, normalized
from vaultrag.core.vocab import Problem
from vaultrag.errors import ModelUnavailable

if TYPE_CHECKING:
    from vaultrag.settings import Settings


def model_id(model: str, query_prefix: str, passage_prefix: str) -> str:
    """The id pinned in the index: the model's folder name or hub id, and both prefixes (they change the vectors)."""
    name = Path(model).name if Path(model).exists() else model
    return f"st/{name}|q={query_prefix!r}|p={passage_prefix!r}"


class SentenceTransformerEmbedder:
    """Any sentence-transformers model (hub id or local folder), with configurable prefixes; needs torch."""

    def __init__(self, model: str, query_prefix: str = "", passage_prefix: str = "", threads: int = 0) -> None:
        # a missing package is worded by core/embed.py from the registry
        import torch
        from sentence_transformers import SentenceTransformer

        torch.set_num_threads(threads or default_threads())
        try:
            self._model: Any = SentenceTransformer(model, device="cpu")
        except Exception as e:  # hub errors, missing files, bad configs: all mean "cannot load this model"
            raise ModelUnavailable(Problem.MODEL_CANNOT_LOAD, model=model, why=e) from e
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        # renamed in sentence-transformers 6; older releases only have the long name
        model_: Any = self._model
        get_dim = getattr(model_, "get_embedding_dimension", None) or model_.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self.max_tokens: int = int(self._model.max_seq_length or 512)
        self.model_id = model_id(model, query_prefix, passage_prefix)
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            v = self._model.encode([self.passage_prefix + t for t in texts], normalize_embeddings=True)
        return normalized(v)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            v = self._model.encode([self.query_prefix + text], normalize_embeddings=True)
        return normalized(v)[0]  # type: ignore[no-any-return]

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(self.passage_prefix + text)["input_ids"])


def build(settings: Settings, one_question: bool) -> SentenceTransformerEmbedder:
    return SentenceTransformerEmbedder(settings.st_model, settings.query_prefix, settings.passage_prefix,
                                       settings.embed_threads)


def describe(settings: Settings) -> str:
    return model_id(settings.st_model, settings.query_prefix, settings.passage_prefix)

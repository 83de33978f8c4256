"""Rerankers: none (RRF order kept), the built-in learned ranker, or a sentence-transformers CrossEncoder."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from vaultrag.core.vocab import Problem
from vaultrag.errors import ModelUnavailable

if TYPE_CHECKING:
    from vaultrag.core.query.ranker import LearnedRanker


class Reranker(Protocol):
    """Scores (question, chunk text) pairs; higher is more relevant."""

    model_id: str  # part of the threshold key: thresholds are per (embedder, reranker)

    def score(self, question: str, texts: list[str]) -> list[float]: ...


class CrossEncoderReranker:
    """Any sentence-transformers CrossEncoder (hub id or local folder); reads the prefixed chunk text."""

    def __init__(self, model: str, threads: int = 0, model_id: str | None = None) -> None:
        try:
            import torch
            from sentence_transformers import CrossEncoder
        except ImportError as e:
            raise ModelUnavailable(
                "A cross-encoder reranker needs the sentence-transformers extra: "
                "pip install torch==2.13.0 'vaultrag[st]' — or set reranker = \"none\".",
                Problem.MODEL_NEEDS_PACKAGE, what="cross-encoder", install="pip install torch==2.13.0 'vaultrag[st]'",
            ) from e
        if threads:
            torch.set_num_threads(threads)
        try:
            self._model: Any = CrossEncoder(model, device="cpu")
        except Exception as e:  # missing files, no network for a hub id, a folder that is not a model
            where = "folder" if Path(model).exists() else "model id (is it downloaded, are you online?)"
            raise ModelUnavailable(f"Cannot load cross-encoder {where} {model!r}: {e}", Problem.MODEL_CANNOT_LOAD,
                                   model=model, why=e) from e
        self.model_id = f"ce/{model_id or (Path(model).name if Path(model).exists() else model)}"
        self._lock = threading.Lock()

    def score(self, question: str, texts: list[str]) -> list[float]:
        if not texts:
            return []
        with self._lock:
            scores = self._model.predict([(question, t) for t in texts], show_progress_bar=False)
        return [float(s) for s in scores]


def from_settings(settings: Any, models_dir: Path | None = None) -> Reranker | LearnedRanker | None:
    """The configured reranker: None for `reranker = "none"` (the stage is then marked skipped), the built-in
    ranker for "builtin", else a cross-encoder: a folder, or a hub id (its copy downloaded into `models_dir` when
    there is one, see core/download.py)."""
    from vaultrag.core import download as hub
    from vaultrag.core.query.ranker import BUILTIN, LearnedRanker

    name = (settings.reranker or "none").strip()
    if name.lower() == "none":
        return None
    if name.lower() == BUILTIN:
        return LearnedRanker.load()
    local = hub.downloaded(models_dir, name) if models_dir is not None and not Path(name).exists() else None
    return CrossEncoderReranker(str(local) if local else name, model_id=name if local else None)


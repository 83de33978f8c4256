"""A sentence-transformers CrossEncoder as the reranker (a hub id or a local folder): reads (question, chunk text)."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

from vaultrag.core import download as hub
from vaultrag.core.rerank import Reranked, RerankInput
from vaultrag.core.vocab import Problem
from vaultrag.errors import ModelUnavailable

if TYPE_CHECKING:
    from vaultrag.settings import Settings


class CrossEncoderReranker:
    """Any sentence-transformers CrossEncoder (hub id or local folder); reads the prefixed chunk text."""

    def __init__(self, model: str, threads: int = 0, model_id: str | None = None) -> None:
        # a missing package is worded by core/rerank.py from the registry
        import torch
        from sentence_transformers import CrossEncoder

        if threads:
            torch.set_num_threads(threads)
        try:
            self._model: Any = CrossEncoder(model, device="cpu")
        except Exception as e:  # missing files, no network for a hub id, a folder that is not a model
            raise ModelUnavailable(Problem.MODEL_CANNOT_LOAD,
                                   model=model, why=e) from e
        self.model_id = f"ce/{model_id or (Path(model).name if Path(model).exists() else model)}"
        self._lock = threading.Lock()

    def predict(self, question: str, texts: list[str]) -> list[float]:
        """The model's score of each (question, text) pair."""
        if not texts:
            return []
        with self._lock:
            scores = self._model.predict([(question, t) for t in texts], show_progress_bar=False)
        return [float(s) for s in scores]

    def score(self, batch: RerankInput) -> Reranked:
        return Reranked(tuple(self.predict(batch.question, list(batch.texts))))


def build(settings: Settings, models_dir: Path | None) -> CrossEncoderReranker:
    """The setting's cross-encoder: a folder, or a hub id (its copy downloaded into `models_dir` when there is one,
    see core/download.py)."""
    name = settings.reranker.strip()
    local = hub.downloaded(models_dir, name) if models_dir is not None and not Path(name).exists() else None
    return CrossEncoderReranker(str(local) if local else name, model_id=name if local else None)

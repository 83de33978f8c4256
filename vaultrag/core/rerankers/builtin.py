"""The built-in ranker: a linear model over the candidate features, read from a JSON file, explainable term by term."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vaultrag.core.query.features import FEATURES, compute
from vaultrag.core.rerank import Reranked, RerankInput
from vaultrag.errors import ModelUnavailable

if TYPE_CHECKING:
    from vaultrag.settings import Settings

MODEL_FILE = "ranker.json"  # next to this module; written by benchmarks/train_ranker.py


class LearnedRanker:
    """score = bias + Σ weight_f × (x_f − mean_f) / scale_f; each term is that feature's contribution."""

    def __init__(self, data: dict[str, Any]) -> None:
        if list(data.get("features", [])) != list(FEATURES):
            raise ModelUnavailable("The built-in ranker's data file does not match this version's features: "
                                   "re-run benchmarks/train_ranker.py.")
        self.model_id = str(data["id"])
        self.data = data
        self.mean = np.asarray(data["mean"], dtype=np.float64)
        self.scale = np.asarray(data["scale"], dtype=np.float64)
        self.weights = np.asarray(data["weights"], dtype=np.float64)
        self.bias = float(data["bias"])

    @classmethod
    def load(cls, path: str | Path | None = None) -> LearnedRanker:
        """The ranker in `path`, or the one shipped inside the package."""
        try:
            if path is None:
                text = resources.files("vaultrag.core.rerankers").joinpath(MODEL_FILE).read_text(encoding="utf-8")
            else:
                text = Path(path).read_text(encoding="utf-8")
            return cls(json.loads(text))
        except (OSError, ValueError, KeyError) as e:
            raise ModelUnavailable(f"Cannot read the built-in ranker's data file: {e}") from e

    def explain(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(scores, per-feature contributions) for the feature rows `x`; an unknown value (NaN: a cosine before the
        chunk has a vector) counts as its training mean, a part of 0."""
        parts = (np.where(np.isnan(x), self.mean, x) - self.mean) / self.scale * self.weights
        return parts.sum(axis=1) + self.bias, parts

    def score(self, batch: RerankInput) -> Reranked:
        """The candidates' features computed from the question's state, scored, each feature's part kept."""
        values, parts = self.explain(compute(batch.state, list(batch.chunk_ids)))
        return Reranked(tuple(float(v) for v in values),
                        tuple(dict(zip(FEATURES, map(float, row), strict=True)) for row in parts),
                        f"{self.model_id}: a linear model over {len(FEATURES)} features of each candidate")


def build(settings: Settings, models_dir: Path | None) -> LearnedRanker:
    return LearnedRanker.load()

"""The built-in ranker: a linear model over the candidate features, read from a JSON file, explainable term by term."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from vaultrag.core.query.features import FEATURES
from vaultrag.errors import ModelUnavailable

BUILTIN = "builtin"  # the settings' name for it
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
                text = resources.files("vaultrag.core.query").joinpath(MODEL_FILE).read_text(encoding="utf-8")
            else:
                text = Path(path).read_text(encoding="utf-8")
            return cls(json.loads(text))
        except (OSError, ValueError, KeyError) as e:
            raise ModelUnavailable(f"Cannot read the built-in ranker's data file: {e}") from e

    def explain(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(scores, per-feature contributions) for the feature rows `x`."""
        parts = (x - self.mean) / self.scale * self.weights
        return parts.sum(axis=1) + self.bias, parts

"""A toy reranker: a candidate scores the question's words its text holds."""

from __future__ import annotations

import re
from typing import Any

from vaultrag.core.rerank import Reranked, RerankInput


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


class ToyRanker:
    model_id = "toy/overlap-1"

    def score(self, batch: RerankInput) -> Reranked:
        asked = words(batch.question)
        return Reranked(tuple(float(len(asked & words(t))) for t in batch.texts), note="toy: words in common")


def build(settings: Any, models_dir: Any) -> ToyRanker:
    return ToyRanker()

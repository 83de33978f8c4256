"""A test-only reranker backend: scores a candidate by the question's words its `prefix > text` holds; one module,
registered by tests/test_engines.py."""

from __future__ import annotations

import re
from pathlib import Path

from vaultrag.core.rerank import Reranked, RerankInput
from vaultrag.settings import Settings


def words(text: str) -> set[str]:
    return set(re.findall(r"\w+", text.lower()))


class OverlapReranker:
    model_id = "test/overlap"

    def score(self, batch: RerankInput) -> Reranked:
        asked = words(batch.question)
        return Reranked(tuple(float(len(asked & words(t))) for t in batch.texts))


def build(settings: Settings, models_dir: Path | None) -> OverlapReranker:
    return OverlapReranker()

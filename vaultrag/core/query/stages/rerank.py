"""The rerank stage: the built-in ranker (features of each fused candidate, each one's part kept) or a cross-encoder
re-scores the fused list (skipped without one)."""

from __future__ import annotations

import time

from vaultrag.core.model import Stage
from vaultrag.core.query import features
from vaultrag.core.query.ranker import LearnedRanker
from vaultrag.core.query.state import QueryState
from vaultrag.core.vocab import StageName, StageReason, StageStatus


class RerankStage:
    """Re-orders the fused candidates; when it runs, its list becomes the final one. The built-in ranker records
    every feature's contribution per candidate; a cross-encoder reads (question, `prefix > text`)."""

    name = StageName.RERANKED

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        fused = q.stages[StageName.FUSED].candidates
        if q.reranker is None or not fused:
            why = StageReason.NO_RERANKER if q.reranker is None else StageReason.NOTHING_TO_RERANK
            q.stages[self.name] = Stage(self.name, StageStatus.SKIPPED, [], 0.0, reason=why)
            q.timed("rerank", t)
            return
        ids = [c.chunk_id for c in fused]
        parts: dict[int, dict[str, float]] = {}
        scores: list[float]
        if isinstance(q.reranker, LearnedRanker):
            values, terms = q.reranker.explain(features.compute(q, ids))
            scores = [float(v) for v in values]
            parts = {cid: dict(zip(features.FEATURES, map(float, row), strict=True))
                     for cid, row in zip(ids, terms, strict=True)}
            note = f"{q.reranker.model_id}: a linear model over {len(features.FEATURES)} features of each candidate"
        else:
            scores = q.reranker.score(q.question, [q.chunks[i].search_text for i in ids])
            note = q.reranker_id
        # equal scores keep the fused order (sorted is stable)
        order = sorted(zip(ids, scores, strict=True), key=lambda x: -x[1])
        q.stages[self.name] = Stage(self.name, StageStatus.OK, q.candidates(order, parts), q.timed("rerank", t), note)
        q.final_stage = self.name

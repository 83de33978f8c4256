"""The dense stage: the question's embedding against sqlite-vec (KNN, the scope inside the query)."""

from __future__ import annotations

import time

from vaultrag.core.model import QueryWarning, Stage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.vocab import StageName, StageReason, StageStatus, Timing, WarningCode

MAX_EMBED_CHARS = 1000  # the embedder windows long input: a 5,000-character question took 3 s to embed


class VectorStage:
    """Top `vector_n` chunks by cosine; unavailable without a model (or with another model's vectors),
    partial while vectors are still filling. It also gives every candidate listed so far its cosine."""

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
            warning = QueryWarning(WarningCode.OTHER_MODEL, model=q.embedder.model_id, index_model=state.model)
        else:
            t = time.perf_counter()
            if len(q.question) > MAX_EMBED_CHARS:
                q.warnings.append(QueryWarning(WarningCode.EMBED_CUT, limit=MAX_EMBED_CHARS))
            q.qvec = q.query_vector(q.question)
            q.timed(Timing.EMBED_QUERY, t)
            t = time.perf_counter()
            hits = q.store.knn(q.qvec, q.settings.vector_n, q.scope_sql)
            q.timed(Timing.KNN, t)
            q.cosines.update(hits)
            if state.chunks_embedded < state.chunks:
                status, reason = StageStatus.PARTIAL, StageReason.VECTORS_FILLING
                warning = QueryWarning(WarningCode.VECTORS_FILLING, done=state.chunks_embedded,
                                       total=state.chunks)
        if warning is not None:
            q.warnings.append(warning)
        ms = q.timings.get(Timing.EMBED_QUERY, 0) + q.timings.get(Timing.KNN, 0)
        q.stages[self.name] = Stage(self.name, status, q.candidates(hits), ms, reason=reason)
        q.fill_cosines()

"""The dense stage: the question's embedding against sqlite-vec (KNN, the scope inside the query)."""

from __future__ import annotations

import time

from vaultrag.core.model import Stage
from vaultrag.core.query.state import QueryState
from vaultrag.core.vocab import StageName, StageStatus

MAX_EMBED_CHARS = 1000  # the embedder windows long input: a 5,000-character question took 3 s to embed


class VectorStage:
    """Top `vector_n` chunks by cosine; unavailable without a model (or with another model's vectors),
    partial while vectors are still filling. It also gives every candidate listed so far its cosine."""

    name = StageName.VECTOR

    def run(self, q: QueryState) -> None:
        state = q.index_state
        hits: list[tuple[int, float]] = []
        status, note = StageStatus.OK, ""
        if q.embedder is None:
            status, note = StageStatus.UNAVAILABLE, "no embedding model loaded"
        elif state["model"] != q.embedder.model_id:
            status = StageStatus.UNAVAILABLE
            note = (f"the index holds vectors of {state['model'] or 'no model'}, not {q.embedder.model_id}: "
                    "run `vaultrag index` to re-embed")
        else:
            t = time.perf_counter()
            if len(q.question) > MAX_EMBED_CHARS:
                q.warnings.append(f"only the first {MAX_EMBED_CHARS} characters are used for the vector search")
            q.qvec = q.query_vector(q.question)
            q.timed("embed_query", t)
            t = time.perf_counter()
            hits = q.store.knn(q.qvec, q.settings.vector_n, q.scope_sql)
            q.timed("knn", t)
            q.cosines.update(hits)
            if state["chunks_embedded"] < state["chunks"]:
                status = StageStatus.PARTIAL
                note = (f"vectors still filling: {state['chunks_embedded']} of {state['chunks']} chunks "
                        "embedded; BM25 covers the rest")
        if status != StageStatus.OK:
            q.warnings.append(note)
        ms = q.timings.get("embed_query", 0) + q.timings.get("knn", 0)
        q.stages[self.name] = Stage(self.name, status, q.candidates(hits), ms, note)
        q.fill_cosines()

"""The lexical stage: FTS5 BM25 over the question's content words, the scope inside the SQL."""

from __future__ import annotations

import time

from vaultrag.core.model import Stage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.query.terms import match_expression, query_terms
from vaultrag.core.vocab import StageName, StageReason, StageStatus, Timing


class Bm25Stage:
    """Top `bm25_n` chunks by BM25; the trace notes the exact MATCH sent and the words left out."""

    name = StageName.BM25
    requires = needs(Slot.QUESTION)
    provides = needs(StageName.BM25, Slot.TERMS, Slot.RETRIEVED)

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        q.terms, dropped = query_terms(q.store, q.question, q.language)
        hits = q.store.bm25(match_expression(q.terms), q.settings.bm25_n, q.scope_sql) if q.terms else []
        ms = q.timed(Timing.BM25, t)
        note = f"MATCH {match_expression(q.terms)}" if q.terms else ""
        if dropped:
            note += f"{'; ' if note else ''}left out: {', '.join(dropped[:12])}"
        status = StageStatus.OK if hits else StageStatus.EMPTY  # no words to search, or no note holds them
        reason = None if hits else StageReason.NO_MATCH if q.terms else StageReason.NO_WORDS
        q.stages[self.name] = Stage(self.name, status, q.candidates(hits), ms, note, reason)

"""The lexical stage: FTS5 BM25 over the question's content words and their stems, the scope inside the SQL."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from vaultrag.core.model import Stage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.query.stems import inflected_match
from vaultrag.core.query.terms import fold, query_terms
from vaultrag.core.vocab import StageName, StageReason, StageStatus, Timing

if TYPE_CHECKING:
    from vaultrag.core.store.index_store import IndexStore


def match_for(store: IndexStore, terms: list[str], language: str) -> str:
    """The MATCH of `terms`: the forms no chunk holds widened to their stems (stems.inflected_match)."""
    freqs = store.doc_freqs([fold(t) for t in terms]) if terms else []
    return inflected_match(terms, language, {t for t, f in zip(terms, freqs, strict=True) if f == 0})


class Bm25Stage:
    """Top `bm25_n` chunks by BM25; the trace notes the exact MATCH sent and the words left out."""

    name = StageName.BM25
    requires = needs(Slot.QUESTION)
    provides = needs(StageName.BM25, Slot.TERMS, Slot.RETRIEVED)

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        q.terms, dropped = query_terms(q.store, q.question, q.language)
        match = match_for(q.store, q.terms, q.language)
        hits = q.store.bm25(match, q.settings.bm25_n, q.scope_sql) if q.terms else []
        ms = q.timed(Timing.BM25, t)
        note = f"MATCH {match}" if q.terms else ""
        if dropped:
            note += f"{'; ' if note else ''}left out: {', '.join(dropped[:12])}"
        status = StageStatus.OK if hits else StageStatus.EMPTY  # no words to search, or no note holds them
        reason = None if hits else StageReason.NO_MATCH if q.terms else StageReason.NO_WORDS
        q.stages[self.name] = Stage(self.name, status, q.candidates(hits), ms, note, reason)

"""The lexical stage: FTS5 BM25 over the question's content words and their stems, the scope inside the SQL."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from vaultrag.core.model import Candidate, Stage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.query.stems import inflected_match, stem_prefixes
from vaultrag.core.query.terms import WORD, fold, query_terms
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
        matches = [match_for(q.store, q.terms, q.language)] if q.terms else []
        # the question's translations are OR-ed in: one BM25 ranking, each note matched by the words of its language
        for language, translation in q.translations.items():
            terms, _ = query_terms(q.store, translation.text, language)
            q.translated_terms[language] = terms
            if terms:
                matches.append(match_for(q.store, terms, language))
        match = " OR ".join(dict.fromkeys(p for m in matches for p in m.split(" OR ")))
        hits = q.store.bm25(match, q.settings.bm25_n, q.scope_sql) if match else []
        ms = q.timed(Timing.BM25, t)
        note = f"MATCH {match}" if match else ""
        if dropped:
            note += f"{'; ' if note else ''}left out: {', '.join(dropped[:12])}"
        status = StageStatus.OK if hits else StageStatus.EMPTY  # no words to search, or no note holds them
        reason = None if hits else StageReason.NO_MATCH if match else StageReason.NO_WORDS
        candidates = q.candidates(hits)
        if q.translations:
            mark_via_translation(q, candidates)
        q.stages[self.name] = Stage(self.name, status, candidates, ms, note, reason)


def mark_via_translation(q: QueryState, candidates: list[Candidate]) -> None:
    """Mark the candidates that hold none of the question's own words (nor their stems), only a translation's."""
    own = {fold(t) for t in q.terms}
    prefixes = tuple(p for t in q.terms for p in stem_prefixes(t, q.language))
    for c in candidates:
        words = {fold(w.lower()) for w in WORD.findall(q.chunks[c.chunk_id].search_text)}
        if own & words or any(w.startswith(prefixes) for w in words if prefixes):
            continue
        c.via = next((lang for lang, terms in q.translated_terms.items() if {fold(t) for t in terms} & words), "")

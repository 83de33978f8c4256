"""The words of a question worth a lexical search: stop-words out, accent folding, a safe FTS5 MATCH string."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import TYPE_CHECKING

from vaultrag.core.language import stop_words

if TYPE_CHECKING:
    from vaultrag.core.store.index_store import IndexStore

MAX_TERMS = 32  # a 5,000-character question must not become a 700-term OR
COMMON_SHARE = 0.5  # a term in more than half of all chunks adds little and costs much (STACK.md)…
COMMON_MIN_CHUNKS = 10_000  # …but only at scale: on a small index it is fast and may be the only clue
# FTS5 scores every chunk that holds any of the words (~2 µs each at 1M chunks, ranking included): when the words'
# chunk counts add up to more than this, the commonest go until the rest fit. At 1M chunks BM25's p50 went from
# 243 to 33 ms; at 100k 18% of questions lost a word; small vaults never reach it (docs/benchmarks.md).
POSTINGS_BUDGET = 25_000
STOPWORDS = stop_words("")  # pt and en together: for text whose language is not known
WORD = re.compile(r"\w+", re.UNICODE)
SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")  # the sentences the ranker and the decision read a chunk by


@lru_cache(maxsize=1 << 16)  # the same words come back in every question, candidate and sentence
def fold(word: str) -> str:
    """`word` without diacritics (as FTS5's `remove_diacritics 2` stores its terms)."""
    if word.isascii():  # most words of most notes: nothing to strip (1.3 ms a question went to folding them)
        return word
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def match_expression(terms: list[str]) -> str:
    """An FTS5 MATCH string that is safe for any input: each term quoted, OR-ed."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


FTS_TOKEN = re.compile(r"[^\W_]+")  # unicode61 makes tokens of letters and digits; '_' and the rest separate


def _postings(store: IndexStore, words: list[str]) -> tuple[dict[str, int], dict[str, int]]:
    """Per word: the chunks that hold it and the postings FTS5 reads to match it. A word FTS5 cuts in several
    tokens (`snake_case`, `e-mail` is two words already) is matched as a phrase: as rare as its rarest token,
    as costly as all of them, and held by no chunk when one token is missing. FTS5 stores its terms folded."""
    parts = {w: FTS_TOKEN.findall(fold(w)) or [fold(w)] for w in words}
    unique = sorted({p for ps in parts.values() for p in ps})
    df = dict(zip(unique, store.doc_freqs(unique), strict=True))
    rarity = {w: min(df[p] for p in ps) for w, ps in parts.items()}
    return rarity, {w: sum(df[p] for p in ps) if rarity[w] else 0 for w, ps in parts.items()}


def query_terms(store: IndexStore, question: str, language: str = "") -> tuple[list[str], list[str]]:
    """The words of `question` worth sending to FTS5, and the ones dropped (the stop words of the question's
    `language`, very common, excess, beyond the postings budget)."""
    stops = stop_words(language)
    words = list(dict.fromkeys(w.lower() for w in WORD.findall(question)))
    kept = [w for w in words if w not in stops]
    dropped = [w for w in words if w in stops]
    if len(kept) > 1:
        total = store.chunk_total() or 1
        dfs: dict[str, int] = {}  # how rare each word is (the chunks that hold it)
        cost: dict[str, int] = {}  # the postings FTS5 reads for it
        if total >= COMMON_MIN_CHUNKS or len(kept) > MAX_TERMS:
            dfs, cost = _postings(store, kept)
        common = [w for w in kept if total >= COMMON_MIN_CHUNKS and dfs.get(w, 0) > COMMON_SHARE * total]
        if len(common) < len(kept):
            kept = [w for w in kept if w not in common]
            dropped += common
        if len(kept) > MAX_TERMS:  # keep the rarest, they carry the meaning
            kept.sort(key=lambda w: dfs.get(w, 0))
            dropped += kept[MAX_TERMS:]
            kept = kept[:MAX_TERMS]
        if total >= COMMON_MIN_CHUNKS and sum(cost.get(w, 0) for w in kept) > POSTINGS_BUDGET:
            fit: list[str] = []
            used = 0
            # rarest first, and the rarest word the index holds stays whatever it costs; a word it lacks (a typo)
            # costs nothing and matches nothing, so it neither takes that place nor leaves
            for w in sorted((w for w in kept if dfs.get(w, 0) > 0), key=lambda w: dfs[w]):
                if fit and used + cost[w] > POSTINGS_BUDGET:
                    break
                fit.append(w)
                used += cost[w]
            dropped += [w for w in kept if dfs.get(w, 0) > 0 and w not in fit]
            kept = [w for w in kept if dfs.get(w, 0) == 0 or w in fit]  # the question's order
    return kept, dropped

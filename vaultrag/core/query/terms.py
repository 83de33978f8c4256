"""The words of a question worth a lexical search: stop-words out, accent folding, a safe FTS5 MATCH string."""

from __future__ import annotations

import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from vaultrag.core.store.index_store import IndexStore

MAX_TERMS = 32  # a 5,000-character question must not become a 700-term OR
COMMON_SHARE = 0.5  # a term in more than half of all chunks adds little and costs much (STACK.md)…
COMMON_MIN_CHUNKS = 10_000  # …but only at scale: on a small index it is fast and may be the only clue
STOPWORDS = frozenset(
    ["a", "o", "as", "os", "um", "uma", "uns", "umas", "de", "do", "da", "dos", "das", "em", "no", "na", "nos", "nas", "por", "para", "pelo", "pela", "com", "sem", "sob", "sobre", "e", "ou", "que", "se", "eu", "tu", "ele", "ela", "nos", "vos", "eles", "elas", "meu", "minha", "seu", "sua", "isso", "isto", "esse", "essa", "este", "esta", "qual", "quais", "quando", "como", "onde", "porque", "por", "que", "é", "foi", "ser", "são", "está", "estão", "ao", "aos", "à", "às", "há", "mais", "menos", "muito", "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "without", "from", "and", "or", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "do", "does", "did", "i", "you", "he", "she", "we", "they", "my", "your", "our", "their", "there", "here", "as", "into", "about", "than", "then", "so", "if", "not", "no", "can", "could", "should", "would", "will", "shall", "may", "might"]
)
WORD = re.compile(r"\w+", re.UNICODE)


def fold(word: str) -> str:
    """`word` without diacritics (as FTS5's `remove_diacritics 2` stores its terms)."""
    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def match_expression(terms: list[str]) -> str:
    """An FTS5 MATCH string that is safe for any input: each term quoted, OR-ed."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def query_terms(store: IndexStore, question: str) -> tuple[list[str], list[str]]:
    """The words of `question` worth sending to FTS5, and the ones dropped (stop-words, very common, excess)."""
    words = list(dict.fromkeys(w.lower() for w in WORD.findall(question)))
    kept = [w for w in words if w not in STOPWORDS]
    dropped = [w for w in words if w in STOPWORDS]
    if len(kept) > 1:
        total = store.chunk_count() or 1
        dfs: dict[str, int] = {}
        if total >= COMMON_MIN_CHUNKS or len(kept) > MAX_TERMS:  # FTS5 stores its terms accent-folded
            dfs = dict(zip(kept, store.doc_freqs([fold(w) for w in kept]), strict=True))
        common = [w for w in kept if total >= COMMON_MIN_CHUNKS and dfs.get(w, 0) > COMMON_SHARE * total]
        if len(common) < len(kept):
            kept = [w for w in kept if w not in common]
            dropped += common
        if len(kept) > MAX_TERMS:  # keep the rarest, they carry the meaning
            kept.sort(key=lambda w: dfs.get(w, 0))
            dropped += kept[MAX_TERMS:]
            kept = kept[:MAX_TERMS]
    return kept, dropped

"""What the built-in ranker knows about each fused candidate: list ranks and scores, cosine, word coverage, language."""

from __future__ import annotations

import functools
import math
import re
import unicodedata

import numpy as np

from vaultrag.core.language import stop_words
from vaultrag.core.query.terms import WORD, fold
from vaultrag.core.rerank import QuestionSoFar
from vaultrag.core.vocab import StageName

STEM_CHARS = 6  # light stemming by truncation: "universidade"/"universidades", "defend"/"defense" meet
SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+")
# One copy of each lexical feature for every language pair: a copy per same/other language scored 0.018 lower on
# xquad-xl left out of training (only names and numbers match across languages, and they still help); the
# fusion gate and `same_language` carry the language (docs/ranker.md).
FEATURES: tuple[str, ...] = ("bm25_norm", "bm25_rr", "coverage", "sentence_cov", "title_cov", "vector_rr", "cosine",
                             "cosine_gap", "rrf", "log_length", "coverage_x_cosine", "same_language")


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A word folded (lower case, no accents) and cut to its first STEM_CHARS characters."""
    return fold(word.lower())[:STEM_CHARS]


def content_stems(text: str, language: str) -> set[str]:
    """The stems of the words of `text` that are not stop words of `language`."""
    stops = stop_words(language)
    return {stem(w) for w in WORD.findall(text) if w.lower() not in stops}


def _share(wanted: set[str], stems: frozenset[str]) -> float:
    return len(wanted & stems) / len(wanted) if wanted else 0.0


MARKS = re.compile("[\u0300-\u036f]")  # the combining accents NFKD splits off Latin, Greek and Cyrillic letters
STEMS = re.compile(rf"(\w{{1,{STEM_CHARS}}})\w*")  # each word's first STEM_CHARS characters, in one C-level pass


@functools.lru_cache(maxsize=4096)
def sentence_stems(text: str) -> tuple[frozenset[str], ...]:
    """The stems of each sentence of `text` (as `stem` makes them, for a whole text at once; cached: the same
    chunks come back question after question)."""
    folded = MARKS.sub("", unicodedata.normalize("NFKD", text.lower()))
    return tuple(frozenset(STEMS.findall(s)) for s in SENTENCE.split(folded) if s)


def compute(q: QuestionSoFar, ids: list[int]) -> np.ndarray:
    """The FEATURES of the candidates `ids` (rows in that order), from the lists and the chunk text in `q`."""
    bm25 = {c.chunk_id: c for c in q.stages[StageName.BM25].candidates} if StageName.BM25 in q.stages else {}
    vector = {c.chunk_id: c for c in q.stages[StageName.VECTOR].candidates} if StageName.VECTOR in q.stages else {}
    fused = {c.chunk_id: c.score for c in q.stages[StageName.FUSED].candidates}
    top_bm25 = max((c.score for c in bm25.values()), default=0.0) or 1.0
    cosines = [q.cosines.get(i) for i in ids]
    top_cos = max((c for c in cosines if c is not None), default=0.0)
    top_rrf = max(fused.values(), default=0.0) or 1.0
    wanted = content_stems(q.question, q.language)
    languages = q.note_languages([q.chunks[i].note for i in ids])
    rows = np.zeros((len(ids), len(FEATURES)), dtype=np.float64)
    for r, (cid, cos) in enumerate(zip(ids, cosines, strict=True)):
        chunk = q.chunks[cid]
        text = chunk.lead + chunk.body
        sentences = sentence_stems(text)
        cov = _share(wanted, frozenset().union(*sentences))
        best_sentence = max((_share(wanted, s) for s in sentences), default=0.0)
        title = _share(wanted, frozenset().union(*sentence_stems(chunk.prefix)))
        note_language = languages.get(chunk.note, "")
        same = not q.language or not note_language or note_language == q.language
        c = cos if cos is not None else 0.0
        rows[r] = (bm25[cid].score / top_bm25 if cid in bm25 else 0.0, 1.0 / bm25[cid].rank if cid in bm25 else 0.0,
                   cov, best_sentence, title, 1.0 / vector[cid].rank if cid in vector else 0.0,
                   c, c - top_cos, fused.get(cid, 0.0) / top_rrf, math.log1p(len(text)), cov * c, float(same))
    return rows

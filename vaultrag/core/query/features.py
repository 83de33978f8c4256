"""What the built-in ranker knows about each fused candidate: list ranks and scores, cosine, word coverage, language."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Set as AbstractSet

import numpy as np

from vaultrag.core.language import stop_words
from vaultrag.core.query.pointers import pointer_sentences
from vaultrag.core.query.stems import stemmer as _stemmer
from vaultrag.core.query.terms import SENTENCE, WORD, fold
from vaultrag.core.rerank import QuestionSoFar
from vaultrag.core.vocab import StageName

STEM_CHARS = 6  # light stemming by truncation: "universidade"/"universidades", "defend"/"defense" meet
# One copy of each lexical feature for every language pair: a copy per same/other language scored 0.018 lower on
# xquad-xl left out of training (only names and numbers match across languages, and they still help); the
# fusion gate and `same_language` carry the language (docs/ranker.md).
# sentence_idf: the best sentence's share of the question's Snowball stems, each weighted by how few candidates
# hold it; sentence_grams: the best sentence's share of the question's 4-letter pieces (cognates across languages);
# note_cos_gap: the best cosine among the candidates of the same note, less the top one; boilerplate and hub: the
# chunk's marks (store/chunk_marks.py); pointer: the best sentence sends the reader elsewhere ("see [[X]]":
# query/pointers.py); pointed: a candidate links to this one's note (1 / the fused rank of the best one that does:
# the credit a pointer passes to its target). Measured one by one in docs/ranker.md.
FEATURES: tuple[str, ...] = ("bm25_norm", "bm25_rr", "coverage", "sentence_cov", "title_cov", "vector_rr", "cosine",
                             "cosine_gap", "rrf", "log_length", "coverage_x_cosine", "same_language", "sentence_idf",
                             "sentence_grams", "note_cos_gap", "boilerplate", "hub", "pointer", "pointed")
GRAM = 4


@functools.lru_cache(maxsize=4096)
def snowball_sentences(text: str, language: str) -> tuple[frozenset[str], ...]:
    """The Snowball stems (folded) of each sentence of `text`, in `language` (cached like sentence_stems)."""
    stemmer = _stemmer(language)
    out = []
    for s in SENTENCE.split(text.lower()):
        words = WORD.findall(s)
        if words:
            out.append(frozenset(fold(w) for w in stemmer.stemWords(words)))
    return tuple(out)


def snowball_content(text: str, language: str) -> frozenset[str]:
    """The Snowball stems (folded) of the words of `text` that are not stop words of `language`."""
    stops = stop_words(language)
    words = [w for w in WORD.findall(text.lower()) if w not in stops]
    return frozenset(fold(w) for w in _stemmer(language).stemWords(words))


def grams(words: list[str]) -> frozenset[str]:
    """The character GRAM-grams of `words` (folded, lower case; a shorter word whole): cognates share many across
    languages ("universidad", "university")."""
    out: set[str] = set()
    for w in words:
        w = fold(w.lower())
        out.update(w[i : i + GRAM] for i in range(max(1, len(w) - GRAM + 1)))
    return frozenset(out)


@functools.lru_cache(maxsize=4096)
def sentence_grams(text: str) -> tuple[frozenset[str], ...]:
    """The GRAM-grams of each sentence of `text` (cached like sentence_stems)."""
    return tuple(grams(WORD.findall(s)) for s in SENTENCE.split(text) if s.strip())


@functools.lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """A word folded (lower case, no accents) and cut to its first STEM_CHARS characters."""
    return fold(word.lower())[:STEM_CHARS]


def content_stems(text: str, language: str) -> set[str]:
    """The stems of the words of `text` that are not stop words of `language`."""
    stops = stop_words(language)
    return {stem(w) for w in WORD.findall(text) if w.lower() not in stops}


def _share(wanted: AbstractSet[str], stems: frozenset[str]) -> float:
    return len(wanted & stems) / len(wanted) if wanted else 0.0


MARKS = re.compile("[\u0300-\u036f]")  # the combining accents NFKD splits off Latin, Greek and Cyrillic letters
STEMS = re.compile(rf"(\w{{1,{STEM_CHARS}}})\w*")  # each word's first STEM_CHARS characters, in one C-level pass


@functools.lru_cache(maxsize=4096)
def sentence_stems(text: str) -> tuple[frozenset[str], ...]:
    """The stems of each sentence of `text` (as `stem` makes them, for a whole text at once; cached: the same
    chunks come back question after question)."""
    folded = MARKS.sub("", unicodedata.normalize("NFKD", text.lower()))
    return tuple(frozenset(STEMS.findall(s)) for s in SENTENCE.split(folded) if s)


@functools.lru_cache(maxsize=4096)
def text_stems(text: str) -> frozenset[str]:
    """Every stem of `text` (the union of its sentences', cached with them)."""
    return frozenset().union(*sentence_stems(text))


@functools.lru_cache(maxsize=4096)
def snowball_text(text: str, language: str) -> frozenset[str]:
    """Every Snowball stem of `text` (the union of its sentences', cached with them)."""
    return frozenset().union(*snowball_sentences(text, language))


def compute(q: QuestionSoFar, ids: list[int]) -> np.ndarray:
    """The FEATURES of the candidates `ids` (rows in that order), from the lists and the chunk text in `q`; a
    candidate in a language the question was translated into reads that translation (`q.view`)."""
    rows = _compute(q, ids)
    translated = [lang for lang in getattr(q, "translations", {}) if q.view(lang) is not q]
    if translated:
        languages = q.note_languages([q.chunks[i].note for i in ids])
        for lang in translated:
            at = [r for r, i in enumerate(ids) if languages.get(q.chunks[i].note, "") == lang]
            if at:
                rows[at] = _compute(q.view(lang), ids)[at]
    return rows


def _compute(q: QuestionSoFar, ids: list[int]) -> np.ndarray:
    """`compute` with the question as `q` has it."""
    bm25 = {c.chunk_id: c for c in q.stages[StageName.BM25].candidates} if StageName.BM25 in q.stages else {}
    vector = {c.chunk_id: c for c in q.stages[StageName.VECTOR].candidates} if StageName.VECTOR in q.stages else {}
    fused = {c.chunk_id: c.score for c in q.stages[StageName.FUSED].candidates}
    top_bm25 = max((c.score for c in bm25.values()), default=0.0) or 1.0
    cosines = [q.cosines.get(i) for i in ids]
    top_cos = max((c for c in cosines if c is not None), default=0.0)
    top_rrf = max(fused.values(), default=0.0) or 1.0
    wanted = content_stems(q.question, q.language)
    wanted_stems = snowball_content(q.question, q.language)
    stops = stop_words(q.language)
    wanted_grams = grams([w for w in WORD.findall(q.question) if w.lower() not in stops])
    languages = q.note_languages([q.chunks[i].note for i in ids])
    texts = [q.chunks[i].lead + q.chunks[i].body for i in ids]
    # the notes stemmed as the question is: only then do their stems meet (names and numbers stem alike anyway)
    stem_language = [q.language or languages.get(q.chunks[i].note, "") for i in ids]
    stemmed = [snowball_sentences(t, lang) for t, lang in zip(texts, stem_language, strict=True)]
    # each question stem weighted by how few of the candidates hold it (the topic's name is in all of them)
    held = [snowball_text(t, lang) for t, lang in zip(texts, stem_language, strict=True)]
    idf = {w: math.log((len(ids) + 1) / (sum(w in h for h in held) + 0.5)) for w in wanted_stems}
    idf_total = sum(idf.values()) or 1.0
    fused_rank = {c.chunk_id: c.rank for c in q.stages[StageName.FUSED].candidates}
    pointed: dict[str, float] = {}  # a note → 1 / the fused rank of the best candidate linking to it
    for cid, found in q.chunk_links(ids).items():
        for target, _ in found:
            pointed[target] = max(pointed.get(target, 0.0), 1.0 / fused_rank.get(cid, len(ids) + 1))
    note_cos: dict[str, float] = {}
    for i, cos in zip(ids, cosines, strict=True):
        if cos is not None:
            note_cos[q.chunks[i].note] = max(note_cos.get(q.chunks[i].note, 0.0), cos)
    rows = np.zeros((len(ids), len(FEATURES)), dtype=np.float64)
    for r, (cid, cos) in enumerate(zip(ids, cosines, strict=True)):
        chunk = q.chunks[cid]
        text = texts[r]
        sentences = sentence_stems(text)
        cov = _share(wanted, text_stems(text))
        best_sentence = max((_share(wanted, s) for s in sentences), default=0.0)
        title = _share(wanted, text_stems(chunk.prefix))
        note_language = languages.get(chunk.note, "")
        same = not q.language or not note_language or note_language == q.language
        # no vector yet (a backlog): the cosine features are unknown, read as their training mean, not as a cosine
        # of 0, which sank the candidate to the bottom with a score near -57 whatever its words said
        c = cos if cos is not None else math.nan
        weights = [sum(idf[w] for w in wanted_stems & s) for s in stemmed[r]]
        best_idf = max(weights, default=0.0) / idf_total
        pointers = pointer_sentences(text)
        best_at = int(np.argmax(weights)) if weights and max(weights) > 0 else -1
        pointer = float(0 <= best_at < len(pointers) and pointers[best_at])
        best_grams = max((_share(wanted_grams, g) for g in sentence_grams(text)), default=0.0)
        rows[r] = (bm25[cid].score / top_bm25 if cid in bm25 else 0.0, 1.0 / bm25[cid].rank if cid in bm25 else 0.0,
                   cov, best_sentence, title, 1.0 / vector[cid].rank if cid in vector else 0.0,
                   c, c - top_cos, fused.get(cid, 0.0) / top_rrf, math.log1p(len(text)), cov * c, float(same),
                   best_idf, best_grams, note_cos.get(chunk.note, math.nan) - top_cos, chunk.boilerplate, chunk.hub,
                   pointer, pointed.get(chunk.note, 0.0))
    return rows

"""What the built-in ranker knows about each fused candidate: list ranks and scores, cosine, word coverage, language."""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from typing import Any

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
# candidates measured by benchmarks/train_ranker.py (computed on demand, see `compute`'s `names`)
EXTRA: tuple[str, ...] = ("boilerplate", "hub", "coverage_stem", "sentence_cov_stem", "names_cov", "hub_x_title",
                          "sentence_idf", "note_cos_gap", "note_share", "boilerplate_x_cov", "sentence_grams")
ALL_FEATURES = FEATURES + tuple(f for f in EXTRA if f not in FEATURES)
SNOWBALL = {"pt": "portuguese", "en": "english", "es": "spanish", "de": "german", "fr": "french", "it": "italian",
            "nl": "dutch", "sv": "swedish", "da": "danish", "no": "norwegian", "fi": "finnish", "ru": "russian",
            "ro": "romanian", "hu": "hungarian", "tr": "turkish", "ca": "catalan"}
NAME_OR_NUMBER = re.compile(r"\b(?:\d[\d.,:/-]*\d|\d|[A-ZÀ-Ý][\w-]+)")


@functools.lru_cache(maxsize=32)
def _stemmer(language: str) -> Any:
    import Stemmer  # PyStemmer: Snowball in C

    return Stemmer.Stemmer(SNOWBALL.get(language, "porter"))


@functools.lru_cache(maxsize=4096)
def snowball_sentences(text: str, language: str) -> tuple[frozenset[str], ...]:
    """The Snowball stems (folded) of each sentence of `text`, in its `language` (cached like sentence_stems)."""
    stemmer = _stemmer(language)
    out = []
    for s in SENTENCE.split(text.lower()):
        words = WORD.findall(s)
        if words:
            out.append(frozenset(fold(w) for w in stemmer.stemWords(words)))
    return tuple(out)


def snowball_content(text: str, language: str) -> set[str]:
    stops = stop_words(language)
    words = [w for w in WORD.findall(text.lower()) if w not in stops]
    return {fold(w) for w in _stemmer(language).stemWords(words)}


GRAM = 4


def grams(words: list[str]) -> frozenset[str]:
    """The character GRAM-grams of `words` (folded, lower case; a shorter word whole): cognates share many across
    languages ("universidad", "university")."""
    out = set()
    for w in words:
        w = fold(w.lower())
        out.update(w[i : i + GRAM] for i in range(max(1, len(w) - GRAM + 1)))
    return frozenset(out)


@functools.lru_cache(maxsize=4096)
def sentence_grams(text: str) -> tuple[frozenset[str], ...]:
    """The GRAM-grams of each sentence of `text` (cached like sentence_stems)."""
    return tuple(grams(WORD.findall(s)) for s in SENTENCE.split(text) if s.strip())


def names_and_numbers(text: str) -> set[str]:
    """The numbers and capitalized words of `text` other than its first word (folded, lower case): what matches
    across languages."""
    words = NAME_OR_NUMBER.findall(text)
    first = WORD.match(text.lstrip("¿¡\"'« "))
    return {fold(w.lower()) for w in words if not (first and w == first.group(0))}


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


def compute(q: QuestionSoFar, ids: list[int], names: tuple[str, ...] = FEATURES) -> np.ndarray:
    """The features `names` of the candidates `ids` (rows in that order), from the lists and the chunk text in `q`."""
    bm25 = {c.chunk_id: c for c in q.stages[StageName.BM25].candidates} if StageName.BM25 in q.stages else {}
    vector = {c.chunk_id: c for c in q.stages[StageName.VECTOR].candidates} if StageName.VECTOR in q.stages else {}
    fused = {c.chunk_id: c.score for c in q.stages[StageName.FUSED].candidates}
    top_bm25 = max((c.score for c in bm25.values()), default=0.0) or 1.0
    cosines = [q.cosines.get(i) for i in ids]
    top_cos = max((c for c in cosines if c is not None), default=0.0)
    top_rrf = max(fused.values(), default=0.0) or 1.0
    wanted = content_stems(q.question, q.language)
    languages = q.note_languages([q.chunks[i].note for i in ids])
    want = set(names)
    stemmed = bool(want & {"coverage_stem", "sentence_cov_stem", "sentence_idf"})
    wanted_stem = snowball_content(q.question, q.language) if stemmed else set()
    named = names_and_numbers(q.question) if "names_cov" in want else set()
    stops = stop_words(q.language)
    wanted_grams = grams([w for w in WORD.findall(q.question) if w.lower() not in stops]) \
        if "sentence_grams" in want else frozenset()
    rows = np.zeros((len(ids), len(names)), dtype=np.float64)
    idf: dict[str, float] = {}
    if stemmed:
        # the question's stems weighted by how few of the candidates hold them (the topic's name is in all of them)
        holders = [frozenset().union(*snowball_sentences(q.chunks[i].lead + q.chunks[i].body,
                                                          q.language or languages.get(q.chunks[i].note, "")))
                   for i in ids]
        idf = {w: math.log((len(ids) + 1) / (sum(w in h for h in holders) + 0.5)) for w in wanted_stem}
    note_cos: dict[str, float] = {}
    note_count: dict[str, int] = {}
    for i, cos in zip(ids, cosines, strict=True):
        note = q.chunks[i].note
        note_cos[note] = max(note_cos.get(note, 0.0), cos or 0.0)
        note_count[note] = note_count.get(note, 0) + 1
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
        row = {"bm25_norm": bm25[cid].score / top_bm25 if cid in bm25 else 0.0,
               "bm25_rr": 1.0 / bm25[cid].rank if cid in bm25 else 0.0, "coverage": cov, "sentence_cov": best_sentence,
               "title_cov": title, "vector_rr": 1.0 / vector[cid].rank if cid in vector else 0.0, "cosine": c,
               "cosine_gap": c - top_cos, "rrf": fused.get(cid, 0.0) / top_rrf, "log_length": math.log1p(len(text)),
               "coverage_x_cosine": cov * c, "same_language": float(same),
               "boilerplate": getattr(chunk, "boilerplate", 0.0), "hub": getattr(chunk, "hub", 0.0),
               "hub_x_title": getattr(chunk, "hub", 0.0) * title,
               "boilerplate_x_cov": getattr(chunk, "boilerplate", 0.0) * cov,
               "note_cos_gap": note_cos[chunk.note] - top_cos, "note_share": note_count[chunk.note] / len(ids)}
        if stemmed:
            # the question's and the note's words stemmed alike: the question's language when they share it
            stem_sents = snowball_sentences(text, q.language if same else note_language)
            row["coverage_stem"] = _share(wanted_stem, frozenset().union(*stem_sents))
            row["sentence_cov_stem"] = max((_share(wanted_stem, s) for s in stem_sents), default=0.0)
            total = sum(idf.values()) or 1.0
            row["sentence_idf"] = max((sum(idf[w] for w in wanted_stem & s) / total for s in stem_sents), default=0.0)
        if wanted_grams:
            row["sentence_grams"] = max((_share(set(wanted_grams), g) for g in sentence_grams(text)), default=0.0)
        if named:
            folded = MARKS.sub("", unicodedata.normalize("NFKD", text.lower()))
            row["names_cov"] = sum(n in folded for n in named) / len(named)
        rows[r] = [row.get(n, 0.0) for n in names]
    return rows

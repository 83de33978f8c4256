"""Which language a text is written in (py3langid over the languages we have stop words for), and its stop words."""

from __future__ import annotations

import functools
import threading
from collections.abc import Collection
from typing import Any

# py3langid knows 97 languages; on short questions the rare ones steal from their big neighbours (26 of 868
# faquad-pt questions came out Galician or Aragonese). Restricted to the languages `stop-words` has lists for,
# it names 4,319 of the 4,324 dev-set questions (pt, en, es, de) right (benchmarks/train_ranker.py --languages).
LANGUAGES = ("ar", "bg", "ca", "cs", "da", "nl", "en", "fi", "fr", "de", "gu", "he", "hi", "hu", "id", "ms", "it",
             "no", "pl", "pt", "ro", "ru", "sk", "es", "sv", "tr", "uk", "vi", "fa", "el", "zh", "ja", "ko")
UNKNOWN = ""  # no letters to judge by
MIN_CHARS = 3
# A note's language is judged on a sample: four pieces spread over it (a note that opens with code or a quote in
# another language is still judged by its prose). On the 415 shared notes 1,000 characters name the same language
# as the whole text, like the 4,000-character start did, at a third of its cost (2.1 → 0.6 ms a note, a quarter
# of the text phase's parsing time).
SAMPLE_CHARS = 1000
SAMPLE_PIECES = 4
# A short question is ambiguous ("refund deadline" reads as German by a hair): the vault's own languages get this
# many times the odds. On the dev sets that names 4,316 of 4,324 right (6 German questions asked of English notes
# flip to English) and settles the two-word questions people actually type.
LIKELY_ODDS = 4.0

_PT = ["a", "o", "as", "os", "um", "uma", "uns", "umas", "de", "do", "da", "dos", "das", "em", "no", "na", "nos", "nas", "por", "para", "pelo", "pela", "com", "sem", "sob", "sobre", "e", "ou", "que", "se", "eu", "tu", "ele", "ela", "vos", "eles", "elas", "meu", "minha", "seu", "sua", "isso", "isto", "esse", "essa", "este", "esta", "qual", "quais", "quando", "como", "onde", "porque", "é", "foi", "ser", "são", "está", "estão", "ao", "aos", "à", "às", "há", "mais", "menos", "muito"]
_EN = ["the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "without", "from", "and", "or", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "do", "does", "did", "i", "you", "he", "she", "we", "they", "my", "your", "our", "their", "there", "here", "as", "into", "about", "than", "then", "so", "if", "not", "no", "can", "could", "should", "would", "will", "shall", "may", "might"]
# pt and en keep the short lists BM25 was measured with (the package's English list has 1,333 words, among
# them "year" and "new"); every other language uses the `stop-words` package.
_OWN_LISTS = {"pt": frozenset(_PT), "en": frozenset(_EN)}
_lock = threading.Lock()


@functools.cache
def _identifier() -> Any:
    from py3langid.langid import MODEL_FILE, LanguageIdentifier

    ident = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)
    ident.set_languages(list(LANGUAGES))
    return ident


def _has_letters(text: str, n: int) -> bool:
    """Whether `text` has at least n letters (stops at the n-th: counting all 4,000 cost 2 ms a note)."""
    for c in text:
        if c.isalpha():
            n -= 1
            if n <= 0:
                return True
    return n <= 0


def sample_of(text: str) -> str:
    """`text` itself up to SAMPLE_CHARS; beyond, SAMPLE_PIECES pieces from evenly spread places, SAMPLE_CHARS in all."""
    if len(text) <= SAMPLE_CHARS:
        return text
    step, size = len(text) // SAMPLE_PIECES, SAMPLE_CHARS // SAMPLE_PIECES
    return " ".join(text[i * step : i * step + size] for i in range(SAMPLE_PIECES))


def detect_language(text: str, likely: Collection[str] = ()) -> str:
    """The ISO 639-1 code of the language `text` is written in ('' when it has no letters to judge by); the
    `likely` languages (the vault's) win close calls."""
    sample = sample_of(text)
    if not _has_letters(sample, MIN_CHARS):
        return UNKNOWN
    with _lock:  # the identifier keeps no state per call, but its first load must happen once
        ident = _identifier()
    if not likely:
        return str(ident.classify(sample)[0])
    ranked = ident.rank(sample)
    return str(max(ranked, key=lambda lp: lp[1] * (LIKELY_ODDS if lp[0] in likely else 1.0))[0])


@functools.cache
def stop_words(language: str) -> frozenset[str]:
    """The stop words of `language`; for an unknown one, the pt and en lists together (the old behaviour)."""
    if language in _OWN_LISTS:
        return _OWN_LISTS[language]
    from stop_words import LANGUAGE_MAPPING, get_stop_words

    code = "nb" if language == "no" else language
    if code not in LANGUAGE_MAPPING:
        return _OWN_LISTS["pt"] | _OWN_LISTS["en"]
    return frozenset(w.lower() for w in get_stop_words(code))

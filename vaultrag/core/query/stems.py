"""Snowball stems per language (PyStemmer), and the prefix a word's inflections share for a lexical search."""

from __future__ import annotations

import functools
from collections.abc import Collection
from typing import Any

from vaultrag.core.query.terms import fold

# the Snowball stemmer of each language PyStemmer has (others: the English Porter stemmer, which mostly trims -s)
SNOWBALL = {"pt": "portuguese", "en": "english", "es": "spanish", "de": "german", "fr": "french", "it": "italian",
            "nl": "dutch", "sv": "swedish", "da": "danish", "no": "norwegian", "fi": "finnish", "ru": "russian",
            "ro": "romanian", "hu": "hungarian", "tr": "turkish", "ca": "catalan"}
PREFIX_MIN = 4  # a shorter stem ("not" of "notas") would match too many other words as a prefix
# Snowball keeps the "u" of a preterite's "-guei"/"-quei" ("apaguei" → "apagu", "fiquei" → "fiqu") where the other
# forms have none ("apagar" → "apag", "ficar" → "fic"): the spelling rule undone, so they meet
SPELLING = {"pt": (("gu", "g"), ("qu", "c")), "es": (("gu", "g"), ("qu", "c"))}


@functools.lru_cache(maxsize=32)
def stemmer(language: str) -> Any:
    import Stemmer  # PyStemmer: Snowball in C

    return Stemmer.Stemmer(SNOWBALL.get(language, "porter"))


@functools.lru_cache(maxsize=1 << 14)
def stem_prefix(word: str, language: str) -> str:
    """The folded Snowball stem of `word` that its inflections start with ("apaguei", "apagar", "apagada" → "apag";
    "syncing" → "sync"), or "" when that is the word itself or shorter than PREFIX_MIN letters. Only for a
    language Snowball knows: the Porter stemmer's English endings would cut other languages' words wrongly."""
    if language not in SNOWBALL or not word.isalpha():
        return ""
    stem = stemmer(language).stemWord(word.lower())
    for end, plain in SPELLING.get(language, ()):
        if stem.endswith(end) and len(stem) > len(end) + 2:
            stem = stem[: -len(end)] + plain
            break
    stem = fold(stem)
    if len(stem) < PREFIX_MIN or stem == fold(word.lower()):
        return ""
    return stem


def inflected_match(terms: list[str], language: str, absent: Collection[str] = ()) -> str:
    """The FTS5 MATCH for `terms`; each of them in `absent` (a form no chunk holds) also as its stem's prefix
    (`"apag"*` beside "apaguei"): BM25 then finds "apagar" and "apagada" for "apaguei". A form the vault holds is
    searched as written (every word widened to its stem drew more noise than matches on the help vault)."""
    parts: list[str] = []
    for t in terms:
        parts.append('"' + t.replace('"', '""') + '"')
        prefix = stem_prefix(t, language) if t in absent else ""
        if prefix and f'"{prefix}"*' not in parts:
            parts.append(f'"{prefix}"*')
    return " OR ".join(parts)

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
# the vowels the plain spelling ("c", "g") is written before ("ficar", "fico"; "qu", "gu" before e and i): a stem
# too short for a prefix once undone ("fic" would find "ficha", "ficção") is searched as these forms instead
PLAIN_BEFORE = ("a", "o")


@functools.lru_cache(maxsize=32)
def stemmer(language: str) -> Any:
    import Stemmer  # PyStemmer: Snowball in C

    return Stemmer.Stemmer(SNOWBALL.get(language, "porter"))


def as_indexed(stem: str, word: str) -> str:
    """The folded `stem` in the letters FTS5 stores `word` with: Snowball writes "ß" as "ss" ("straße" → "strass"),
    unicode61 keeps it ("straße"), so "strass"* found no "straße"; Snowball's stem when it changed more."""
    stem = fold(stem)
    if "ß" not in word:
        return stem
    out: list[str] = []
    at = 0
    for c in fold(word):
        if at >= len(stem):
            break
        spelled = "ss" if c == "ß" else c
        if stem.startswith(spelled, at) or (c == "ß" and stem[at:] == "s"):  # a stem may end inside the "ss"
            out.append(c)
            at += len(spelled)
        else:
            return stem
    return "".join(out) if at >= len(stem) else stem


@functools.lru_cache(maxsize=1 << 14)
def stem_prefixes(word: str, language: str) -> tuple[str, ...]:
    """The prefixes, as the index stores words, that `word`'s inflections start with: its folded Snowball stem
    ("apaguei", "apagar", "apagada" → "apag"; "syncing" → "sync"; "straßen" → "straß"), or for a stem too short once
    its spelling rule is undone, its forms by spelling ("fiquei" → "fica", "fico", "fiqu": "ficar", "ficou",
    "fique"); () when the stem is the word itself or shorter than PREFIX_MIN letters. Only for a language Snowball
    knows: the Porter stemmer's English endings would cut other languages' words wrongly."""
    if language not in SNOWBALL or not word.isalpha():
        return ()
    lower = word.lower()
    stem = stemmer(language).stemWord(lower)
    found = (stem,)
    for end, plain in SPELLING.get(language, ()):
        if stem.endswith(end) and len(stem) > len(end):
            base = stem[: -len(end)] + plain
            if len(base) >= PREFIX_MIN:
                found = (base,)
            elif len(base) + 1 >= PREFIX_MIN:
                found = (*(base + v for v in PLAIN_BEFORE), stem)
            break
    own = fold(lower)
    return tuple(dict.fromkeys(p for p in (as_indexed(f, lower) for f in found) if len(p) >= PREFIX_MIN and p != own))


def stem_prefix(word: str, language: str) -> str:
    """The one of `stem_prefixes` that `word` itself starts with (the first when none does), or "": a single prefix
    to look the word's other forms up by."""
    prefixes = stem_prefixes(word, language)
    own = fold(word.lower())
    return next((p for p in prefixes if own.startswith(p)), prefixes[0] if prefixes else "")


def inflected_match(terms: list[str], language: str, absent: Collection[str] = ()) -> str:
    """The FTS5 MATCH for `terms`; each of them in `absent` (a form no chunk holds) also as its stem's prefixes
    (`"apag"*` beside "apaguei"): BM25 then finds "apagar" and "apagada" for "apaguei". A form the vault holds is
    searched as written (every word widened to its stem drew more noise than matches on the help vault)."""
    parts: list[str] = []
    for t in terms:
        parts.append('"' + t.replace('"', '""') + '"')
        for prefix in stem_prefixes(t, language) if t in absent else ():
            if f'"{prefix}"*' not in parts:
                parts.append(f'"{prefix}"*')
    return " OR ".join(parts)

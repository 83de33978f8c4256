"""The citation check of a generated answer: each sentence's [n], and whether its cited documents back it."""

from __future__ import annotations

import re

from vaultrag.core.model import ContextDoc, SentenceCheck
from vaultrag.core.query.refusal import REFUSAL
from vaultrag.core.query.terms import STOPWORDS, WORD, fold
from vaultrag.core.vocab import SupportVerdict

CITATION = re.compile(r"\[(\d+(?:\s*[,;]\s*\d+)*)\]")
# a sentence ends at . ! ? or a line break; citations written after the full stop ("…deadline. [2]") belong to it
SENTENCE = re.compile(r"[^.!?\n]*?(?:[.!?]+(?:\s*\[\d+(?:\s*[,;]\s*\d+)*\])*|\n|$)")
STEM = 5  # words compared on their first letters: "cancelling"/"cancelled", "prazos"/"prazo"
MIN_WORDS = 3  # shorter pieces ("Answer:", a list marker) are not claims
MIN_ATTACH_STEMS = 2  # a claim of one content word ("Good luck!") is "supported" by any document naming it
# The support test: the share of a sentence's content words found in its cited document. Chosen on the
# labelled set of benchmarks/citation_check.py (the supported/unsupported split is reported there).
SUPPORT_THRESHOLD = 0.6
# Attaching a citation the model did not write is vaultrag's own claim that the document backs the sentence, so it
# takes more: on the labelled set attached precision is 0.878 at 0.6 and 0.968 at 0.8 (recall 0.963 → 0.852); on
# SmolLM2-135M's real answers, whose garbled sentences share a passage's words, 9 of 30 attachments were right at
# 0.6 and 8 of 15 at 0.8 (docs/benchmarks.md, "Generation"). A sentence left uncited is flagged: the safe side.
ATTACH_THRESHOLD = 0.8


def sentences(answer: str) -> list[str]:
    """The answer's sentences, each with the citations that close it."""
    out = []
    for m in SENTENCE.finditer(answer):
        s = m.group(0).strip().lstrip("-*•0123456789. )").strip()
        if s:
            out.append(s)
    return out


def citations(sentence: str) -> list[int]:
    """The document indexes a sentence cites, in order, without repeats ("[1][2]", "[1, 3]")."""
    found = [int(n) for m in CITATION.finditer(sentence) for n in re.split(r"\s*[,;]\s*", m.group(1))]
    return list(dict.fromkeys(found))


def _stems(text: str) -> set[str]:
    return {fold(w.lower())[:STEM] for w in WORD.findall(text) if w.isdigit() or w.lower() not in STOPWORDS}


def _key_stems(text: str) -> set[str]:
    """The words that carry a claim's facts: numbers and names (capitalised, not opening the sentence)."""
    words = WORD.findall(text)
    return {fold(w.lower())[:STEM] for i, w in enumerate(words) if w.isdigit() or (i > 0 and w[:1].isupper())}


def support(sentence: str, document: str) -> float:
    """How much of the sentence the document contains (0–1): the share of its content words, capped by the
    share of its numbers and names (a right context with a wrong fact — another date, another name — is caught)."""
    text = CITATION.sub(" ", sentence)
    claim, doc = _stems(text), _stems(document)
    if not claim:
        return 1.0
    share = len(claim & doc) / len(claim)
    keys = _key_stems(text)
    return min(share, len(keys & doc) / len(keys)) if keys else share


def is_refusal(text: str) -> bool:
    """Whether `text` is the prompt's exact refusal sentence (in either language, quotes and spaces aside)."""
    t = text.strip().strip("\"'“”«»").strip()
    return t in REFUSAL.values()


def attach(sentence: str, docs: list[ContextDoc],
           threshold: float = ATTACH_THRESHOLD) -> tuple[int | None, float | None]:
    """The prompt document that best backs an uncited sentence (None when none reaches `threshold`), and the best
    support measured. Ties go to the earlier document (the better ranked); a question, a lead-in ending in ":", or
    a claim of fewer than MIN_ATTACH_STEMS content words is not measured (too little to tell one document from
    another)."""
    bare = CITATION.sub(" ", sentence).strip()
    # a question (a small model echoes the user's) or a lead-in ("The answer is:") claims nothing: all its words
    # found in a document back nothing
    if bare.endswith(("?", ":")) or len(_stems(bare)) < MIN_ATTACH_STEMS or not docs:
        return None, None
    score, best = max((support(sentence, d.text), -d.index) for d in docs)
    return (-best if score >= threshold else None), round(score, 3)


def check(answer: str, docs: list[ContextDoc], threshold: float = SUPPORT_THRESHOLD,
          attach_threshold: float = ATTACH_THRESHOLD) -> list[SentenceCheck]:
    """Every claim of `answer` with its verdict: refusal, supported, unsupported, bad citation — and for a claim
    the model left without [n], the document attached by the support test, or uncited when no document backs it."""
    by_index = {d.index: d for d in docs}
    out = []
    for s in sentences(answer):
        cited = citations(s)
        if is_refusal(CITATION.sub("", s)):
            out.append(SentenceCheck(s, cited, SupportVerdict.REFUSAL))
        elif not cited:
            if len(WORD.findall(s)) >= MIN_WORDS:
                found, score = attach(s, docs, attach_threshold)
                if found is None:
                    out.append(SentenceCheck(s, [], SupportVerdict.UNCITED, score))
                else:
                    out.append(SentenceCheck(s, [found], SupportVerdict.ATTACHED, score))
        elif any(n not in by_index for n in cited):
            out.append(SentenceCheck(s, cited, SupportVerdict.BAD_CITATION))
        else:
            score = max(support(s, by_index[n].text) for n in cited)
            verdict = SupportVerdict.SUPPORTED if score >= threshold else SupportVerdict.UNSUPPORTED
            out.append(SentenceCheck(s, cited, verdict, round(score, 3)))
    return out

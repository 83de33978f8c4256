"""The extractive answer: the top document with the sentence that best answers the question marked."""

from __future__ import annotations

import math
import re

from vaultrag.core.model import Answer, ContextDoc
from vaultrag.core.retrieve import STOPWORDS, WORD, fold

SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|$)", re.M)


def best_sentence(question: str, text: str) -> tuple[str, int]:
    """The sentence of `text` sharing the most (rarer, longer) words with the question, and its offset."""
    q = {fold(w.lower()) for w in WORD.findall(question)} - STOPWORDS
    best, best_score, best_at = "", -1.0, 0
    for m in SENTENCE.finditer(text):
        s = m.group(0).strip()
        if len(s) < 3 or s.startswith(("#", "|---", "```")):
            continue
        words = {fold(w.lower()) for w in WORD.findall(s)}
        # longer shared words carry more meaning than short ones; a slight bonus keeps earlier sentences
        score = sum(math.log(1 + len(w)) for w in q & words) - 0.001 * m.start()
        if score > best_score:
            best, best_score, best_at = s, score, m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
    return best, best_at


def extractive(question: str, docs: list[ContextDoc]) -> Answer:
    """Answer with the first (best) document, its best sentence marked, and where it is in the note."""
    top = docs[0]
    sentence, at = best_sentence(question, top.text)
    line = top.line_start + top.text.count("\n", 0, at) + 1 if sentence else top.line_start + 1
    marked = top.text.replace(sentence, f"**{sentence}**", 1) if sentence else top.text
    return Answer("extractive", marked, sentence, top.source, top.note, line)


def refusal(sentence: str) -> Answer:
    return Answer("refusal", sentence)

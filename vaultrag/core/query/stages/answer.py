"""The answer stage: the extractive answer (the top document, its best sentence marked), or the refusal."""

from __future__ import annotations

import math
import re
import time

from vaultrag.core.model import Answer, ContextDoc
from vaultrag.core.query.stages.prompt import REFUSAL
from vaultrag.core.query.state import QueryState
from vaultrag.core.query.terms import STOPWORDS, WORD, fold
from vaultrag.core.vocab import AnswerKind

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
    return Answer(AnswerKind.EXTRACTIVE, marked, sentence, top.source, top.note, line)


def refusal(sentence: str) -> Answer:
    return Answer(AnswerKind.REFUSAL, sentence)


class AnswerStage:
    """Without a language model, the answer is extracted from the best document; refused: the fixed sentence."""

    name = "answer"

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        q.answer = extractive(q.question, q.context) if q.context else refusal(REFUSAL[q.language])
        q.timed("answer", t)

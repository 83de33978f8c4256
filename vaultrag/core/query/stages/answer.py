"""The answer stage: the extractive answer (the best-supported document, its best sentence marked), or the
refusal."""

from __future__ import annotations

import math
import re
import time

from vaultrag.core import links
from vaultrag.core.links import Resolver
from vaultrag.core.marks import LINK
from vaultrag.core.model import Answer, ContextDoc, QueryWarning
from vaultrag.core.query.features import STEM_CHARS
from vaultrag.core.query.pointers import is_pointer
from vaultrag.core.query.refusal import REFUSAL
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.query.terms import STOPWORDS, WORD, fold
from vaultrag.core.vocab import AnswerKind, StageName, Timing, WarningCode

# a sentence ends at ".", "!" or "?" before a space or the line's end: inside a word they are part of it (a URL's
# "developer.mozilla.org", a callout's "[!info]", "Document.pdf", "3.5"), which cut the sentence there
CLOSERS = "\"'”’»)\\]*_"  # what may close a sentence after its "." or "?" (a quote, a bracket, bold's "**")
SENTENCE = re.compile(rf"(?:[^.!?\n]|[.!?]+(?![{CLOSERS}]*(?:\s|$)))+(?:[.!?]+[{CLOSERS}]*|$)", re.M)
LINK_WORDS = 0.5  # the weight of a question word a sentence holds only in a link's text
POINTER_WEIGHT = 0.5  # a pointer sentence's words (query/pointers.py) count half: it names the answer's place
LIST_MARK = re.compile(r"(?:[-*+]|\d{1,3}[.)])\s+")  # a list item's marker is not part of its sentence


TABLE_RULE = re.compile(r"\n\s*\|?\s*:?-{3,}")  # the |---|:--| line under a Markdown table's header


def _table_header(sentence: str, text: str, end: int) -> bool:
    """A table's header row ("| Service | Channel | Hours |") names columns: it answers nothing."""
    return sentence.startswith("|") and TABLE_RULE.match(text, end) is not None


def _asks(sentence: str) -> bool:
    return sentence.rstrip(CLOSERS.replace("\\", "")).endswith("?")


def _stems(sentence: str) -> set[str]:
    """The stems of a sentence's words: folded once for the whole sentence (a fold per word doubled the stage)."""
    return {w[:STEM_CHARS] for w in WORD.findall(fold(sentence.lower()))}


def best_sentence(question: str, text: str) -> tuple[str, int]:
    """The sentence of `text` sharing the most (rarer, longer) words with the question, and its offset.

    A sentence that is itself a question is no answer: the best sentence that states something and shares a word
    with the question wins over it, and failing that the statement right after it (a FAQ's answer)."""
    # by stem (the ranker's: a folded word's first 6 letters): "cancelar" finds "cancelamento", and across
    # languages a cognate ("universidad", "university"); the sentence held the answer's start 0.846 → 0.864 of
    # faquad-pt's gold passages, 0.786 → 0.787 of xquad-en's, 0.478 → 0.565 of xquad-xl's
    q = {w[:STEM_CHARS] for w in WORD.findall(fold(question.lower())) if w not in STOPWORDS}
    found: list[tuple[float, str, int, bool]] = []  # score, sentence, offset, shares a word with the question
    for m in SENTENCE.finditer(text):
        s = m.group(0).strip()
        if len(s) < 3 or s.startswith(("#", "|---", "```")) or _table_header(s, text, m.end()):
            continue
        at = m.start() + (len(m.group(0)) - len(m.group(0).lstrip()))
        mark = LIST_MARK.match(s)
        if mark and len(s) - mark.end() >= 3:
            s, at = s[mark.end() :], at + mark.end()
        shared = q & _stems(s)
        # words only in a link's text count half: "Next, move onto [[Sync a remote vault]]" points at the answer,
        # it does not give it (a fresh-eyes user got such pointers as the answer)
        said = q & _stems(LINK.sub(" ", s)) if shared else shared
        # longer shared words carry more meaning than short ones; a slight bonus keeps earlier sentences
        weight = sum(math.log(1 + len(w)) * (1.0 if w in said else LINK_WORDS) for w in shared)
        if is_pointer(s):  # "For information on syncing, please see [[Sync]]": a statement saying as much wins
            weight *= POINTER_WEIGHT
        found.append((weight - 0.001 * m.start(), s, at, bool(shared)))
    found = [f for f in found if f[0] > -1.0]  # far down a long document and sharing nothing: no sentence at all
    if not found:
        return "", 0
    best = max(found, key=lambda f: f[0])
    if _asks(best[1]):
        stated = [f for f in found if f[3] and not _asks(f[1])]
        after = [f for f in found if f[2] > best[2] and not _asks(f[1])]
        best = max(stated, key=lambda f: f[0]) if stated else after[0] if after else best
    return best[1], best[2]


def followed(sentence: str, top: ContextDoc, docs: list[ContextDoc]) -> ContextDoc | None:
    """The document of the prompt a pointer sentence sends the reader to ("please see [[Sync your notes]]"), when
    one of the prompt's documents is that note (or a section of it): the answer is there, not in the pointer."""
    if not is_pointer(sentence):
        return None
    resolver = Resolver([d.note for d in docs])
    for link in links.extract(sentence):
        target = resolver.resolve(link, top.note) if link.is_note and link.target else None
        doc = next((d for d in docs if d.note == target and d is not top), None)
        if doc is not None:
            return doc
    return None


def extractive(question: str, docs: list[ContextDoc], supported_by: int | None = None) -> Answer:
    """Answer with the document holding the best-supported chunk (`supported_by`, the decision's; else the first,
    best ranked), its best sentence marked, and where it is in the note; a pointer sentence is followed to the
    document it names when the prompt holds it."""
    top = next((d for d in docs if supported_by in d.chunk_ids), docs[0])
    sentence, at = best_sentence(question, top.text)
    target = followed(sentence, top, docs) if sentence else None
    if target is not None:
        there, where = best_sentence(question, target.text)
        if there and not is_pointer(there):
            top, sentence, at = target, there, where
    line = top.line_start + top.text.count("\n", 0, at) + 1 if sentence else top.line_start + 1
    # marked where it was found: the same words earlier in the passage (its heading, say) are not the answer's
    marked = f"{top.text[:at]}**{sentence}**{top.text[at + len(sentence):]}" if sentence else top.text
    return Answer(AnswerKind.EXTRACTIVE, marked, sentence, top.source, top.note, line)


def refusal(sentence: str) -> Answer:
    return Answer(AnswerKind.REFUSAL, sentence)


class AnswerStage:
    """Without a language model, the answer is extracted from the best document; refused: the fixed sentence."""

    name = StageName.ANSWER
    requires = needs(Slot.CONTEXT, Slot.DECISION)
    provides = needs(Slot.ANSWER)

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        supported = q.decision.supported_by if q.decision is not None else None
        if q.context:
            q.answer = extractive(self._asked_as(q, supported), q.context, supported)
            if q.translations:
                self._translate_back(q, q.answer)
        else:
            q.answer = refusal(REFUSAL[q.language])
        if not q.context and q.decision is not None and q.decision.answered:
            # answered, yet no document fitted the budget: the refusal sentence alone read as "not in the notes"
            q.warnings.append(QueryWarning(WarningCode.BUDGET_TOO_SMALL, limit=q.settings.context_tokens))
        q.timed(Timing.ANSWER, t)

    @staticmethod
    def _asked_as(q: QueryState, supported: int | None) -> str:
        """The question in the language of the answer's document (its translation, when the question has one
        into it): its best sentence is found by words in its own language."""
        if not q.translations:
            return q.question
        top = next((d for d in q.context if supported in d.chunk_ids), q.context[0])
        return q.view(q.note_languages([top.note]).get(top.note, "")).question

    @staticmethod
    def _translate_back(q: QueryState, answer: Answer) -> None:
        """The answer's sentence in the question's language, beside it, when its note is in a language the question
        was translated into (a failure leaves it untranslated: the original is the answer)."""
        language = q.note_languages([answer.note]).get(answer.note, "")
        if not answer.sentence or language not in q.translations or q.translate is None:
            return
        back = q.translate(answer.sentence, language, q.language)
        answer.translated = back.text

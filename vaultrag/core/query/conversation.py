"""A conversation: the questions asked so far, and the `rewrite` stage that makes a follow-up standalone."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass, field

from vaultrag.core.language import detect_language
from vaultrag.core.llm.generator import Generator, Message
from vaultrag.core.model import Generation, QueryTrace, QueryWarning, Rewrite
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.query.terms import STOPWORDS, WORD
from vaultrag.core.scope import Scope
from vaultrag.core.vocab import RewriteMethod, StageName, WarningCode

# Openings and words that lean on the previous question ("and the deadline?", "e o prazo?", "what about it?")
FOLLOW_UP_START = re.compile(
    r"^\s*(?:and|also|but|what about|how about|and what about|then|e|mas|também|tambem|e quanto|e sobre|e o|e a|"
    r"e os|e as|então|entao)\b", re.I)
BACK_REFERENCE = frozenset(["it", "its", "that", "this", "those", "these", "they", "them", "there", "isso", "disso",
                            "nisso", "dele", "dela", "deles", "delas", "nele", "nela", "esse", "essa", "aquilo"])
QUESTION_WORDS = frozenset(["what", "which", "who", "when", "where", "why", "how", "qual", "quais", "quem",
                            "quando", "onde", "como", "porque", "quanto", "quantos", "quantas", "many", "much"])
# "What is a callout?", "What are callouts?", "O que é um callout?": a question for a definition names its whole
# topic, however few its words ("What is the deadline?", "O que é o prazo?" lean on the question before)
DEFINITION = re.compile(r"^\s*(?:what|who)\s+(?:is|are|was|were)\s+(?!the\b|it\b|that\b|this\b)\w|"
                        r"^\s*o\s+que\s+(?:é|e|são|sao)\s+(?:um|uma|uns|umas)\b", re.I)
MIN_OWN_TERMS = 3  # a question with fewer content words of its own rarely stands alone
MAX_CARRIED = 6
REWRITE_MAX_TOKENS = 96  # one question; a model that goes on is cut
REWRITE_PROMPT = {
    "en": "Rewrite the last question so that it can be understood without the conversation. Keep its language. "
          "Reply with the rewritten question only.\n\nConversation:\n{history}\n\nLast question: {question}\n",
    "pt": "Reescreva a última pergunta para que ela possa ser entendida sem a conversa. Mantenha o idioma. "
          "Responda apenas com a pergunta reescrita.\n\nConversa:\n{history}\n\nÚltima pergunta: {question}\n",
}


@dataclass
class Turn:
    """One question of a conversation: as asked, as searched (standalone), its scope and its answer."""

    asked: str
    question: str
    scope: Scope
    answer: str = ""
    refused: bool = False  # no note answered it: a follow-up does not build on it


@dataclass
class Conversation:
    """The questions asked so far in one window (or one CLI session); `reset` starts a new conversation."""

    turns: list[Turn] = field(default_factory=list)
    max_turns: int = 6  # what the rewrite looks back on

    @property
    def last(self) -> Turn | None:
        return self.turns[-1] if self.turns else None

    def add(self, trace: QueryTrace, asked: str | None = None) -> None:
        """Record a finished question (its standalone form is what later follow-ups build on)."""
        original = trace.rewrite.original if trace.rewrite else (asked or trace.question)
        scope = Scope(trace.scope.get("folders", []), trace.scope.get("tags", []), trace.scope.get("notes", []))
        self.turns.append(Turn(original, trace.question, scope, trace.answer.text, not trace.decision.answered))
        del self.turns[: -self.max_turns]

    def reset(self) -> None:
        self.turns.clear()


def key_terms(question: str) -> list[str]:
    """A question's content words, in order (no stop-words, question words or back-references)."""
    words = [w for w in WORD.findall(question) if not w.isdigit() or len(w) > 1]
    skip = STOPWORDS | QUESTION_WORDS | BACK_REFERENCE
    return list(dict.fromkeys(w for w in words if w.lower() not in skip))


def is_follow_up(question: str) -> bool:
    """Whether a question leans on the one before (an opening like "and…", a back-reference, or too few words)."""
    words = [w.lower() for w in WORD.findall(question)]
    if FOLLOW_UP_START.match(question) or any(w in BACK_REFERENCE for w in words):
        return True
    if DEFINITION.match(question) and key_terms(question):
        return False
    # "Qual o prazo do reembolso?" is whole: opening with a question word, two words of its own are enough
    asks = bool(words) and words[0] in QUESTION_WORDS
    return len(key_terms(question)) < MIN_OWN_TERMS - (1 if asks else 0)


def carry_terms(question: str, previous: str) -> tuple[str, list[str]]:
    """`question` with the previous question's key terms it lacks, appended in brackets, and those terms."""
    own = {w.lower() for w in key_terms(question)}
    carried = [w for w in key_terms(previous) if w.lower() not in own][:MAX_CARRIED]
    if not carried:
        return question, []
    return f"{question.rstrip().rstrip('?')} ({' '.join(carried)})?", carried


class RewriteStage:
    """Before bm25: a follow-up question becomes standalone (by the model when one is set, else by carrying the
    previous question's key terms), and inherits the previous scope when it has none of its own."""

    name = StageName.REWRITE
    requires = needs(Slot.QUESTION)
    provides = needs(Slot.QUESTION, Slot.REWRITE)  # so it must come before every unit that reads them

    def __init__(self, conversation: Conversation, generator: Generator | None = None) -> None:
        self.conversation = conversation
        self.generator = generator

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        original = q.question
        prev = self.conversation.last
        # a refused question found nothing to build on: carrying its terms would answer the follow-up from whatever
        # passage matches them ("e de chocolate?" after a refused cake question), so it is read on its own
        if prev is None or prev.refused or not is_follow_up(original):
            q.rewrite = Rewrite(original, original, RewriteMethod.NONE, ms=_ms(t))
            return
        method, carried = RewriteMethod.TERMS, list[str]()
        question = ""
        if self.generator is not None:
            question, failed = self._by_model(self.generator, original, q.language)
            if failed is not None:
                q.warnings.append(QueryWarning(WarningCode.REWRITE_FAILED, failure=failed.failure,
                                            detail=failed.error, details=failed.failure_details))
            else:
                method = RewriteMethod.MODEL
        if not question:
            question, carried = carry_terms(original, prev.question)
        if q.scope.is_empty() and not prev.scope.is_empty():
            q.scope = prev.scope
            q.scope_sql = q.store.scope_sql(prev.scope)
        q.question = question
        q.language = detect_language(question)
        q.rewrite = Rewrite(original, question, method, carried, _ms(t))

    def _by_model(self, generator: Generator, question: str, language: str) -> tuple[str, Generation | None]:
        """(the rewritten question or "" when the model's reply is not one, the failed generation or None)."""
        history = "\n".join(f"- {t.question}" for t in self.conversation.turns)
        prompt = REWRITE_PROMPT[language].format(history=history, question=question)
        got = generator.generate([Message("user", prompt)], temperature=0.0, max_tokens=REWRITE_MAX_TOKENS)
        if got.record.failure is not None:
            return "", got.record
        text = got.text.strip().strip('"“”').splitlines()[0].strip() if got.text.strip() else ""
        return (text if len(WORD.findall(text)) >= 2 else ""), None


def _ms(since: float) -> float:
    return round((time.perf_counter() - since) * 1000, 3)

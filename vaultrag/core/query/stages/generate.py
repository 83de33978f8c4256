"""The generate stage: the trace's own prompt streamed through the user's language model, then citation-checked."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from vaultrag.core.language import detect_language
from vaultrag.core.llm.generator import Generator, Message
from vaultrag.core.model import Answer, ContextDoc, Generation, QueryWarning
from vaultrag.core.query import citations
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.vocab import AnswerKind, GenerationStatus, StageName, Timing, WarningCode

MIN_WORDS_FOR_LANGUAGE = 8  # a short answer ("Campo Grande [1].") says nothing about its language


def generate(prompt: str, context: list[ContextDoc], language: str, generator: Generator,
             on_delta: Callable[[str], None] | None = None,
             cancel: threading.Event | None = None) -> tuple[Answer | None, Generation, list[QueryWarning]]:
    """Stream `prompt` through the model: (the checked answer or None when it failed, how it went, warnings)."""
    warnings = context_warnings(prompt, generator)  # known before asking: a server that cuts says nothing itself
    got = generator.generate([Message("user", prompt)], on_delta, cancel)
    record = got.record
    if record.failure is not None:
        return None, record, [*warnings, QueryWarning(WarningCode.LLM_FAILED, failure=record.failure,
                                                      detail=record.error, details=record.failure_details)]
    text = got.text.strip()
    kind = AnswerKind.REFUSAL if citations.is_refusal(citations.CITATION.sub("", text)) else AnswerKind.GENERATED
    top = context[0]
    answer = Answer(kind, text, source=top.source, note=top.note, line=top.line_start + 1, model=generator.model,
                    sentences=citations.check(text, context))
    if record.status == GenerationStatus.CAPPED:
        warnings.append(QueryWarning(WarningCode.LLM_CAPPED, limit=generator.max_tokens))
    if record.status == GenerationStatus.STOPPED:
        warnings.append(QueryWarning(WarningCode.LLM_STOPPED))
    if kind == AnswerKind.GENERATED and len(text.split()) >= MIN_WORDS_FOR_LANGUAGE:
        said = detect_language(citations.CITATION.sub("", text))
        if said != language:
            warnings.append(QueryWarning(WarningCode.LLM_LANGUAGE, answer_language=said, question_language=language))
    return answer, record, warnings


def context_warnings(prompt: str, generator: Generator) -> list[QueryWarning]:
    """A warning when the model's context (as its server says: `context_window`) is smaller than the prompt plus the
    answer's cap; none when the server does not say."""
    window = getattr(generator, "context_window", None)  # servers that report a context (Ollama, LM Studio)
    context = window() if callable(window) else None
    if not isinstance(context, int) or context <= 0:
        return []
    from vaultrag.core import tokens

    need = tokens.count(prompt) + generator.max_tokens
    return [QueryWarning(WarningCode.LLM_CONTEXT, limit=context, total=need)] if need > context else []


class GenerateStage:
    """After the answer stage: replaces the extractive answer with the model's, each sentence checked.

    A refused question sends nothing. On a failure the extractive answer stays, and the trace carries the
    failure (`trace.generation`) and a warning; the pieces of text go to `on_delta` as they arrive. It reads
    nothing from the index, so the runner leaves the read snapshot before it (an answer may take a minute).
    """

    name = StageName.GENERATE
    requires = needs(Slot.PROMPT, Slot.CONTEXT, Slot.ANSWER)  # a failed model leaves the answer before it
    provides = needs(Slot.ANSWER, Slot.GENERATION)
    reads_index = False

    def __init__(self, generator: Generator, on_delta: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None) -> None:
        self.generator = generator
        self.on_delta = on_delta
        self.cancel = cancel

    def run(self, q: QueryState) -> None:
        if not q.prompt:  # refused: nothing goes to a model
            return
        t = time.perf_counter()
        answer, q.generation, warnings = generate(q.prompt, q.context, q.language, self.generator, self.on_delta,
                                                  self.cancel)
        q.answer = answer or q.answer
        q.warnings += warnings
        q.timed(Timing.GENERATE, t)

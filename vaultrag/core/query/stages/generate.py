"""The generate stage: the trace's own prompt streamed through the user's language model, then citation-checked."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable

from vaultrag.core.language import detect_language
from vaultrag.core.llm import LLMConfig, LLMError, Stream
from vaultrag.core.model import Answer, ContextDoc, Generation, QueryTrace, QueryWarning
from vaultrag.core.query import citations
from vaultrag.core.query.state import QueryState
from vaultrag.core.vocab import AnswerKind, GenerationStatus, WarningCode

MIN_WORDS_FOR_LANGUAGE = 8  # a short answer ("Campo Grande [1].") says nothing about its language


def generate(prompt: str, context: list[ContextDoc], language: str, config: LLMConfig,
             on_delta: Callable[[str], None] | None = None,
             cancel: threading.Event | None = None) -> tuple[Answer | None, Generation | None, list[QueryWarning]]:
    """Stream `prompt` through the model: (the checked answer or None when it failed, how it went, warnings)."""
    stream = Stream(config, prompt, cancel)
    try:
        for piece in stream:
            if on_delta is not None:
                on_delta(piece)
    except LLMError as e:
        return None, stream.result, [QueryWarning(WarningCode.LLM_FAILED, failure=e.kind, detail=str(e))]
    assert stream.result is not None
    warnings: list[QueryWarning] = []
    text = stream.text.strip()
    kind = AnswerKind.REFUSAL if citations.is_refusal(citations.CITATION.sub("", text)) else AnswerKind.GENERATED
    top = context[0]
    answer = Answer(kind, text, source=top.source, note=top.note, line=top.line_start + 1, model=config.model,
                    sentences=citations.check(text, context))
    if stream.result.status == GenerationStatus.CAPPED:
        warnings.append(QueryWarning(WarningCode.LLM_CAPPED, limit=config.max_tokens))
    if stream.result.status == GenerationStatus.STOPPED:
        warnings.append(QueryWarning(WarningCode.LLM_STOPPED))
    if kind == AnswerKind.GENERATED and len(text.split()) >= MIN_WORDS_FOR_LANGUAGE:
        said = detect_language(citations.CITATION.sub("", text))
        if said != language:
            warnings.append(QueryWarning(WarningCode.LLM_LANGUAGE, answer_language=said, question_language=language))
    return answer, stream.result, warnings


def generate_for(trace: QueryTrace, config: LLMConfig, on_delta: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None) -> QueryTrace:
    """A finished retrieval trace with the model's answer (the window generates after showing the trace)."""
    if not trace.prompt:
        return trace
    t = time.perf_counter()
    answer, generation, warnings = generate(trace.prompt, trace.context, trace.language, config, on_delta, cancel)
    timings = {**trace.timings_ms, "generate": round((time.perf_counter() - t) * 1000, 3)}
    return dataclasses.replace(trace, answer=answer or trace.answer, generation=generation,
                               warnings=[*trace.warnings, *warnings], timings_ms=timings)


class GenerateStage:
    """After the answer stage: replaces the extractive answer with the model's, each sentence checked.

    A refused question sends nothing. On a failure the extractive answer stays, and the trace carries the
    failure (`trace.generation`) and a warning; the pieces of text go to `on_delta` as they arrive.
    """

    name = "generate"

    def __init__(self, config: LLMConfig, on_delta: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None) -> None:
        self.config = config
        self.on_delta = on_delta
        self.cancel = cancel

    def run(self, q: QueryState) -> None:
        if not q.prompt:  # refused: nothing goes to a model
            return
        t = time.perf_counter()
        answer, q.generation, warnings = generate(q.prompt, q.context, q.language, self.config, self.on_delta,
                                                  self.cancel)
        q.answer = answer or q.answer
        q.warnings += warnings
        q.timed("generate", t)

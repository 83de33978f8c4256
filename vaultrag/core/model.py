"""Plain value types shared by the core, the CLI and the GUI (all JSON-serializable)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any


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
    """A file or folder the vault walk left out, and the rule that did it."""

    path: str
    rule: str


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


@dataclass
class Progress:
    """One progress report of a long job (yielded by generators, forwarded to bars and the GUI)."""

    phase: str  # scan | text | embed | done
    done: int
    total: int
    rate: float = 0.0  # items per second in this phase
    eta_s: float | None = None
    message: str = ""


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
    chunks_pending: int = 0  # still without a vector (cancelled or failed batches)
    chunks_truncated: int = 0
    seconds: dict[str, float] = field(default_factory=dict)
    cancelled: bool = False
    rebuilt_reason: str = ""
    messages: list[str] = field(default_factory=list)


TRACE_VERSION = 1


@dataclass
class Candidate:
    """One chunk in one stage's ranked list."""

    chunk_id: int
    note: str  # vault-relative path
    heading_path: list[str]
    char_start: int
    char_end: int
    line_start: int
    line_end: int
    rank: int  # 1-based
    score: float
    contributions: dict[str, float] | None = None  # fusion: per-list RRF terms; rerank: per-feature parts
    cosine: float | None = None  # the question's cosine with this chunk, when known


@dataclass
class Stage:
    """A stage of the pipeline and what it produced."""

    name: str  # bm25 | vector | fused | reranked
    status: str  # ok | skipped | partial | empty | unavailable
    candidates: list[Candidate] = field(default_factory=list)
    ms: float = 0.0
    note: str = ""  # why skipped/partial, the query actually sent, …


@dataclass
class Decision:
    """Answer or refuse: the top candidate's confidence against the threshold."""

    answered: bool
    confidence: float | None
    threshold: float | None
    margin: float | None
    threshold_source: str  # override | calibrated | shipped default | uncalibrated
    reason: str


@dataclass
class ContextDoc:
    """One numbered document of the prompt (one chunk, merged overlapping chunks, or a parent section)."""

    index: int
    chunk_ids: list[int]
    note: str
    heading_path: list[str]
    source: str  # "note.md > Heading"
    text: str
    tokens: int
    char_start: int
    char_end: int
    line_start: int
    line_end: int


@dataclass
class Answer:
    """What the user reads: the extractive answer, or the refusal."""

    kind: str  # extractive | refusal | generated
    text: str
    sentence: str = ""  # the best sentence (extractive)
    source: str = ""
    note: str = ""
    line: int | None = None  # 1-based line of the best sentence in the note


@dataclass
class QueryTrace:
    """Everything one question did, stage by stage; plain data, JSON-serializable (see README)."""

    question: str
    language: str  # pt | en
    scope: dict[str, list[str]]
    settings: dict[str, Any]
    stages: dict[str, Stage]
    decision: Decision
    context: list[ContextDoc]
    context_status: dict[int, str]  # chunk id → included | merged | cut by budget | beyond k | duplicate
    prompt: str
    prompt_tokens: dict[str, int]
    answer: Answer
    timings_ms: dict[str, float]
    index_state: dict[str, Any]
    warnings: list[str] = field(default_factory=list)
    version: int = TRACE_VERSION

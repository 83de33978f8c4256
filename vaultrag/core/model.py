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

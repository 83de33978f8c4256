"""The context stage: the best k chunks within a token budget, overlaps merged, best first."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

from vaultrag.core import tokens
from vaultrag.core.model import Candidate, ContextDoc, StoredChunk
from vaultrag.core.query.stages.prompt import (
    DOC_JOIN,
    DOC_TAIL,
    DOCS_CLOSE,
    DOCS_OPEN,
    document_head,
    render_document,
)
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.vocab import ContextStatus, StageName, Timing


def source_label(note: str, heading_path: list[str]) -> str:
    """`note.md > Heading > Sub-heading`: what the prompt and the answer cite (an H1 naming the file is left out)."""
    stem = note.rpartition("/")[2].removesuffix(".md")
    return " > ".join([note, *[h for i, h in enumerate(heading_path) if h and not (i == 0 and h == stem)]])


# chunks at most this many characters apart (" ", "\n", "\n\n") are neighbours: delivered as one document
ADJACENT_GAP = 2


def _gap(chars: int, newlines: int) -> str:
    """The whitespace between two neighbouring chunks: as many characters, the line breaks among them."""
    newlines = max(0, min(chars, newlines))
    return "\n" * newlines + " " * (chars - newlines)


@dataclass
class _Doc:
    note: str
    heading_path: list[str]
    lead: str
    text: str
    start: int
    end: int
    line_start: int
    line_end: int
    chunk_ids: list[int] = field(default_factory=list)
    size: int = -1  # tokens as rendered, counted once (a document is weighed again at every later candidate)
    n: int = -1  # tokens of lead + text, carried from the chunks' index-time counts (-1: count it when weighed)

    @classmethod
    def of(cls, c: StoredChunk) -> _Doc:
        """The document of one chunk, its count derived from the one the index stored for the chunk."""
        n = tokens.count_after(f"{c.prefix}\n", c.text, c.search_tokens) if c.search_tokens >= 0 else -1
        return cls(c.note, c.heading_path, c.lead, c.body, c.char_start, c.char_end, c.line_start, c.line_end,
                   [c.id], n=n)

    def body_tokens(self) -> int:
        """Tokens of `text` without the lead (-1: not known)."""
        if self.n < 0 or not self.lead:
            return self.n
        return tokens.count_after(self.lead, self.text, self.n)

    def touches(self, c: StoredChunk) -> bool:
        """Whether `merged(c)` would join `c` to this document (without building, nor counting, the result)."""
        if c.note != self.note:
            return False
        if c.char_start < self.end and c.char_end > self.start:
            return True
        return list(c.heading_path) == list(self.heading_path) and (
            0 <= c.char_start - self.end <= ADJACENT_GAP or 0 <= self.start - c.char_end <= ADJACENT_GAP)

    def merged(self, c: StoredChunk) -> _Doc | None:
        """This document extended by an overlapping or adjacent chunk of the same note, or None if neither."""
        if c.note != self.note:
            return None
        if c.char_start >= self.end or c.char_end <= self.start:
            return self._adjacent(c)
        if c.char_start >= self.start:
            text = self.text + c.body[self.end - c.char_start :] if c.char_end > self.end else self.text
            return _Doc(self.note, self.heading_path, self.lead, text, self.start, max(self.end, c.char_end),
                        self.line_start, max(self.line_end, c.line_end), [*self.chunk_ids, c.id])
        text = c.body + self.text[c.char_end - self.start :] if self.end > c.char_end else c.body
        return _Doc(self.note, c.heading_path, c.lead, text, c.char_start, max(self.end, c.char_end),
                    c.line_start, max(self.line_end, c.line_end), [c.id, *self.chunk_ids])

    def _adjacent(self, c: StoredChunk) -> _Doc | None:
        """This document and the chunk right before or after it under the same heading, as one (the pieces of a
        long paragraph, or its next paragraph: only whitespace between them, rebuilt from the line numbers)."""
        if list(c.heading_path) != list(self.heading_path):
            return None
        if 0 <= c.char_start - self.end <= ADJACENT_GAP:
            gap = _gap(c.char_start - self.end, c.line_start - (self.line_end - 1))
            n = _joined(self.lead + self.text, self.n, gap, c.body, _Doc.of(c).body_tokens())
            return _Doc(self.note, self.heading_path, self.lead, self.text + gap + c.body, self.start, c.char_end,
                        self.line_start, c.line_end, [*self.chunk_ids, c.id], n=n)
        if 0 <= self.start - c.char_end <= ADJACENT_GAP:
            gap = _gap(self.start - c.char_end, self.line_start - (c.line_end - 1))
            n = _joined(c.text, _Doc.of(c).n, gap, self.text, self.body_tokens())
            return _Doc(self.note, c.heading_path, c.lead, c.body + gap + self.text, c.char_start, self.end,
                        c.line_start, self.line_end, [c.id, *self.chunk_ids], n=n)
        return None

    def appended(self, c: StoredChunk) -> _Doc:
        """This document followed by a later, non-overlapping chunk of its section (parent-section mode)."""
        return _Doc(self.note, self.heading_path, self.lead, f"{self.text}\n\n{c.body}", self.start, c.char_end,
                    self.line_start, c.line_end, [*self.chunk_ids, c.id])

    def as_context(self, index: int) -> ContextDoc:
        doc = ContextDoc(note=self.note, heading_path=self.heading_path, char_start=self.start, char_end=self.end,
                         line_start=self.line_start, line_end=self.line_end, index=0, chunk_ids=self.chunk_ids,
                         source=source_label(self.note, self.heading_path), text=self.lead + self.text, tokens=0)
        if self.size < 0:
            # the document as the prompt renders it, counted once as number 0: its number is a run of digits
            # between quotes, a piece of its own, and o200k has a token for every run of up to three digits, so
            # numbered `index` it costs count(str(index)) tokens instead of 0's one (two from 1000 on)
            self.size = _rendered_tokens(doc, self.n)
        doc.index = index
        doc.tokens = self.size - 1 + _number_tokens(index)
        return doc

    def weight(self, index: int) -> int:
        """Tokens of this document as the prompt renders it, numbered `index`."""
        return self.as_context(index).tokens


@lru_cache(maxsize=1024)
def _number_tokens(index: int) -> int:
    """Tokens of a document's number as the prompt writes it (index="…")."""
    return tokens.count(str(index))


def _joined(a: str, na: int, gap: str, b: str, nb: int) -> int:
    """Tokens of a + gap + b from the counts of a and b (-1 if either is not known)."""
    if na < 0 or nb < 0:
        return -1
    return tokens.count_joined(a, na, gap + b, tokens.count_joined(gap, tokens.count(gap), b, nb))


_ESCAPED = ("&", "<", ">")


def _rendered_tokens(doc: ContextDoc, n: int) -> int:
    """Tokens of `doc` as `render_document` writes it, from `n` = its text's count when known: the text is
    counted only near its two joins with the markup (the whole text when escaping changes it or n is not known)."""
    text = doc.text
    if n < 0 or not text or any(ch in text for ch in _ESCAPED):
        return tokens.count(render_document(doc))
    head = document_head(doc)
    with_text = tokens.count_joined(head, tokens.count(head), text, n)
    return tokens.count_joined(head + text, with_text, DOC_TAIL, _tail_tokens())


@lru_cache(maxsize=1)
def _tail_tokens() -> int:
    """Tokens of the markup after a document's text (the same for every document)."""
    return tokens.count(DOC_TAIL)


@lru_cache(maxsize=1)
def _frame_tokens() -> tuple[int, int]:
    """What the documents block's frame and the line break between two documents add to the documents' own
    counts. A document's markup is cut from what is around it (a line break before "<", quotes before its
    number's digits), so this is the same for every document: the ">" ending one and the line break after it are
    one o200k piece, and the break between two documents costs nothing."""
    end, start = "</document>", '<document index="'

    def adds(before: str, piece: str, after: str) -> int:
        return tokens.count(before + piece + after) - tokens.count(before) - tokens.count(after)

    return adds("", DOCS_OPEN, start) + adds(end, DOCS_CLOSE, ""), adds(end, DOC_JOIN, start)


def select(
    ranked: list[Candidate],
    info: dict[int, StoredChunk],
    k: int,
    budget: int,
    section_of: Callable[[StoredChunk], list[StoredChunk]] | None = None,
) -> tuple[list[ContextDoc], dict[int, ContextStatus]]:
    """Walk `ranked` best first; keep up to k documents whose rendered size fits `budget` tokens.

    `section_of(chunk)` (optional) returns the chunks of its whole parent section, to deliver instead.
    Returns the numbered documents and, per candidate chunk id, what happened to it.
    """
    docs: list[_Doc] = []
    status: dict[int, ContextStatus] = {}
    used = 0
    # the block the prompt shows wraps the documents and joins them with line breaks: that counts too, so the
    # whole block fits the budget, not only the documents inside it
    frame, join = _frame_tokens()
    for cand in ranked:
        c = info[cand.chunk_id]
        parts = section_of(c) if section_of else [c]
        if any(p.id in {i for d in docs for i in d.chunk_ids} for p in parts):
            status[c.id] = ContextStatus.DUPLICATE
            continue
        target = next((i for i, d in enumerate(docs) if d.touches(parts[0])), None)
        if target is None and len(docs) >= k:
            status[c.id] = ContextStatus.BEYOND_K
            continue
        base = docs[target] if target is not None else _Doc.of(parts[0])
        candidate = base.merged(parts[0]) if target is not None else base
        assert candidate is not None
        for p in parts[1:]:
            candidate = candidate.merged(p) or candidate.appended(p)
        number = target + 1 if target is not None else len(docs) + 1  # the number it will have in the prompt
        old = docs[target].weight(number) if target is not None else 0
        new = candidate.weight(number)
        joins = (len(docs) - (1 if target is not None else 0)) * join
        if used - old + new + frame + joins > budget:
            status[c.id] = ContextStatus.CUT_BY_BUDGET
            continue
        used += new - old
        if target is not None:
            docs[target] = candidate
            status[c.id] = ContextStatus.MERGED
        else:
            docs.append(candidate)
            status[c.id] = ContextStatus.INCLUDED
    return [d.as_context(i + 1) for i, d in enumerate(docs)], status


class ContextStage:
    """Builds the numbered documents from the final ranking (nothing when the question was refused)."""

    name = StageName.CONTEXT
    requires = needs(Slot.FINAL, Slot.DECISION)
    provides = needs(Slot.CONTEXT)

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        ranked = q.final
        assert q.decision is not None
        if q.decision.answered and ranked:
            section_of = (lambda c: _section(q, c)) if q.settings.parent_section else None
            q.context, q.context_status = select(ranked, q.chunks, q.k, q.settings.context_tokens, section_of)
        else:
            q.context, q.context_status = [], {c.chunk_id: ContextStatus.REFUSED for c in ranked}
        q.timed(Timing.CONTEXT, t)


def _section(q: QueryState, c: StoredChunk) -> list[StoredChunk]:
    """Every chunk of `c`'s heading section, in order (parent-section mode)."""
    ids = q.store.section_chunk_ids(c.note, c.heading_path)
    found = q.store.stored_chunks(ids)
    return [found[i] for i in ids if i in found] or [c]

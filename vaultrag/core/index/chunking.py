"""Turn a parsed note into chunks: heading sections, whole blocks packed to a token budget, exact offsets."""

from __future__ import annotations

import bisect
import hashlib
import itertools
import re
from collections.abc import Callable
from dataclasses import dataclass

from vaultrag.core import tokens
from vaultrag.core.model import Block, Chunk, ParsedNote

CHUNKER_VERSION = "4"  # 2: hard split of text with no sentence or line break; heading-only notes; 3: no overlap;
# 4: long base64 runs (a pasted image) in no chunk
# a sentence ends at . ! ? … (maybe followed by closing quotes/brackets) and whitespace
# a pasted image or file as base64 (`![](data:image/png;base64,…)`): no words, and a 1.5 MB one made 9,598 chunks
# that every search waded through; an oversized block is chunked around such runs (they are in no chunk)
BLOB = re.compile(r"(?:data:[\w.+/-]+;base64,)?[A-Za-z0-9+/]{256,}={0,2}")
WORDS = re.compile(r"\w")
SENTENCE_END = re.compile(r"[.!?…]+[\"'”’)\]]*\s+")
LIST_ITEM = re.compile(r"^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s|$)")


@dataclass
class _Piece:
    """A contiguous source range to become (part of) a chunk."""

    start: int
    end: int
    tokens: int
    lead: str = ""


class Chunker:
    """Splits one note's text into chunks; `count` is the token counter (o200k by default)."""

    def __init__(self, budget: int = 200, count: Callable[[str], int] = tokens.count) -> None:
        self.budget = budget
        self.count = count

    def chunk(self, text: str, parsed: ParsedNote) -> list[Chunk]:
        """All chunks of the note `text` whose parse is `parsed`, in source order."""
        self._text = text
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        sections: list[list[Block]] = []
        for block in parsed.blocks:
            if block.kind == "heading" or not sections:
                sections.append([])
            sections[-1].append(block)
        out = self._chunks(sections, parsed.title, keep_headings=False)
        # a note of headings only: its headings are its text (else it would be "empty" and unsearchable)
        return out or self._chunks(sections, parsed.title, keep_headings=True)

    def _chunks(self, sections: list[list[Block]], title: str, keep_headings: bool) -> list[Chunk]:
        out: list[Chunk] = []
        for section in sections:
            heading_path = section[-1].heading_path if section else ()
            prefix = make_prefix(title, heading_path)
            for piece in self._pack(section, keep_headings):
                body_end = self._rstrip(piece.start, piece.end)
                if body_end <= piece.start:
                    continue
                out.append(self._make(len(out), heading_path, prefix, piece.lead, piece.start, body_end))
        return out

    # -- packing ---------------------------------------------------------------------------------
    def _pack(self, blocks: list[Block], keep_headings: bool = False) -> list[_Piece]:
        """Whole blocks packed up to the budget; an oversized block is split into pieces."""
        pieces: list[_Piece] = []
        current: _Piece | None = None
        heading_only = False
        for block in blocks:
            start, end = self._span(block.line_start, block.line_end)
            end = self._rstrip(start, end)
            if end <= start:
                continue
            n = self.count(self._text[start:end])
            if block.kind == "heading" and n <= self.budget:  # an oversized heading is split as text
                if current is not None:
                    pieces.append(current)
                current, heading_only = _Piece(start, end, n), True
                continue
            if current is not None and current.tokens + n <= self.budget:
                current = _Piece(current.start, end, current.tokens + n)
                heading_only = False
                continue
            # code stays whole up to twice the budget: a cut fence is much harder to read than a long chunk
            limit = 2 * self.budget if block.kind == "code" else self.budget
            if n <= limit:
                if current is not None and not heading_only:
                    pieces.append(current)
                    current = _Piece(start, end, n)
                else:  # keep a lone heading line with the block that follows it
                    current = _Piece(current.start if current else start, end, (current.tokens if current else 0) + n)
                heading_only = False
                continue
            split, around_blobs = self._split(block, start, end)
            if around_blobs:
                # cut around a base64 run: no piece may reach across it, so none is extended over it either
                if current is not None and heading_only and split and \
                        not BLOB.search(self._text, current.end, split[0].start):
                    split[0] = _Piece(current.start, split[0].end, current.tokens + split[0].tokens, split[0].lead)
                elif current is not None:
                    pieces.append(current)
                pieces.extend(split)
                current, heading_only = None, False
                continue
            if current is not None:
                if heading_only:  # the heading joins the first piece: still one contiguous range
                    split[0] = _Piece(current.start, split[0].end, current.tokens + split[0].tokens, split[0].lead)
                else:
                    pieces.append(current)
            pieces.extend(split[:-1])
            current, heading_only = split[-1], False
        if current is not None and (keep_headings or not heading_only):
            pieces.append(current)
        return pieces

    def _split(self, block: Block, start: int, end: int) -> tuple[list[_Piece], bool]:
        """An oversized block in pieces ([] when nothing of it is text: a base64 run alone), and whether they were
        cut around base64 runs (then no piece may be extended across one)."""
        blobs = list(BLOB.finditer(self._text, start, end)) if block.kind not in ("table", "code") else []
        if not blobs:
            return self._split_text(block, start, end), False
        pieces: list[_Piece] = []
        at = start
        for m in [*blobs, None]:
            s, e = at, m.start() if m is not None else end
            e = self._rstrip(s, e)
            if WORDS.search(self._text, s, e):  # "![](" and ")" around the run are no text either
                n = self.count(self._text[s:e])
                # by sentences whatever the block (a list's items span the run: they would take it back in)
                pieces.extend([_Piece(s, e, n)] if n <= self.budget else
                              self._pack_units(self._sentences(s, e), fallback=None))
            if m is not None:
                at = m.end()
        return pieces, True

    def _split_text(self, block: Block, start: int, end: int) -> list[_Piece]:
        if block.kind == "table":
            return self._split_lines(start, end, block, header_lines=2)
        if block.kind == "code":
            return self._split_lines(start, end, block, header_lines=1)
        if block.kind == "list":
            items = self._list_items(block)
            if len(items) > 1:
                return self._pack_units(items, fallback=self._sentences)
        # no sentence of overlap between the pieces of a long paragraph: it cost 5-6 % more tokens to embed and
        # retrieval did not need it (dev sets, final hit@1 within ±0.4 points on all four; docs/benchmarks.md)
        return self._pack_units(self._sentences(start, end), fallback=None)

    def _pack_units(
        self,
        units: list[tuple[int, int]],
        fallback: Callable[[int, int], list[tuple[int, int]]] | None,
    ) -> list[_Piece]:
        """Greedy packing of (start, end) units into pieces of at most the budget, each unit in one piece."""
        counted = [(s, e, self.count(self._text[s:e])) for s, e in units]
        pieces: list[_Piece] = []
        i = 0
        while i < len(counted):
            s, e, n = counted[i]
            if n > self.budget:
                # no sentence (or line) break small enough: cut by size, so no chunk outgrows the budget
                smaller = fallback(s, e) if fallback is not None else self._hard_spans(s, e, n)
                if len(smaller) > 1:
                    pieces.extend(self._pack_units(smaller, fallback=None))
                    i += 1
                    continue
            j = i + 1
            while j < len(counted) and n + counted[j][2] <= self.budget:
                n += counted[j][2]
                e = counted[j][1]
                j += 1
            pieces.append(_Piece(s, e, n))
            i = j
        return pieces

    def _hard_spans(self, s: int, e: int, n: int) -> list[tuple[int, int]]:
        """[s, e) (n tokens) cut into spans of at most the budget, at whitespace where there is some nearby."""
        if n <= self.budget or e - s <= 1:
            return [(s, e)]
        parts = min(e - s, -(-2 * n // self.budget))  # about half a budget each: few need a second cut
        width = (e - s) / parts
        cuts = [s]
        for k in range(1, parts):
            at = s + round(k * width)
            space = self._text.rfind(" ", max(cuts[-1] + 1, at - int(width // 4)), at)
            cuts.append(space + 1 if space > cuts[-1] else at)
        cuts.append(e)
        spans: list[tuple[int, int]] = []
        for a, b in itertools.pairwise(cuts):
            if b > a:
                m = self.count(self._text[a:b])
                spans.extend(self._hard_spans(a, b, m) if m > self.budget else [(a, b)])
        return spans

    def _split_lines(self, start: int, end: int, block: Block, header_lines: int) -> list[_Piece]:
        """Tables by rows (header repeated as lead) and code by lines (fence line repeated as lead)."""
        lines = [self._span(i, i + 1) for i in range(block.line_start, block.line_end)]
        lines = [(s, min(e, end)) for s, e in lines if s < end]
        head_end = lines[min(header_lines, len(lines)) - 1][1]
        lead = self._text[start:head_end]
        if not lead.endswith("\n"):
            lead += "\n"
        rows = [h for r in lines[header_lines:] for h in self._hard_spans(*r, self.count(self._text[r[0]:r[1]]))]
        if not rows:
            return [_Piece(start, end, self.count(self._text[start:end]))]
        lead_tokens = self.count(lead)
        budget = max(self.budget - lead_tokens, 1)
        pieces: list[_Piece] = []
        i = 0
        while i < len(rows):
            s, e = rows[i]
            n = self.count(self._text[s:e])
            j = i + 1
            while j < len(rows):
                m = self.count(self._text[rows[j][0] : rows[j][1]])
                if n + m > budget:
                    break
                n, e, j = n + m, rows[j][1], j + 1
            if not pieces:  # the first piece contains the header itself
                pieces.append(_Piece(start, e, n + lead_tokens))
            else:
                pieces.append(_Piece(s, e, n + lead_tokens, lead=lead))
            i = j
        return pieces

    def _list_items(self, block: Block) -> list[tuple[int, int]]:
        starts = [
            i
            for i in range(block.line_start, block.line_end)
            if LIST_ITEM.match(self._text[slice(*self._span(i, i + 1))])
        ]
        bounds = [*starts, block.line_end]
        return [self._span(a, b) for a, b in itertools.pairwise(bounds)]

    def _sentences(self, start: int, end: int) -> list[tuple[int, int]]:
        """Sentence spans covering [start, end) exactly (whitespace kept with the previous sentence)."""
        spans = []
        pos = start
        for m in SENTENCE_END.finditer(self._text, start, end):
            if m.end() < end:
                spans.append((pos, m.end()))
                pos = m.end()
        spans.append((pos, end))
        return spans

    # -- offsets ---------------------------------------------------------------------------------
    def _span(self, line_start: int, line_end: int) -> tuple[int, int]:
        starts = self._line_starts
        a = starts[line_start] if line_start < len(starts) else len(self._text)
        b = starts[line_end] if line_end < len(starts) else len(self._text)
        return a, b

    def _rstrip(self, start: int, end: int) -> int:
        while end > start and self._text[end - 1].isspace():
            end -= 1
        return end

    def _line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset) - 1

    def _make(self, ordinal: int, path: tuple[str, ...], prefix: str, lead: str, start: int, end: int) -> Chunk:
        body = self._text[start:end]
        search_text = f"{prefix}\n{lead}{body}"
        return Chunk(
            ordinal=ordinal,
            heading_path=path,
            prefix=prefix,
            lead=lead,
            body=body,
            char_start=start,
            char_end=end,
            line_start=self._line_of(start),
            line_end=self._line_of(end - 1) + 1,
            token_count=self.count(search_text),
            content_hash=hashlib.sha256(search_text.encode("utf-8")).hexdigest()[:32],
        )


def make_prefix(title: str, heading_path: tuple[str, ...]) -> str:
    """`Title > Heading > Sub-heading`; an H1 equal to the title is not repeated."""
    parts = [title]
    for h in heading_path:
        if h and h != parts[-1]:
            parts.append(h)
    return " > ".join(p for p in parts if p)

"""A note's links ([[wikilinks]], ![[embeds]], [Markdown](links.md)), where they resolve by Obsidian's rules."""

from __future__ import annotations

import posixpath
import re
import unicodedata
from bisect import bisect_right
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import unquote

from markdown_it import MarkdownIt
from mdit_py_plugins.front_matter import front_matter_plugin

from vaultrag.core.vocab import LinkKind

# Each pattern is linear: the bracketed parts exclude their own delimiters and line breaks and are bounded, so a
# note of ten thousand "[[" without "]]" costs one pass (an unbounded nested pattern backtracked for seconds)
WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]{1,1000})\]\]")
MDLINK = re.compile(r"(!?)\[([^\[\]\n]{0,1000})\]\(\s*(<[^<>\n]{1,2000}>|[^\s()<>]{1,2000})"
                    r"(?:\s+\"[^\"\n]{0,500}\")?\s*\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")  # http:, obsidian:, mailto:, file: … — not a note of this vault
BACKTICKS = re.compile(r"`+")
LINE_END = re.compile(r"\r\n?|\n")
MAY_HOLD_CODE = re.compile(r"[`~]|^[ \t>]*(?:\t| {4})", re.M)  # a fence, a span or an indented block can start
COMMENT = re.compile(r"%%.*?%%", re.S)  # Obsidian's comments: hidden in reading view, their links are not links
NOTE_SUFFIX = ".md"
# the files Obsidian links and embeds besides notes (its accepted formats): a link to one names no note
ATTACHMENTS = frozenset((
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".svg", ".webp", ".avif", ".heic", ".tif", ".tiff", ".ico", ".mp3",
    ".wav", ".m4a", ".ogg", ".3gp", ".flac", ".webm", ".mp4", ".mkv", ".mov", ".ogv", ".pdf", ".canvas", ".base",
    ".json", ".csv", ".txt", ".zip", ".html", ".css", ".js", ".excalidraw"))
MAX_LINKS = 5_000  # per note: a generated note of a million links must not fill the table


@dataclass(frozen=True)
class Link:
    """One link as written: what it names (the path or name, without #heading and |alias; "" is the note itself),
    and where it sits in the note's text."""

    kind: LinkKind
    target: str
    heading: str  # after the first '#' ("" none; "^id" a block); nested headings keep their '#'
    alias: str
    start: int
    end: int

    @property
    def is_note(self) -> bool:
        """It names a note, not an attachment (an image, a PDF, a canvas: files the index does not hold)."""
        return posixpath.splitext(self.target)[1].lower() not in ATTACHMENTS


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # the block structure only (as index/markdown.py parses it): where code blocks and paragraphs are
    md = MarkdownIt("commonmark").enable(["table"]).use(front_matter_plugin)
    md.disable(["inline", "text_join"])
    return md


def _code_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    """The code spans of one block's inline text, by CommonMark's rule: a run of n backticks opens a span the next
    run of exactly n closes; a run nothing closes is text. Linear in the runs (each closer found by bisection)."""
    runs = [(m.start(), m.end()) for m in BACKTICKS.finditer(text, start, end)]
    by_length: dict[int, list[int]] = defaultdict(list)
    for i, (a, b) in enumerate(runs):
        by_length[b - a].append(i)
    spans, i = [], 0
    while i < len(runs):
        a, b = runs[i]
        closers = by_length[b - a]
        k = bisect_right(closers, i)
        if k < len(closers):
            spans.append((a, runs[closers[k]][1]))
            i = closers[k] + 1
        else:
            i += 1
    return spans


def _masked(text: str) -> str:
    """`text` with code (fenced and indented blocks at any depth: in quotes and lists too; code spans) and %%
    comments blanked, offsets kept."""
    out = list(text)

    def blank(a: int, b: int) -> None:
        out[a:b] = " " * (b - a)

    # markdown-it counts lines as these line ends do (it reads \r\n as one); str.splitlines would also split at
    # \x1c, \x85, \u2028 … and shift every line after them
    starts = [0] + [m.end() for m in LINE_END.finditer(text)] + [len(text)]

    def offset(line: int) -> int:
        return starts[min(line, len(starts) - 1)]

    inline: set[tuple[int, int]] = set()
    # a text without backticks, tildes or an indented line holds no code: most notes skip the second parse
    for tok in _parser().parse(text) if MAY_HOLD_CODE.search(text) else ():
        if tok.map is None:
            continue
        if tok.type in ("fence", "code_block"):
            blank(offset(tok.map[0]), offset(tok.map[1]))
        elif tok.type == "inline":
            inline.add((offset(tok.map[0]), offset(tok.map[1])))
    masked = "".join(out)
    for a, b in sorted(inline):  # a span never leaves its paragraph (or heading, or table row)
        for x, y in _code_spans(masked, a, b):
            blank(x, y)
    masked = "".join(out)
    for m in COMMENT.finditer(masked):
        blank(m.start(), m.end())
    return "".join(out)


def _split(inner: str) -> tuple[str, str, str]:
    """(target, heading, alias) of a wikilink's inside: `target#heading|alias` (a table's `\\|` is a pipe)."""
    head, _, alias = inner.replace("\\|", "|").partition("|")
    target, _, heading = head.partition("#")
    return target.strip().rstrip("\\").strip(), heading.strip(), alias.strip()


def extract(text: str) -> list[Link]:
    """The links of a note's text, in order (code and comments left out), at most MAX_LINKS."""
    if "[[" not in text and "](" not in text:
        return []
    masked = _masked(text)
    found: list[Link] = []
    for m in WIKILINK.finditer(masked):
        target, heading, alias = _split(m.group(2))
        if target or heading:
            kind = LinkKind.EMBED if m.group(1) else LinkKind.WIKILINK
            found.append(Link(kind, unicodedata.normalize("NFC", target), heading, alias, m.start(), m.end()))
    for m in MDLINK.finditer(masked):
        url = m.group(3).strip("<>").strip()
        if SCHEME.match(url):
            continue
        path, _, heading = unquote(url).partition("#")
        if path or heading:
            kind = LinkKind.EMBED if m.group(1) else LinkKind.MARKDOWN
            found.append(Link(kind, unicodedata.normalize("NFC", path.strip()), heading.strip(),
                              m.group(2).strip(), m.start(), m.end()))
    found.sort(key=lambda link: link.start)
    return found[:MAX_LINKS]


def aliases(frontmatter: Mapping[str, Any]) -> list[str]:
    """A note's other names, from its frontmatter's `aliases` (or `alias`): a string is one name (spaces and all),
    a number its text; any other value (a mapping, a nested list, a date, true/false) names nothing."""
    keys = {str(k).lower(): v for k, v in reversed(list(frontmatter.items()))}  # "Aliases:" too (the first wins)
    value = keys.get("aliases") or keys.get("alias")
    names: list[str] = []
    for v in value if isinstance(value, list | tuple) else [value]:
        if isinstance(v, bool) or not isinstance(v, str | int | float):
            continue
        name = str(v).strip()
        if name and name not in names:
            names.append(name)
    return names


def _key(text: str) -> str:
    return unicodedata.normalize("NFC", text).casefold()


def heading_key(heading: str) -> str:
    """A heading as a link names it: case, spaces and the characters Obsidian drops ([]#|^:%) aside."""
    return re.sub(r"[\s\[\]#|^:%]+", " ", _key(heading)).strip()


class Resolver:
    """Finds the note a link names among the vault's notes, as Obsidian does: the path (relative to the linking
    note's folder, then to the vault), then the file name wherever it is (a path's tail when the link gives folders;
    several: the linking note's folder first, then the shortest path), then — where no file has that name — a
    note's alias from its frontmatter. Case does not matter."""

    def __init__(self, paths: Iterable[str], aliases: Mapping[str, Iterable[str]] | None = None) -> None:
        self.by_path: dict[str, str] = {}
        self.by_name: dict[str, list[str]] = defaultdict(list)
        self.by_alias: dict[str, list[str]] = defaultdict(list)
        for p in sorted(paths, key=lambda p: (p.count("/"), len(p), p)):  # the shortest path first
            self.by_path.setdefault(_key(p), p)
            if p.lower().endswith(NOTE_SUFFIX):
                self.by_path.setdefault(_key(p[: -len(NOTE_SUFFIX)]), p)
                self.by_name[_key(posixpath.basename(p)[: -len(NOTE_SUFFIX)])].append(p)
        for p, names in (aliases or {}).items():
            for a in names:
                if str(a).strip():
                    self.by_alias[_key(str(a).strip())].append(p)

    def resolve(self, link: Link, source: str) -> str | None:
        """The path of the note `link` (in the note at `source`) names, or None."""
        if not link.target:
            return source
        t = link.target.replace("\\", "/")
        folder = posixpath.dirname(source)
        tries = []
        if not t.startswith("/"):
            tries.append(posixpath.normpath(posixpath.join(folder, t)))
        tries.append(posixpath.normpath(t.lstrip("/")))
        for path in tries:
            hit = self.by_path.get(_key(path))
            if hit is not None:
                return hit
        name = posixpath.basename(t)
        if name.lower().endswith(NOTE_SUFFIX):
            name = name[: -len(NOTE_SUFFIX)]
        tail = _key(t[:-len(NOTE_SUFFIX)] if t.lower().endswith(NOTE_SUFFIX) else t).lstrip("/")
        named = [p for p in self.by_name.get(_key(name), []) if "/" not in t or
                 _key(p[: -len(NOTE_SUFFIX)]).endswith("/" + tail) or _key(p[: -len(NOTE_SUFFIX)]) == tail]
        if named:
            near = [p for p in named if posixpath.dirname(p) == folder]
            return (near or named)[0]
        if link.is_note and "/" not in t:
            aliased = self.by_alias.get(_key(t))
            if aliased:
                return sorted(aliased, key=lambda p: (p.count("/"), len(p), p))[0]
        return None

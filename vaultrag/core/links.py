"""A note's links ([[wikilinks]], ![[embeds]], [Markdown](links.md)), where they resolve by Obsidian's rules."""

from __future__ import annotations

import posixpath
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from urllib.parse import unquote

from vaultrag.core.vocab import LinkKind

# Each pattern is linear: the bracketed parts exclude their own delimiters and line breaks and are bounded, so a
# note of ten thousand "[[" without "]]" costs one pass (an unbounded nested pattern backtracked for seconds)
WIKILINK = re.compile(r"(!?)\[\[([^\[\]\n]{1,1000})\]\]")
MDLINK = re.compile(r"(!?)\[([^\[\]\n]{0,1000})\]\(\s*(<[^<>\n]{1,2000}>|[^\s()<>]{1,2000})"
                    r"(?:\s+\"[^\"\n]{0,500}\")?\s*\)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")  # http:, obsidian:, mailto:, file: … — not a note of this vault
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"`[^`\n]{1,2000}`")
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


def _masked(text: str) -> str:
    """`text` with code (fenced blocks, code spans) and %% comments blanked, offsets kept."""
    out = list(text)

    def blank(a: int, b: int) -> None:
        out[a:b] = " " * (b - a)

    pos, fence = 0, ""
    for line in text.splitlines(keepends=True):
        m = FENCE.match(line)
        if fence:
            blank(pos, pos + len(line))
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = ""
        elif m:
            fence = m.group(1)
            blank(pos, pos + len(line))
        pos += len(line)
    masked = "".join(out)
    for pattern in (CODE_SPAN, COMMENT):
        for m in pattern.finditer(masked):
            blank(m.start(), m.end())
        masked = "".join(out)
    return masked


def _split(inner: str) -> tuple[str, str, str]:
    """(target, heading, alias) of a wikilink's inside: `target#heading|alias` (a table's `\\|` is a pipe)."""
    head, _, alias = inner.replace("\\|", "|").partition("|")
    target, _, heading = head.partition("#")
    return target.strip().rstrip("\\").strip(), heading.strip(), alias.strip()


def extract(text: str) -> list[Link]:
    """The links of a note's text, in order (code and comments left out), at most MAX_LINKS."""
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

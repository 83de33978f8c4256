"""Chunk marks read from the text alone: the keys of its lines (for boilerplate) and its share of links (hub)."""

from __future__ import annotations

import hashlib
import re

# a line counts only with this many letters or digits: a fence (```), a rule (---) or a table's |---| is not text
MIN_LINE_CHARS = 3
# how many notes must hold a line before it is boilerplate: 2 is a copied note (faquad-pt has near-copies of whole
# documents), 3 begins to be a template, from 5 on it is one (weight 1/3, 2/3, 1): see `line_weight`
FIRST_REPEAT = 3
FULL_REPEAT = 5
WORDY = re.compile(r"[^\W_]")
SPACES = re.compile(r"\s+")
HEADING = re.compile(r"^ {0,3}#{1,6}\s")
# wikilinks and embeds ([[a|b]], ![[a]]), Markdown links and images ([a](b), ![a](b)), bare web addresses
LINK = re.compile(r"!?\[\[[^\]\n]*\]\]|!?\[[^\]\n]*\]\([^)\n]*\)|https?://\S+")
MEDIA = re.compile(r"\.(?:png|jpe?g|gif|svg|webp|bmp|avif|mp3|ogg|wav|m4a|flac|mp4|webm|mov|pdf)\b", re.IGNORECASE)
LINK_LINE = 0.5  # a line is a link line when links hold at least half of its letters and digits


def line_key(line: str) -> tuple[int, int] | None:
    """(a stable 63-bit key of the line folded to lower case with its spaces collapsed, its letters and digits),
    or None for a line with fewer than MIN_LINE_CHARS letters or digits."""
    chars = len(WORDY.findall(line))
    if chars < MIN_LINE_CHARS:
        return None
    norm = SPACES.sub(" ", line.strip().casefold())
    digest = hashlib.blake2b(norm.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1, chars  # SQLite integers are signed 64-bit


def line_keys(text: str) -> dict[int, int]:
    """key → letters and digits of each distinct line of `text` worth counting (a line twice in one chunk once)."""
    out: dict[int, int] = {}
    for line in text.splitlines():
        k = line_key(line)
        if k is not None:
            out[k[0]] = k[1]
    return out


def line_weight(notes: int) -> float:
    """How much a line held by `notes` notes counts as boilerplate: 0 up to 2 notes, 1 from FULL_REPEAT on."""
    return min(1.0, max(0.0, (notes - FIRST_REPEAT + 1) / (FULL_REPEAT - FIRST_REPEAT + 1)))


def _shown(m: re.Match[str]) -> str:
    """What a reader sees of a link: a wikilink's alias (else its target), a Markdown link's text, a web address."""
    link = m.group(0)
    if link.startswith("![[") and MEDIA.search(link.partition("|")[0].partition("#")[0]):
        return ""  # an embedded picture, icon or sound shows no words
    link = link.lstrip("!")
    if link.startswith("[["):
        return link[2:-2].rpartition("|")[2]
    if link.startswith("["):
        return link[1:].partition("](")[0]
    return link


def hub_share(text: str) -> float:
    """The share of the text lines of `text` (headings left out) that are mostly links: 1.0 for a list of links
    (a map of content), 0.0 for prose."""
    lines = links = 0
    for line in text.splitlines():
        if HEADING.match(line):
            continue
        total = len(WORDY.findall(line))
        if total < MIN_LINE_CHARS:
            continue
        lines += 1
        shown = LINK.sub(_shown, line)
        linked = sum(len(WORDY.findall(_shown(m))) for m in LINK.finditer(line))
        links += linked >= LINK_LINE * len(WORDY.findall(shown))
    return round(links / lines, 4) if lines else 0.0

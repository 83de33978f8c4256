"""Parse a note with markdown-it-py: frontmatter, heading tree, top-level blocks, [[wikilinks]], #tags."""

from __future__ import annotations

import itertools
import re
import unicodedata
from functools import lru_cache
from typing import Any

import yaml
from markdown_it import MarkdownIt
from markdown_it.token import Token
from mdit_py_plugins.front_matter import front_matter_plugin

from vaultrag.core.model import Block, ParsedNote

# bounded parts that stop at a bracket or a line break: "[[" repeated 8,000 times cost 1.8 s (each match attempt ran
# to the end of the text), a 200 kB run minutes (hostile round 4); now one pass
WIKILINK = re.compile(r"\[\[([^\[\]|#\n]{1,1000})(?:#[^\[\]|\n]{0,1000})?(?:\|([^\[\]\n]{1,1000}))?\]\]")
TAG = re.compile(r"(?<![\w/#&])#([^\W\d_][\w/-]*|[\w/-]*[^\W\d][\w/-]*)")
CALLOUT = re.compile(r"^\s*\[!([\w-]+)\]")

_BLOCK_KINDS = {
    "paragraph_open": "paragraph",
    "bullet_list_open": "list",
    "ordered_list_open": "list",
    "table_open": "table",
    "fence": "code",
    "code_block": "code",
    "blockquote_open": "quote",
    "heading_open": "heading",
    "html_block": "html",
    "hr": "hr",
}


BACKTICKS = re.compile(r"`+")


@lru_cache(maxsize=1)
def _parser() -> MarkdownIt:
    # Only the block structure is needed: skipping markdown-it's inline pass halves the parse time of a
    # vault, and tags/links are found by regex in the inline source with code spans blanked out.
    md = MarkdownIt("commonmark").enable(["table", "strikethrough"]).use(front_matter_plugin)
    md.disable(["inline", "text_join"])
    return md


def _inline_text(tok: Token) -> str:
    """Source of an inline token without code spans (so `#notatag` in code is ignored)."""
    return _without_code_spans(tok.content)


def _without_code_spans(text: str) -> str:
    """`text` with each code span made one space, paired as CommonMark pairs them: a run of backticks is closed by
    the next run of the same length, and one that no run closes is literal. One pass (a regex that looked for the
    closing run from every opening one took seconds on 200 kB of runs of growing length)."""
    runs = [m.span() for m in BACKTICKS.finditer(text)]
    if len(runs) < 2:
        return text
    closer: list[int | None] = [None] * len(runs)
    last: dict[int, int] = {}  # run length → index of the nearest such run to the right
    for i in range(len(runs) - 1, -1, -1):
        length = runs[i][1] - runs[i][0]
        closer[i], last[length] = last.get(length), i
    out: list[str] = []
    kept, i = 0, 0
    while i < len(runs):
        j = closer[i]
        if j is None:
            i += 1
            continue
        out += [text[kept:runs[i][0]], " "]
        kept, i = runs[j][1], j + 1
    return "".join(out) + text[kept:]


def _text_tags(text: str, code: list[tuple[int, int]]) -> list[str]:
    """Every #tag of `text` outside the fenced code's lines (`code`: [start, end) line ranges) and code spans.

    The raw text, not the parser's tokens: markdown-it stops nesting at its depth limit (a list 9+ deep, 20 `>`),
    keeps HTML blocks raw and reads `[^1]: #private` as a link definition, while the chunks hold that text all the
    same. A code span is blanked only where the regex surely pairs its backticks as CommonMark does: on one line,
    with no HTML (`<b title="`">`) and no escaped backtick; anywhere else its tag counts (a note is left out rather
    than let through)."""
    lines = text.split("\n")
    for start, end in code:
        lines[start:end] = [""] * (end - start)
    found: list[str] = []
    for line in lines:
        if "#" not in line:
            continue
        line = unicodedata.normalize("NFC", line)  # TAG's \w stops at a combining accent: "#dia\u0301rio" was #dia
        if "`" in line and "<" not in line and "\\`" not in line:
            line = _without_code_spans(line)
        found.extend(TAG.findall(line))
    return list(dict.fromkeys(found))


def _as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v for v in re.split(r"[,\s]+", value) if v]
    if isinstance(value, list | tuple):
        return [str(v) for v in value if v is not None and str(v).strip()]
    return [str(value)]


MAX_HEADING_CHARS = 300  # a heading repeats in every chunk's prefix: a runaway one must not blow up each chunk
MAX_FRONTMATTER_CHARS = 64_000  # far above any real frontmatter; bounds the YAML parser's time and memory
MAX_YAML_ALIASES = 32
MAX_YAML_NODES = 20_000  # values counted as if every alias were expanded (defuses "billion laughs")
TOP_KEY = re.compile(r"^[^\s#-][^:\n]*:", re.M)
# the keys that decide whether a note is indexed at all: read even from a frontmatter too large or too broken to
# parse, so that such a frontmatter never makes a note less private
PRIVACY_KEYS = frozenset({"tags", "tag", "vaultrag"})
FLAG_WORD = re.compile(r"[^\s\[\]{}(),:'\"]+")


class _BoundedLoader(yaml.SafeLoader):
    """SafeLoader that refuses documents with more than MAX_YAML_ALIASES aliases."""

    aliases_seen = 0

    def compose_node(self, parent: Any, index: Any) -> Any:
        if self.check_event(yaml.AliasEvent):
            self.aliases_seen += 1
            if self.aliases_seen > MAX_YAML_ALIASES:
                raise ValueError(f"more than {MAX_YAML_ALIASES} YAML aliases")
        return super().compose_node(parent, index)


def _expanded_size(value: Any, budget: int) -> int:
    """How many values `value` holds with aliases expanded, counting down from `budget` (stops below 0)."""
    stack = [value]
    while stack and budget >= 0:
        v = stack.pop()
        budget -= 1
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, list | tuple):
            stack.extend(v)
    return budget


def _load(raw: str) -> Any:
    loader = _BoundedLoader(raw)
    try:
        data = loader.get_single_data()
    finally:
        loader.dispose()
    if _expanded_size(data, MAX_YAML_NODES) < 0:
        raise ValueError(f"more than {MAX_YAML_NODES:,} values once aliases are expanded")
    return data


def _salvage(raw: str, only: frozenset[str] | None = None) -> dict[str, Any]:
    """The top-level keys that parse on their own (only those in `only`, when given), from a frontmatter that
    fails as a whole: a YAML error in one field must not hide another field's `tags: [private]` or
    `vaultrag: exclude`. A privacy key that cannot be parsed even alone keeps its words (fail closed)."""
    starts = [m.start() for m in TOP_KEY.finditer(raw)] + [len(raw)]
    out: dict[str, Any] = {}
    for a, b in itertools.pairwise(starts):
        block = raw[a:b]
        key = block.split(":", 1)[0].strip().strip("'\"")
        if only is not None and key.lower() not in only:
            continue
        try:
            if len(block) > MAX_FRONTMATTER_CHARS:
                raise ValueError("too large")
            part = _load(block)
        except Exception:
            if key.lower() in PRIVACY_KEYS:  # `tags: [private, {` still says private
                out[key] = FLAG_WORD.findall(block.split(":", 1)[1])
            continue
        if isinstance(part, dict):
            out.update({str(k): v for k, v in part.items()})
    return out


def _privacy_values(raw: str) -> tuple[list[str], list[str]]:
    """Every value of every privacy key of a frontmatter, block by block: (tags, vaultrag flags). YAML keeps one of
    two `tags:` keys and the case of a key matters to it; privacy must see them all (`tag: private` beside
    `tags: [work]`, `Tags:` beside `tags:`). A block that does not parse alone keeps its words (fail closed)."""
    tags: list[str] = []
    flags: list[str] = []
    starts = [m.start() for m in TOP_KEY.finditer(raw)] + [len(raw)]
    for a, b in itertools.pairwise(starts):
        block = raw[a:b]
        key = block.split(":", 1)[0].strip().strip("'\"").lower()
        if key not in PRIVACY_KEYS:
            continue
        try:
            if len(block) > MAX_FRONTMATTER_CHARS:
                raise ValueError("too large")
            part = _load(block)
            words = [w for v in (part.values() if isinstance(part, dict) else []) for w in _as_list(v)]
        except Exception:
            words = FLAG_WORD.findall(block.split(":", 1)[1])
        (flags if key == "vaultrag" else tags).extend(str(w).lstrip("#") for w in words)
    return tags, flags


def _frontmatter(raw: str) -> tuple[dict[str, Any], str]:
    if len(raw) > MAX_FRONTMATTER_CHARS:
        return (_salvage(raw, PRIVACY_KEYS),
                f"frontmatter larger than {MAX_FRONTMATTER_CHARS:,} characters ignored (its tags and vaultrag keys "
                "are read)")
    try:
        data = _load(raw) if raw.strip() else {}
    except Exception as e:
        first = str(e).splitlines()[0] if str(e) else "invalid YAML"
        return _salvage(raw), f"malformed frontmatter (only the fields that parse alone are kept): {first}"
    if data is None:
        return {}, ""
    if not isinstance(data, dict):
        return {}, "frontmatter is not a key: value mapping; ignored"
    return {str(k): v for k, v in data.items()}, ""


def parse(text: str, filename_stem: str) -> ParsedNote:
    """Parse `text` (a whole note); `filename_stem` is the title of last resort."""
    tokens = _parser().parse(text)
    frontmatter: dict[str, Any] = {}
    fm_error = ""
    privacy_tags: list[str] = []
    flags: list[str] = []
    blocks: list[Block] = []
    tags: list[str] = []
    links: list[str] = []
    stack: list[tuple[int, str]] = []  # (level, heading text)
    first_h1 = ""
    fences: list[tuple[int, int]] = []  # fenced code at any depth (a fence is code in Obsidian too)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "fence" and tok.map:
            fences.append((tok.map[0], tok.map[1]))
        if tok.type == "inline":
            body = _inline_text(tok)
            tags.extend(t for t in TAG.findall(body))
            links.extend(m.group(1).strip() for m in WIKILINK.finditer(body))
        if tok.type == "front_matter":
            frontmatter, fm_error = _frontmatter(tok.content)
            privacy_tags, flags = _privacy_values(tok.content)
        elif tok.level == 0 and tok.type in _BLOCK_KINDS and tok.map:
            kind = _BLOCK_KINDS[tok.type]
            info = ""
            if kind == "heading":
                level = int(tok.tag[1])
                heading = tokens[i + 1].content.strip()[:MAX_HEADING_CHARS] if i + 1 < len(tokens) else ""
                while stack and stack[-1][0] >= level:
                    stack.pop()
                stack.append((level, heading))
                if level == 1 and not first_h1:
                    first_h1 = heading
                info = str(level)
            elif kind == "code":
                info = tok.info.strip()
            elif kind == "quote":
                nxt = next((t for t in tokens[i + 1 :] if t.type == "inline"), None)
                m = CALLOUT.match(nxt.content) if nxt else None
                if m:
                    kind, info = "callout", m.group(1).lower()
            blocks.append(Block(kind, tok.map[0], tok.map[1], tuple(h for _, h in stack), info))
        i += 1
    keys = {k.lower(): v for k, v in reversed(frontmatter.items())}  # "Tags:" and "tags:" alike (the first wins)
    fm_tags = [t.lstrip("#") for t in _as_list(keys.get("tags") or keys.get("tag"))]
    title_value = keys.get("title")
    title = str(title_value).strip() if title_value not in (None, "") else first_h1 or filename_stem
    title = title[:MAX_HEADING_CHARS]
    aliases = _as_list(keys.get("aliases") or keys.get("alias"))
    if isinstance(keys.get("aliases"), str):
        aliases = [keys["aliases"]]
    return ParsedNote(
        title=title,
        aliases=aliases,
        tags=list(dict.fromkeys(fm_tags + privacy_tags + tags)),
        wikilinks=list(dict.fromkeys(links)),
        frontmatter=frontmatter,
        blocks=blocks,
        frontmatter_error=fm_error,
        flags=flags,
        text_tags=_text_tags(text, fences),
    )

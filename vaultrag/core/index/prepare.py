"""Read, hash, parse and chunk one note: the pure, parallelizable half of indexing (no database)."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Generator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultrag.core import links, tokens
from vaultrag.core.index import hostile
from vaultrag.core.index import vault as vaultmod
from vaultrag.core.index.chunking import Chunker
from vaultrag.core.index.markdown import parse
from vaultrag.core.language import detect_language
from vaultrag.core.lifeline import die_with_parent
from vaultrag.core.links import Link
from vaultrag.core.model import Chunk, NoteFile
from vaultrag.core.vocab import NoteStatus, Reason

PARALLEL_MIN_NOTES = 200  # below this, starting worker processes costs more than it saves


@dataclass
class Prepared:
    """A note ready to be written: failed (reason), excluded (rule) or indexed (fields + chunks)."""

    file: NoteFile
    status: NoteStatus | None  # None: unchanged bytes, nothing to write
    reason: str = ""
    code: Reason = Reason.NONE
    digest: str = ""
    fields: dict[str, Any] = field(default_factory=dict)
    chunks: list[Chunk] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)  # every heading of the note, with text under it or not


@dataclass(frozen=True)
class PrepareOptions:
    chunk_tokens: int
    max_note_bytes: int
    private_tag: str


def prepare(f: NoteFile, opts: PrepareOptions, skip_digest: str = "") -> Prepared:
    """Turn a note file into a Prepared record; when its hash equals `skip_digest`, don't parse it."""
    try:
        data, text = vaultmod.read_note(f.abspath, opts.max_note_bytes)
    except vaultmod.ReadError as e:
        return Prepared(f, NoteStatus.FAILED, str(e), e.code)
    digest = hashlib.sha256(data).hexdigest()
    if digest == skip_digest:
        return Prepared(f, None, digest=digest)
    parsed = parse(text, Path(f.path).stem)
    fields = {"title": parsed.title, "aliases": links.aliases(parsed.frontmatter), "tags": parsed.tags,
              "links": parsed.wikilinks, "frontmatter": parsed.frontmatter, "flags": hostile.flags(text)}
    rule = vaultmod.exclusion_rule(parsed, opts.private_tag)
    if rule:  # nothing of an excluded note is kept but its path and the rule: no title, links or frontmatter
        return Prepared(f, NoteStatus.EXCLUDED, rule[1], rule[0])
    chunks = Chunker(opts.chunk_tokens).chunk(text, parsed)
    fields["language"] = detect_language(" ".join(c.body for c in chunks))
    if parsed.frontmatter_error:
        code, reason = Reason.BAD_FRONTMATTER, parsed.frontmatter_error
    elif not chunks:
        code, reason = Reason.EMPTY, "empty note (no text to index)"
    else:
        code, reason = Reason.NONE, ""
    headings = [b.heading_path[-1] for b in parsed.blocks if b.kind == "heading" and b.heading_path]
    return Prepared(f, NoteStatus.INDEXED, reason, code, digest, fields, chunks, links.extract(text), headings)


def _init_worker(tiktoken_cache: str | None, parent: int) -> None:
    die_with_parent(parent)
    if tiktoken_cache:
        tokens.configure(tiktoken_cache)


def _prepare_star(args: tuple[NoteFile, PrepareOptions, str]) -> Prepared:
    return prepare(*args)


def prepare_all(
    jobs: list[tuple[NoteFile, str]], opts: PrepareOptions, workers: int | None = None
) -> Generator[Prepared, None, None]:
    """Prepared notes in the order of `jobs` ((file, digest to skip)); uses worker processes for big batches.

    The caller's thread stays free to write the previous results to the database meanwhile.
    """
    workers = workers if workers is not None else min(4, os.cpu_count() or 1)
    if len(jobs) < PARALLEL_MIN_NOTES or workers < 2:
        for f, skip in jobs:
            yield prepare(f, opts, skip)
        return
    import multiprocessing

    # spawn, not fork: forking a process that runs threads (GUI, watcher) can deadlock the child
    ctx = multiprocessing.get_context("spawn")
    cache = str(tokens.cache_dir()) if tokens.cache_dir() else None
    pool = ProcessPoolExecutor(workers, mp_context=ctx, initializer=_init_worker, initargs=(cache, os.getpid()))
    try:
        yield from pool.map(_prepare_star, [(f, opts, skip) for f, skip in jobs], chunksize=8)
    finally:  # on cancel, drop the queued notes instead of preparing them all first
        pool.shutdown(wait=True, cancel_futures=True)

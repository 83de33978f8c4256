"""Reconcile a vault with its index: read only changed files, re-chunk only changed notes, embed only new text."""

from __future__ import annotations

import hashlib
import logging
import threading
import time
from collections import defaultdict
from collections.abc import Generator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vaultrag.core import vault as vaultmod
from vaultrag.core.chunking import CHUNKER_VERSION, Chunker
from vaultrag.core.embed import Embedder
from vaultrag.core.markdown import parse
from vaultrag.core.model import IndexReport, NoteFile, Progress
from vaultrag.core.store.index_store import IndexStore, NoteRow, vec_bytes

log = logging.getLogger(__name__)
COMMIT_EVERY_S = 1.0  # text phase: a transaction per second of work keeps BM25 fresh and kills cheap


class CancelToken:
    """Cooperative cancellation, checked between notes and between embedding batches."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()


@dataclass
class IndexOptions:
    """What an index run needs from the settings."""

    chunk_tokens: int = 200
    max_note_bytes: int = 5_000_000
    ignore_globs: tuple[str, ...] = ()
    private_tag: str = "private"
    embed_batch: int = 16

    @classmethod
    def from_settings(cls, s: Any) -> IndexOptions:
        return cls(s.chunk_tokens, s.max_note_bytes, tuple(s.ignore_globs), s.private_tag, s.embed_batch)


class _Rate:
    """Items/s and ETA of one phase."""

    def __init__(self, total: int) -> None:
        self.total, self.t0 = total, time.perf_counter()

    def progress(self, phase: str, done: int, message: str = "") -> Progress:
        elapsed = max(time.perf_counter() - self.t0, 1e-9)
        rate = done / elapsed
        eta = (self.total - done) / rate if rate > 0 else None
        return Progress(phase, done, self.total, rate, eta, message)


def run_to_end(gen: Generator[Progress, None, IndexReport]) -> IndexReport:
    """Drive a progress generator to the end and return its report."""
    while True:
        try:
            next(gen)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]


class Indexer:
    """Brings `store` in line with the notes in `vault`; one instance per run, on the one writer thread."""

    def __init__(self, vault: str | Path, store: IndexStore, options: IndexOptions, embedder: Embedder | None) -> None:
        self.vault = vaultmod.check_vault(vault)
        self.store = store
        self.options = options
        self.embedder = embedder
        self.chunker = Chunker(options.chunk_tokens)

    def run(self, cancel: CancelToken | None = None) -> Generator[Progress, None, IndexReport]:
        """Both phases: text + FTS5 (BM25 works after it), then embeddings. Yields Progress; returns the report."""
        cancel = cancel or CancelToken()
        report = IndexReport()
        t0 = time.perf_counter()
        yield Progress("scan", 0, 0, message=f"scanning {self.vault}")
        scanned = vaultmod.scan(self.vault, self.options.ignore_globs)
        report.seconds["scan"] = time.perf_counter() - t0
        report.notes_seen = len(scanned.notes)

        t1 = time.perf_counter()
        yield from self._text_phase(scanned, report, cancel)
        report.seconds["text"] = time.perf_counter() - t1
        if cancel.cancelled:
            report.cancelled = True
        elif self.embedder is not None:
            t2 = time.perf_counter()
            yield from self._embed_phase(report, cancel)
            report.seconds["embed"] = time.perf_counter() - t2
            report.cancelled = cancel.cancelled
        counts = self.store.counts()
        report.chunks_total = counts["chunks"]
        report.chunks_truncated = counts["chunks_truncated"]
        report.chunks_pending = counts["chunks"] - counts["chunks_embedded"]
        report.notes_excluded = counts["notes_excluded"]
        report.notes_failed = counts["notes_failed"]
        report.seconds["total"] = time.perf_counter() - t0
        yield Progress("done", 1, 1, message="done")
        return report

    # -- phase 1: text ------------------------------------------------------------------------------
    def _settings_changed(self) -> bool:
        """Chunking settings differ from the ones the index was built with: every note must be re-chunked."""
        want = {"chunker_version": CHUNKER_VERSION, "chunk_tokens": str(self.options.chunk_tokens)}
        return any(self.store.meta(k) != v for k, v in want.items())

    def _text_phase(
        self, scanned: vaultmod.ScanResult, report: IndexReport, cancel: CancelToken
    ) -> Generator[Progress, None, None]:
        store = self.store
        rows = store.note_rows()
        force = self._settings_changed()
        scanned_paths = {f.path for f in scanned.notes}
        skip_paths = {s.path for s in scanned.skipped}
        vanished = {p: r for p, r in rows.items() if p not in scanned_paths and p not in skip_paths}
        by_hash: dict[str, list[NoteRow]] = defaultdict(list)
        for r in vanished.values():
            if r.status == "indexed" and r.content_hash:
                by_hash[r.content_hash].append(r)

        store.db.execute("begin immediate")
        try:
            if self.embedder is not None:
                store.ensure_vec_table(self.embedder.model_id, self.embedder.dim)
            if force:
                store.set_meta("chunker_version", CHUNKER_VERSION)
                store.set_meta("chunk_tokens", str(self.options.chunk_tokens))
            for skip in scanned.skipped:
                old = rows.get(skip.path)
                if old is None or old.status != "excluded" or old.reason != skip.rule:
                    if old is not None:
                        store.delete_note(old.id)
                    store.upsert_note(skip.path, mtime_ns=0, size=0, content_hash="", status="excluded",
                                      reason=skip.rule)
            rate = _Rate(len(scanned.notes))
            last_commit = time.perf_counter()
            for done, f in enumerate(scanned.notes, 1):
                if cancel.cancelled:
                    break
                self._index_file(f, rows.get(f.path), by_hash, force, report)
                if time.perf_counter() - last_commit > COMMIT_EVERY_S:
                    store.db.execute("commit")
                    yield rate.progress("text", done, f.path)
                    store.db.execute("begin immediate")
                    last_commit = time.perf_counter()
            for r in vanished.values():  # still there = not claimed by a move
                if store.db.execute("select 1 from notes where id = ? and path = ?", (r.id, r.path)).fetchone():
                    store.delete_note(r.id)
                    report.notes_deleted += 1
            store.db.execute("commit")
        except BaseException:
            store.db.execute("rollback")
            raise
        yield rate.progress("text", len(scanned.notes))

    def _index_file(
        self, f: NoteFile, row: NoteRow | None, by_hash: dict[str, list[NoteRow]], force: bool, report: IndexReport
    ) -> None:
        """Bring one note up to date inside the open transaction (its own savepoint)."""
        store = self.store
        if row and not force and row.mtime_ns == f.mtime_ns and row.size == f.size:
            report.notes_unchanged += 1
            return
        try:
            data, text = vaultmod.read_note(f.abspath, self.options.max_note_bytes)
        except vaultmod.ReadError as e:
            with store.savepoint():
                if row is not None:
                    store.delete_note(row.id)
                store.upsert_note(f.path, mtime_ns=f.mtime_ns, size=f.size, content_hash="", status="failed",
                                  reason=str(e))
            log.info("note %s not indexed: %s", f.path, e)
            return
        digest = hashlib.sha256(data).hexdigest()
        if row and not force and row.content_hash == digest and row.status == "indexed":
            store.touch_note(row.id, f.mtime_ns, f.size)
            report.notes_unchanged += 1
            return
        try:
            with store.savepoint():
                if row is None and by_hash.get(digest):
                    moved = by_hash[digest].pop()
                    store.move_note(moved.id, f.path)  # a rename: keep id, chunks and vectors
                    report.notes_moved += 1
                    row = moved
                    if not force:
                        store.touch_note(moved.id, f.mtime_ns, f.size)
                        # the title may come from the file name, so the chunk prefixes may change
                        self._rechunk(f, text, digest, row, report, count_as_indexed=False)
                        return
                self._rechunk(f, text, digest, row, report)
        except Exception as e:  # a bug or a database error in one note must not stop the run
            log.exception("indexing %s failed", f.path)
            with store.savepoint():
                if row is not None and store.db.execute("select 1 from notes where id=?", (row.id,)).fetchone():
                    store.delete_note(row.id)
                store.upsert_note(f.path, mtime_ns=f.mtime_ns, size=f.size, content_hash="", status="failed",
                                  reason=f"internal error: {e}")
            report.notes_failed += 1

    def _rechunk(
        self, f: NoteFile, text: str, digest: str, row: NoteRow | None, report: IndexReport,
        count_as_indexed: bool = True,
    ) -> None:
        """Parse and chunk one note; keep chunks whose text is unchanged, insert the new, delete the rest."""
        store = self.store
        stem = Path(f.path).stem
        parsed = parse(text, stem)
        rule = vaultmod.exclusion_rule(parsed, self.options.private_tag)
        common = {"mtime_ns": f.mtime_ns, "size": f.size, "content_hash": digest, "title": parsed.title,
                  "aliases": parsed.aliases, "tags": parsed.tags, "links": parsed.wikilinks,
                  "frontmatter": parsed.frontmatter, "indexed_at": time.time()}
        if rule:
            if row is not None:
                store.delete_note(row.id)
            store.upsert_note(f.path, status="excluded", reason=rule, **common)
            return
        chunks = self.chunker.chunk(text, parsed)
        reason = parsed.frontmatter_error or ("empty note (no text to index)" if not chunks else "")
        note_id = store.upsert_note(f.path, status="indexed", reason=reason, **common)
        existing: dict[str, list[int]] = defaultdict(list)
        for c in store.chunk_rows(note_id):
            existing[c.content_hash].append(c.id)
        new = []
        for chunk in chunks:
            if existing.get(chunk.content_hash):
                store.reposition_chunk(existing[chunk.content_hash].pop(0), chunk)
            else:
                new.append(chunk)
        store.delete_chunks(i for ids in existing.values() for i in ids)
        model = self.embedder
        cached = store.cached_vectors(model.model_id, [c.content_hash for c in new]) if model else {}
        folder = f.path.rpartition("/")[0]
        for chunk in new:
            truncated = model is not None and model.count_tokens(chunk.search_text) > model.max_tokens
            if truncated:
                log.info("chunk %d of %s exceeds the embedder's %d-token input", chunk.ordinal, f.path,
                         model.max_tokens if model else 0)
            chunk_id = store.insert_chunk(note_id, chunk, truncated)
            if chunk.content_hash in cached:
                store.put_vector(chunk_id, cached[chunk.content_hash], note_id, folder)
                report.chunks_reused += 1
        if count_as_indexed:
            report.notes_indexed += 1

    # -- phase 2: embeddings ------------------------------------------------------------------------
    def _embed_phase(self, report: IndexReport, cancel: CancelToken) -> Generator[Progress, None, None]:
        assert self.embedder is not None
        model, store = self.embedder, self.store
        total = store.count_pending()
        rate = _Rate(total)
        done = 0
        yield rate.progress("embed", 0)
        while not cancel.cancelled:
            batch = store.pending_chunks(self.options.embed_batch)
            if not batch:
                break
            cached = store.cached_vectors(model.model_id, [b[2] for b in batch])
            todo = [b for b in batch if b[2] not in cached]
            if todo:
                vectors = model.embed_passages([b[1] for b in todo])
                if vectors.shape != (len(todo), model.dim) or not np.isfinite(vectors).all():
                    raise RuntimeError(f"embedder returned {vectors.shape} vectors for {len(todo)} texts")
                fresh = {b[2]: vec_bytes(v) for b, v in zip(todo, vectors, strict=True)}
            else:
                fresh = {}
            with store.transaction():
                for chunk_id, _, h, note_id, folder in batch:
                    if h in fresh:
                        store.cache_vector(model.model_id, h, fresh[h])
                    store.put_vector(chunk_id, fresh.get(h) or cached[h], note_id, folder)
            report.chunks_embedded += len(todo)
            report.chunks_reused += len(batch) - len(todo)
            done += len(batch)
            yield rate.progress("embed", done)

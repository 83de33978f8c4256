"""Typed reads and writes of one vault's index: notes, chunks (+FTS5 by triggers), vectors, cache, meta."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

import numpy as np

from vaultrag.core.links import Link
from vaultrag.core.model import Chunk
from vaultrag.core.store import ann, chunk_marks, links, migrations, vectors
from vaultrag.core.store.db import Connection, CorruptIndex, bump_generation, connect
from vaultrag.core.store.db import Error as DbError
from vaultrag.core.store.fts import DeferredFts
from vaultrag.core.store.reads import QueryReads
from vaultrag.core.vocab import NoteStatus, Reason
from vaultrag.errors import IndexOutdated

# the tables every migrated index has (the vector tables come with the first vectors)
REQUIRED_TABLES = frozenset({"_migrations", "notes", "chunks", "chunks_fts", "index_meta", "embed_cache", "note_tags",
                             "vector_stats"})
SQLITE_ERROR = 1  # SQLite's generic result code: a malformed statement or a schema that does not fit it
# an indexed note whose chunks are not the number it was given (-1: not counted yet)
MISCOUNTED = ("n.status = 'indexed' and n.chunk_count >= 0 and "
              "n.chunk_count != (select count(*) from chunks c where c.note_id = n.id)")


class CheckCode(StrEnum):
    """What a consistency problem found by `IndexStore.check` is about (its English is the finding's text)."""

    INTEGRITY = "sqlite-integrity"
    FTS_INTEGRITY = "fts-integrity"
    FTS_ROWS = "fts-rows"  # chunks and FTS rows differ in number
    ORPHAN_CHUNKS = "orphan-chunks"
    VECTOR_ROWS = "vector-rows"  # chunks marked embedded and int8 vector rows differ in number
    EXACT_VECTOR_ROWS = "exact-vector-rows"  # int8 and float32 vectors differ in number
    STRAY_VECTORS = "stray-vectors"
    MISSING_VECTORS = "missing-vectors"
    DUPLICATE_POSITIONS = "duplicate-positions"
    LOST_CHUNKS = "lost-chunks"  # a note has fewer (or more) chunks than it was given
    FAST_VECTOR_ROWS = "fast-vector-rows"  # the fast tier's marks, int8 and float32 vectors differ in number
    VECTOR_TABLE = "vector-table"  # the index has a model's vectors but no vector table (every question fails)
    ANN_GRAPH = "ann-graph"  # the HNSW graph the index names is missing, damaged or another index's (not used)


class Finding(str):
    """One consistency problem: the English words (the string itself, as the CLI and the health panel show it)
    with its code, so a caller or a test tells the problems apart without reading the words."""

    code: CheckCode

    def __new__(cls, code: CheckCode, text: str) -> Finding:
        finding = super().__new__(cls, text)
        finding.code = code
        return finding

    def __reduce__(self) -> tuple[type[Finding], tuple[CheckCode, str]]:  # copy and pickle keep the code
        return Finding, (self.code, str(self))


@dataclass(frozen=True)
class NoteRow:
    """What the index remembers about one note file."""

    id: int
    path: str
    mtime_ns: int
    size: int
    content_hash: str
    status: NoteStatus
    reason: str
    reason_code: Reason


@dataclass(frozen=True)
class ChunkRow:
    """A stored chunk, as the diff against a fresh chunking needs it."""

    id: int
    content_hash: str
    embedded: bool


vec_bytes = vectors.float_bytes  # a vector as the float32 blob put_vector and the caches take


@dataclass(frozen=True)
class NoteSummary:
    """One note with its chunk counts, for `status` and the health panel."""

    path: str
    status: NoteStatus
    reason: str
    reason_code: Reason
    mtime_ns: int
    size: int
    chunks: int
    truncated: int


class IndexStore(QueryReads):
    """One vault's index file; all methods run on the caller's thread with this object's connection."""

    def __init__(self, db: Connection, path: Path | None = None, readonly: bool = False) -> None:
        self.db = db
        self.path = path
        self.readonly = readonly
        self.chunks_dropped = False  # since the last prune_vector_cache: whose cached vectors may be orphaned
        self._kept = {}  # counts kept per index generation (QueryReads._per_generation)

    @classmethod
    def open(cls, path: str | os.PathLike[str], readonly: bool = False, still: bool = False) -> IndexStore:
        """Open (creating and migrating when writable) the index at `path`; `still`: see `db.connect`."""
        db = connect(path, readonly=readonly, still=still)
        try:
            if readonly:
                migrations.check_not_newer(db)
                if migrations.pending(db):
                    raise IndexOutdated(f"The index {path} is missing or outdated: run `vaultrag index` first.")
            else:
                try:
                    ran = migrations.apply(db)
                except DbError as e:
                    # a plain SQL error while migrating ("table index_meta already exists"): the record of what
                    # was applied no longer matches the tables (an emptied _migrations). Busy, full or read-only
                    # errors have codes of their own and stay what they are
                    if getattr(e, "sqlite_errorcode", None) != SQLITE_ERROR:
                        raise
                    raise CorruptIndex(f"The index file {path} does not match its own record of changes ({e}).",
                                       why=f"it does not match its own record of changes: {e}") from e
                if "0006_secure_delete" in ran and "0001_initial" not in ran:
                    # pages freed before secure delete was on may still hold deleted text: rewrite the file once
                    db.execute("vacuum")
            lost = sorted(REQUIRED_TABLES - {r[0] for r in db.execute("select name from sqlite_master")})
            if lost:
                raise CorruptIndex(f"The index file {path} has lost its table(s) {', '.join(lost)}.",
                                   why=f"it has lost its table(s) {', '.join(lost)}")
        except BaseException:
            db.close()
            raise
        return cls(db, Path(path), readonly)

    def close(self) -> None:
        self._closed = True  # a knn() racing this close must not start a new pool
        if self._shards is not None:
            self._shards.close()
            self._shards = None
        if self._ann is not None:
            self._ann.close()
            self._ann = None
        self.db.close()

    # -- transactions ---------------------------------------------------------------------------
    @contextmanager
    def transaction(self) -> Iterator[None]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, rolled back on any exception)."""
        self.db.execute("begin immediate")
        before = self.db.total_changes
        try:
            yield
        except BaseException:
            self._rollback()
            raise
        self._commit(before)

    @contextmanager
    def long_transaction(self, defer_fts: bool = False) -> Iterator[Callable[[], None]]:
        """A write transaction the caller commits part-way with the `checkpoint()` it yields (so a long run
        makes its work visible, and killable, once a second); rolled back to the last checkpoint on error.

        `defer_fts` (only for chunks that are all new, as in a first run): the full-text index takes each part's
        new chunks in one statement before its commit instead of row by row (every commit stays complete)."""
        fts = DeferredFts(self.db) if defer_fts else None
        self.db.execute("begin immediate")
        before = self.db.total_changes
        if fts:
            fts.start()

        def checkpoint() -> None:
            nonlocal before
            if fts:
                fts.catch_up()
            self._commit(before)
            self.db.execute("begin immediate")
            before = self.db.total_changes
            if fts:
                fts.start()

        try:
            yield checkpoint
            if fts:
                fts.catch_up()
        except BaseException:
            self._rollback()
            raise
        self._commit(before)

    def _commit(self, changes_before: int) -> None:
        """COMMIT, counting the transaction in `generation` when it changed a row (a no-op run writes nothing)."""
        if self.db.total_changes != changes_before:
            bump_generation(self.db)
        # SQLite may have rolled the transaction back by itself (a full disk): what came after saved itself, note
        # by note, and the bump above too
        if self.db.in_transaction:
            self.db.execute("commit")

    def _rollback(self) -> None:
        """ROLLBACK, if SQLite has not already rolled the transaction back by itself."""
        if self.db.in_transaction:
            self.db.execute("rollback")

    @contextmanager
    def savepoint(self, name: str = "note") -> Iterator[None]:
        """A nested unit inside a transaction: on error only its changes are undone, then it re-raises."""
        self.db.execute(f"savepoint {name}")
        try:
            yield
        except BaseException:
            if self.db.in_transaction:  # else SQLite has rolled everything back itself (a full disk)
                self.db.execute(f"rollback to {name}")
                self.db.execute(f"release {name}")
            raise
        self.db.execute(f"release {name}")

    # -- meta -----------------------------------------------------------------------------------
    def meta(self, key: str, default: str | None = None) -> str | None:
        row = self.db.execute("select value from index_meta where key = ?", (key,)).fetchone()
        return row[0] if row else default

    def set_meta(self, key: str, value: str) -> None:
        self.db.execute(
            "insert into index_meta(key, value) values (?, ?) on conflict(key) do update set value = excluded.value",
            (key, value),
        )

    def delete_meta(self, key: str) -> None:
        self.db.execute("delete from index_meta where key = ?", (key,))

    # -- notes ----------------------------------------------------------------------------------
    def note_rows(self) -> dict[str, NoteRow]:
        rows = self.db.execute("select id, path, mtime_ns, size, content_hash, status, reason, reason_code from notes")
        return {r[1]: NoteRow(id=r[0], path=r[1], mtime_ns=r[2], size=r[3], content_hash=r[4],
                              status=NoteStatus(r[5]), reason=r[6], reason_code=Reason(r[7])) for r in rows}

    def has_note(self, note_id: int, path: str) -> bool:
        """Whether note `note_id` is still at `path` (a move may have claimed it)."""
        return self.db.execute("select 1 from notes where id = ? and path = ?", (note_id, path)).fetchone() is not None

    def note_summaries(self) -> list[NoteSummary]:
        """Every note row with its chunk and truncated-chunk counts, by path."""
        rows = self.db.execute(
            """select n.path, n.status, n.reason, n.reason_code, n.mtime_ns, n.size, count(c.id),
                      coalesce(sum(c.truncated), 0)
               from notes n left join chunks c on c.note_id = n.id group by n.id order by n.path"""
        ).fetchall()
        return [NoteSummary(r[0], NoteStatus(r[1]), r[2], Reason(r[3]), *r[4:]) for r in rows]

    def upsert_note(
        self,
        path: str,
        *,
        mtime_ns: int,
        size: int,
        content_hash: str,
        status: NoteStatus,
        reason: str = "",
        reason_code: Reason = Reason.NONE,
        title: str = "",
        aliases: Sequence[str] = (),
        tags: Sequence[str] = (),
        links: Sequence[str] = (),
        frontmatter: dict[str, Any] | None = None,
        flags: Sequence[str] = (),
        indexed_at: float | None = None,
        language: str = "",
    ) -> int:
        """Insert or update the note row for `path`; returns its id (stable across updates)."""
        folder = path.rpartition("/")[0]
        fm = json.dumps(frontmatter or {}, ensure_ascii=False, default=str)
        self.db.execute(
            """insert into notes(path, folder, mtime_ns, size, content_hash, title, aliases, tags, links,
                                 frontmatter, status, reason, reason_code, flags, indexed_at, language)
               values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
               on conflict(path) do update set folder=excluded.folder, mtime_ns=excluded.mtime_ns,
                 size=excluded.size, content_hash=excluded.content_hash, title=excluded.title,
                 aliases=excluded.aliases, tags=excluded.tags, links=excluded.links,
                 frontmatter=excluded.frontmatter, status=excluded.status, reason=excluded.reason,
                 reason_code=excluded.reason_code, flags=excluded.flags, indexed_at=excluded.indexed_at,
                 language=excluded.language""",
            (path, folder, mtime_ns, size, content_hash, title, json.dumps(list(aliases), ensure_ascii=False),
             json.dumps(list(tags), ensure_ascii=False), json.dumps(list(links), ensure_ascii=False), fm,
             str(status), reason, str(reason_code), json.dumps(list(flags)), indexed_at, language),
        )
        note_id = int(self.db.execute("select id from notes where path = ?", (path,)).fetchone()[0])
        self.db.execute("delete from note_tags where note_id = ?", (note_id,))
        self.db.executemany(
            "insert or ignore into note_tags(note_id, tag) values (?, ?)", [(note_id, t) for t in tags]
        )
        return note_id

    def note_flags(self, paths: Sequence[str] | None = None) -> dict[str, list[str]]:
        """Flagged notes (all, or among `paths`) → their NoteFlag codes."""
        if paths is None:
            rows = self.db.execute("select path, flags from notes where flags != '[]' order by path").fetchall()
        else:  # a question's candidates: looked up by path (reading every note's flags took 18 ms at 100k notes)
            wanted, rows = sorted(set(paths)), []
            for i in range(0, len(wanted), 500):
                part = wanted[i : i + 500]
                rows += self.db.execute(f"select path, flags from notes where path in ({','.join('?' * len(part))}) "
                                        "and flags != '[]'", part).fetchall()
            rows.sort()
        return {r[0]: json.loads(r[1]) for r in rows}

    def touch_note(self, note_id: int, mtime_ns: int, size: int) -> None:
        """Record a new mtime/size for a note whose content did not change."""
        self.db.execute("update notes set mtime_ns = ?, size = ? where id = ?", (mtime_ns, size, note_id))

    def move_note(self, note_id: int, new_path: str) -> None:
        """Rename a note in place: its id, chunks and vectors stay (no re-embedding)."""
        folder = new_path.rpartition("/")[0]
        self.db.execute("update notes set path = ?, folder = ? where id = ?", (new_path, folder, note_id))
        if self.has_vec_table():
            # one row at a time: a multi-row UPDATE of an int8 vec0 table hands the vectors back to sqlite-vec
            # as untyped blobs, which it rejects as float32 ("expected to be of type int8")
            ids = self.db.execute("select id from chunks where note_id = ?", (note_id,)).fetchall()
            self.db.executemany("update chunks_vec set folder = ? where chunk_id = ?", [(folder, i) for (i,) in ids])

    def count_chunks(self, note_id: int) -> None:
        """Record how many chunks the note now has (what `check` compares with, to find lost chunk rows)."""
        self.db.execute("update notes set chunk_count = (select count(*) from chunks where note_id = ?) where id = ?",
                        (note_id, note_id))

    def delete_note_chunks(self, path: str) -> None:
        """Remove the chunks of the note at `path` (FTS rows and vectors follow by trigger)."""
        self.db.execute("delete from chunks where note_id in (select id from notes where path = ?)", (path,))
        self.chunks_dropped = True

    def delete_note(self, note_id: int) -> None:
        """Remove a note with its chunks, FTS rows (trigger) and vectors (trigger)."""
        self.db.execute("delete from chunks where note_id = ?", (note_id,))
        self.db.execute("delete from notes where id = ?", (note_id,))
        self.chunks_dropped = True

    # -- chunks ---------------------------------------------------------------------------------
    def chunk_rows(self, note_id: int) -> list[ChunkRow]:
        rows = self.db.execute(
            "select id, content_hash, embedded from chunks where note_id = ? order by ordinal", (note_id,)
        )
        return [ChunkRow(r[0], r[1], bool(r[2])) for r in rows]

    def insert_chunk(self, note_id: int, chunk: Chunk, truncated: bool) -> int:
        cur = self.db.execute(
            """insert into chunks(note_id, ordinal, heading_path, prefix, lead, body, char_start, char_end,
                                  line_start, line_end, token_count, content_hash, truncated)
               values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""",
            (note_id, chunk.ordinal, json.dumps(list(chunk.heading_path), ensure_ascii=False), chunk.prefix,
             chunk.lead, chunk.body, chunk.char_start, chunk.char_end, chunk.line_start, chunk.line_end,
             chunk.token_count, chunk.content_hash, int(truncated)),
        )
        chunk_id = int(cur.lastrowid)
        hub = chunk_marks.add_chunk(self.db, chunk_id, chunk.text)
        if hub:
            self.db.execute("update chunks set hub = ? where id = ?", (hub, chunk_id))
        return chunk_id

    def write_links(self, note_id: int, found: Sequence[Link]) -> None:
        """Replace a note's links (store/links.py; resolved by `resolve_links`)."""
        links.write(self.db, note_id, found)

    def resolve_links(self) -> int:
        """Resolve the links written since the last call (all of them when notes came, went or were renamed);
        returns how many changed. Call inside the write transaction."""
        return links.resolve(self.db)

    def unresolved_links(self) -> list[links.StoredLink]:
        """The links that name a note (or a heading) the vault does not have, by note (store/links.py)."""
        return links.unresolved(self.db)

    def refresh_marks(self) -> int:
        """Bring the chunks' boilerplate marks in line with the notes now indexed (after inserts and deletes);
        returns how many changed. Call inside the write transaction."""
        return chunk_marks.refresh(self.db)

    def reposition_chunk(self, chunk_id: int, chunk: Chunk) -> None:
        """Same text (same hash), new place in the note: update offsets only; FTS and vector stay."""
        self.db.execute(
            """update chunks set ordinal = ?, heading_path = ?, char_start = ?, char_end = ?, line_start = ?,
                                 line_end = ? where id = ?""",
            (chunk.ordinal, json.dumps(list(chunk.heading_path), ensure_ascii=False), chunk.char_start,
             chunk.char_end, chunk.line_start, chunk.line_end, chunk_id),
        )

    def delete_chunks(self, ids: Iterable[int]) -> None:
        self.db.executemany("delete from chunks where id = ?", [(i,) for i in ids])
        self.chunks_dropped = True

    def prune_vector_cache(self) -> int:
        """Delete the cached vectors no chunk holds any more (a vector made from a removed or now private text is
        private too); returns how many. The cache still serves a text that moves within one run, and a model
        switched back (its vectors stay while their chunks do)."""
        cur = self.db.execute("delete from embed_cache where content_hash not in (select content_hash from chunks)")
        self.chunks_dropped = False
        return int(cur.rowcount)

    def pending_chunks(self, limit: int, spread: bool = False) -> list[tuple[int, str, str, int, str]]:
        """Chunks without a vector: (id, search text, content hash, note id, folder), newest first, so a note
        saved during a long first indexing becomes vector-searchable without waiting for the backlog; `spread`:
        about `limit` of them spread over the whole index instead (a first sample of the vault's vectors)."""
        step = max(1, self.embed_counts()[1] // max(limit, 1)) if spread else 1
        rows = self.db.execute(
            """select c.id, c.prefix || char(10) || c.lead || c.body, c.content_hash, c.note_id, n.folder
               from chunks c join notes n on n.id = c.note_id where c.embedded = 0 and c.id % ? = 0
               order by c.id desc limit ?""",
            (step, limit),
        ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4])) for r in rows]

    def embed_counts(self) -> tuple[int, int]:
        """(chunks with their vector, chunks still waiting for one)."""
        total = int(self.db.execute("select count(*) from chunks").fetchone()[0])
        pending = int(self.db.execute("select count(*) from chunks where embedded = 0").fetchone()[0])  # partial index
        return total - pending, pending

    # -- vectors --------------------------------------------------------------------------------
    def has_vec_table(self) -> bool:
        return self.db.execute("select 1 from sqlite_master where name = 'chunks_vec'").fetchone() is not None

    def ensure_vec_table(self, model_id: str, dim: int) -> bool:
        """Make the vector tables fit (model, dim); on a model change empty them and mark all chunks unembedded.

        Returns True when existing vectors were discarded. Call inside a transaction.
        """
        same = self.meta("embed_model") == model_id and self.meta("embed_dim") == str(dim)
        if same and self.has_vec_table():
            return False
        discarded = self.has_vec_table()
        ann.forget(self.db)  # the graph beside the file holds the old model's vectors
        vectors.create_tables(self.db, dim)
        self.db.execute("delete from chunk_vectors")
        self.db.execute("update chunks set embedded = 0 where embedded = 1")
        self.set_meta("embed_model", model_id)
        self.set_meta("embed_dim", str(dim))
        return discarded

    def put_vector(self, chunk_id: int, vector: bytes, note_id: int, folder: str) -> None:
        """Store one chunk's unit float32 vector (validated by the caller; see the sqlite-vec partial-row pitfall):
        int8 in vec0 for the KNN shortlist, the float32 blob in chunk_vectors for exact scores."""
        self.put_vectors([(chunk_id, vector, note_id, folder)])

    def put_vectors(self, rows: Sequence[tuple[int, bytes, int, str]]) -> None:
        """put_vector for a batch of (chunk id, float32 vector blob, note id, folder) rows, in bulk statements."""
        vectors.insert(self.db, rows)
        self.db.executemany("update chunks set embedded = 1 where id = ?", [(int(r[0]),) for r in rows])

    # -- the fast tier (a second vector set that lists candidates while the main vectors fill) ---------------------
    def ensure_fast_tables(self, model_id: str, dim: int) -> bool:
        """Make the fast tier's tables fit (model, dim); a new fast model empties them and marks every chunk as
        waiting for a fast vector. Returns True when they were (re)created. Call inside a transaction."""
        if self.meta("fast_model") == model_id and self.meta("fast_dim") == str(dim) and self.has_fast_table():
            return False
        vectors.create_fast_tables(self.db, dim)
        self.db.execute("update chunks set fast_embedded = 0 where fast_embedded = 1")
        self.set_meta("fast_model", model_id)
        self.set_meta("fast_dim", str(dim))
        return True

    def drop_fast_tier(self) -> bool:
        """Remove the fast tier (another embedder than the one it serves); True when there was one. In a
        transaction."""
        if self.meta("fast_model") is None and not self.has_fast_table():
            return False
        vectors.drop_fast_tables(self.db)
        self.db.execute("update chunks set fast_embedded = 0 where fast_embedded = 1")
        self.db.execute("delete from index_meta where key in ('fast_model', 'fast_dim')")
        return True

    def has_fast_table(self) -> bool:
        return self.db.execute("select 1 from sqlite_master where name = 'chunks_fast_vec'").fetchone() is not None

    def fast_pending_chunks(self, limit: int) -> list[tuple[int, str, str, int, str]]:
        """Chunks without a fast vector, as `pending_chunks` gives them (newest first)."""
        rows = self.db.execute(
            """select c.id, c.prefix || char(10) || c.lead || c.body, c.content_hash, c.note_id, n.folder
               from chunks c join notes n on n.id = c.note_id where c.fast_embedded = 0 order by c.id desc
               limit ?""",
            (limit,),
        ).fetchall()
        return [(int(r[0]), str(r[1]), str(r[2]), int(r[3]), str(r[4])) for r in rows]

    def fast_counts(self) -> tuple[int, int]:
        """(chunks with their fast vector, chunks still waiting for one)."""
        total = self.chunk_count()
        pending = int(self.db.execute("select count(*) from chunks where fast_embedded = 0").fetchone()[0])
        return total - pending, pending

    def put_fast_vectors(self, rows: Sequence[tuple[int, bytes, int]]) -> None:
        """Store (chunk id, float32 vector blob, note id) rows of the fast tier and mark their chunks."""
        vectors.insert_fast(self.db, rows)
        self.db.executemany("update chunks set fast_embedded = 1 where id = ?", [(int(r[0]),) for r in rows])

    def keep_vectors(self, model_id: str, rows: Sequence[tuple[int, bytes]]) -> int:
        """Keep main-model vectors embedded at question time, (chunk id, float32 blob): stored for the chunks that
        still wait for one (so the backlog skips them) and cached by their text. A chunk edited or deleted since,
        or an index now of another model, takes nothing (a chunk's id never changes text). Returns how many were
        stored; in a transaction."""
        if not rows or self.meta("embed_model") != model_id or not self.has_vec_table():
            return 0
        wanted = {int(cid): blob for cid, blob in rows}
        marks = ",".join("?" * len(wanted))
        found = self.db.execute(
            f"""select c.id, c.content_hash, c.note_id, n.folder from chunks c join notes n on n.id = c.note_id
                where c.embedded = 0 and c.id in ({marks})""", list(wanted)).fetchall()
        for cid, content_hash, _, _ in found:
            self.cache_vector(model_id, str(content_hash), wanted[int(cid)])
        self.put_vectors([(int(cid), wanted[int(cid)], int(note_id), str(folder))
                          for cid, _, note_id, folder in found])
        return len(found)

    def forget_graph(self) -> None:
        """Name no HNSW graph (inside the caller's transaction): a note turned private had its vectors in it, and
        usearch keeps a removed node's bytes in the file; the next `maintain` deletes the file and builds anew."""
        if ann.has_log(self.db):  # an index of an older layout has no graph and no log
            ann.forget(self.db)

    def maintain_ann(self, threads: int = 0, cancelled: Callable[[], bool] | None = None) -> str:
        """Build, update or drop the approximate index beside the file so that it fits the vectors (the writer's
        job, outside a transaction; see `store/ann.py`). Returns what was done ("" for nothing)."""
        if self.readonly or self.path is None:
            return ""
        return ann.maintain(self.db, self.path, threads, cancelled)

    def uncached_pending(self, model_id: str) -> int:
        """How many chunks without a vector have a text the cache holds no `model_id` vector for (what the model
        must really embed: a model switched back, or notes restored, take theirs from the cache)."""
        return int(self.db.execute(
            "select count(*) from chunks c where c.embedded = 0 and not exists (select 1 from embed_cache e "
            "where e.model_id = ? and e.content_hash = c.content_hash)", (model_id,)).fetchone()[0])

    def cached_vectors(self, model_id: str, hashes: Sequence[str]) -> dict[str, bytes]:
        out: dict[str, bytes] = {}
        for i in range(0, len(hashes), 500):
            part = list(hashes[i : i + 500])
            marks = ",".join("?" * len(part))
            rows = self.db.execute(
                f"select content_hash, vector from embed_cache where model_id = ? and content_hash in ({marks})",
                (model_id, *part),
            )
            out.update(dict(rows.fetchall()))
        return out

    def cache_vector(self, model_id: str, content_hash: str, vector: bytes) -> None:
        self.db.execute(
            "insert or replace into embed_cache(model_id, content_hash, vector) values (?, ?, ?)",
            (model_id, content_hash, vector),
        )

    def vector_mean(self, model_id: str) -> tuple[int, np.ndarray] | None:
        """(count, mean vector) stored for `model_id`, or None."""
        row = self.db.execute("select n, mean from vector_stats where model_id = ?", (model_id,)).fetchone()
        return (int(row[0]), np.frombuffer(row[1], dtype=np.float32)) if row else None

    def compute_vector_mean(self) -> tuple[int, np.ndarray] | None:
        """The mean of every stored vector (streamed in blocks), or None when there are none."""
        if not self.has_vec_table():
            return None
        total: np.ndarray | None = None
        n = 0
        cur = self.db.execute("select vector from chunk_vectors")
        while rows := cur.fetchmany(4096):
            block = np.frombuffer(b"".join(r[0] for r in rows), dtype=np.float32).reshape(len(rows), -1)
            total = block.sum(axis=0, dtype=np.float64) if total is None else total + block.sum(axis=0)
            n += len(rows)
        return (n, (total / n).astype(np.float32)) if total is not None and n else None

    def refresh_vector_mean(self, model_id: str, tolerance: float = 0.01) -> bool:
        """Recompute the stored mean when the vector count moved by more than `tolerance` (a mean over
        thousands of chunks barely moves with one edit, and recomputing reads every vector)."""
        stored = self.vector_mean(model_id)
        count = self.db.execute("select count(*) from chunks_vec").fetchone()[0] if self.has_vec_table() else 0
        if stored is not None and abs(stored[0] - count) <= tolerance * max(stored[0], 1):
            return False
        fresh = self.compute_vector_mean()
        if fresh is None:
            self.db.execute("delete from vector_stats where model_id = ?", (model_id,))
            return stored is not None
        self.db.execute("insert or replace into vector_stats(model_id, n, mean, computed_at) values (?, ?, ?, ?)",
                        (model_id, fresh[0], vec_bytes(fresh[1]), time.time()))
        return True

    # -- health ---------------------------------------------------------------------------------
    def schema_version(self) -> str:
        """The last migration applied to this index."""
        return (migrations.applied(self.db) or ["none"])[-1]

    def counts(self) -> dict[str, int]:
        q = self.db.execute
        by_status = dict(q("select status, count(*) from notes group by status").fetchall())
        return {
            "notes_indexed": int(by_status.get("indexed", 0)),
            "notes_excluded": int(by_status.get("excluded", 0)),
            "notes_failed": int(by_status.get("failed", 0)),
            "chunks": int(q("select count(*) from chunks").fetchone()[0]),
            "chunks_embedded": int(q("select count(*) from chunks where embedded = 1").fetchone()[0]),
            "chunks_truncated": int(q("select count(*) from chunks where truncated = 1").fetchone()[0]),
            # the fast tier's share (0 without one: another embedder, or a backlog too small to need it)
            "chunks_fast": int(q("select count(*) from chunks where fast_embedded = 1").fetchone()[0]),
        }

    def purge_wal(self) -> bool:
        """Copy the WAL into the file and truncate it, so deleted text is not left in old WAL frames; False when
        a reader kept it from finishing (the next run tries again)."""
        busy = self.db.execute("pragma wal_checkpoint(truncate)").fetchone()[0]
        return not busy

    def quick_check(self) -> str:
        """SQLite's quick_check of the file's structure: 'ok' or the first problem."""
        return str(self.db.execute("pragma quick_check").fetchone()[0])

    def repair(self, full: bool = False) -> list[str]:
        """Fix the consistency problems `check` finds, inside the caller's transaction; returns what was done.

        Chunks of a note row that is gone are deleted (the note is re-indexed as new), vectors of no chunk are
        deleted, chunks that lost their vector are embedded again, a damaged or out-of-step FTS index is rebuilt
        from the chunks. `full` also runs FTS5's own integrity-check (reads the whole FTS index).
        """
        q = self.db.execute
        done = []
        orphans = q("select count(*) from chunks where note_id not in (select id from notes)").fetchone()[0]
        if orphans:
            q("delete from chunks where note_id not in (select id from notes)")
            done.append(f"deleted {orphans} chunk(s) of notes that had lost their row (they are re-indexed)")
        miscounted = [r[0] for r in q(f"select id from notes n where {MISCOUNTED}")]
        for note_id in miscounted:  # re-read from the note (vectors come back from the cache by the chunks' hashes)
            q("delete from chunks where note_id = ?", (note_id,))
            q("update notes set mtime_ns = 0, content_hash = '', chunk_count = -1 where id = ?", (note_id,))
        if miscounted:
            done.append(f"re-chunking {len(miscounted)} note(s) that had lost chunks")
        dups = [r[0] for r in q("select distinct note_id from chunks group by note_id, ordinal having count(*) > 1")]
        for note_id in dups:
            q("delete from chunks where note_id = ?", (note_id,))
            q("update notes set mtime_ns = 0, content_hash = '', chunk_count = -1 where id = ?", (note_id,))
        if dups:
            done.append(f"re-chunking {len(dups)} note(s) with duplicate chunk positions")
        if self.has_vec_table():
            stray = q("select count(*) from chunks_vec where chunk_id not in (select id from chunks)").fetchone()[0]
            if stray:
                q("delete from chunks_vec where chunk_id not in (select id from chunks)")
                done.append(f"deleted {stray} vector(s) of no chunk")
            lost = q("select count(*) from chunks where embedded = 1 and id not in (select chunk_id from chunks_vec)"
                     ).fetchone()[0]
            if lost:
                q("update chunks set embedded = 0 where embedded = 1 and id not in (select chunk_id from chunks_vec)")
                done.append(f"{lost} chunk(s) had lost their vector: they are embedded again")
            # the float32 copies used for the exact rescore must match too (two writers, a broken trigger)
            stray_f = q("select count(*) from chunk_vectors where chunk_id not in (select id from chunks)"
                        ).fetchone()[0]
            if stray_f:
                q("delete from chunk_vectors where chunk_id not in (select id from chunks)")
                done.append(f"deleted {stray_f} float vector(s) of no chunk")
            missing_f = "embedded = 1 and id not in (select chunk_id from chunk_vectors)"
            lost_f = q(f"select count(*) from chunks where {missing_f}").fetchone()[0]
            if lost_f:
                q(f"update chunks set embedded = 0 where {missing_f}")
                done.append(f"{lost_f} chunk(s) had lost their float vector: they are embedded again")
        if self.has_fast_table():  # the fast tier: vectors of no chunk out, chunks that lost theirs embedded again
            for table in ("chunks_fast_vec", "chunk_fast_vectors"):
                stray = q(f"select count(*) from {table} where chunk_id not in (select id from chunks)").fetchone()[0]
                if stray:
                    q(f"delete from {table} where chunk_id not in (select id from chunks)")
                    done.append(f"deleted {stray} fast vector(s) of no chunk")
            missing = ("fast_embedded = 1 and (id not in (select chunk_id from chunks_fast_vec) or "
                       "id not in (select chunk_id from chunk_fast_vectors))")
            lost = q(f"select count(*) from chunks where {missing}").fetchone()[0]
            if lost:
                q(f"update chunks set fast_embedded = 0 where {missing}")
                done.append(f"{lost} chunk(s) had lost their fast vector: they are embedded again")
        fts_rows = q("select count(*) from chunks_fts_docsize").fetchone()[0]
        chunks = q("select count(*) from chunks").fetchone()[0]
        fts_bad = fts_rows != chunks
        if full and not fts_bad:
            try:
                q("insert into chunks_fts(chunks_fts, rank) values ('integrity-check', 1)")
            except Exception:
                fts_bad = True
        if fts_bad:
            q("insert into chunks_fts(chunks_fts) values ('rebuild')")
            done.append(f"rebuilt the full-text index from the chunks ({fts_rows} FTS rows for {chunks} chunks)")
        return done

    def check(self) -> list[Finding]:
        """Consistency problems (empty when healthy): SQLite and FTS5 integrity, chunk/FTS/vector counts."""
        problems: list[Finding] = []
        result = self.db.execute("pragma integrity_check").fetchone()[0]
        if result != "ok":
            problems.append(Finding(CheckCode.INTEGRITY, f"sqlite integrity_check: {result}"))
        # `pragma integrity_check` also checks the FTS5 index (SQLite ≥ 3.44); FTS5's own command, which also
        # compares it with the chunks it indexes, is a write: a read-only check (`status --check`) skips it
        if not self.readonly:
            try:
                self.db.execute("insert into chunks_fts(chunks_fts, rank) values ('integrity-check', 1)")
            except Exception as e:  # FTS5 reports corruption as an exception
                problems.append(Finding(CheckCode.FTS_INTEGRITY, f"FTS5 integrity-check failed: {e}"))
        q = self.db.execute
        fts_rows = q("select count(*) from chunks_fts_docsize").fetchone()[0]
        chunks = q("select count(*) from chunks").fetchone()[0]
        if fts_rows != chunks:
            problems.append(Finding(CheckCode.FTS_ROWS, f"{chunks} chunks but {fts_rows} FTS rows"))
        orphans = q("select count(*) from chunks where note_id not in (select id from notes)").fetchone()[0]
        if orphans:
            problems.append(Finding(CheckCode.ORPHAN_CHUNKS, f"{orphans} chunks belong to no note"))
        if self.meta("embed_model") and not self.has_vec_table():
            # `index` makes it again (its vectors from the embedding cache); until then every vector search fails
            embedded = q("select count(*) from chunks where embedded = 1").fetchone()[0]
            problems.append(Finding(CheckCode.VECTOR_TABLE, f"the vector table (chunks_vec) is missing, {embedded} "
                                                            "chunks marked embedded: `vaultrag index` makes it again"))
        if self.has_vec_table():
            vec_rows = q("select count(*) from chunks_vec").fetchone()[0]
            embedded = q("select count(*) from chunks where embedded = 1").fetchone()[0]
            if vec_rows != embedded:
                problems.append(Finding(CheckCode.VECTOR_ROWS,
                                        f"{embedded} chunks marked embedded but {vec_rows} vector rows"))
            exact_rows = q("select count(*) from chunk_vectors").fetchone()[0]
            if exact_rows != vec_rows:
                problems.append(Finding(CheckCode.EXACT_VECTOR_ROWS,
                                        f"{vec_rows} int8 vectors but {exact_rows} float32 vectors"))
            stray = q("select count(*) from chunks_vec where chunk_id not in (select id from chunks)").fetchone()[0]
            if stray:
                problems.append(Finding(CheckCode.STRAY_VECTORS, f"{stray} vectors belong to no chunk"))
            missing = q(
                "select count(*) from chunks where embedded = 1 and id not in (select chunk_id from chunks_vec)"
            ).fetchone()[0]
            if missing:
                problems.append(Finding(CheckCode.MISSING_VECTORS, f"{missing} embedded chunks have no vector"))
        if self.has_fast_table():
            marked = q("select count(*) from chunks where fast_embedded = 1").fetchone()[0]
            rows = (q("select count(*) from chunks_fast_vec").fetchone()[0],
                    q("select count(*) from chunk_fast_vectors").fetchone()[0])
            if rows != (marked, marked):
                problems.append(Finding(CheckCode.FAST_VECTOR_ROWS, f"{marked} chunks marked with a fast vector but "
                                                                    f"{rows[0]} int8 and {rows[1]} float32 ones"))
        lost = q(f"select count(*) from notes n where {MISCOUNTED}").fetchone()[0]
        if lost:
            problems.append(Finding(CheckCode.LOST_CHUNKS, f"{lost} note(s) lost chunks (or have more than they were "
                                                           "given)"))
        dups = q(
            "select count(*) from (select note_id, ordinal from chunks group by 1, 2 having count(*) > 1)"
        ).fetchone()[0]
        if dups:
            problems.append(Finding(CheckCode.DUPLICATE_POSITIONS, f"{dups} duplicate (note, ordinal) chunk positions"))
        if self.path is not None and (graph := ann.problem(self.db, self.path)):
            problems.append(Finding(CheckCode.ANN_GRAPH, graph))
        return problems

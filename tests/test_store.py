"""The SQLite store: migrations from empty, refusal of newer indexes, recovery from corrupt or foreign files."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import write
from vaultrag.cli.main import main
from vaultrag.core.store import migrations
from vaultrag.core.store.db import CorruptIndex, connect
from vaultrag.core.store.index_store import IndexStore, vec_bytes
from vaultrag.errors import IndexTooNew


def test_migrations_apply_from_empty_in_order_and_only_once(tmp_path: Path):
    db = connect(tmp_path / "i.sqlite")
    try:
        assert migrations.pending(db) == [name for name, _ in migrations.MIGRATIONS]
        ran = migrations.apply(db)
        assert ran == [name for name, _ in migrations.MIGRATIONS]
        assert migrations.pending(db) == [] and migrations.apply(db) == []
        tables = {r[0] for r in db.execute("select name from sqlite_master where type in ('table', 'trigger')")}
        assert {"notes", "chunks", "chunks_fts", "embed_cache", "index_meta", "note_tags", "chunks_ai",
                "vector_stats"} <= tables
        assert db.execute("pragma journal_mode").fetchone()[0] == "wal"
    finally:
        db.close()


def test_a_failing_migration_rolls_back_and_stays_pending(tmp_path: Path):
    db = connect(tmp_path / "i.sqlite")

    def broken(con: object) -> None:
        con.execute("create table half_done(x)")  # type: ignore[attr-defined]
        raise RuntimeError("boom")

    try:
        with pytest.raises(RuntimeError):
            migrations.apply(db, [("0001_broken", broken)])
        assert db.execute("select 1 from sqlite_master where name = 'half_done'").fetchone() is None
        assert migrations.pending(db, [("0001_broken", broken)]) == ["0001_broken"]
    finally:
        db.close()


def test_an_index_from_a_newer_version_is_refused(tmp_path: Path):
    path = tmp_path / "i.sqlite"
    IndexStore.open(path).close()
    raw = sqlite3.connect(path)
    raw.execute("insert into _migrations(name, applied_at) values ('9999_future', 0)")
    raw.commit()
    raw.close()
    with pytest.raises(IndexTooNew, match="newer vaultrag"):
        IndexStore.open(path)


def test_vectors_knn_and_delete_cascade(tmp_path: Path):
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        with store.transaction():
            store.ensure_vec_table("m", 4)
            nid = store.upsert_note("f/a.md", mtime_ns=1, size=1, content_hash="h", status="indexed")
            from vaultrag.core.model import Chunk

            c = Chunk(0, (), "A", "", "text", 0, 4, 0, 1, 3, "ch")
            cid = store.insert_chunk(nid, c, truncated=False)
            store.put_vector(cid, vec_bytes(np.array([1, 0, 0, 0])), nid, "f")
        from vaultrag.core.store.reads import ScopeSQL

        assert store.knn(np.array([1, 0, 0, 0], dtype=np.float32), 1, ScopeSQL()) == [
            (cid, pytest.approx(1.0, abs=1e-6))]
        with store.transaction():
            store.delete_note(nid)
        assert store.db.execute("select count(*) from chunks_vec").fetchone()[0] == 0
        assert store.db.execute("select count(*) from chunk_vectors").fetchone()[0] == 0
        assert store.check() == []
    finally:
        store.close()


def _cli(*args: str) -> int:
    return main(list(args))


def test_corrupt_index_is_moved_aside_and_rebuilt(tmp_path: Path, vault: Path, capsys: pytest.CaptureFixture[str]):
    write(vault, "a.md", "# A\n\nSome text.\n")
    home = tmp_path / "home"
    assert _cli("--home", str(home), "index", str(vault), "--no-embed") == 0
    index_file = next((home / "indexes").glob("*.sqlite"))
    index_file.write_bytes(b"this is not a database at all" * 100)
    capsys.readouterr()
    assert _cli("--home", str(home), "index", str(vault), "--no-embed", "--json") == 0
    report = json.loads(capsys.readouterr().out)
    assert "damaged" in report["rebuilt_reason"] and "moved to" in report["rebuilt_reason"]
    assert report["chunks_total"] == 1
    # kept while the rebuild runs, deleted once it completes: it held the text of notes that may be private now
    assert not list((home / "indexes").glob("*.sqlite.corrupt-*"))


def test_foreign_sqlite_file_is_not_mistaken_for_an_index(tmp_path: Path):
    path = tmp_path / "other.sqlite"
    raw = sqlite3.connect(path)
    raw.execute("create table customers(id)")
    raw.commit()
    raw.close()
    with pytest.raises(CorruptIndex, match="another program"):
        connect(path)


def test_migration_from_the_0001_state_adds_vector_stats_and_keeps_data(tmp_path: Path):
    path = tmp_path / "old.sqlite"
    db = connect(path)
    migrations.apply(db, migrations.MIGRATIONS[:1])  # an index written by the first release
    db.execute("insert into notes(path, folder, status) values ('a.md', '', 'indexed')")
    db.close()
    store = IndexStore.open(path)
    try:
        assert migrations.applied(store.db) == [name for name, _ in migrations.MIGRATIONS]
        assert store.db.execute("select path from notes").fetchall() == [("a.md",)]
        assert store.vector_mean("m") is None
        with store.transaction():
            store.ensure_vec_table("m", 2)
            nid = store.note_rows()["a.md"].id
            from vaultrag.core.model import Chunk

            for i, v in enumerate(([1.0, 0.0], [0.0, 1.0])):
                cid = store.insert_chunk(nid, Chunk(i, (), "A", "", f"t{i}", 0, 2, 0, 1, 2, f"h{i}"), False)
                store.put_vector(cid, vec_bytes(np.array(v)), nid, "")
            assert store.refresh_vector_mean("m")
            assert not store.refresh_vector_mean("m"), "unchanged count: no recompute"
        n, mean = store.vector_mean("m")
        assert n == 2 and mean.tolist() == [0.5, 0.5]
    finally:
        store.close()


def test_migration_0003_gives_old_failed_and_excluded_rows_their_reason_codes(tmp_path: Path):
    from tests.conftest import write
    from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end

    vault = tmp_path / "vault"
    write(vault, "ok.md", "# Ok\n\nSome text.\n")
    (vault / "bin.md").write_bytes(b"\x00\x01")
    write(vault, "p.md", "---\ntags: [private]\n---\nsecret\n")
    path = tmp_path / "old.sqlite"
    db = connect(path)
    migrations.apply(db, migrations.MIGRATIONS[:2])  # an index written before reason codes existed
    for name, status, reason in (("bin.md", "failed", "binary file (contains NUL bytes), not Markdown text"),
                                 ("p.md", "excluded", "private tag #private")):
        st = (vault / name).stat()
        db.execute("insert into notes(path, folder, mtime_ns, size, status, reason) values (?, '', ?, ?, ?, ?)",
                   (name, st.st_mtime_ns, st.st_size, status, reason))
    db.close()
    store = IndexStore.open(path)
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), None).run())
        rows = store.note_rows()
        assert (rows["bin.md"].reason_code, rows["p.md"].reason_code) == ("binary", "private-tag")
        assert rows["ok.md"].status == "indexed" and rows["ok.md"].reason_code == ""
    finally:
        store.close()

"""Purged means gone from the bytes on disk: canaries of excluded and deleted notes, grepped in the raw index
file and its WAL (and the log) after the purge (issue 14)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.store.index_store import IndexStore

FILLER = "Harbour logbook entry about tides, nets and the weather at sea. " * 6


def raw_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.iterdir() if p.name.startswith(db.name) and p.is_file())


@pytest.mark.parametrize("how", ["exclude-by-tag", "exclude-by-frontmatter", "delete", "ignore-folder", "edit"])
def test_purged_text_is_gone_from_the_file_and_wal(vault: Path, tmp_path: Path, how: str,
                                                    caplog: pytest.LogCaptureFixture):
    caplog.set_level(logging.DEBUG)
    db = tmp_path / "idx" / "i.sqlite"
    words = [f"qzv{how.replace('-', '')}canary{n}" for n in range(4)]
    for n in range(30):
        write(vault, f"keep/k{n}.md", f"# Keep {n}\n\n{FILLER}\n")
    target = write(vault, "secret/s.md", "---\ntitle: " + words[0] + "\naliases: [" + words[1] + "]\n---\n"
                   f"# Heading {words[2]}\n\n{FILLER}\n\nThe sentence {words[3]} must vanish.\n")
    store = IndexStore.open(db)
    embedder = CountingEmbedder()
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    assert all(w.encode() in raw_bytes(db) for w in words[2:]), "the canaries were indexed first"

    if how == "exclude-by-tag":
        target.write_text(target.read_text().replace("---\ntitle", "---\ntags: [private]\ntitle"))
    elif how == "exclude-by-frontmatter":
        target.write_text(target.read_text().replace("---\ntitle", "---\nvaultrag: [exclude]\ntitle"))
    elif how == "delete":
        target.unlink()
    elif how == "ignore-folder":
        (vault / ".vaultragignore").write_text("secret/\n")
    else:  # the sentence is edited away, the rest of the note stays
        target.write_text(f"# Heading\n\n{FILLER}\n")
        words = words[3:]
    reader = IndexStore.open(db, readonly=True)  # as in the app: an idle reader keeps the WAL file alive
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    assert store.check() == []
    orphaned = "select count(*) from embed_cache where content_hash not in (select content_hash from chunks)"
    assert store.db.execute(orphaned).fetchone()[0] == 0, "vectors of removed text stay in the cache"
    raw = raw_bytes(db)
    reader.close()
    store.close()
    for w in words:
        assert w.encode() not in raw, f"{w} is still in the index bytes after {how}"
        assert w not in caplog.text


def test_an_index_from_before_secure_delete_is_scrubbed_on_upgrade(vault: Path, tmp_path: Path):
    """Text deleted before migration 0006 (FTS tombstones, freed pages) is gone once the index is upgraded."""
    from vaultrag.core.store import migrations
    from vaultrag.core.store.db import connect

    db = tmp_path / "old.sqlite"
    con = connect(db)
    con.execute("pragma secure_delete=off")
    # an index as the release before 0006 wrote it, with the later columns and tables today's indexer writes
    before = [m for m in migrations.MIGRATIONS if m[0] < "0006" or m[0] in ("0009_note_chunk_count",
                                                                             "0011_chunk_marks",
                                                                             "0013_fast_vectors", "0014_links",
                                                                             "0015_headings")]
    migrations.apply(con, before)
    old = IndexStore(con, db)
    write(vault, "keep.md", f"# Keep\n\n{FILLER}\n")
    gone = write(vault, "gone.md", f"# Gone\n\n{FILLER} The word qzvoldcanary was here.\n")
    run_to_end(Indexer(vault, old, IndexOptions(), None).run())
    gone.unlink()
    run_to_end(Indexer(vault, old, IndexOptions(), None).run())
    con.close()
    assert b"qzvoldcanary" in db.read_bytes(), "the old release left the deleted text in the file"
    IndexStore.open(db).close()
    assert b"qzvoldcanary" not in raw_bytes(db)


@pytest.mark.parametrize("how", ["exclude-by-tag", "exclude-by-frontmatter", "ignore-folder"])
def test_a_private_notes_vectors_are_gone_from_the_hnsw_graph_file(vault: Path, tmp_path: Path, how: str,
                                                                    monkeypatch: pytest.MonkeyPatch):
    """usearch keeps a removed node's bytes in the graph file: a note turned private left its vectors there, byte
    for byte, after its text was purged. The graph is built again without them."""
    import numpy as np

    from vaultrag.core.store import ann, vectors

    monkeypatch.setattr(ann, "ANN_MIN", 20)  # these 31 notes' chunks count as a large index: it has a graph
    db = tmp_path / "idx" / "i.sqlite"
    for n in range(30):
        write(vault, f"keep/k{n}.md", f"# Keep {n}\n\n{FILLER}\n")
    target = write(vault, "secret/s.md", f"---\ntitle: Secret\n---\n# Plans\n\n{FILLER}\n\nThe secret plan.\n")
    store = IndexStore.open(db)
    embedder = CountingEmbedder()
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    graphs = [p for p in db.parent.iterdir() if ".ann-" in p.name]
    assert graphs, "the index has its HNSW graph"
    rows = store.db.execute("select v.vector from chunk_vectors v join chunks c on c.id = v.chunk_id "
                            "join notes n on n.id = c.note_id where n.path = 'secret/s.md'").fetchall()
    secret = [vectors._int8(np.frombuffer(r[0], dtype=np.float32)).tobytes() for r in rows]
    assert secret and all(s in raw_bytes(db) for s in secret), "the private note's vectors were in the graph"
    if how == "exclude-by-tag":
        target.write_text(target.read_text().replace("---\ntitle", "---\ntags: [private]\ntitle"))
    elif how == "exclude-by-frontmatter":
        target.write_text(target.read_text().replace("---\ntitle", "---\nvaultrag: [exclude]\ntitle"))
    else:
        (vault / ".vaultragignore").write_text("secret/\n")
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    assert store.check() == []
    assert [p for p in db.parent.iterdir() if ".ann-" in p.name], "a graph again, built without them"
    raw = raw_bytes(db)
    store.close()
    assert not any(s in raw for s in secret), f"a private note's vector is still in the graph after {how}"

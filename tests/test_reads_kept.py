"""A read-only index keeps its per-question counts for one generation: a writer's commit shows at once."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from vaultrag.core.model import Chunk
from vaultrag.core.store.index_store import IndexStore


def _note(store: IndexStore, i: int, language: str) -> None:
    with store.transaction():
        nid = store.upsert_note(f"n{i}.md", mtime_ns=1, size=1, content_hash=str(i), status="indexed")
        store.db.execute("update notes set language = ? where id = ?", (language, nid))
        store.insert_chunk(nid, Chunk(0, (), "T", "", f"t{i}", 0, 2, 0, 1, 2, f"h{i}"), False)


@pytest.fixture
def pair(tmp_path: Path) -> Iterator[tuple[IndexStore, IndexStore, list[str]]]:
    """(a writer with one note, a read-only reader of the same file, the SQL the reader runs)."""
    path = tmp_path / "i.sqlite"
    writer = IndexStore.open(path)
    _note(writer, 0, "pt")
    reader = IndexStore.open(path, readonly=True)
    seen: list[str] = []
    reader.db.set_trace_callback(seen.append)
    yield writer, reader, seen
    reader.close()
    writer.close()


def test_counts_and_languages_follow_every_commit_and_are_read_once_between(pair):
    writer, reader, seen = pair
    assert (reader.index_state("m").chunks, reader.language_counts()) == (1, {"pt": 1})
    seen.clear()
    assert (reader.index_state("m").chunks, reader.language_counts()) == (1, {"pt": 1})
    assert not any("count(" in s for s in seen), "kept: nothing counted again without a write"
    _note(writer, 1, "en")  # a writer commits: a new generation
    state = reader.index_state("m")
    assert (state.chunks, state.notes, state.chunks_embedded) == (2, 2, 0)
    assert reader.language_counts() == {"pt": 1, "en": 1}
    # a writer reading its own uncommitted rows is never served kept counts
    writer.db.execute("begin immediate")
    assert writer.index_state("m").chunks == 2
    writer.db.execute("delete from chunks where id = 1")
    assert writer.index_state("m").chunks == 1
    writer.db.execute("rollback")


def test_a_questions_chunk_total_and_term_frequencies_are_read_once_per_generation(pair):
    """Every question weighs its words by IDF twice (lexical terms, answerability): at 1M chunks the count and the
    vocabulary look-ups cost ~20 ms a question, so a read-only index keeps them until a writer commits."""
    writer, reader, seen = pair
    assert (reader.chunk_total(), reader.doc_freqs(["t0", "t1"])) == (1, [1, 0])
    seen.clear()
    assert (reader.chunk_total(), reader.doc_freqs(["t1", "t0"])) == (1, [0, 1])
    assert not any("count(" in s or "chunks_vocab where" in s for s in seen), "kept: nothing read again"
    _note(writer, 1, "en")  # a new generation: the new chunk's term and count show at once
    assert (reader.chunk_total(), reader.doc_freqs(["t0", "t1"])) == (2, [1, 1])


def test_the_flags_of_a_questions_notes_are_read_by_path(tmp_path: Path):
    """Only the candidates' notes are read (not every flagged note of the vault), and their flags are right."""
    path = tmp_path / "i.sqlite"
    store = IndexStore.open(path)
    try:
        for i in range(3):
            _note(store, i, "pt")
        with store.transaction():
            store.db.execute("""update notes set flags = '["instructions"]' where path in ('n0.md', 'n2.md')""")
        seen: list[str] = []
        store.db.set_trace_callback(seen.append)
        assert store.note_flags(["n2.md", "n1.md", "n2.md"]) == {"n2.md": ["instructions"]}
        assert any("path in (" in s for s in seen)
        assert store.note_flags() == {"n0.md": ["instructions"], "n2.md": ["instructions"]}
        assert store.note_flags([]) == {}
    finally:
        store.close()


def test_a_folder_scope_holds_its_subfolders_and_no_folder_that_only_starts_alike(tmp_path: Path):
    """The scope's folder test is a range ("A/" <= folder < "A0"): "A", "A/B" and "A/B/C" are in; "AB", "A-old",
    "A0" and "B" are out (their names sort just around "A/")."""
    from vaultrag.core.scope import Scope

    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        folders = ["A", "A/B", "A/B/C", "AB", "A-old", "A0", "B", "Á"]
        with store.transaction():
            for i, f in enumerate(folders):
                store.upsert_note(f"{f}/n{i}.md", mtime_ns=1, size=1, content_hash=str(i), status="indexed")
        sql = store.scope_sql(Scope(folders=["A"]))
        got = {r[0] for r in store.db.execute(f"select folder from notes where id in ({sql.sql})", sql.params)}
        assert got == {"A", "A/B", "A/B/C"}
        sql = store.scope_sql(Scope(folders=["A/B/"]))
        got = {r[0] for r in store.db.execute(f"select folder from notes where id in ({sql.sql})", sql.params)}
        assert got == {"A/B", "A/B/C"}
    finally:
        store.close()


def test_a_small_indexs_vectors_are_read_once_per_generation_and_a_new_vector_shows_at_once(pair):
    """Below EXACT_MAX every question scores all vectors: a read-only index keeps them as one matrix until a
    writer commits (the rows are not read again), and scoped questions still read only their notes' rows."""
    import numpy as np

    from vaultrag.core.scope import Scope
    from vaultrag.core.store.index_store import vec_bytes

    writer, reader, seen = pair
    unit = np.eye(4, dtype=np.float32)
    with writer.transaction():
        writer.ensure_vec_table("m", 4)
        writer.put_vectors([(1, vec_bytes(unit[0]), 1, "")])
    q = np.array([0.6, 0.8, 0.0, 0.0], dtype=np.float32)
    assert [(i, round(c, 3)) for i, c in reader.knn(q, 5, reader.scope_sql(Scope()))] == [(1, 0.6)]
    seen.clear()
    assert [i for i, _ in reader.knn(q, 5, reader.scope_sql(Scope()))] == [1]
    assert not any("from chunk_vectors" in s for s in seen), "kept: the vectors are not read again"
    _note(writer, 1, "en")
    with writer.transaction():
        writer.put_vectors([(2, vec_bytes(unit[1]), 2, "")])
    assert [(i, round(c, 3)) for i, c in reader.knn(q, 5, reader.scope_sql(Scope()))] == [(2, 0.8), (1, 0.6)]
    scoped = reader.knn(q, 5, reader.scope_sql(Scope(notes=["n0.md"])))
    assert [i for i, _ in scoped] == [1]

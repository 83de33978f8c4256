"""A read-only index keeps its per-question counts for one generation: a writer's commit shows at once."""

from __future__ import annotations

from pathlib import Path

from vaultrag.core.model import Chunk
from vaultrag.core.store.index_store import IndexStore


def _note(store: IndexStore, i: int, language: str) -> None:
    with store.transaction():
        nid = store.upsert_note(f"n{i}.md", mtime_ns=1, size=1, content_hash=str(i), status="indexed")
        store.db.execute("update notes set language = ? where id = ?", (language, nid))
        store.insert_chunk(nid, Chunk(0, (), "T", "", f"t{i}", 0, 2, 0, 1, 2, f"h{i}"), False)


def test_counts_and_languages_follow_every_commit_and_are_read_once_between(tmp_path: Path):
    path = tmp_path / "i.sqlite"
    writer = IndexStore.open(path)
    _note(writer, 0, "pt")
    reader = IndexStore.open(path, readonly=True)
    seen: list[str] = []
    reader.db.set_trace_callback(seen.append)
    try:
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
    finally:
        reader.close()
        writer.close()

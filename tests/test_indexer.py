"""Incremental indexing against a real SQLite file with sqlite-vec: edit, rename, delete, add, idempotency."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.indexer import CancelToken, Indexer, IndexOptions, run_to_end
from vaultrag.core.model import IndexReport
from vaultrag.core.store.index_store import IndexStore

NOTE_A = """---
title: Alpha
tags: [proj]
---

# Alpha

First paragraph about apples and pears.

## Details

Second section about oranges.

## More

Third section about bananas.
"""


def index(vault: Path, db: Path, embedder: CountingEmbedder | None, **opts: object) -> IndexReport:
    store = IndexStore.open(db)
    try:
        return run_to_end(Indexer(vault, store, IndexOptions(**opts), embedder).run())  # type: ignore[arg-type]
    finally:
        store.close()


def state(db: Path) -> set[tuple[str, str]]:
    """(note path, chunk hash) of every chunk: the index's content, for convergence checks."""
    store = IndexStore.open(db)
    try:
        rows = store.db.execute("select n.path, c.content_hash from chunks c join notes n on n.id = c.note_id")
        return set(rows.fetchall())
    finally:
        store.close()


def check(db: Path) -> list[str]:
    store = IndexStore.open(db)
    try:
        return store.check()
    finally:
        store.close()


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "home" / "index.sqlite"


def test_first_run_indexes_and_embeds_everything(vault: Path, db: Path, fake_embedder: CountingEmbedder):
    write(vault, "a.md", NOTE_A)
    write(vault, "sub/b.md", "# Beta\n\nSomething about cherries.\n")
    report = index(vault, db, fake_embedder)
    assert report.notes_seen == 2 and report.notes_indexed == 2
    assert report.chunks_total == 4 and report.chunks_embedded == 4 and report.chunks_pending == 0
    assert len(fake_embedder.passages) == 4
    assert all(p.startswith(("Alpha\n", "Alpha > ", "Beta\n")) for p in fake_embedder.passages)
    assert check(db) == []
    store = IndexStore.open(db)
    try:
        folders = dict(store.db.execute("select n.path, v.folder from chunks_vec v join notes n on n.id = v.note_id"))
        tags = store.db.execute("select tag from note_tags").fetchall()
    finally:
        store.close()
    assert folders == {"a.md": "", "sub/b.md": "sub"}
    assert tags == [("proj",)]


def test_second_run_on_unchanged_vault_embeds_nothing_and_writes_nothing(
    vault: Path, db: Path, fake_embedder: CountingEmbedder
):
    write(vault, "a.md", NOTE_A)
    index(vault, db, fake_embedder)
    before = len(fake_embedder.passages)
    bytes_before = db.read_bytes()
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    version = con.execute("pragma data_version").fetchone()[0]
    report = index(vault, db, fake_embedder)
    assert report.notes_unchanged == 1 and report.notes_indexed == 0
    assert report.chunks_embedded == 0 and len(fake_embedder.passages) == before
    assert con.execute("pragma data_version").fetchone()[0] == version, "an unchanged vault causes no writes"
    con.close()
    assert db.read_bytes() == bytes_before


def test_editing_one_paragraph_re_embeds_exactly_the_changed_chunk(
    vault: Path, db: Path, fake_embedder: CountingEmbedder
):
    note = write(vault, "a.md", NOTE_A)
    index(vault, db, fake_embedder)
    fake_embedder.passages.clear()
    note.write_text(NOTE_A.replace("oranges", "tangerines"), encoding="utf-8")
    report = index(vault, db, fake_embedder)
    assert report.notes_indexed == 1
    assert fake_embedder.passages == ["Alpha > Details\n## Details\n\nSecond section about tangerines."]
    assert report.chunks_embedded == 1
    assert check(db) == []


def test_inserting_text_above_keeps_unchanged_chunks_and_updates_their_offsets(
    vault: Path, db: Path, fake_embedder: CountingEmbedder
):
    note = write(vault, "a.md", NOTE_A)
    index(vault, db, fake_embedder)
    fake_embedder.passages.clear()
    edited = NOTE_A.replace("## More", "## Inserted\n\nA brand new section.\n\n## More")
    note.write_text(edited, encoding="utf-8")
    index(vault, db, fake_embedder)
    assert fake_embedder.passages == ["Alpha > Inserted\n## Inserted\n\nA brand new section."]
    store = IndexStore.open(db)
    try:
        rows = store.db.execute("select ordinal, body, char_start, char_end from chunks order by ordinal").fetchall()
    finally:
        store.close()
    assert [r[0] for r in rows] == [0, 1, 2, 3]
    for _, body, start, end in rows:
        assert edited[start:end] == body


def test_rename_and_folder_move_reuse_vectors(vault: Path, db: Path, fake_embedder: CountingEmbedder):
    write(vault, "a.md", NOTE_A)
    write(vault, "x/b.md", "# Beta\n\nCherries.\n")
    index(vault, db, fake_embedder)
    fake_embedder.passages.clear()
    (vault / "a.md").rename(vault / "renamed.md")
    (vault / "x").rename(vault / "y")
    report = index(vault, db, fake_embedder)
    assert report.notes_moved == 2 and report.notes_deleted == 0
    assert fake_embedder.passages == [], "a move never re-embeds (title comes from frontmatter/H1 here)"
    assert {p for p, _ in state(db)} == {"renamed.md", "y/b.md"}
    store = IndexStore.open(db)
    try:
        assert store.db.execute("select distinct folder from chunks_vec order by 1").fetchall() == [("",), ("y",)]
    finally:
        store.close()
    assert check(db) == []


def test_delete_and_add(vault: Path, db: Path, fake_embedder: CountingEmbedder):
    write(vault, "a.md", NOTE_A)
    write(vault, "b.md", "# Beta\n\nCherries.\n")
    index(vault, db, fake_embedder)
    (vault / "b.md").unlink()
    write(vault, "c.md", "# Gamma\n\nGrapes.\n")
    report = index(vault, db, fake_embedder)
    assert report.notes_deleted == 1 and report.notes_indexed == 1
    assert {p for p, _ in state(db)} == {"a.md", "c.md"}
    assert check(db) == []



def test_an_emptied_vault_deletes_nothing_unless_asked(vault: Path, tmp_path: Path, db: Path,
                                                       fake_embedder: CountingEmbedder):
    """An unmounted drive or a share that is down looks like a vault with no note: the run refuses to delete the
    index, its vectors and the embedding cache (a hostile tester's index was wiped and re-embedded from scratch)."""
    from vaultrag.errors import Problem, VaultNotFound

    write(vault, "a.md", NOTE_A)
    write(vault, "sub/b.md", "# Beta\n\nCherries.\n")
    index(vault, db, fake_embedder)
    before, embedded = state(db), len(fake_embedder.passages)
    away = tmp_path / "away"
    vault.rename(away)
    vault.mkdir()  # the mount point, empty
    with pytest.raises(VaultNotFound) as e:
        index(vault, db, fake_embedder)
    assert e.value.problem == Problem.VAULT_EMPTIED and e.value.details["count"] == "2"
    assert "Nothing was deleted" in str(e.value) and "--allow-empty" in str(e.value)
    assert state(db) == before, "every note, chunk and vector kept"
    # ignore rules that leave out every note are the same case
    with pytest.raises(VaultNotFound):
        index(away, db, fake_embedder, ignore_globs=("**/*.md", "*.md"))
    assert state(db) == before
    vault.rmdir()
    away.rename(vault)  # mounted again: nothing to redo
    report = index(vault, db, fake_embedder)
    assert report.notes_unchanged == 2 and len(fake_embedder.passages) == embedded
    # asked for: a vault whose every note was removed on purpose empties the index
    for note in ("a.md", "sub/b.md"):
        (vault / note).unlink()
    report = index(vault, db, fake_embedder, allow_empty=True)
    assert report.notes_deleted == 2 and state(db) == set() and check(db) == []
    # an index that never held a note says nothing of an empty folder
    assert index(vault, tmp_path / "other.sqlite", fake_embedder).notes_seen == 0

def test_state_after_edits_equals_a_fresh_full_index(vault: Path, tmp_path: Path, db: Path):
    write(vault, "a.md", NOTE_A)
    write(vault, "b.md", "# Beta\n\nCherries.\n")
    index(vault, db, CountingEmbedder())
    (vault / "a.md").write_text(NOTE_A.replace("apples", "plums"), encoding="utf-8")
    (vault / "b.md").rename(vault / "c.md")
    write(vault, "d/e.md", "# Delta\n\nDates.\n")
    index(vault, db, CountingEmbedder())
    fresh = tmp_path / "fresh.sqlite"
    index(vault, fresh, CountingEmbedder())
    assert state(db) == state(fresh)


def test_exclusions_are_recorded_with_their_rule(vault: Path, db: Path, fake_embedder: CountingEmbedder):
    write(vault, "keep.md", "# Keep\n\nVisible text.\n")
    write(vault, "secret.md", "---\ntags: [private]\n---\n# S\n\nHidden.\n")
    write(vault, "inline-secret.md", "# S2\n\nHidden too #private/diary\n")
    write(vault, "draft.md", "---\nvaultrag: exclude\n---\n# D\n\nDraft.\n")
    write(vault, "drafts/x.md", "# X\n\nIgnored by file.\n")
    write(vault, "tmp/y.md", "# Y\n\nIgnored by glob.\n")
    write(vault, ".obsidian/z.md", "# Z\n")
    write(vault, ".hidden/w.md", "# W\n")
    write(vault, ".vaultragignore", "drafts/\n")
    report = index(vault, db, fake_embedder, ignore_globs=("tmp/",))
    assert report.notes_indexed == 1
    assert {p for p, _ in state(db)} == {"keep.md"}
    store = IndexStore.open(db)
    try:
        excluded = dict(store.db.execute("select path, reason from notes where status = 'excluded'").fetchall())
    finally:
        store.close()
    assert excluded == {
        "secret.md": "private tag #private",
        "inline-secret.md": "private tag #private",
        "draft.md": "frontmatter vaultrag: exclude",
        "drafts/": ".vaultragignore pattern",
        "tmp/": "ignore_globs setting",
        ".obsidian/": "obsidian config folder",
        ".hidden/": "hidden folder",
    }
    assert not any("Hidden" in p for p in fake_embedder.passages)


def test_a_note_gaining_the_private_tag_is_purged(vault: Path, db: Path, fake_embedder: CountingEmbedder):
    note = write(vault, "a.md", NOTE_A)
    index(vault, db, fake_embedder)
    note.write_text(NOTE_A.replace("tags: [proj]", "tags: [proj, private]"), encoding="utf-8")
    index(vault, db, fake_embedder)
    assert state(db) == set()
    assert check(db) == []


def test_bad_inputs_are_recorded_and_the_run_goes_on(vault: Path, db: Path, fake_embedder: CountingEmbedder):
    write(vault, "good.md", "# Good\n\nFine text.\n")
    (vault / "latin1.md").write_bytes("Olá, caf\xe9".encode("latin-1"))
    (vault / "binary.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00IHDR")
    (vault / "empty.md").write_bytes(b"")
    (vault / "big.md").write_bytes(b"word " * 3000)
    write(vault, "badfm.md", "---\ntitle: [unclosed\n---\n# Still indexed\n\nBody text.\n")
    (vault / "loop").mkdir()
    os.symlink(vault / "loop", vault / "loop" / "again")
    locked = write(vault, "locked.md", "# Locked\n")
    locked.chmod(0)
    try:
        report = index(vault, db, fake_embedder, max_note_bytes=10_000)
    finally:
        locked.chmod(0o644)
    store = IndexStore.open(db)
    try:
        rows = {p: (s, r) for p, s, r in store.db.execute("select path, status, reason from notes")}
    finally:
        store.close()
    assert rows["good.md"] == ("indexed", "")
    assert rows["latin1.md"] == ("failed", "invalid UTF-8 at byte 2")
    assert rows["binary.md"][0] == "failed" and "binary" in rows["binary.md"][1]
    assert rows["empty.md"] == ("indexed", "empty note (no text to index)")
    assert rows["big.md"][0] == "failed" and "size cap" in rows["big.md"][1]
    assert rows["badfm.md"][0] == "indexed" and rows["badfm.md"][1].startswith("malformed frontmatter")
    assert rows["loop/again/"] == ("excluded", "symlink loop (folder already visited)")
    if os.geteuid() != 0:  # root reads files regardless of permissions
        assert rows["locked.md"] == ("failed", "permission denied")
    assert report.notes_seen == 7
    assert {p for p, _ in state(db)} >= {"good.md", "badfm.md"}


def test_cancel_then_resume_does_not_redo_work(vault: Path, db: Path):
    for i in range(6):
        write(vault, f"n{i}.md", f"# Note {i}\n\nText number {i} about topic {i}.\n")
    first = CountingEmbedder()
    store = IndexStore.open(db)
    cancel = CancelToken()
    gen = Indexer(vault, store, IndexOptions(embed_batch=2), first).run(cancel)
    for p in gen:
        if p.phase == "embed" and p.done >= 2:
            cancel.cancel()
    store.close()
    assert len(first.passages) == 2
    second = CountingEmbedder()
    report = index(vault, db, second, embed_batch=2)
    assert len(second.passages) == 4, "only the chunks without vectors are embedded"
    assert report.chunks_pending == 0
    assert not set(first.passages) & set(second.passages)


def test_embedding_progress_continues_from_the_chunks_already_embedded(vault: Path, db: Path):
    """After a pause (or an edit) the count goes on from what is embedded: 2/6 → 6/6, not 0/4 → 4/4."""
    for i in range(6):
        write(vault, f"n{i}.md", f"# Note {i}\n\nText number {i} about topic {i}.\n")
    store = IndexStore.open(db)
    cancel = CancelToken()
    for p in Indexer(vault, store, IndexOptions(embed_batch=2), CountingEmbedder()).run(cancel):
        if p.phase == "embed" and p.done >= 2:
            cancel.cancel()
    resumed = [p for p in Indexer(vault, store, IndexOptions(embed_batch=2), CountingEmbedder()).run()
               if p.phase == "embed"]
    assert [(p.done, p.total) for p in resumed] == [(2, 6), (4, 6), (6, 6)]
    assert resumed[-1].eta_s == 0 and resumed[1].rate > 0
    write(vault, "n0.md", "# Note 0\n\nAn edited text.\n")  # an edit: one chunk to embed, five kept
    edited = [p for p in Indexer(vault, store, IndexOptions(embed_batch=2), CountingEmbedder()).run()
              if p.phase == "embed"]
    store.close()
    assert [(p.done, p.total) for p in edited] == [(5, 6), (6, 6)]


def test_embedder_crash_leaves_a_consistent_resumable_index(vault: Path, db: Path):
    for i in range(5):
        write(vault, f"n{i}.md", f"# Note {i}\n\nText number {i}.\n")
    broken = CountingEmbedder()
    broken.fail_after = 2
    with pytest.raises(RuntimeError):
        index(vault, db, broken, embed_batch=2)
    assert check(db) == []
    report = index(vault, db, CountingEmbedder(), embed_batch=2)
    assert report.chunks_embedded == 3 and report.chunks_pending == 0


def test_model_change_marks_everything_for_re_embedding_and_cache_serves_switch_back(vault: Path, db: Path):
    write(vault, "a.md", NOTE_A)
    index(vault, db, CountingEmbedder("fake/one"))
    other = CountingEmbedder("fake/two")
    index(vault, db, other)
    assert len(other.passages) == 3
    back = CountingEmbedder("fake/one")
    report = index(vault, db, back)
    assert back.passages == [] and report.chunks_reused == 3
    assert check(db) == []


def test_text_only_run_gives_bm25_before_vectors(vault: Path, db: Path):
    write(vault, "a.md", NOTE_A)
    report = index(vault, db, None)
    assert report.chunks_total == 3 and report.chunks_pending == 3
    store = IndexStore.open(db)
    try:
        hits = store.db.execute("select rowid from chunks_fts where chunks_fts match '\"oranges\"'").fetchall()
    finally:
        store.close()
    assert len(hits) == 1


def test_changing_chunk_size_rechunks_every_note(vault: Path, db: Path, fake_embedder: CountingEmbedder):
    write(vault, "a.md", NOTE_A)
    index(vault, db, fake_embedder, chunk_tokens=200)
    report = index(vault, db, fake_embedder, chunk_tokens=5)
    assert report.notes_indexed == 1


def test_parallel_parsing_gives_the_same_index_as_sequential(vault: Path, tmp_path: Path):
    for i in range(260):
        text = f"# Note {i}\n\nParagraph {i} about subject {i % 17}.\n\n## Part\n\nMore {i}.\n"
        write(vault, f"d{i % 5}/n{i}.md", text)
    write(vault, "bad.md", "")
    (vault / "bad.md").write_bytes(b"\xc3\x28")  # invalid UTF-8 (\xff\xfe would be a UTF-16 BOM: an empty note)
    seq, par = tmp_path / "seq.sqlite", tmp_path / "par.sqlite"
    index(vault, seq, CountingEmbedder(), workers=1)
    report = index(vault, par, CountingEmbedder(), workers=2)
    assert report.notes_indexed == 260 and report.notes_failed == 1
    assert state(seq) == state(par) and len(state(par)) == 520
    assert check(par) == []


def _fts_hits(db: Path, word: str) -> set[str]:
    store = IndexStore.open(db)
    try:
        rows = store.db.execute("select n.path from chunks_fts f join chunks c on c.id = f.rowid "
                                "join notes n on n.id = c.note_id where chunks_fts match ?", (f'"{word}"',))
        trigger = store.db.execute("select count(*) from sqlite_master where name = 'chunks_ai'").fetchone()[0]
        assert trigger == 1, "the per-row FTS trigger is in place in every committed state"
        return {r[0] for r in rows}
    finally:
        store.close()


def test_a_first_run_fills_fts_per_commit_and_a_kill_leaves_every_commit_complete(vault: Path, db: Path,
                                                                                   monkeypatch):
    from vaultrag.core.index import indexer
    from vaultrag.core.store.fts import DeferredFts

    catch_ups = []
    real = DeferredFts.catch_up
    monkeypatch.setattr(DeferredFts, "catch_up", lambda self: (catch_ups.append(1), real(self))[1])
    for i in range(30):
        write(vault, f"n{i:02d}.md", f"# Note {i}\n\nThe word uniq{i}word lives here.\n\n## Part\n\nMore text {i}.\n")
    monkeypatch.setattr(indexer, "COMMIT_EVERY_S", -1.0)  # a commit after every note
    store = IndexStore.open(db)
    gen = Indexer(vault, store, IndexOptions(workers=1), None).run()
    texts = 0
    for p in gen:
        texts += p.phase == "text"
        if texts == 12:
            break
    gen.close()  # as a kill mid-run: the open part is rolled back, the committed ones stay
    store.close()
    assert check(db) == [], "FTS5 holds exactly the committed chunks"
    committed = {path for path, _ in state(db)}
    assert 5 <= len(committed) < 30 and len(catch_ups) >= 5, "a first run takes the deferred path"
    for i in range(30):
        assert _fts_hits(db, f"uniq{i}word") == ({f"n{i:02d}.md"} & committed)
    catch_ups.clear()
    report = index(vault, db, None)  # resumed: chunks exist now, so row by row
    assert catch_ups == []
    assert report.notes_indexed == 30 - len(committed) and check(db) == []
    assert all(_fts_hits(db, f"uniq{i}word") == {f"n{i:02d}.md"} for i in range(30))
    write(vault, "n03.md", "# Note 3\n\nThe word freshword replaced it.\n")
    index(vault, db, None)
    assert _fts_hits(db, "freshword") == {"n03.md"} and _fts_hits(db, "uniq3word") == set() and check(db) == []


def test_a_transaction_sqlite_rolls_back_itself_mid_first_run_leaves_fts_exact(vault: Path, db: Path, monkeypatch):
    """A full disk makes SQLite roll the whole transaction back by itself (the lifted trigger comes back); the run
    goes on note by note, and the FTS5 rows must still match the chunks exactly, without duplicates."""
    import sqlean

    from vaultrag.core.index import indexer

    for i in range(30):
        write(vault, f"n{i:02d}.md", f"# Note {i}\n\nThe word uniq{i}word lives here.\n")
    monkeypatch.setattr(indexer, "COMMIT_EVERY_S", 3600.0)  # one window for the whole run
    store = IndexStore.open(db)
    real = store.insert_chunk
    calls = []

    def insert_chunk(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(1)
        if len(calls) == 11:  # what SQLite does on SQLITE_FULL: the whole transaction is gone
            store.db.execute("rollback")
            raise sqlean.OperationalError("database or disk is full")
        return real(*args, **kwargs)

    monkeypatch.setattr(store, "insert_chunk", insert_chunk)
    try:
        report = run_to_end(Indexer(vault, store, IndexOptions(workers=1), None).run())
    finally:
        store.close()
    assert report.notes_failed == 1 and check(db) == [], "no FTS5 row twice, none missing"
    indexed = {path for path, _ in state(db)}
    assert indexed == {f"n{i:02d}.md" for i in range(11, 30)}, "the notes before the error went with it"
    for i in range(30):
        assert _fts_hits(db, f"uniq{i}word") == ({f"n{i:02d}.md"} & indexed)
    again = index(vault, db, None)  # the next run brings back what the rollback took, and retries the failed note
    assert {path for path, _ in state(db)} == {f"n{i:02d}.md" for i in range(30)} and check(db) == []
    assert again.notes_failed == 0


def test_a_lost_vector_table_is_found_by_the_check_and_made_again_by_index(vault: Path, db: Path,
                                                                           fake_embedder: CountingEmbedder):
    """`status --check` said ok while every question failed with "no such table: chunks_vec" (a hostile tester)."""
    from vaultrag.core.store.index_store import CheckCode

    write(vault, "a.md", NOTE_A)
    index(vault, db, fake_embedder)
    store = IndexStore.open(db)
    try:
        store.db.execute("drop table chunks_vec")
    finally:
        store.close()
    assert [f.code for f in check(db)] == [CheckCode.VECTOR_TABLE]
    embedded = len(fake_embedder.passages)
    index(vault, db, fake_embedder)
    assert check(db) == [], "made again"
    assert len(fake_embedder.passages) == embedded, "from the embedding cache: nothing embedded again"

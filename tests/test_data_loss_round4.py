"""Nothing the scan cannot see is deleted: an unreadable note or folder, and a vault half gone, keep their index."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from tests.test_watch import Live
from vaultrag.core.health import Health, health
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.model import IndexReport
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import NoteStatus, Reason
from vaultrag.settings import Settings


def _permissions_hold() -> bool:
    """Whether a file without permissions is unreadable here (root, or a process with CAP_DAC_OVERRIDE, reads it)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        probe = Path(d, "probe")
        probe.write_text("x")
        probe.chmod(0)
        try:
            probe.read_text()
        except PermissionError:
            return True
        finally:
            probe.chmod(0o644)
    return False


needs_permissions = pytest.mark.skipif(not _permissions_hold(), reason="this user reads a file whatever its mode")


def index(vault: Path, db: Path, embedder: CountingEmbedder, **opts: object) -> IndexReport:
    store = IndexStore.open(db)
    try:
        return run_to_end(Indexer(vault, store, IndexOptions(**opts), embedder).run())  # type: ignore[arg-type]
    finally:
        store.close()


def chunks(db: Path) -> dict[str, set[str]]:
    """Each note's chunk bodies."""
    store = IndexStore.open(db)
    try:
        out: dict[str, set[str]] = {}
        for path, body in store.db.execute("select n.path, c.body from chunks c join notes n on n.id = c.note_id"):
            out.setdefault(path, set()).add(body)
        return out
    finally:
        store.close()


def row(db: Path, path: str) -> tuple[str, int, int]:
    """(status, mtime_ns, size) of a note row."""
    store = IndexStore.open(db)
    try:
        r = store.note_rows()[path]
        return r.status, r.mtime_ns, r.size
    finally:
        store.close()


def status(vault: Path, db: Path) -> Health:
    store = IndexStore.open(db)
    try:
        return health(store, str(vault), Settings())
    finally:
        store.close()


def stale(h: Health) -> dict[str, Reason]:
    return {n.path: n.code for n in h.notes["stale"]}


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "home" / "index.sqlite"


@pytest.fixture
def locked() -> Iterator[list[Path]]:
    """Paths a test took every permission from: given back after it, so the temp folder can be removed."""
    paths: list[Path] = []
    yield paths
    for p in paths:
        p.chmod(0o755 if p.is_dir() else 0o644)


def lock(locked: list[Path], p: Path, mode: int = 0) -> None:
    locked.append(p)
    p.chmod(mode)


def notes(vault: Path, folder: str, n: int, start: int = 0) -> None:
    for i in range(start, start + n):
        write(vault, f"{folder}n{i}.md", f"# Note {folder}{i}\n\nFact number {i} in {folder or 'top'}.\n")


# -- 1. a failed read keeps the indexed version and is retried -------------------------------------------------
@needs_permissions
def test_a_note_unreadable_after_an_edit_keeps_its_chunks_and_is_read_again_once_readable(
        vault: Path, db: Path, fake_embedder: CountingEmbedder, locked: list[Path]):
    notes(vault, "", 3)
    write(vault, "a.md", "# Alpha\n\nApples are red.\n")
    index(vault, db, fake_embedder)
    before = chunks(db)["a.md"]
    old = row(db, "a.md")
    (vault / "a.md").write_text("# Alpha\n\nApples are green now.\n", encoding="utf-8")
    lock(locked, vault / "a.md")
    report = index(vault, db, fake_embedder)
    assert chunks(db)["a.md"] == before, "the indexed version is kept"
    assert row(db, "a.md") == old, "the new mtime and size are not recorded: the next run reads it again"
    assert any("a.md" in m and "permission denied" in m for m in report.messages), report.messages
    assert stale(status(vault, db))["a.md"] == Reason.PERMISSION, "Index health says it cannot be read now"
    (vault / "a.md").chmod(0o644)  # chmod leaves the mtime alone: only the unrecorded stat brings it back
    index(vault, db, fake_embedder)
    assert "green" in " ".join(chunks(db)["a.md"])
    assert row(db, "a.md")[0] == NoteStatus.INDEXED and "a.md" not in stale(status(vault, db))


@needs_permissions
def test_a_new_note_that_cannot_be_read_is_tried_again_on_the_next_run(
        vault: Path, db: Path, fake_embedder: CountingEmbedder, locked: list[Path]):
    notes(vault, "", 3)
    index(vault, db, fake_embedder)
    write(vault, "new.md", "# New\n\nKiwis are green.\n")
    lock(locked, vault / "new.md")
    index(vault, db, fake_embedder)
    assert row(db, "new.md")[0] == NoteStatus.FAILED and "new.md" not in chunks(db)
    (vault / "new.md").chmod(0o644)
    index(vault, db, fake_embedder)
    assert "Kiwis are green." in " ".join(chunks(db)["new.md"])


# -- 2. a folder the scan cannot list keeps its notes ----------------------------------------------------------
@needs_permissions
def test_notes_under_an_unreadable_folder_are_kept_and_reported_not_deleted(
        vault: Path, db: Path, fake_embedder: CountingEmbedder, locked: list[Path]):
    notes(vault, "", 40)
    notes(vault, "sub/", 30)  # under half the vault: the mass-deletion guard has nothing to do with it
    index(vault, db, fake_embedder)
    before, embedded = chunks(db), len(fake_embedder.passages)
    lock(locked, vault / "sub")
    report = index(vault, db, fake_embedder)
    assert report.notes_deleted == 0 and chunks(db) == before
    codes = stale(status(vault, db))
    assert all(codes[f"sub/n{i}.md"] == Reason.UNREADABLE_FOLDER for i in range(30)), codes
    assert any("sub/" in m for m in report.messages), report.messages
    (vault / "sub").chmod(0o755)
    report = index(vault, db, fake_embedder)
    assert report.notes_unchanged == 70 and len(fake_embedder.passages) == embedded, "nothing embedded again"
    assert chunks(db) == before and not stale(status(vault, db))


@needs_permissions
def test_notes_of_a_folder_that_lists_but_cannot_be_entered_are_kept(
        vault: Path, db: Path, fake_embedder: CountingEmbedder, locked: list[Path]):
    """r-- on a folder: its names are listed, but no file in it can be stat'ed."""
    notes(vault, "", 10)
    notes(vault, "sub/", 3)
    index(vault, db, fake_embedder)
    before = chunks(db)
    lock(locked, vault / "sub", 0o444)
    index(vault, db, fake_embedder)
    assert chunks(db) == before
    assert all(row(db, f"sub/n{i}.md")[0] == NoteStatus.INDEXED for i in range(3))
    assert stale(status(vault, db))["sub/n0.md"] == Reason.CANNOT_STAT


@needs_permissions
def test_an_unreadable_folder_under_watch_keeps_its_notes(vault: Path, home: Path, locked: list[Path]):
    notes(vault, "", 40)
    notes(vault, "sub/", 30)
    live = Live(vault, home)
    live.start()
    try:
        before, embedded = live.state(), len(live.embedder.passages)
        lock(locked, vault / "sub")
        write(vault, "n0.md", "# Note 0\n\nAn edit that runs the lane.\n")
        live.wait_for(lambda s: "An edit that runs the lane." in " ".join(s.get("n0.md", ())))
        live.settle()
        after = live.state()
        assert {p: after[p] for p in after if p.startswith("sub/")} == {
            p: before[p] for p in before if p.startswith("sub/")}, "every note under the folder kept"
        (vault / "sub").chmod(0o755)
        write(vault, "n1.md", "# Note 1\n\nAnother edit.\n")
        live.wait_for(lambda s: "Another edit." in " ".join(s.get("n1.md", ())))
        live.settle()
        assert len(live.embedder.passages) == embedded + 2, "only the two edits embedded"
    finally:
        live.stop()


# -- 3. a run that would delete most of the index keeps it ------------------------------------------------------
def test_one_note_back_of_thirty_one_deletes_nothing_unless_asked(
        vault: Path, tmp_path: Path, db: Path, fake_embedder: CountingEmbedder):
    """A sync client restoring the vault note by note: the first one back must not let the other 30 go."""
    notes(vault, "", 1)
    notes(vault, "sub/", 30)
    index(vault, db, fake_embedder)
    before, embedded = chunks(db), len(fake_embedder.passages)
    away = tmp_path / "away"
    shutil.move(vault / "sub", away)
    report = index(vault, db, fake_embedder)
    assert report.notes_deleted == 0 and chunks(db) == before, "kept"
    assert any("30 of the 31" in m and "--allow-empty" in m for m in report.messages), report.messages
    assert any("30 of the 31" in w for w in status(vault, db).warnings)
    shutil.move(away, vault / "sub")
    report = index(vault, db, fake_embedder)
    assert report.notes_unchanged == 31 and len(fake_embedder.passages) == embedded
    assert not status(vault, db).warnings
    shutil.rmtree(vault / "sub")  # removed on purpose, and confirmed
    report = index(vault, db, fake_embedder, allow_empty=True)
    assert report.notes_deleted == 30 and set(chunks(db)) == {"n0.md"}


def test_a_sub_folders_share_gone_keeps_its_notes(vault: Path, tmp_path: Path, db: Path,
                                                   fake_embedder: CountingEmbedder):
    notes(vault, "share/", 30)  # a network share mounted on the vault's folder
    notes(vault, "", 2)
    index(vault, db, fake_embedder)
    before = chunks(db)
    (vault / "share").rename(tmp_path / "down")
    (vault / "share").mkdir()  # the share is down: its mount point is an empty folder
    report = index(vault, db, fake_embedder)
    assert report.notes_deleted == 0 and chunks(db) == before


def test_the_guard_lets_small_deletions_and_renames_through(vault: Path, db: Path,
                                                            fake_embedder: CountingEmbedder):
    notes(vault, "", 1)
    notes(vault, "sub/", 30)
    index(vault, db, fake_embedder)
    embedded = len(fake_embedder.passages)
    (vault / "sub").rename(vault / "moved")  # 30 of 31 paths gone, every one a move
    report = index(vault, db, fake_embedder)
    assert report.notes_moved == 30 and report.notes_deleted == 0 and not report.messages
    assert len(fake_embedder.passages) == embedded
    for i in range(5):  # a handful: deleted as always, even when it is most of a small vault
        (vault / f"moved/n{i}.md").unlink()
    assert index(vault, db, fake_embedder).notes_deleted == 5
    for i in range(5, 17):  # 12 of 26: under half
        (vault / f"moved/n{i}.md").unlink()
    assert index(vault, db, fake_embedder).notes_deleted == 12

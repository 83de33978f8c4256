"""Each kind of index damage, made at test time, ends repaired or rebuilt with a message (issue 14)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.store.db import connect
from vaultrag.core.vocab import Problem
from vaultrag.core.workspace import Workspace
from vaultrag.errors import ModelUnavailable

NOTES = 40


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=300)


def make_vault(vault: Path) -> None:
    for n in range(NOTES):
        write(vault, f"f{n % 4}/n{n}.md", f"# Note {n}\n\n" + f"Paragraph {n} about lighthouse {n} and tides. " * 20)


def garbage_at(page: Callable[[int], int]) -> Callable[[Path], str]:
    def damage(db: Path) -> str:
        size = db.stat().st_size
        pages = size // 4096
        at = page(pages) * 4096
        with open(db, "r+b") as f:
            f.seek(at)
            f.write(os.urandom(4096))
        return "damaged"

    return damage


def sql(statements: list[str], expect: str = "repaired") -> Callable[[Path], str]:
    def damage(db: Path) -> str:
        con = connect(db)
        con.execute("pragma foreign_keys=off")
        for s in statements:
            con.execute(s)
        con.close()
        return expect

    return damage


def folder(db: Path) -> str:
    db.unlink()
    (db / "sub").mkdir(parents=True)
    return "folder"


def truncated(db: Path) -> str:
    with open(db, "r+b") as f:
        f.truncate(db.stat().st_size // 3)
    return "damaged"


DAMAGE: dict[str, Callable[[Path], str]] = {
    "garbage-page-2": garbage_at(lambda pages: 1),
    "garbage-mid-file": garbage_at(lambda pages: pages // 2),
    "garbage-last-page": garbage_at(lambda pages: pages - 1),
    "garbage-header": garbage_at(lambda pages: 0),
    "truncated": truncated,
    # 0 bytes: SQLite's empty database, no schema at all; `index` builds it as a new one (nothing was there to keep)
    "emptied-file": lambda db: (db.write_bytes(b""), "fresh")[1],
    "index-is-a-folder": folder,
    "deleted-fts-rows": sql(["insert into chunks_fts(chunks_fts, rowid, prefix, lead, body) select 'delete', id, "
                             "prefix, lead, body from chunks where id % 3 = 0"]),
    "deleted-note-rows": sql(["delete from notes where id % 5 = 0"]),
    "deleted-chunk-rows": sql(["delete from chunks"]),  # every chunk row lost: the notes look unchanged
    # the schema's own bookkeeping lost: nothing to mend in place, so the file is rebuilt from the notes
    "dropped-index-meta": sql(["drop table index_meta"], "has lost its table(s) index_meta"),
    "emptied-migrations": sql(["delete from _migrations"], "does not match its own record of changes"),
    "deleted-one-chunk-in-six": sql(["delete from chunks where id % 6 = 0"]),
    "duplicate-chunk-positions": sql([
        "insert into chunks(note_id, ordinal, heading_path, prefix, lead, body, char_start, char_end, line_start, "
        "line_end, token_count, content_hash) select note_id, ordinal, heading_path, prefix, lead, body, char_start, "
        "char_end, line_start, line_end, token_count, content_hash from chunks where note_id = 1"]),
}


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_index_repairs_or_rebuilds_each_kind_of_damage(home: Path, vault: Path, kind: str, cli):
    make_vault(vault)
    r = cli(home, "index", str(vault), "--no-embed")
    assert r.returncode == 0, r.stderr
    chunks = json.loads(cli(home, "status", str(vault), "--json").stdout)["counts"]["chunks"]
    db = next(p for p in (home / "indexes").iterdir() if p.suffix == ".sqlite")
    expect = DAMAGE[kind](db)

    r = cli(home, "index", str(vault), "--no-embed")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    out = r.stdout + r.stderr
    if expect == "fresh":
        assert f"{NOTES} (re)indexed" in out, out
    elif expect != "repaired":  # rebuilt from the notes, saying why
        said = {"damaged": "damaged", "folder": "a folder is in its place"}.get(expect, expect)
        assert "is rebuilt from the notes" in out and said in out, out
        if expect == "folder":  # not vaultrag's to delete, and not said to be
            assert "the folder found in its place is kept as it was" in out and "deleted once" not in out, out
        assert not [p.name for p in (home / "indexes").iterdir() if ".corrupt-" in p.name and p.is_file()], \
            "the damaged copy (with the text of notes that may be private now) outlived the rebuild"
    else:
        assert "The index was repaired" in out, out
    r = cli(home, "status", str(vault), "--check", "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    h = json.loads(r.stdout)
    assert h["problems"] == [] and h["counts"]["notes_indexed"] == NOTES and not h["notes"]["stale"]
    assert h["counts"]["chunks"] == chunks, "every chunk is back"
    r = cli(home, "ask", str(vault), "lighthouse 7 tides", "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr


# each kind of vector damage and whether opening the index for writing repairs it: the flags of chunks marked
# unembedded are the index's own record of work to do, so there is nothing to repair and the next run embeds them
VECTOR_DAMAGE = {"deleted-vector-rows": True, "stray-vectors": True, "vectors-marked-missing": False}


@pytest.mark.parametrize("kind", sorted(VECTOR_DAMAGE))
def test_vector_damage_is_repaired_and_re_embedded(home: Path, vault: Path, kind: str):
    make_vault(vault)
    ws = Workspace.load(vault, home)
    embedder = CountingEmbedder()
    store, _ = ws.open_store(repair=True)
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    db = store.db
    if kind == "deleted-vector-rows":
        db.execute("delete from chunks_vec where chunk_id % 4 = 0")
    elif kind == "stray-vectors":  # what two writers left behind: vectors of chunks that are gone
        db.execute("drop trigger chunks_vec_ad")
        db.execute("delete from chunks where note_id = 3")
        db.execute("create trigger chunks_vec_ad after delete on chunks begin "
                   "delete from chunks_vec where chunk_id = old.id; end")
    else:
        db.execute("update chunks set embedded = 0 where id % 2 = 0")
    assert store.check() != []
    store.close()

    store, notice = ws.open_store(repair=True)
    if VECTOR_DAMAGE[kind]:
        assert notice is not None and notice.problem == Problem.INDEX_REPAIRED, notice
    else:
        assert notice is None, f"nothing to repair, yet: {notice}"
        counts = store.counts()
        assert counts["chunks_embedded"] == counts["chunks"] // 2, "the marked chunks wait for the next run"
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    assert store.check() == [] and store.counts()["notes_indexed"] == NOTES
    assert store.counts()["chunks_embedded"] == store.counts()["chunks"]
    assert store.db.execute("select count(*) from chunks_vec").fetchone()[0] == store.counts()["chunks"]
    store.close()


@pytest.mark.parametrize("kind", sorted(DAMAGE))
def test_status_check_only_reads_and_reports_each_kind_of_damage(home: Path, vault: Path, kind: str, cli):
    make_vault(vault)
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    indexes = home / "indexes"
    db = next(p for p in indexes.iterdir() if p.suffix == ".sqlite")
    DAMAGE[kind](db)
    before = {p.name: (p.read_bytes() if p.is_file() else None) for p in indexes.iterdir() if p.suffix == ".sqlite"}
    names = sorted(p.name for p in indexes.iterdir() if "corrupt" in p.name or p.suffix == ".sqlite")

    r = cli(home, "status", str(vault), "--check")
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert "check: ok" not in r.stdout and "is rebuilt" not in r.stdout + r.stderr
    assert "check FAILED" in r.stdout or "`vaultrag index " in r.stderr, r.stdout + r.stderr
    after = {p.name: (p.read_bytes() if p.is_file() else None) for p in indexes.iterdir() if p.suffix == ".sqlite"}
    assert after == before, "the check changed the index file"
    assert not [p.name for p in indexes.iterdir() if p.name.endswith(("-wal", "-shm"))], "nor made companions"
    assert sorted(p.name for p in indexes.iterdir() if "corrupt" in p.name or p.suffix == ".sqlite") == names
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0  # the writer mends it, as before
    assert cli(home, "status", str(vault), "--check").returncode == 0


def test_questions_work_on_an_index_that_lost_note_rows_before_index_mends_it(home: Path, vault: Path, cli):
    make_vault(vault)
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    db = next(p for p in (home / "indexes").iterdir() if p.suffix == ".sqlite")
    sql(["delete from notes where id % 2 = 0"])(db)
    for question in ("lighthouse 7 tides", "quarterly planning budget", "note"):
        r = cli(home, "ask", str(vault), question, "--json", "--threshold", "-1")
        assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
        trace = json.loads(r.stdout)
        ranks = [c["rank"] for c in trace["stages"]["bm25"]["candidates"]]
        assert ranks == list(range(1, len(ranks) + 1)), "the ranks stay 1, 2, 3… without the lost notes' chunks"
    r = cli(home, "status", str(vault), "--check")
    assert r.returncode != 0 and "chunks belong to no note" in r.stdout, r.stdout


def test_a_damaged_copy_is_listed_by_status_until_the_rebuild_completes(home: Path, vault: Path, cli):
    make_vault(vault)
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    ws = Workspace.load(vault, home)
    DAMAGE["garbage-mid-file"](ws.index_path)
    store, notice = ws.open_store(repair=True, full_check=True)  # moved aside; the rebuild has not run yet
    store.close()
    assert notice is not None and notice.problem == Problem.INDEX_REBUILT
    h = json.loads(cli(home, "status", str(vault), "--json").stdout)
    kept = [w for w in h["warnings"] if "damaged copy of the index is kept" in w]
    assert len(kept) == 1 and f"{ws.index_path.name}.corrupt-1" in kept[0] and " MB)" in kept[0], h["warnings"]
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    h = json.loads(cli(home, "status", str(vault), "--json").stdout)
    assert not [w for w in h["warnings"] if "damaged copy" in w] and not list(ws.index_path.parent.glob("*.corrupt-*"))


@pytest.mark.parametrize("blocked", ["lock", "writer"])
def test_a_lock_or_writer_note_that_cannot_be_made_is_said_in_words(home: Path, vault: Path, blocked: str, cli):
    """A folder where `.lock` or `.writer` should be (as a read-only or full disk would refuse the file)."""
    make_vault(vault)
    index = Workspace.load(vault, home).index_path
    (index.parent / f"{index.name}.{blocked}" / "x").mkdir(parents=True)
    r = cli(home, "index", str(vault), "--no-embed")
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert f"Cannot take the index's writer lock {index}.{blocked}" in r.stderr, r.stderr
    assert not index.exists() or index.stat().st_size > 0, "nothing half-made"


def test_a_vault_whose_path_is_not_valid_utf8_gets_its_own_index(home: Path, tmp_path: Path, cli):
    odd = Path(os.fsdecode(bytes(tmp_path) + b"/caf\xe9-notes"))  # Latin-1 bytes: not UTF-8
    make_vault(odd)
    r = cli(home, "index", str(odd), "--no-embed")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert Workspace.load(odd, home).index_path.exists()
    r = cli(home, "ask", str(odd), "lighthouse 7 tides", "--json")
    assert r.returncode == 0, r.stderr


@pytest.fixture
def full_disk(tmp_path: Path) -> Iterator[Path]:
    """A real 1 MB file system (tmpfs), filled to the last block: needs root and the right to mount."""
    disk = tmp_path / "disk"
    disk.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("cannot mount a small file system here (needs root)")
    try:
        yield disk
    finally:
        subprocess.run(["umount", str(disk)], check=True)


def test_a_full_disk_leaves_no_half_written_file_and_says_so(full_disk: Path, vault: Path, cli):
    from vaultrag.core import tokens

    cache = full_disk / "tiktoken"
    old = tokens.cache_dir()
    tokens.configure(cache)
    try:
        with pytest.raises(ModelUnavailable, match="Cannot write the token counter's file"):
            tokens._seed_cache("o200k_base")  # a 2.8 MB file on a 1 MB disk
    finally:
        if old is not None:
            tokens.configure(old)
    assert [p.name for p in cache.iterdir()] == [], "the half-written copy stayed"
    make_vault(vault)
    home = full_disk / "home"
    (home / "indexes").mkdir(parents=True)
    with pytest.raises(OSError), open(full_disk / "filler", "wb") as f:  # until ENOSPC: the disk is full
        f.write(b"\0" * (2 * 1024 * 1024))
    r = cli(home, "index", str(vault), "--no-embed")
    assert r.returncode != 0 and "Traceback" not in r.stderr, r.stderr
    assert "space" in r.stderr.lower() or "full" in r.stderr.lower(), r.stderr

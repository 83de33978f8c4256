"""The live vault: a real watchdog observer on a temp vault, the index lane, and crash recovery."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from tests.index_probe import kill_when
from vaultrag.core.index.lane import IndexLane, LaneEvent
from vaultrag.core.index.watcher import ChangeBatch, VaultWatcher
from vaultrag.core.store.db import CorruptIndex
from vaultrag.core.store.index_store import CheckCode, Finding, IndexStore
from vaultrag.core.vocab import LaneEventKind, Problem
from vaultrag.core.workspace import Workspace
from vaultrag.errors import IndexOutdated
from vaultrag.settings import Settings


class Live:
    """A watched vault: watcher → lane → index, plus helpers that wait on the lane's own events and idle flag."""

    def __init__(self, vault: Path, home: Path) -> None:
        self.ws = Workspace.load(vault, home, Settings(embed_batch=4))
        self.embedder = CountingEmbedder()
        self.events: list[LaneEvent] = []
        self.retries = 0  # failed runs the lane queued again (its backoff)
        self._changed = threading.Condition()  # notified on every lane event and queued retry
        self.lane = IndexLane(self.ws, self.embedder, self._on_event)
        submit = self.lane.submit

        def count_retries(batch: ChangeBatch) -> None:  # the lane queues a failed run again with this reason
            submit(batch)
            if batch.reason == "retry":
                with self._changed:
                    self.retries += 1
                    self._changed.notify_all()

        self.lane.submit = count_retries  # type: ignore[method-assign]
        self.watcher = VaultWatcher(vault, self.lane.submit, quiet_ms=100)

    def _on_event(self, e: LaneEvent) -> None:
        with self._changed:
            self.events.append(e)
            self._changed.notify_all()

    def start(self) -> None:
        self.lane.start()
        self.watcher.start()
        self.lane.reconcile()
        self.settle()

    def stop(self) -> None:
        self.watcher.stop()
        self.lane.stop()

    def settle(self, timeout: float = 30.0) -> None:
        """Wait until the lane has done everything it was given (text, then vectors): its idle flag, cleared
        by every submit. Called after a state the watcher's batch led to, or after submitting directly."""
        assert self.lane.idle.wait(timeout), "the index lane did not settle"

    def until(self, condition: Callable[[], bool], timeout: float) -> bool:
        """Whether `condition` holds, re-checked on every lane event until `timeout`."""
        with self._changed:
            return self._changed.wait_for(condition, timeout)

    def state(self) -> dict[str, set[str]]:
        if not self.ws.index_path.exists():  # between a deletion and the lane's rebuild
            return {}
        try:
            store = IndexStore.open(self.ws.index_path, readonly=True)
        except (IndexOutdated, CorruptIndex):  # caught mid-rebuild: between two migrations, before its id is set
            return {}
        try:
            rows = store.db.execute("select n.path, c.body from chunks c join notes n on n.id = c.note_id")
            out: dict[str, set[str]] = {}
            for path, body in rows:
                out.setdefault(path, set()).add(body)
            return out
        finally:
            store.close()

    def saw(self, predicate: Callable[[LaneEvent], bool], timeout: float = 0.0) -> bool:
        """Whether an event matching `predicate` arrived, waiting up to `timeout` seconds for one."""
        return self.until(lambda: any(predicate(e) for e in self.events), timeout)

    def check(self) -> list[Finding]:
        """The index file's full check (what is damaged: each finding's code, and its words)."""
        store = IndexStore.open(self.ws.index_path)
        try:
            return store.check()
        finally:
            store.close()

    def wait_for(self, predicate: Callable[[dict[str, set[str]]], bool], timeout: float = 20.0) -> None:
        """Wait until the index's content satisfies `predicate`, read again after each lane event (every commit
        of a run is followed by one)."""
        if not self.until(lambda: predicate(self.state()), timeout):
            raise AssertionError(f"index never reached the expected state: {self.state()}")


@pytest.fixture
def live(vault: Path, home: Path) -> Iterator[Live]:
    write(vault, "a.md", "# Alpha\n\nApples are red.\n")
    write(vault, "folder/b.md", "# Beta\n\nBananas are yellow.\n")
    lv = Live(vault, home)
    lv.start()
    yield lv
    lv.stop()


def text_of(state: dict[str, set[str]], path: str) -> str:
    return " ".join(sorted(state.get(path, set())))


def test_edit_is_searchable_after_the_quiet_period(live: Live, vault: Path):
    (vault / "a.md").write_text("# Alpha\n\nApples are green now.\n", encoding="utf-8")
    live.wait_for(lambda s: "green" in text_of(s, "a.md"))
    live.settle()
    applied = [e for e in live.events if e.kind == LaneEventKind.APPLIED and "a.md" in e.paths]
    embedded = [e for e in live.events if e.kind == LaneEventKind.EMBEDDED and "a.md" in e.paths]
    # both latencies are measured from the save (the batch's first event): text first, then its vectors
    assert applied and embedded and embedded[-1].vector_latency_s is not None
    assert 0 < applied[-1].text_latency_s <= embedded[-1].vector_latency_s
    assert live.embedder.passages[-1].endswith("Apples are green now.")


def test_atomic_save_vim_save_rename_delete_recreate(live: Live, vault: Path):
    tmp = vault / ".a.md.tmp"  # editor-style atomic save: temp file, then rename onto the note
    tmp.write_text("# Alpha\n\nAtomic kiwis.\n", encoding="utf-8")
    os.replace(tmp, vault / "a.md")
    live.wait_for(lambda s: "kiwis" in text_of(s, "a.md"))
    (vault / "a.md").rename(vault / "a.md~")  # vim-style: backup, write new, delete backup
    write(vault, "a.md", "# Alpha\n\nVim mangoes.\n")
    (vault / "a.md~").unlink()
    live.wait_for(lambda s: "mangoes" in text_of(s, "a.md"))
    live.settle()
    before = len(live.embedder.passages)
    (vault / "a.md").rename(vault / "renamed.md")
    live.wait_for(lambda s: "renamed.md" in s and "a.md" not in s)
    live.settle()
    assert len(live.embedder.passages) == before, "a rename re-embeds nothing"
    (vault / "renamed.md").unlink()
    live.wait_for(lambda s: "renamed.md" not in s)
    write(vault, "renamed.md", "# Alpha\n\nBack again.\n")
    live.wait_for(lambda s: "Back again." in text_of(s, "renamed.md"))


def test_folder_move_is_a_move_without_re_embedding(live: Live, vault: Path):
    before = len(live.embedder.passages)
    (vault / "folder").rename(vault / "moved")
    live.wait_for(lambda s: "moved/b.md" in s and "folder/b.md" not in s)
    live.settle()
    assert len(live.embedder.passages) == before


def test_ignore_rule_and_private_tag_purge_at_once(live: Live, vault: Path):
    write(vault, ".vaultragignore", "folder/\n")
    live.wait_for(lambda s: "folder/b.md" not in s)
    write(vault, "a.md", "---\ntags: [private]\n---\n# Alpha\n\nSecret apples.\n")
    live.wait_for(lambda s: "a.md" not in s)
    live.settle()
    store = IndexStore.open(live.ws.index_path)  # the FTS5 integrity check is an INSERT: needs a writer
    try:
        assert store.check() == []
        assert store.db.execute("select count(*) from chunks_vec").fetchone()[0] == 0
    finally:
        store.close()


def test_a_note_replaced_by_a_folder_and_back(live: Live, vault: Path):
    (vault / "a.md").unlink()
    (vault / "a.md").mkdir()
    write(vault, "a.md/inner.md", "# Inner\n\nNested text.\n")
    live.wait_for(lambda s: "a.md/inner.md" in s and "a.md" not in s)
    shutil.rmtree(vault / "a.md")
    write(vault, "a.md", "# Alpha\n\nA file again.\n")
    live.wait_for(lambda s: "A file again." in text_of(s, "a.md") and "a.md/inner.md" not in s)


def test_burst_converges_to_a_fresh_full_index(live: Live, vault: Path, tmp_path: Path):
    rng = random.Random(7)
    for i in range(600):  # creates, edits, renames and deletes in a burst
        n = rng.randrange(120)
        p = vault / f"burst/n{n}.md"
        op = rng.random()
        if op < 0.6 or not p.exists():
            write(vault, f"burst/n{n}.md", f"# N{n}\n\nVersion {i} of note {n}.\n")
        elif op < 0.8:
            p.rename(vault / f"burst/n{rng.randrange(120)}.md")
        else:
            p.unlink()
    fresh = Live(vault, tmp_path / "fresh")  # the vault is final now: what a fresh full index of it holds
    fresh.lane.start()
    fresh.lane.reconcile()
    fresh.settle(timeout=60)
    fresh.lane.stop()
    expected = fresh.state()
    assert expected, "the burst left notes"
    live.wait_for(lambda s: s == expected, timeout=60)


def test_index_deleted_while_running_is_rebuilt(live: Live, vault: Path):
    path = live.ws.index_path
    for suffix in ("", "-wal", "-shm"):
        Path(str(path) + suffix).unlink(missing_ok=True)
    write(vault, "c.md", "# Gamma\n\nCherries.\n")
    live.wait_for(lambda s: "c.md" in s and "a.md" in s and "folder/b.md" in s)
    assert live.saw(lambda e: e.notice is not None and e.notice.problem == Problem.INDEX_REPLACED)


def _make_unwritable(paths: list[Path]) -> Callable[[], None]:
    """Make the index files unwritable, even for root (chattr +i); returns the undo."""
    if os.geteuid() == 0:
        if shutil.which("chattr") is None:
            pytest.skip("root needs chattr to make a file unwritable")
        files = [p for p in paths if p.exists()]
        if subprocess.run(["chattr", "+i", *map(str, files)], capture_output=True).returncode != 0:
            pytest.skip("this file system does not support chattr +i")
        return lambda: subprocess.run(["chattr", "-i", *map(str, files)], check=True)
    for p in paths:
        p.chmod(0o444) if p.exists() else None
    paths[0].parent.chmod(0o555)

    def undo() -> None:
        paths[0].parent.chmod(0o755)
        for p in paths:
            p.chmod(0o644) if p.exists() else None

    return undo


def _drop_one_fts_row(index: Path) -> None:
    """Damage from outside: FTS5 loses a chunk's row."""
    from vaultrag.core.store.db import connect

    db = connect(index)
    db.execute("insert into chunks_fts(chunks_fts, rowid, prefix, lead, body) "
               "select 'delete', id, prefix, lead, body from chunks order by id limit 1")
    db.commit()
    db.close()


def _repaired(e: LaneEvent) -> bool:
    from vaultrag.core.vocab import Problem

    return e.notice is not None and e.notice.problem == Problem.INDEX_REPAIRED


def test_reindex_checks_the_whole_index_and_repairs_what_is_damaged(live: Live, vault: Path):
    _drop_one_fts_row(live.ws.index_path)
    assert CheckCode.FTS_ROWS in {p.code for p in live.check()}  # (FTS5's own integrity check fails too)
    live.lane.reconcile()  # an ordinary run leaves the damage: only the counts of changed notes are looked at
    live.settle()
    assert not live.saw(_repaired)
    live.lane.reindex()
    live.settle()
    assert live.saw(_repaired)
    assert live.check() == []


def test_a_reindex_that_fails_checks_and_repairs_on_its_retry(live: Live, vault: Path):
    _drop_one_fts_row(live.ws.index_path)
    base = live.ws.index_path
    undo = _make_unwritable([base, Path(f"{base}-wal")])
    try:
        live.lane.reindex()
        assert live.saw(lambda e: e.kind == LaneEventKind.ERROR, timeout=15), "the re-index could not write"
    finally:
        undo()
    assert live.saw(_repaired, timeout=30)
    live.settle()
    assert live.check() == []


def test_read_only_index_reports_once_and_recovers(live: Live, vault: Path):
    base = live.ws.index_path
    # not the -shm file: SQLite maps it into memory, and an unwritable mapping kills the process (SIGBUS)
    undo = _make_unwritable([base, Path(f"{base}-wal")])
    try:
        write(vault, "c.md", "# Gamma\n\nCherries.\n")
        assert live.saw(lambda e: e.kind == LaneEventKind.ERROR, timeout=15), "the write failed and said so"
        # the first retry fails too (1 s of backoff): it must say nothing more
        assert live.until(lambda: live.retries >= 2, timeout=30), "the lane retried"
    finally:
        undo()
    errors = [e for e in live.events if e.kind == LaneEventKind.ERROR]
    assert len(errors) == 1, "said once, not per retry"
    assert errors[0].notice is not None and errors[0].notice.problem == Problem.INDEX_RETRYING
    live.wait_for(lambda s: "c.md" in s, timeout=30)
    # the note is visible at the run's text commit; "recovered" is said when the whole run (vectors too) is done
    assert live.saw(lambda e: e.kind == LaneEventKind.RECOVERED, timeout=30)


def test_the_vault_is_never_written(vault: Path, home: Path):
    write(vault, "a.md", "# A\n\nText.\n")
    write(vault, "sub/b.md", "# B\n\nMore text.\n")
    snapshot = {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in vault.rglob("*")
                if p.is_file()}
    listing = sorted(str(p) for p in vault.rglob("*"))
    lv = Live(vault, home)
    lv.start()
    lv.stop()
    assert sorted(str(p) for p in vault.rglob("*")) == listing
    assert {p: (p.read_bytes(), p.stat().st_mtime_ns) for p in vault.rglob("*") if p.is_file()} == snapshot


def _cli(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=300)


def _pairs(home: Path, vault: Path) -> set[tuple[str, str]]:
    ws = Workspace.load(vault, home)
    store = IndexStore.open(ws.index_path, readonly=True)
    try:
        return set(store.db.execute("select n.path, c.content_hash from chunks c join notes n on n.id=c.note_id"))
    finally:
        store.close()


# where each run is killed: a condition on what the index holds that stays true from the moment the run reaches it
# until the run ends, re-checked whenever the index's files change
KILL_POINTS: dict[str, Callable[[dict[str, int] | None], bool]] = {
    "as the index file is created": lambda c: c is not None,
    "with its text committed": lambda c: c is not None and c["chunks"] > 0 and c["chunks_embedded"] < c["chunks"],
    "past half of its vectors": lambda c: c is not None and c["chunks"] // 2 < c["chunks_embedded"] < c["chunks"],
}


def test_kill_9_mid_index_then_check_and_converge(vault: Path, tmp_path: Path, cli):
    for i in range(400):  # above PARALLEL_MIN_NOTES: the text phase runs in worker processes
        write(vault, f"d{i % 9}/n{i}.md", f"# Note {i}\n\n" + " ".join(f"Sentence {j} of note {i}." for j in range(30)))
    clean = tmp_path / "clean"
    (clean).mkdir()
    (clean / "settings.toml").write_text('embedder = "use"\n', encoding="utf-8")
    assert _cli(clean, "index", str(vault)).returncode == 0
    expected = _pairs(clean, vault)
    for run, (where, reached) in enumerate(KILL_POINTS.items()):
        home = tmp_path / f"kill{run}"
        shutil.copytree(clean, home, ignore=shutil.ignore_patterns("indexes"))
        proc = subprocess.Popen([sys.executable, "-m", "vaultrag", "--home", str(home), "index", str(vault)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        assert kill_when(proc, home, vault, reached), f"the run ended before it was killed {where}"
        check = cli(home, "status", str(vault), "--check")
        assert check.returncode == 0 and "check: ok" in check.stdout, where + check.stdout + check.stderr
        assert _cli(home, "index", str(vault)).returncode == 0
        assert _pairs(home, vault) == expected, where
        status = cli(home, "status", str(vault), "--check", "--json")
        assert '"problems": []' in status.stdout and '"chunks_embedded": ' in status.stdout


def test_watch_cli_prints_changes_and_stops_cleanly(vault: Path, home: Path):
    write(vault, "a.md", "# A\n\nText.\n")
    (home / "settings.toml").write_text('embedder = "use"\n', encoding="utf-8")
    lines: list[str] = []

    def wait_for(pred, timeout: float = 60.0) -> bool:  # polls the output: a busy machine only makes it slower
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not pred():
            time.sleep(0.05)
        return pred()

    with subprocess.Popen([sys.executable, "-m", "vaultrag", "--home", str(home), "watch", str(vault),
                           "--quiet-ms", "100"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
        reader.start()
        try:
            assert wait_for(lambda: any("vectors ready" in line for line in lines)), lines
            write(vault, "b.md", "# B\n\nNew note.\n")
            assert wait_for(lambda: any("b.md" in line for line in lines)), lines
            at = next(i for i, line in enumerate(lines) if "b.md" in line)
            assert wait_for(lambda: any("vectors ready" in line for line in lines[at:])), lines
        finally:
            proc.send_signal(signal.SIGINT)
            proc.wait(timeout=30)
            reader.join(10)  # the reader owns stdout until it closes
            err = proc.stderr.read()
    out = "".join(lines)
    assert proc.returncode == 0, err
    assert "text+BM25 updated" in out and "b.md" in out and "vectors ready" in out
    assert out.rstrip().endswith("stopped cleanly")


def test_files_rewritten_many_times_a_second_do_not_hold_back_other_edits(live: Live, vault: Path):
    """A settings file in .obsidian/ and a note, each rewritten every 20 ms (a plugin, a sync client): another
    note's edit is still indexed while they keep writing, and so is the busy note (after the maximum wait)."""
    (vault / ".obsidian").mkdir(exist_ok=True)
    stop = threading.Event()
    writes = {"busy": 0}

    def rewrite() -> None:
        while not stop.is_set():
            writes["busy"] += 1
            (vault / ".obsidian" / "workspace.json").write_text(f'{{"n": {writes["busy"]}}}', encoding="utf-8")
            (vault / "busy.md").write_text(f"# Busy\n\nCounter {writes['busy']} keeps going.\n", encoding="utf-8")
            stop.wait(0.02)

    writer = threading.Thread(target=rewrite, name="test-rewriter")
    writer.start()
    try:
        stop.wait(0.5)  # the rewriting is under way before the edit
        (vault / "a.md").write_text("# Alpha\n\nApples are green now.\n", encoding="utf-8")
        live.wait_for(lambda s: "green" in text_of(s, "a.md") and "keeps going" in text_of(s, "busy.md"))
        assert writer.is_alive(), "the edits were indexed only once the rewriting stopped"
    finally:
        stop.set()
        writer.join()
    assert not any(".obsidian" in p for e in live.events for p in e.paths), "a hidden folder's events were queued"


def test_a_vault_emptied_under_watch_keeps_its_index(live: Live, vault: Path):
    """Every note gone at once (an unmounted drive, a share down): the lane says so and retries; nothing is
    deleted, and the notes' return re-embeds nothing."""
    before, embedded = live.state(), len(live.embedder.passages)
    texts = {p: p.read_text(encoding="utf-8") for p in vault.rglob("*.md")}
    for p in texts:
        p.unlink()
    assert live.saw(lambda e: e.kind == LaneEventKind.ERROR and "holds no note" in e.message, timeout=15)
    assert live.state() == before, "every note and chunk kept"
    for p, text in texts.items():
        p.write_text(text, encoding="utf-8")
    assert live.saw(lambda e: e.kind == LaneEventKind.RECOVERED, timeout=30)
    live.settle()
    assert live.state() == before and len(live.embedder.passages) == embedded, "nothing embedded again"

"""Processes against one index: two writers with questions in flight, and kill -9 during the text phase
(no parsing worker may outlive it) (issue 14)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from tests.index_probe import kill_when
from vaultrag.core.query.search import Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.workspace import Workspace
from vaultrag.settings import Settings

NOTES = 320  # above PARALLEL_MIN_NOTES: the text phase runs in worker processes


def cli(home: Path, *args: str) -> list[str]:
    return [sys.executable, "-m", "vaultrag", "--home", str(home), *args]


def make_vault(vault: Path, edition: int = 0) -> None:
    body = " ".join(f"Paragraph about harbour {{n}} and tide tables, edition {edition}." for _ in range(60))
    for n in range(NOTES):
        write(vault, f"d{n % 8}/n{n}.md", f"# Note {n}\n\n" + body.format(n=n) + "\n")


def children(pid: int) -> set[int]:
    """Every live descendant of `pid` (from /proc)."""
    parent_of: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if fields[0] != "Z":
                parent_of[int(entry)] = int(fields[1])
    found, frontier = set(), {pid}
    while frontier:
        frontier = {c for c, p in parent_of.items() if p in frontier} - found
        found |= frontier
    return found


def alive(pids: set[int]) -> set[int]:
    out = set()
    for pid in pids:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            out.add(pid)
    return out


def check_clean(home: Path, vault: Path) -> dict[str, object]:
    r = subprocess.run(cli(home, "status", str(vault), "--check", "--json"), capture_output=True, text=True,
                       timeout=120)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    h: dict[str, object] = json.loads(r.stdout)
    assert h["problems"] == [] and not h["notes"]["stale"]  # type: ignore[index]
    return h


def test_two_writers_take_turns_while_questions_read_one_snapshot(home: Path, vault: Path):
    make_vault(vault)
    assert subprocess.run(cli(home, "index", str(vault), "--no-embed"), capture_output=True, timeout=300
                          ).returncode == 0
    make_vault(vault, edition=1)  # every note changed: both writers have a full text phase to do
    ws = Workspace.load(vault, home)
    errors: list[BaseException] = []
    asked = 0
    stop = threading.Event()

    def ask_loop() -> None:
        nonlocal asked
        store = IndexStore.open(ws.index_path, readonly=True)
        searcher = Searcher(store, Settings(), CountingEmbedder())
        try:
            while not stop.is_set():
                try:
                    trace = searcher.ask(f"harbour {asked % NOTES} tide tables")
                    assert trace.stages["bm25"].candidates, "a question found nothing mid-write"
                except BaseException as e:  # any failure of a question is the finding
                    errors.append(e)
                asked += 1
        finally:
            store.close()

    asker = threading.Thread(target=ask_loop)
    asker.start()
    try:
        first = subprocess.Popen(cli(home, "index", str(vault), "--no-embed"), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True)
        owner = Path(str(ws.index_path) + ".writer")
        deadline = time.monotonic() + 60
        while not owner.exists() and first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        second = subprocess.Popen(cli(home, "index", str(vault), "--no-embed"), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True)
        _, err1 = first.communicate(timeout=300)
        _, err2 = second.communicate(timeout=300)
    finally:
        stop.set()
        asker.join()
    assert first.returncode == 0 and second.returncode == 0, err1 + err2
    assert "Traceback" not in err1 + err2 and "locked" not in err1 + err2
    assert f"being written by process {first.pid} (vaultrag index {vault}, since " in err2, err2
    assert not errors, errors[:3]
    assert asked > 5
    h = check_clean(home, vault)
    assert h["counts"]["notes_indexed"] == NOTES  # type: ignore[index]


@pytest.mark.parametrize("moment", ["as the workers start", "once the first parsed notes are committed"])
def test_kill_9_during_the_text_phase_leaves_no_process_and_resumes(home: Path, vault: Path, moment: str):
    make_vault(vault)
    proc = subprocess.Popen(cli(home, "index", str(vault), "--no-embed"), stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    workers: set[int] = set()
    while time.monotonic() < deadline and proc.poll() is None:
        workers = children(proc.pid)
        if len(workers) >= 3:  # the resource tracker and two parsing workers
            break
        time.sleep(0.05)
    assert len(workers) >= 3 and proc.poll() is None, "the run ended before its workers were seen"
    if moment == "as the workers start":
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
    else:  # the text phase commits as it goes: notes in the index while the run goes on are mid-parse
        assert kill_when(proc, home, vault, lambda c: c is not None and 0 < c["notes_indexed"] < NOTES), \
            "the text phase ended before a commit of its own"
    deadline = time.monotonic() + 15
    while alive(workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not alive(workers), f"processes outlived the killed index run: {alive(workers)}"

    r = subprocess.run(cli(home, "index", str(vault), "--no-embed"), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    h = check_clean(home, vault)
    assert h["counts"]["notes_indexed"] == NOTES  # type: ignore[index]

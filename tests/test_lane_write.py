"""The index lane's writes for others (a calibrated threshold): run on the lane's one connection, between two
embedding batches and while paused; a lane that stops fails what waits."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.lane import IndexLane
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import Problem
from vaultrag.core.workspace import Workspace
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings


def where(store: IndexStore) -> tuple[str, int, int]:
    """The thread a write ran on, and how many chunks had their vector then, of how many."""
    counts = store.counts()
    return threading.current_thread().name, counts["chunks_embedded"], counts["chunks"]


def disk_full(store: IndexStore) -> None:
    raise OSError("disk full")


def test_a_write_runs_on_the_lane_between_batches_while_paused_and_fails_once_stopped(vault: Path, home: Path):
    for i in range(12):
        write(vault, f"n{i}.md", f"# Note {i}\n\n" + " ".join(f"Sentence {j} of note {i}." for j in range(30)))
    model = CountingEmbedder()
    model.hold_after = 4  # the second embedding batch waits while a write is queued
    lane = IndexLane(Workspace.load(vault, home, Settings(embed_batch=4)), model)
    lane.start()
    try:
        lane.reconcile()
        assert model.held.wait(30), "the lane reached its second batch"
        mid = lane.write(where)
        assert not mid.done(), "the lane is inside a batch: the write waits for its end"
        model.release.set()
        name, embedded, chunks = mid.result(timeout=30)
        assert name == "vaultrag-index-lane" and 0 < embedded < chunks, "served between two batches"
        assert lane.idle.wait(30)
        lane.pause()
        assert lane.write(where).result(timeout=30)[0] == "vaultrag-index-lane", "a paused lane still writes"
        with pytest.raises(OSError, match="disk full"):  # what the write raised reaches its caller
            lane.write(disk_full).result(timeout=30)
        assert lane.write(where).result(timeout=30)[0] == "vaultrag-index-lane", "the lane goes on after a failure"
    finally:
        model.release.set()
        lane.stop()
    with pytest.raises(UserFacingError) as closed:
        lane.write(where).result(timeout=5)
    assert closed.value.problem == Problem.INDEX_CLOSED

"""Every thread the core starts ends with its owner, even an owner that was made and closed without starting."""

from __future__ import annotations

import threading
from pathlib import Path

from tests.conftest import write
from vaultrag.core.index.lane import IndexLane
from vaultrag.core.index.watcher import VaultWatcher
from vaultrag.core.workspace import Workspace
from vaultrag.settings import Settings


def test_a_watcher_and_a_lane_never_started_start_no_thread_and_stop_cleanly(vault: Path, home: Path):
    write(vault, "a.md", "# A\n\nApples.\n")
    before = set(threading.enumerate())
    lane = IndexLane(Workspace.load(vault, home, Settings()), None)
    watcher = VaultWatcher(vault, lane.submit)  # watchdog's inotify observer starts a thread when it is made
    assert set(threading.enumerate()) == before, "nothing runs before start()"
    watcher.stop()
    lane.stop()
    assert set(threading.enumerate()) == before

"""Watching an index that another process is writing: its counts mid-run, and a kill -9 at a chosen moment."""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Callable
from pathlib import Path

from vaultrag.core.store.db import Error as DbError
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.workspace import Workspace
from vaultrag.errors import IndexOutdated, UserFacingError


def counts_while_running(home: Path, vault: Path) -> dict[str, int] | None:
    """The index's counts as a reader sees them mid-run, or None before the first commit."""
    ws = Workspace.load(vault, home)
    try:
        store = IndexStore.open(ws.index_path, readonly=True)
    except (IndexOutdated, UserFacingError, DbError):  # not created yet, half-created, between two migrations
        return None
    try:
        return store.counts()
    finally:
        store.close()


def kill_when(proc: subprocess.Popen[bytes], home: Path, vault: Path,
              reached: Callable[[dict[str, int] | None], bool]) -> bool:
    """SIGKILL `proc` once the index satisfies `reached` (checked on each change of the index folder, seen by a
    real watchdog observer); False when the run ended first."""
    from watchdog.events import FileSystemEvent, FileSystemEventHandler
    from watchdog.observers import Observer

    changed = threading.Event()

    class Changed(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            changed.set()

    folder = home / "indexes"
    folder.mkdir(exist_ok=True)
    observer = Observer()
    observer.schedule(Changed(), str(folder))
    observer.start()
    try:
        while proc.poll() is None:
            changed.clear()
            if reached(counts_while_running(home, vault)):
                proc.send_signal(signal.SIGKILL)
                proc.wait()
                return True
            changed.wait(timeout=1.0)  # a change, or a look at whether the run ended (that changes no file)
        return False
    finally:
        observer.stop()
        observer.join()

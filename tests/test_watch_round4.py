"""`watch` under hostile conditions (issue 36 §2.3): a vault folder made again, and a stop while a note is indexed."""

from __future__ import annotations

import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests import test_watch
from tests.conftest import write
from tests.test_watch import Live, text_of

live = test_watch.live  # the watched vault of tests/test_watch.py, as a fixture here too


@pytest.mark.parametrize("how", ["deleted", "moved aside"])
def test_a_vault_folder_made_again_is_watched_again(live: Live, vault: Path, how: str):
    """`rm -rf vault; mkdir vault` (or a sync client swapping the folder): the inotify watch died with the old
    folder, so the new one is watched again and later edits are indexed as before."""
    if how == "deleted":
        shutil.rmtree(vault)
    else:
        vault.rename(vault.with_name("vault.old"))
    vault.mkdir()
    write(vault, "a.md", "# Alpha\n\nApples came back.\n")
    live.wait_for(lambda s: "came back" in text_of(s, "a.md"), timeout=30)
    live.settle()
    # the edits that follow can only be seen through the watch on the new folder
    write(vault, "new.md", "# New\n\nA note written after the folder came back.\n")
    (vault / "a.md").write_text("# Alpha\n\nApples are ripe now.\n", encoding="utf-8")
    live.wait_for(lambda s: "after the folder" in text_of(s, "new.md") and "ripe" in text_of(s, "a.md"),
                  timeout=30)


def _watch(home: Path, vault: Path) -> tuple[subprocess.Popen[str], list[str]]:
    """`vaultrag watch` as a process, its stdout collected line by line by a reader thread."""
    proc = subprocess.Popen([sys.executable, "-m", "vaultrag", "--home", str(home), "watch", str(vault),
                             "--no-embed", "--quiet-ms", "100"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines: list[str] = []
    assert proc.stdout is not None
    reader = threading.Thread(target=lambda: lines.extend(proc.stdout), daemon=True)  # type: ignore[arg-type]
    reader.start()
    proc.reader = reader  # type: ignore[attr-defined]
    return proc, lines


def _until(pred: Callable[[], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and not pred():
        time.sleep(0.05)
    return pred()


def _long_notes(vault: Path) -> None:
    """Notes of ~4 MB of short list items: reading and chunking one takes seconds (16 s on a busy machine), with
    no checkpoint inside."""
    body = "".join(f"- item {i} with some words here\n" for i in range(4_000_000 // 32))
    for i in range(2):
        write(vault, f"long{i}.md", f"# Long {i}\n\n{body}")


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
def test_watch_stops_at_once_on_a_signal_while_a_long_note_is_indexed(vault: Path, home: Path, sig: int):
    _long_notes(vault)
    proc, lines = _watch(home, vault)
    try:
        assert _until(lambda: any("watching" in line for line in lines), 120), lines
        time.sleep(1.0)  # the start-up reconcile is inside the first long note
        assert not any("text+BM25 updated" in line for line in lines), "the notes were indexed too fast"
        sent = time.monotonic()
        proc.send_signal(sig)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running 10 s after {signal.Signals(sig).name}: {lines}")
        took = time.monotonic() - sent
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.reader.join(10)  # type: ignore[attr-defined]
        assert proc.stderr is not None
        err = proc.stderr.read()
        proc.stdout.close()  # type: ignore[union-attr]
        proc.stderr.close()
    out = "".join(lines)
    assert proc.returncode == 0, err
    assert took < 10 and "stopping" in out and out.rstrip().splitlines()[-1].startswith("stopped"), out

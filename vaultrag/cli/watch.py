"""`vaultrag watch`: keep a vault's index current until interrupted (headless; prints each applied change)."""

from __future__ import annotations

import argparse
import os
import signal
import sys
import threading
import time
from typing import TYPE_CHECKING, Any

from vaultrag.cli.termui import one_line
from vaultrag.core.vocab import LaneEventKind

if TYPE_CHECKING:  # the lane (indexer, parser, embedder) loads only when `watch` runs, not for every command
    from vaultrag.core.index.lane import LaneEvent

# how long a stop waits for the lane to reach a checkpoint before the process ends anyway
STOP_GRACE_S = 3.0


def _printer(out: Any) -> Any:
    def show(e: LaneEvent) -> None:
        stamp = time.strftime("%H:%M:%S")
        paths = ", ".join(map(one_line, e.paths[:3])) + (f" (+{len(e.paths) - 3})" if len(e.paths) > 3 else "")
        if e.kind == LaneEventKind.APPLIED:
            print(f"{stamp} text+BM25 updated in {e.text_latency_s:.2f}s: {paths or 'full reconcile'}",
                  file=out, flush=True)
        elif e.kind == LaneEventKind.EMBEDDED and e.report is not None:
            r = e.report
            print(f"{stamp} vectors ready in {e.vector_latency_s:.2f}s ({r.chunks_embedded} embedded, "
                  f"{r.chunks_reused} reused); index: {r.notes_seen} notes, {r.chunks_total} chunks, "
                  f"{r.chunks_pending} without vector", file=out, flush=True)
        elif e.kind in (LaneEventKind.ERROR, LaneEventKind.RECOVERED):
            print(f"{stamp} {e.kind}: {e.message}", file=out, flush=True)

    return show


def cmd_watch(args: argparse.Namespace) -> int:
    stop = threading.Event()
    # a flag, not KeyboardInterrupt: the main thread never breaks off half-way (a lane or watcher half started);
    # set first, so a signal while the workspace and the model load is kept, not lost; and SIGINT too, as a
    # shell that starts `vaultrag watch … &` ignores it for background jobs
    previous = {s: signal.signal(s, lambda *_: stop.set()) for s in (signal.SIGTERM, signal.SIGINT)}
    try:
        return _watch(args, stop)
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)


def _watch(args: argparse.Namespace, stop: threading.Event) -> int:
    from vaultrag.core import embed, fast_tier
    from vaultrag.core.index.lane import IndexLane
    from vaultrag.core.index.watcher import VaultWatcher
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(args.vault, args.home)
    embedder = None if args.no_embed else embed.from_settings(ws.settings)
    lane = IndexLane(ws, embedder, _printer(sys.stdout), fast_tier.for_settings(ws.settings))
    watcher = VaultWatcher(ws.vault, lane.submit, quiet_ms=args.quiet_ms)
    if stop.is_set():
        print("stopped cleanly", flush=True)
        return 0
    print(f"watching {ws.vault} (index {ws.index_path}); Ctrl-C stops", flush=True)
    try:
        lane.start()
        watcher.start()  # before the start-up reconcile, so nothing saved meanwhile is missed
        lane.reconcile("start-up")
        while not stop.wait(0.5):
            pass
    finally:
        print("stopping…", flush=True)
        watcher.stop()
        ended = lane.stop(STOP_GRACE_S)
    if not ended:
        # inside one long note (reading and chunking it has no checkpoint): what is committed stays, the note's
        # own transaction is dropped as after a crash, and the next run reads it again; the parsing workers die
        # with this process (core/lifeline.py)
        print("stopped (the note being indexed is indexed again next time)", flush=True)
        sys.stderr.flush()
        os._exit(0)
    print("stopped cleanly", flush=True)
    return 0


def register(sub: Any) -> None:
    s = sub.add_parser("watch", help="index, then follow every change until interrupted")
    s.add_argument("vault")
    s.add_argument("--quiet-ms", type=int, default=300, help="coalesce events until this long without one")
    s.add_argument("--no-embed", action="store_true", help="text and BM25 only")
    s.set_defaults(func=cmd_watch)

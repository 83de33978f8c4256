"""Live-vault benchmarks: save→searchable latency, a 5,000-change burst, and kill -9 during a full index.

Run: python benchmarks/bench_watch.py [--edits 40] [--kills 20] [--skip-burst] [--skip-kill]
Prints medians and percentiles; not a test. Uses the default embedder (e5) for the latency figures.
"""

from __future__ import annotations

import argparse
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, median, pct


def make_vault(root: Path, n: int) -> None:
    """`n` notes cut from the shared vaults' paragraphs (each note a few paragraphs under its own title)."""
    paras = []
    for p in sorted(EVAL.glob("*/vault/*.md")):
        paras += [x for x in p.read_text(encoding="utf-8").split("\n\n") if len(x) > 200 and not x.startswith("---")]
    rng = random.Random(1)
    for i in range(n):
        folder = root / f"f{i % 20}"
        folder.mkdir(parents=True, exist_ok=True)
        body = "\n\n".join(rng.sample(paras, 2))
        (folder / f"n{i:04d}.md").write_text(f"# Note {i}\n\n{body}\n", encoding="utf-8")


def latency(work: Path, n_notes: int, edits: int) -> None:
    from vaultrag.core import embed
    from vaultrag.core.index.lane import IndexLane, LaneEvent
    from vaultrag.core.index.watcher import VaultWatcher
    from vaultrag.core.store.index_store import IndexStore
    from vaultrag.core.workspace import Workspace

    vault = work / "live"
    make_vault(vault, n_notes)
    ws = Workspace.load(vault, work / "home-live")
    model = embed.from_settings(ws.settings)
    events: list[LaneEvent] = []
    lane = IndexLane(ws, model, events.append)
    watcher = VaultWatcher(vault, lane.submit)
    lane.start()
    watcher.start()
    t = time.perf_counter()
    lane.reconcile()
    while not any(e.kind == "embedded" for e in events):
        time.sleep(0.5)
    print(f"[live] first full index of {n_notes} notes with e5: {time.perf_counter() - t:.0f}s")
    reader = IndexStore.open(ws.index_path, readonly=True)
    bm25_lat, vec_lat = [], []
    rng = random.Random(2)
    try:
        for i in range(edits):
            n = rng.randrange(n_notes)
            note = vault / f"f{n % 20}" / f"n{n:04d}.md"
            word = f"zqmark{i}x"
            t0 = time.perf_counter()
            note.write_text(note.read_text(encoding="utf-8") + f"\nAdded {word} today.\n", encoding="utf-8")
            got_bm25 = got_vec = None
            while time.perf_counter() - t0 < 30 and got_vec is None:
                row = reader.db.execute(
                    "select c.embedded from chunks_fts f join chunks c on c.id = f.rowid where chunks_fts match ?",
                    (f'"{word}"',)).fetchone()
                if row and got_bm25 is None:
                    got_bm25 = time.perf_counter() - t0
                if row and row[0]:
                    got_vec = time.perf_counter() - t0
                time.sleep(0.01)
            if got_bm25 is not None:
                bm25_lat.append(got_bm25)
            if got_vec is not None:
                vec_lat.append(got_vec)
            time.sleep(0.3)
    finally:
        reader.close()
        watcher.stop()
        lane.stop()
    print(f"[live] save→searchable on {n_notes} notes ({len(bm25_lat)} edits, quiet period 300 ms): "
          f"BM25 p50 {median(bm25_lat):.2f}s p95 {pct(bm25_lat, 0.95):.2f}s; "
          f"vector p50 {median(vec_lat):.2f}s p95 {pct(vec_lat, 0.95):.2f}s (goal p95 <= 1 s)")


def pairs(home: Path, vault: Path) -> set[tuple[str, str]]:
    from vaultrag.core.store.index_store import IndexStore
    from vaultrag.core.workspace import Workspace

    store = IndexStore.open(Workspace.load(vault, home).index_path, readonly=True)
    try:
        return set(store.db.execute("select n.path, c.content_hash from chunks c join notes n on n.id = c.note_id"))
    finally:
        store.close()


def burst(work: Path, changes: int) -> None:
    from vaultrag.core.index.lane import IndexLane, LaneEvent
    from vaultrag.core.index.watcher import VaultWatcher
    from vaultrag.core.workspace import Workspace
    from vaultrag.settings import Settings

    vault = work / "burst"
    make_vault(vault, 500)
    settings = Settings(embedder="use")
    ws = Workspace.load(vault, work / "home-burst", settings)
    from vaultrag.core import embed

    events: list[LaneEvent] = []
    lane = IndexLane(ws, embed.from_settings(settings), events.append)
    watcher = VaultWatcher(vault, lane.submit)
    lane.start()
    watcher.start()
    lane.reconcile()
    while not any(e.kind == "embedded" for e in events):
        time.sleep(0.2)
    rng = random.Random(5)
    t0 = time.perf_counter()
    for i in range(changes):  # spread over ~10 s
        n = rng.randrange(700)
        p = vault / f"f{n % 20}" / f"n{n:04d}.md"
        op = rng.random()
        if op < 0.6 or not p.exists():
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(f"# Note {n}\n\nBurst version {i} of note {n}.\n", encoding="utf-8")
        elif op < 0.8:
            m = rng.randrange(700)
            p.rename(vault / f"f{n % 20}" / f"n{m:04d}.md")
        else:
            p.unlink()
        if i % 50 == 0:
            time.sleep(max(0.0, (i / changes) * 10 - (time.perf_counter() - t0)))
    written = time.perf_counter() - t0
    time.sleep(0.5)
    while not lane.idle.is_set() or lane._job is not None:
        time.sleep(0.1)
    converged = time.perf_counter() - t0
    watcher.stop()
    lane.stop()
    fresh = work / "home-fresh"
    fresh.mkdir()
    (fresh / "settings.toml").write_text('embedder = "use"\n', encoding="utf-8")
    subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(fresh), "index", str(vault)], check=True,
                   capture_output=True)
    same = pairs(work / "home-burst", vault) == pairs(fresh, vault)
    print(f"[burst] {changes} changes written in {written:.1f}s; index converged {converged - written:.1f}s after "
          f"the last write; equal to a fresh full index: {same}")


def kill(work: Path, runs: int) -> None:
    vault = work / "kill"
    make_vault(vault, 300)
    clean = work / "home-clean"
    clean.mkdir()
    (clean / "settings.toml").write_text('embedder = "use"\n', encoding="utf-8")
    subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(clean), "index", str(vault)], check=True,
                   capture_output=True)
    expected = pairs(clean, vault)
    rng = random.Random(11)
    ok_check = ok_converge = 0
    for run in range(runs):
        home = work / f"home-kill{run}"
        shutil.copytree(clean, home, ignore=shutil.ignore_patterns("indexes"))
        proc = subprocess.Popen([sys.executable, "-m", "vaultrag", "--home", str(home), "index", str(vault)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(rng.uniform(0.3, 6.0))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), "status", str(vault), "--check"],
                           capture_output=True, text=True)
        ok_check += r.returncode == 0
        subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), "index", str(vault)], check=True,
                       capture_output=True)
        ok_converge += pairs(home, vault) == expected
    print(f"[kill] {runs} runs killed with SIGKILL at random points: {ok_check}/{runs} pass status --check, "
          f"{ok_converge}/{runs} converge to the clean full index after a restart")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--notes", type=int, default=1000)
    ap.add_argument("--edits", type=int, default=40)
    ap.add_argument("--changes", type=int, default=5000)
    ap.add_argument("--kills", type=int, default=20)
    ap.add_argument("--skip-latency", action="store_true")
    ap.add_argument("--skip-burst", action="store_true")
    ap.add_argument("--skip-kill", action="store_true")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="vaultrag-watch-") as tmp:
        work = Path(tmp)
        if not args.skip_kill:
            kill(work, args.kills)
        if not args.skip_burst:
            burst(work, args.changes)
        if not args.skip_latency:
            latency(work, args.notes, args.edits)


if __name__ == "__main__":
    main()

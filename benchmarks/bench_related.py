"""Related notes (core/related.py): speed at 10k notes, and on the Obsidian help vaults how often a note's closest
notes by meaning are ones it links to or from (the mean note vector as is, and centred on the vault's mean).

Run: python benchmarks/bench_related.py [--notes 10000] [--calls 200]
  - speed: a synthetic index of N notes × 10 chunks (benchmarks/bench_scale.py's builder: real e5 vectors blended,
    real sentences) with 3 links and 2 tags a note, built once into benchmarks/out/related/; each call asks for
    one random note's related notes, the note vectors kept between calls as the window and the MCP server keep
    them (p50, p90), and once without (a one-off command: the matrix is built first);
  - links agreement: the help vaults of benchmarks/quality.py (benchmarks/out/quality), the share of each note's
    5 closest notes by meaning that it links to or from, and how many of those lists the most frequent note is
    in (a general note close to every note floods them).
Not a timed test: it prints its figures.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT

OUT = ROOT / "benchmarks" / "out" / "related"
QUALITY = ROOT / "benchmarks" / "out" / "quality"


def synthetic(notes: int) -> Path:
    from benchmarks import bench_scale
    from vaultrag.core.store.index_store import IndexStore

    path = OUT / f"related-{notes}.sqlite"
    if path.exists():
        return path
    sources = [str(p) for p in QUALITY.glob("*/indexes/*.sqlite")]
    if not sources:
        raise SystemExit("run benchmarks/quality.py first: its indexes give the real e5 vectors blended here")
    bench_scale.build(path, notes * bench_scale.CHUNKS_PER_NOTE, sources)
    store = IndexStore.open(path)
    pick = random.Random(1)
    with store.transaction():
        ids = [r[0] for r in store.db.execute("select id from notes")]
        store.db.executemany(
            """insert into links(note_id, ordinal, kind, target, char_start, char_end, target_id, resolved)
               values (?, ?, 'wikilink', ?, 0, 1, ?, 1)""",
            [(i, k, f"note-{t}", t) for i in ids for k, t in enumerate(pick.sample(ids, 3)) if t != i])
        store.db.executemany("insert or ignore into note_tags(note_id, tag) values (?, ?)",
                             [(i, f"topic-{pick.randrange(200)}") for i in ids for _ in range(2)])
    store.close()
    return path


def speed(notes: int, calls: int) -> None:
    from vaultrag.core.related import NoteVectors, related
    from vaultrag.core.store.index_store import IndexStore

    path = synthetic(notes)
    store = IndexStore.open(path, readonly=True)
    paths = [r[0] for r in store.db.execute("select path from notes where status = 'indexed'")]
    chunks = store.chunk_count()
    pick = random.Random(2)
    t = time.perf_counter()
    related(store, pick.choice(paths))
    cold = (time.perf_counter() - t) * 1000
    kept = NoteVectors()
    related(store, paths[0], vectors=kept)
    ms = []
    for _ in range(calls):
        t = time.perf_counter()
        found = related(store, pick.choice(paths), vectors=kept)
        ms.append((time.perf_counter() - t) * 1000)
        assert found
    store.close()
    ms.sort()
    print(f"speed: {len(paths):,} notes, {chunks:,} chunks: p50 {statistics.median(ms):.1f} ms, "
          f"p90 {ms[int(0.9 * len(ms))]:.1f} ms over {calls} calls (note vectors kept); a one-off call "
          f"{cold:.0f} ms (the note matrix built first)")


def agreement() -> None:
    from vaultrag.core.related import _note_matrix
    from vaultrag.core.workspace import Workspace

    for vault_set in ("obsidian-help/en", "obsidian-help/pt-br"):
        ws = Workspace.load(EVAL / vault_set, QUALITY / vault_set.replace("/", "-"))
        if not ws.index_path.exists():
            print(f"{vault_set}: no index (run benchmarks/quality.py)")
            continue
        store, _ = ws.open_store(readonly=True)
        links: set[tuple[str, str]] = set()
        for a, b in store.db.execute("""select s.path, t.path from links l join notes s on s.id = l.note_id
                                        join notes t on t.id = l.target_id
                                        where s.id != t.id and t.status = 'indexed'"""):
            links |= {(a, b), (b, a)}
        paths, centred = _note_matrix(store)
        rows = store.db.execute(
            """select n.path, v.vector from chunk_vectors v join chunks c on c.id = v.chunk_id
               join notes n on n.id = c.note_id where n.status = 'indexed' order by n.path""").fetchall()
        store.close()
        vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        starts = [i for i, r in enumerate(rows) if i == 0 or rows[i - 1][0] != r[0]]
        sums = np.add.reduceat(vectors, np.array(starts), axis=0)
        plain = sums / np.linalg.norm(sums, axis=1, keepdims=True)
        for name, m in (("mean vector", plain), ("centred (shipped)", centred)):
            sims = m @ m.T
            np.fill_diagonal(sims, -np.inf)
            top = np.argsort(-sims, axis=1)[:, :5]
            share = np.mean([(paths[i], paths[j]) in links for i in range(len(paths)) for j in top[i]])
            note, lists = Counter(paths[j] for row in top for j in row).most_common(1)[0]
            print(f"{vault_set} ({len(paths)} notes), {name}: top-5 by meaning linked {share:.3f}; most frequent "
                  f"note in {lists} of {len(paths)} lists ({note})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--calls", type=int, default=200)
    args = ap.parse_args()
    agreement()
    speed(args.notes, args.calls)


if __name__ == "__main__":
    main()

"""Related notes (core/related.py): speed at 10k notes, and on the Obsidian help vaults how often a note's closest
notes by meaning are ones it links to or from (the mean note vector as is, and centred on the vault's mean).

Run: python benchmarks/bench_related.py [--notes 10000] [--calls 200]
  - speed: a synthetic index of N notes × 10 chunks (benchmarks/bench_scale.py's builder: real e5 vectors blended,
    real sentences) with 3 links and 2 tags a note, built once into benchmarks/out/related/; each call asks for
    one random note's related notes, the note vectors kept between calls as the window and the MCP server keep
    them (p50, p90), and once without (a one-off command: the matrix is built first);
  - the prompt with a linked note's passage (the help dev sets, a sign test: it is not added, see docs/related.md);
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


def linked_context() -> None:
    """Would the prompt gain from a linked note's passage? The help dev sets' answerable questions: the gold note
    in the prompt as shipped, against the prompt whose last document gives way to the best passage (by cosine) of
    a note the first document links to (never through a hub chunk: hub mark < 0.5). A sign test decides."""
    from math import comb

    from benchmarks.quality import golden_of, home_of, vault_path
    from vaultrag.core import embed, rerank
    from vaultrag.core.quality import golden
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    for name in ("help-en", "help-pt"):
        vault_set, gold = golden_of(name, QUALITY)
        ws = Workspace.load(vault_path(vault_set), home_of(QUALITY, vault_set))
        if not ws.index_path.exists():
            print(f"{name}: no index (run benchmarks/quality.py)")
            continue
        store, _ = ws.open_store(readonly=True)
        s = Searcher(store, ws.settings, embed.from_settings(ws.settings), rerank.from_settings(ws.settings))
        items = [i for i in golden.load(gold)[0] if i.answerable]
        base = var = wins = losses = added = 0
        for item in items:
            t = s.ask(item.question, threshold=float("-inf"))
            docs = [d.note for d in t.context]
            if not docs:
                continue
            chunks = store.stored_chunks(t.context[0].chunk_ids)
            links = store.chunk_links([c for c in t.context[0].chunk_ids if chunks[c].hub < 0.5])
            targets = list(dict.fromkeys(p for c in links for p, _ in links[c] if p not in docs))
            with_link = docs
            best: tuple[float, str] | None = None
            for p in targets:
                record = store.note_record(p)
                cos = store.cosines(s.query_vector(t.question), [c.id for c in store.note_chunks(record.id)]) \
                    if record is not None else {}
                if cos and (best is None or max(cos.values()) > best[0]):
                    best = (max(cos.values()), p)
            if best is not None:
                with_link = (docs[:-1] if len(docs) >= ws.settings.k else docs) + [best[1]]
                added += 1
            hit, hit_link = any(n in item.notes for n in docs), any(n in item.notes for n in with_link)
            base, var = base + hit, var + hit_link
            wins, losses = wins + (hit_link and not hit), losses + (hit and not hit_link)
        store.close()
        n, k = wins + losses, min(wins, losses)
        p = min(1.0, 2 * sum(comb(n, i) for i in range(k + 1)) / 2**n) if n else 1.0
        print(f"{name}: gold note in the prompt {base / len(items):.3f} as shipped, {var / len(items):.3f} with a "
              f"linked note's passage (added to {added} of {len(items)}): {wins} wins, {losses} losses, p = {p:.3g}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--calls", type=int, default=200)
    args = ap.parse_args()
    agreement()
    linked_context()
    speed(args.notes, args.calls)


if __name__ == "__main__":
    main()

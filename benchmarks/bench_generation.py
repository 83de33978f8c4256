"""Time to first token and total time per generated answer, through the whole pipeline and a real server.

By default it starts llama-cpp-python's OpenAI-compatible server with SmolLM2-135M (the `llm-server` extra), indexes
the demo vault (or a dev set of ../shared/eval with --set) into benchmarks/out/generation, asks each question with
`--generate` semantics (retrieval, prompt, streamed answer, citation check) and prints medians, the citation
check's verdicts (own citations, attached ones, uncited) and the answer-language mismatch rate: the share of
generated answers long enough to judge (`generate.MIN_WORDS_FOR_LANGUAGE` words) that the detector puts in another
language than the question's (the LLM_LANGUAGE warning). --without-language-rule drops the prompt's rule 6
("Answer in English." / "Responda em português.") to compare. Point it at your own server with --base-url/--model
(Ollama: http://127.0.0.1:11434/v1).

    .venv/bin/python benchmarks/bench_generation.py [--set xquad-en --n 30] [--base-url URL --model NAME]
    .venv/bin/python benchmarks/bench_generation.py --recheck benchmarks/out/generation/SET/answers-with-rule.json

Each run keeps its answers (with their prompt documents) in benchmarks/out/generation/SET/answers-*.json;
--recheck runs the current citation check over them again and prints each attached citation with its document's
passage, to be judged by hand, without asking the model again.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks._common import EVAL, ROOT, cli, median, pct

DEMO_QUESTIONS = ["When does the flight to Lisbon leave?", "Qual o prazo do reembolso?",
                  "How do I create a Python virtual environment?", "Como faço o deploy?",
                  "What time is the gym open?", "Where do we stay in Lisbon?", "Posso cancelar a academia?",
                  "Which command activates the venv?"]


def recheck(path: Path) -> None:
    """The current citation check over a run's kept answers: the verdicts, and each attached citation to judge."""
    from vaultrag.core.model import ContextDoc
    from vaultrag.core.query import citations

    verdicts: Counter[str] = Counter()
    answers = [a for a in json.loads(path.read_text(encoding="utf-8")) if a["kind"] == "generated"]
    for a in answers:
        docs = [ContextDoc(note="", heading_path=[], char_start=0, char_end=len(text), line_start=0, line_end=1,
                           index=i, chunk_ids=[i], source="", text=text, tokens=0) for i, text in a["context"]]
        for s in citations.check(a["answer"], docs):
            verdicts[s.verdict.value] += 1
            if s.verdict.value == "attached":
                print(f"[{s.citations[0]}] support {s.support}: {s.text}\n    in: {docs[s.citations[0] - 1].text}\n")
    print(f"{path}: {len(answers)} generated answers, their sentences: {dict(verdicts)}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--recheck", type=Path, help="a run's answers-*.json: check their citations again")
    ap.add_argument("--set", help="a dev set of ../shared/eval (default: the demo vault)")
    ap.add_argument("--n", type=int, default=20, help="questions sampled from the set's answerable ones")
    ap.add_argument("--base-url", help="an OpenAI-compatible server already running")
    ap.add_argument("--model", default="smollm2-135m")
    ap.add_argument("--max-tokens", type=int, default=160)
    ap.add_argument("--without-language-rule", action="store_true",
                    help="the prompt without its rule 6 (the answer's language), for comparison")
    args = ap.parse_args()
    if args.recheck:
        recheck(args.recheck)
        return
    if args.without_language_rule:
        from vaultrag.core.query.stages import prompt

        for lang, text in list(prompt.INSTRUCTIONS.items()):
            prompt.INSTRUCTIONS[lang] = text[: text.rindex("\n6. ")]
        prompt.instructions_of.cache_clear()

    from vaultrag.core import embed, rerank
    from vaultrag.core.llm import registry
    from vaultrag.core.query.search import Searcher, conversation_pipeline
    from vaultrag.core.query.stages.generate import MIN_WORDS_FOR_LANGUAGE
    from vaultrag.core.vocab import AnswerKind, WarningCode
    from vaultrag.core.workspace import Workspace

    out = ROOT / "benchmarks" / "out" / "generation" / (args.set or "demo")
    out.mkdir(parents=True, exist_ok=True)
    if args.set:
        vault = EVAL / args.set / "vault"
        golden = [json.loads(x) for x in (EVAL / args.set / "golden.jsonl").read_text(encoding="utf-8").splitlines()]
        questions = random.Random(0).sample([g["question"] for g in golden if g["answerable"]], args.n)
    else:
        vault, questions = ROOT / "resources" / "demo-vault", DEMO_QUESTIONS
    cli(out / "home", "index", str(vault))

    server = None
    base = args.base_url
    if base is None:
        from tests.llama_server import LlamaServer, server_missing

        if server_missing():
            raise SystemExit(f"{server_missing()}; or give --base-url")
        server = LlamaServer(out / "server.log")
        base = server.start()
    try:
        ws = Workspace.load(vault, out / "home")
        generator = registry.from_settings(ws.settings.replace(llm_base_url=base, llm_model=args.model,
                                                               llm_temperature=0.0, llm_max_tokens=args.max_tokens,
                                                               llm_timeout=120.0))
        store, _ = ws.open_store(readonly=True)
        searcher = Searcher(store, ws.settings, embed.from_settings(ws.settings),
                            rerank.from_settings(ws.settings))
        searcher.ask(questions[0])  # warm-up: model loads
        ttft, total, rate, tokens = [], [], [], []
        kinds: Counter[str] = Counter()
        verdicts: Counter[str] = Counter()
        judged, mismatched, languages = 0, 0, Counter[str]()
        kept = []  # each answer with its question's language and prompt documents: the figures can be re-read
        for q in questions:
            trace = searcher.ask(q, pipeline=conversation_pipeline(None, generator))
            g = trace.generation
            kinds[trace.answer.kind.value] += 1
            if g is None or g.failure is not None:
                continue
            if g.ttft_ms is not None:
                ttft.append(g.ttft_ms)
            total.append(g.total_ms)
            tokens.append(g.completion_tokens)
            if g.tokens_per_s:
                rate.append(g.tokens_per_s)
            verdicts.update(s.verdict.value for s in trace.answer.sentences)
            a = trace.answer
            kept.append({"question": q, "language": trace.language, "answer": a.text, "kind": a.kind.value,
                         "sentences": [[s.text, s.citations, s.verdict.value] for s in a.sentences],
                         "warnings": [w.code.value for w in trace.warnings],
                         "context": [[d.index, d.text] for d in trace.context]})
            if a.kind == AnswerKind.GENERATED and len(a.text.split()) >= MIN_WORDS_FOR_LANGUAGE:
                judged += 1
                said = [w for w in trace.warnings if w.code == WarningCode.LLM_LANGUAGE]
                mismatched += bool(said)
                languages[said[0].answer_language if said else trace.language] += 1
        store.close()
    finally:
        if server is not None:
            server.stop()
    rule = "without" if args.without_language_rule else "with"
    (out / f"answers-{rule}-rule.json").write_text(json.dumps(kept, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"[{args.set or 'demo'}] {len(questions)} questions, model {args.model} at {base}, answers: {dict(kinds)}")
    print(f"  time to first token p50 {median(ttft):.0f} ms (p95 {pct(ttft, 0.95):.0f}); total p50 "
          f"{median(total):.0f} ms (p95 {pct(total, 0.95):.0f}); {median(tokens):.0f} tokens per answer (median), "
          f"{median(rate):.1f} tokens/s")
    print(f"  citation check over the answers' sentences: {dict(verdicts)}")
    print(f"  answer language ({rule} the prompt's language rule): {mismatched} of {judged} answers long enough "
          f"to judge in another language than the question's ({mismatched / max(judged, 1):.1%}); "
          f"answers' languages {dict(languages)}")


if __name__ == "__main__":
    main()

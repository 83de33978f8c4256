"""CLI commands of the query pipeline: `ask` (and its --explain view)."""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

from vaultrag.core.model import QueryTrace, Stage, to_dict

WIDTH = 120


def open_searcher(args: argparse.Namespace) -> Any:
    """A Searcher over the vault's index with the configured models (read-only connection)."""
    from vaultrag.core import embed, rerank
    from vaultrag.core.search import Searcher
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(args.vault, args.home)
    store, _ = ws.open_store(readonly=True)
    embedder = embed.from_settings(ws.settings)
    reranker = rerank.from_settings(ws.settings)
    return Searcher(store, ws.settings, embedder, reranker, rerank.reranker_id(ws.settings))


def cmd_ask(args: argparse.Namespace) -> int:
    from vaultrag.core.retrieve import Scope

    searcher = open_searcher(args)
    try:
        trace = searcher.ask(args.question, Scope(args.folder or [], args.tag or [], args.note or []), k=args.k,
                             threshold=args.threshold)
    finally:
        searcher.store.close()
    if args.json:
        print(json.dumps(to_dict(trace), ensure_ascii=False, indent=2))
    elif args.explain:
        print(explain(trace))
    else:
        print(format_answer(trace))
    return 0


def format_answer(trace: QueryTrace) -> str:
    a, d = trace.answer, trace.decision
    lines = [*(f"warning: {w}" for w in trace.warnings)]
    if a.kind == "refusal":
        lines += [a.text, f"({d.reason})"]
    else:
        lines += [f"{a.sentence or a.text}", f"— {a.source}, line {a.line}", ""]
        lines += [f"[{doc.index}] {doc.source} (lines {doc.line_start + 1}–{doc.line_end})" for doc in trace.context]
        lines.append(f"({d.reason})")
    return "\n".join(lines)


def _cell(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _column(stage: Stage, width: int, n: int) -> list[str]:
    head = f"{stage.name.upper()} [{stage.status}]"
    rows = [_cell(head, width), "-" * width]
    for c in stage.candidates[:n]:
        where = " > ".join([c.note.removesuffix(".md"), *c.heading_path[-1:]])
        rows.append(_cell(f"{c.rank:>2} {c.score:7.3f} {where}", width))
    return rows


def explain(trace: QueryTrace, n: int = 10) -> str:
    """The stages side by side as columns, then the decision, the context and the prompt (≤ 120 columns)."""
    stages = [s for s in trace.stages.values() if s.status != "skipped"]
    width = (WIDTH - 3 * (len(stages) - 1)) // max(len(stages), 1)
    cols = [_column(s, width, n) for s in stages]
    height = max(len(c) for c in cols)
    out = [f"question: {trace.question}  (language: {trace.language})"]
    out += [f"warning: {w}" for w in trace.warnings]
    out.append("")
    for i in range(height):
        out.append(" | ".join((c[i] if i < len(c) else "").ljust(width) for c in cols).rstrip())
    for s in trace.stages.values():
        if s.note:
            out.append(_cell(f"{s.name}: {s.note}", WIDTH))
    d = trace.decision
    out.append("")
    verdict = "ANSWERED" if d.answered else "REFUSED"
    conf = f"confidence {d.confidence:.3f}" if d.confidence is not None else "no confidence"
    thr = f"threshold {d.threshold:.3f} ({d.threshold_source})" if d.threshold is not None else d.threshold_source
    margin = f"margin {d.margin:+.3f}" if d.margin is not None else ""
    out.append(f"decision: {verdict} — {conf}, {thr} {margin}".rstrip())
    out += textwrap.wrap(d.reason, WIDTH, initial_indent="  ", subsequent_indent="  ")
    out.append("")
    for cid, status in list(trace.context_status.items())[:n]:
        out.append(f"  chunk {cid}: {status}")
    t = trace.prompt_tokens
    out.append(f"\nprompt: {t['total']} tokens (instructions {t['instructions']}, documents {t['documents']} of "
               f"budget {t['budget']}, question {t['question']})")
    out.append("=" * WIDTH)
    out.append(trace.prompt or "(no prompt: the question was refused, nothing goes to a model)")
    out.append("=" * WIDTH)
    out.append("timings (ms): " + ", ".join(f"{k} {v:.1f}" for k, v in trace.timings_ms.items()))
    return "\n".join(out)


def register(sub: Any) -> None:
    s = sub.add_parser("ask", help="ask the vault a question (answer, or --explain every stage)")
    s.add_argument("vault")
    s.add_argument("question")
    s.add_argument("--folder", action="append", help="only notes in this folder (and sub-folders); repeatable")
    s.add_argument("--tag", action="append", help="only notes with this tag (and sub-tags); repeatable")
    s.add_argument("--note", action="append", help="only this note (vault-relative path); repeatable")
    s.add_argument("-k", type=int, help="documents in the context (default from settings: 5)")
    s.add_argument("--threshold", type=float, help="refusal threshold for this question")
    s.add_argument("--json", action="store_true", help="print the full QueryTrace as JSON")
    s.add_argument("--explain", action="store_true", help="show every stage side by side")
    s.set_defaults(func=cmd_ask)

"""Evaluate a golden set on a vault: hit@k and MRR per stage, sign tests, refusal trade-off, calibration."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from vaultrag.core import metrics
from vaultrag.core.golden import GoldenItem
from vaultrag.core.model import Progress, QueryTrace
from vaultrag.core.search import Searcher

STAGES = ("bm25", "vector", "fused", "reranked", "context")
KS = (1, 3, 5, 20)
SPLIT_SEED = 13


@dataclass
class QuestionResult:
    """What one golden question did: first-hit rank per stage, confidence, top-1 correctness, failure class."""

    line: int
    question: str
    answerable: bool
    ranks: dict[str, int | None]
    confidence: float | None
    top1_correct: bool
    failure: str = ""  # for answerable questions whose gold never reached the context
    signals: dict[str, float] = field(default_factory=dict)  # alternative confidences, for research


@dataclass
class EvalResult:
    """The whole evaluation, JSON-ready."""

    vault: str
    golden: str
    settings: dict[str, Any]
    n_answerable: int
    n_unanswerable: int
    stages: dict[str, dict[str, float]]
    sign_tests: dict[str, dict[str, float]]
    failures: dict[str, int]
    refusal: dict[str, Any]
    questions_per_s: float
    skipped_lines: list[str] = field(default_factory=list)
    results: list[QuestionResult] = field(default_factory=list)


def stage_lists(trace: QueryTrace) -> dict[str, list[tuple[str, int, int, list[int]]]]:
    """Per stage, the ranked (note, char_start, char_end, chunk ids) list the metrics read."""
    out = {}
    for name in ("bm25", "vector", "fused", "reranked"):
        stage = trace.stages[name]
        if name == "reranked" and stage.status == "skipped":
            stage = trace.stages["fused"]
        out[name] = [(c.note, c.char_start, c.char_end, [c.chunk_id]) for c in stage.candidates]
    out["context"] = [(d.note, d.char_start, d.char_end, d.chunk_ids) for d in trace.context]
    return out


def confidence_signals(trace: QueryTrace) -> dict[str, float]:
    """Candidate confidence measures besides the top-1 cosine (compared in docs/quality.md)."""
    from vaultrag.core.search import BACKGROUND_WEIGHT

    final = trace.stages["reranked"] if trace.stages["reranked"].status == "ok" else trace.stages["fused"]
    out: dict[str, float] = {}
    top = final.candidates[0].cosine if final.candidates else None
    if trace.decision.confidence is not None and top is not None:
        background = (top - trace.decision.confidence) / BACKGROUND_WEIGHT
        out = {"cos_top1": top, "background": background}
        for w in (0.25, 0.5, 0.75, 1.0):
            out[f"cos_top1 - {w} background"] = top - w * background
    bm25 = trace.stages["bm25"].candidates
    if bm25:
        out["bm25_top1"] = bm25[0].score
    return out


def classify_failure(trace: QueryTrace, hit_ids: set[int], k: int) -> str:
    """Which stage dropped the gold for an answerable question (the diagnosis layers, from the trace)."""
    in_bm25 = any(c.chunk_id in hit_ids for c in trace.stages["bm25"].candidates)
    in_vec = any(c.chunk_id in hit_ids for c in trace.stages["vector"].candidates)
    if not (in_bm25 or in_vec):
        return "not in candidates"
    final = trace.stages["reranked"] if trace.stages["reranked"].status == "ok" else trace.stages["fused"]
    ranks = [c.rank for c in final.candidates if c.chunk_id in hit_ids]
    if not ranks:
        return "fused out"
    statuses = {trace.context_status.get(c.chunk_id, "") for c in final.candidates if c.chunk_id in hit_ids}
    if "cut by budget" in statuses:
        return "cut by budget"
    if min(ranks) > k:
        return "reranked below k"
    return "other"


def run(searcher: Searcher, items: list[GoldenItem], on_progress: Callable[[Progress], None] | None = None,
        cancel: Callable[[], bool] | None = None) -> Iterator[QuestionResult]:
    """Ask every question (threshold off, so the context is always built) and score each stage."""
    t0 = time.perf_counter()
    for i, item in enumerate(items):
        if cancel and cancel():
            return
        trace = searcher.ask(item.question, threshold=float("-inf"))
        lists = stage_lists(trace)
        ids = list({cid for lst in lists.values() for *_, cids in lst for cid in cids})
        info = searcher.chunk_info(ids)
        hit_ids = {cid for cid in ids if item.is_hit(info[cid].note, info[cid].char_start, info[cid].char_end,
                                                      info[cid].lead + info[cid].body)}
        ranks = {name: metrics.first_hit([any(c in hit_ids for c in cids) for *_, cids in lst])
                 for name, lst in lists.items()}
        final = lists["reranked"]
        top1 = bool(final) and any(c in hit_ids for c in final[0][3])
        failure = ""
        if item.answerable and ranks["context"] is None:
            failure = classify_failure(trace, hit_ids, trace.settings["k"])
        yield QuestionResult(item.line, item.question, item.answerable, ranks, trace.decision.confidence, top1,
                             failure, confidence_signals(trace))
        if on_progress:
            done = i + 1
            rate = done / max(time.perf_counter() - t0, 1e-9)
            on_progress(Progress("eval", done, len(items), rate, (len(items) - done) / rate))


def summarize(results: list[QuestionResult], vault: str, golden: str, settings: dict[str, Any],
              seconds: float, skipped: list[str]) -> EvalResult:
    answerable = [r for r in results if r.answerable]
    unanswerable = [r for r in results if not r.answerable]
    stages = {}
    for name in STAGES:
        ranks = [r.ranks[name] for r in answerable]
        row = {f"hit@{k}": metrics.hit_at(ranks, k) for k in KS}
        row["mrr@20"] = metrics.mrr_at(ranks, 20)
        row["recall@N"] = metrics.recall(ranks)
        stages[name] = row
    signs = {}
    for a, b in itertools.pairwise(STAGES):
        if {a, b} == {"bm25", "vector"}:
            continue
        first = [r.ranks[a] == 1 for r in answerable]
        second = [r.ranks[b] == 1 for r in answerable]
        signs[f"{a} -> {b}"] = metrics.sign_test(first, second)
    for lone in ("bm25", "vector"):
        signs[f"{lone} -> fused"] = metrics.sign_test([r.ranks[lone] == 1 for r in answerable],
                                                      [r.ranks["fused"] == 1 for r in answerable])
    failures = dict(Counter(r.failure for r in answerable if r.failure))
    return EvalResult(vault, golden, settings, len(answerable), len(unanswerable), stages, signs, failures,
                      refusal_section(results), len(results) / seconds if seconds else 0.0, skipped, results)


def refusal_section(results: list[QuestionResult]) -> dict[str, Any]:
    """AUROC of the confidence and the threshold table; says so when there are no unanswerable questions."""
    ans = [(r.confidence, r.top1_correct) for r in results if r.answerable and r.confidence is not None]
    una = [r.confidence for r in results if not r.answerable and r.confidence is not None]
    if not una:
        return {"available": False, "reason": "the golden set has no unanswerable questions"}
    if not ans:
        return {"available": False, "reason": "no answerable question has a confidence (no vectors?)"}
    grid = sorted({round(c, 3) for c, _ in ans} | {round(c, 3) for c in una})
    step = max(1, len(grid) // 25)
    table = [metrics.threshold_row(t, ans, una) for t in grid[::step]]
    return {"available": True, "auroc": metrics.auroc([c for c, _ in ans], una), "n_answerable": len(ans),
            "n_unanswerable": len(una), "table": table}


def split(results: list[QuestionResult], seed: int = SPLIT_SEED) -> tuple[list[QuestionResult], list[QuestionResult]]:
    """Tune and validate halves, stratified by answerability, with a fixed seed (reproducible)."""
    tune: list[QuestionResult] = []
    validate: list[QuestionResult] = []
    for group in ([r for r in results if r.answerable], [r for r in results if not r.answerable]):
        order = sorted(group, key=lambda r: r.line)
        random.Random(seed).shuffle(order)
        half = len(order) // 2
        tune += order[:half]
        validate += order[half:]
    return tune, validate


def calibrate(results: list[QuestionResult], max_pass: float) -> dict[str, Any]:
    """Pick on the tune half the threshold letting at most `max_pass` unanswerable through; report both halves."""
    tune, validate = split(results)
    una = [r.confidence for r in tune if not r.answerable and r.confidence is not None]
    if not una:
        return {"available": False, "reason": "calibration needs unanswerable questions in the golden set"}
    t = metrics.pick_threshold(una, max_pass)

    def row(half: list[QuestionResult]) -> dict[str, Any]:
        a = [(r.confidence, r.top1_correct) for r in half if r.answerable and r.confidence is not None]
        u = [r.confidence for r in half if not r.answerable and r.confidence is not None]
        out = metrics.threshold_row(t, a, u)
        out["n_answerable"], out["n_unanswerable"] = len(a), len(u)
        out["top1_without_threshold"] = sum(1 for _, ok in a if ok) / (len(a) or 1)
        return out

    return {"available": True, "threshold": t, "max_pass": max_pass, "seed": SPLIT_SEED, "tune": row(tune),
            "validate": row(validate)}

"""Evaluate a golden set on a vault: hit@k and MRR per stage, sign tests, refusal trade-off, calibration."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from vaultrag.core.model import Progress, QueryTrace
from vaultrag.core.quality import golden, metrics
from vaultrag.core.quality.golden import GoldenItem
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.stages.decide import threshold_key
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import ContextStatus, Phase, StageName

CONTEXT = "context"
# the rows of every evaluation: the ranked lists, then the documents of the prompt
STAGES: tuple[str, ...] = (StageName.BM25, StageName.VECTOR, StageName.FUSED, StageName.RERANKED, CONTEXT)
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


@dataclass
class GoldenRun:
    """The questions of a golden file, asked: per-question results, the lines left out, the time taken."""

    results: list[QuestionResult]
    skipped_lines: list[str]
    seconds: float


def load_for(store: IndexStore, path: str | Path, limit: int | None = None) -> tuple[list[GoldenItem], list[str]]:
    """The usable items of a golden file for this index (lines naming notes it doesn't hold are reported, not
    asked), as a seeded sample stratified by answerability when `limit` is smaller than the set."""
    items, errors = golden.load(path)
    known = set(store.indexed_paths())
    usable = []
    for item in items:
        if item.answerable and item.gold_note not in known:
            errors.append(f"line {item.line}: note {item.gold_note!r} is not indexed in this vault")
        else:
            usable.append(item)
    return golden.sample(usable, limit, SPLIT_SEED), errors


def stage_lists(trace: QueryTrace) -> dict[str, list[tuple[str, int, int, list[int]]]]:
    """Per evaluated stage, the ranked (note, char_start, char_end, chunk ids) list the metrics read; a
    reranked stage that did not run counts as the final (fused) list."""
    out = {}
    for name in STAGES[:-1]:
        stage = trace.stages[StageName(name)]
        cands = trace.final if name == StageName.RERANKED and not stage.candidates else stage.candidates
        out[name] = [(c.note, c.char_start, c.char_end, [c.chunk_id]) for c in cands]
    out[CONTEXT] = [(d.note, d.char_start, d.char_end, d.chunk_ids) for d in trace.context]
    return out


def confidence_signals(trace: QueryTrace) -> dict[str, float]:
    """Candidate confidence measures besides the top-1 cosine (compared in docs/quality.md)."""
    d = trace.decision
    out: dict[str, float] = {}
    if d.confidence is not None and d.top_cosine is not None and d.background is not None:
        out = {"cos_top1": d.top_cosine, "background": d.background}
        for w in (0.25, 0.5, 0.75, 1.0):
            out[f"cos_top1 - {w} background"] = d.top_cosine - w * d.background
    bm25 = trace.stages[StageName.BM25].candidates
    if bm25:
        out["bm25_top1"] = bm25[0].score
    return out


def classify_failure(trace: QueryTrace, hit_ids: set[int], k: int) -> str:
    """Which stage dropped the gold for an answerable question (the diagnosis layers, from the trace)."""
    in_bm25 = any(c.chunk_id in hit_ids for c in trace.stages[StageName.BM25].candidates)
    in_vec = any(c.chunk_id in hit_ids for c in trace.stages[StageName.VECTOR].candidates)
    if not (in_bm25 or in_vec):
        return "not in candidates"
    ranks = [c.rank for c in trace.final if c.chunk_id in hit_ids]
    if not ranks:
        return "fused out"
    statuses = {trace.context_status.get(c.chunk_id) for c in trace.final if c.chunk_id in hit_ids}
    if ContextStatus.CUT_BY_BUDGET in statuses:
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
        info = searcher.store.stored_chunks(ids)
        hit_ids = {cid for cid in ids if item.is_hit(info[cid].note, info[cid].char_start, info[cid].char_end,
                                                      info[cid].text)}
        ranks = {name: metrics.first_hit([any(c in hit_ids for c in cids) for *_, cids in lst])
                 for name, lst in lists.items()}
        final = lists[StageName.RERANKED]
        top1 = bool(final) and any(c in hit_ids for c in final[0][3])
        failure = ""
        if item.answerable and ranks[CONTEXT] is None:
            failure = classify_failure(trace, hit_ids, trace.settings["k"])
        yield QuestionResult(item.line, item.question, item.answerable, ranks, trace.decision.confidence, top1,
                             failure, confidence_signals(trace))
        if on_progress:
            done = i + 1
            rate = done / max(time.perf_counter() - t0, 1e-9)
            on_progress(Progress(Phase.EVAL, done, len(items), rate, (len(items) - done) / rate))


def run_golden(searcher: Searcher, path: str | Path, limit: int | None = None,
               on_progress: Callable[[Progress], None] | None = None,
               cancel: Callable[[], bool] | None = None) -> GoldenRun:
    """Load a golden file for this index (seeded sample of `limit`) and ask every usable question."""
    items, errors = load_for(searcher.store, path, limit)
    t = time.perf_counter()
    results = list(run(searcher, items, on_progress, cancel))
    return GoldenRun(results, errors, time.perf_counter() - t)


def summarize(results: list[QuestionResult], vault: str, golden_path: str, settings: dict[str, Any],
              seconds: float, skipped: list[str]) -> EvalResult:
    answerable = [r for r in results if r.answerable]
    unanswerable = [r for r in results if not r.answerable]
    stages = {name: metrics.stage_row([r.ranks[name] for r in answerable]) for name in STAGES}
    signs = {}
    for a, b in itertools.pairwise(STAGES):
        if {a, b} == {StageName.BM25, StageName.VECTOR}:
            continue
        first = [r.ranks[a] == 1 for r in answerable]
        second = [r.ranks[b] == 1 for r in answerable]
        signs[f"{a} -> {b}"] = metrics.sign_test(first, second)
    for lone in (StageName.BM25, StageName.VECTOR):
        signs[f"{lone} -> fused"] = metrics.sign_test([r.ranks[lone] == 1 for r in answerable],
                                                      [r.ranks[StageName.FUSED] == 1 for r in answerable])
    failures = dict(Counter(r.failure for r in answerable if r.failure))
    return EvalResult(vault, golden_path, settings, len(answerable), len(unanswerable), stages, signs, failures,
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


def store_threshold(store: IndexStore, reranker_id: str, threshold: float) -> str:
    """Keep a calibrated threshold in the index for its (embedder, reranker); returns the key it went under."""
    key = threshold_key(store.meta("embed_model") or "", reranker_id)
    with store.transaction():
        store.set_meta(key, repr(threshold))
    return key

"""Evaluate a golden set on a vault: hit@k and MRR per stage, sign tests, the refusal trade-off."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from vaultrag.core.model import Progress, QueryTrace
from vaultrag.core.quality import golden, metrics
from vaultrag.core.quality.dropped import dropped_at, passed_on
from vaultrag.core.quality.golden import GoldenItem
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.stages.decide import threshold_in_force
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import DecisionReason, Phase, StageName, Verdict

# the rows of every evaluation: the trace's ranked lists in pipeline order, then the documents of the prompt
CONTEXT = StageName.CONTEXT
SPLIT_SEED = 13


@dataclass
class QuestionResult:
    """What one golden question did: first-hit rank per stage, confidence, top-1 correctness, failure class."""

    line: int
    question: str
    answerable: bool
    ranks: dict[StageName, int | None]  # first-hit rank per ranked list of the trace, then CONTEXT
    confidence: float | None
    top1_correct: bool
    failure: Verdict | None = None  # answerable questions whose gold never reached the context: where it was lost
    signals: dict[str, float] = field(default_factory=dict)  # alternative confidences, for research
    # the decision at the threshold in force (the run asks with the threshold off, so the context is always built)
    answered: bool | None = None
    decider: str = "cosine"  # what the confidence is: the answerability model's probability, or the cosine rule


class RefusalGap(StrEnum):
    """Why an evaluation has no refusal section (the report and the window word it)."""

    NO_UNANSWERABLE = "no-unanswerable-questions"
    NO_CONFIDENCE = "no-confidence"  # no answerable question has a confidence (no vectors?)


@dataclass(frozen=True)
class Refusal:
    """How well the confidence separates answerable from unanswerable questions: AUROC and the threshold table;
    `reason` says why there is none (then `available` is False)."""

    available: bool
    reason: RefusalGap | None = None
    auroc: float | None = None
    n_answerable: int = 0
    n_unanswerable: int = 0
    table: tuple[metrics.ThresholdRow, ...] = ()


@dataclass
class EvalResult:
    """The whole evaluation, JSON-ready."""

    vault: str
    golden: str
    settings: dict[str, Any]
    n_answerable: int
    n_unanswerable: int
    stages: dict[StageName, dict[str, float]]  # the rows: the ranked lists in pipeline order, then CONTEXT
    sign_tests: dict[str, dict[str, float]]
    failures: dict[Verdict, int]  # where the gold was lost (`dropped.dropped_at`), per verdict
    refusal: Refusal
    questions_per_s: float
    skipped_lines: list[str] = field(default_factory=list)
    results: list[QuestionResult] = field(default_factory=list)


@dataclass
class GoldenRun:
    """The questions of a golden file, asked: per-question results, the lines left out, the time taken."""

    results: list[QuestionResult]
    skipped_lines: list[str]
    seconds: float
    inputs: dict[StageName, list[StageName]] = field(default_factory=dict)  # the lists that fed each list


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


def stage_lists(trace: QueryTrace) -> dict[StageName, list[tuple[str, int, int, list[int]]]]:
    """Per ranked list of the trace (in pipeline order) and for the prompt's documents (CONTEXT), the ranked
    (note, char_start, char_end, chunk ids) list the metrics read."""
    out = {name: [(c.note, c.char_start, c.char_end, [c.chunk_id]) for c in passed_on(trace, stage)]
           for name, stage in trace.stages.items()}
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
    bm25 = trace.stages[StageName.BM25].candidates if StageName.BM25 in trace.stages else []
    if bm25:
        out["bm25_top1"] = bm25[0].score
    if d.by_model and d.confidence is not None:
        out["answerability"] = d.confidence
    return out


def answered_at(searcher: Searcher, trace: QueryTrace) -> bool:
    """The decision at the threshold in force for the question's decider (evaluation asks with the threshold off)."""
    d = trace.decision
    if d.reason in (DecisionReason.NO_CANDIDATE, DecisionReason.STOP_WORDS_ONLY):
        return False
    threshold = threshold_in_force(searcher.store, searcher.settings, searcher.reranker_id, d.decider)
    return d.confidence is None or threshold is None or d.confidence >= threshold


def run(searcher: Searcher, items: list[GoldenItem], on_progress: Callable[[Progress], None] | None = None,
        cancel: Callable[[], bool] | None = None,
        inputs: dict[StageName, list[StageName]] | None = None) -> Iterator[QuestionResult]:
    """Ask every question (threshold off, so the context is always built) and score each stage; `inputs`, when
    given, gets the lists that fed each list."""
    t0 = time.perf_counter()
    for i, item in enumerate(items):
        if cancel and cancel():
            return
        trace = searcher.ask(item.question, threshold=float("-inf"))
        if inputs is not None:
            inputs.update({name: list(stage.inputs) for name, stage in trace.stages.items() if stage.inputs})
        lists = stage_lists(trace)
        ids = list({cid for lst in lists.values() for *_, cids in lst for cid in cids})
        info = searcher.store.stored_chunks(ids)
        hit_ids = {cid for cid in ids if item.is_hit(info[cid].note, info[cid].char_start, info[cid].char_end,
                                                      info[cid].text)}
        ranks = {name: metrics.first_hit([any(c in hit_ids for c in cids) for *_, cids in lst])
                 for name, lst in lists.items()}
        top1 = bool(trace.final) and trace.final[0].chunk_id in hit_ids
        failure = None
        if item.answerable and ranks[CONTEXT] is None:
            failure = dropped_at(trace, hit_ids).verdict
        yield QuestionResult(item.line, item.question, item.answerable, ranks, trace.decision.confidence, top1,
                             failure, confidence_signals(trace), answered_at(searcher, trace), trace.decision.decider)
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
    inputs: dict[StageName, list[StageName]] = {}
    results = list(run(searcher, items, on_progress, cancel, inputs))
    return GoldenRun(results, errors, time.perf_counter() - t, inputs)


def summarize(results: list[QuestionResult], vault: str, golden_path: str, settings: dict[str, Any],
              seconds: float, skipped: list[str],
              inputs: Mapping[StageName, Sequence[StageName]] | None = None) -> EvalResult:
    """The evaluation of `results`: a row per ranked list and the context; a sign test of every list against
    each list that fed it (`inputs`, a GoldenRun's), and of the prompt's documents against the final list."""
    answerable = [r for r in results if r.answerable]
    unanswerable = [r for r in results if not r.answerable]
    names = list(dict.fromkeys(name for r in results for name in r.ranks))
    stages = {name: metrics.stage_row([r.ranks[name] for r in answerable]) for name in names}
    feeds = {**(inputs or {}), CONTEXT: names[-2:-1]}  # the context is made from the last (final) list
    # each list against the one right before it when that one fed it, then against every other that fed it
    pairs = [(a, b) for a, b in itertools.pairwise(names) if a in feeds.get(b, ())]
    pairs += [(a, b) for b in names for a in feeds.get(b, ()) if (a, b) not in pairs and a in stages]
    signs = {f"{a} -> {b}": metrics.sign_test([r.ranks[a] == 1 for r in answerable],
                                              [r.ranks[b] == 1 for r in answerable]) for a, b in pairs}
    failures = dict(Counter(f for f in (r.failure for r in answerable) if f is not None))
    return EvalResult(vault, golden_path, settings, len(answerable), len(unanswerable), stages, signs, failures,
                      refusal_section(results), len(results) / seconds if seconds else 0.0, skipped, results)


def refusal_section(results: list[QuestionResult]) -> Refusal:
    """AUROC of the confidence and the threshold table; says why not when there are no unanswerable questions."""
    ans = [(r.confidence, r.top1_correct) for r in results if r.answerable and r.confidence is not None]
    una = [r.confidence for r in results if not r.answerable and r.confidence is not None]
    if not una:
        return Refusal(False, RefusalGap.NO_UNANSWERABLE)
    if not ans:
        return Refusal(False, RefusalGap.NO_CONFIDENCE)
    grid = sorted({round(c, 3) for c, _ in ans} | {round(c, 3) for c in una})
    step = max(1, len(grid) // 25)
    table = tuple(metrics.threshold_row(t, ans, una) for t in grid[::step])
    return Refusal(True, None, metrics.auroc([c for c, _ in ans], una), len(ans), len(una), table)


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

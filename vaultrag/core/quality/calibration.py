"""Calibration, one use case for the window and `vaultrag calibrate`: pick the refusal threshold on a golden run's
tune half, keep it only from enough questions, and store it through the index's one writer."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from vaultrag.core.quality import metrics
from vaultrag.core.quality.evaluate import SPLIT_SEED, QuestionResult, split
from vaultrag.core.query.stages.decide import COSINE, threshold_key
from vaultrag.core.query.terms import fold
from vaultrag.core.store.index_store import IndexStore
from vaultrag.errors import UserFacingError

# a threshold is stored only from at least this many answerable and this many unanswerable questions: a tiny
# golden set would move the threshold on noise
MIN_CALIBRATION_QUESTIONS = 15
# nor when, on the validate half, it would refuse more than half of the answers the ranker gets right: one click on a
# 31-question file once stored a threshold that kept 25 % ± 34 % of them, and correct answers were refused
MIN_KEPT_SHARE = 0.5
PREVIOUS = "|previous"  # index_meta: the threshold a calibration replaced ("" none: the shipped one), for Undo

# runs a write on the index's one writer (the app's index lane; the CLI's own store) and returns its result
IndexWriter = Callable[[Callable[[IndexStore], str]], str]


class CalibrationOutcome(StrEnum):
    """What became of the picked threshold."""

    STORED = "stored"
    PICKED = "picked"  # enough questions; not stored (`pick` alone: benchmarks, a dry run)
    TOO_FEW_QUESTIONS = "too-few-questions"  # picked and reported, not stored (MIN_CALIBRATION_QUESTIONS)
    # picked on the tune half, but the validate half lets through more unanswerable questions than the goal beyond
    # chance (an exact binomial test): not stored, the threshold in force stays
    MISSES_TARGET = "misses-target"
    REFUSES_ANSWERS = "refuses-answers"  # it would refuse more than half the correct answers (MIN_KEPT_SHARE)
    NO_UNANSWERABLE = "no-unanswerable-questions"  # nothing to pick it on (the tune half has none)


@dataclass(frozen=True)
class HalfRates:
    """One half of the golden run at the picked threshold, with 95 % half-widths (normal approximation) of the
    two shares a person decides on."""

    n_answerable: int
    n_unanswerable: int
    answerable_kept_correct: float
    answerable_kept_wrong: float
    unanswerable_passed: float
    top1_without_threshold: float
    kept_correct_margin: float
    passed_margin: float


@dataclass(frozen=True)
class Calibration:
    """A calibration's result: the threshold picked on the tune half (None when there was nothing to pick it on),
    both halves' rates at it, and whether it was stored (under `stored_as`, an index_meta key) or why not."""

    outcome: CalibrationOutcome
    max_pass: float
    n_answerable: int  # the whole run's questions, which the minimum counts
    n_unanswerable: int
    threshold: float | None = None
    tune: HalfRates | None = None
    validate: HalfRates | None = None
    seed: int = SPLIT_SEED
    min_questions: int = MIN_CALIBRATION_QUESTIONS
    stored_as: str = ""
    duplicates: tuple[int, ...] = ()  # the golden lines dropped as a question asked on an earlier line

    @property
    def stored(self) -> bool:
        return self.outcome == CalibrationOutcome.STORED


def half_rates(half: Sequence[QuestionResult], t: float) -> HalfRates:
    """What threshold `t` does on one half of a golden run."""
    a = [(r.confidence, r.top1_correct) for r in half if r.answerable and r.confidence is not None]
    u = [r.confidence for r in half if not r.answerable and r.confidence is not None]
    row = metrics.threshold_row(t, a, u)
    return HalfRates(len(a), len(u), row.answerable_kept_correct, row.answerable_kept_wrong, row.unanswerable_passed,
                     sum(1 for _, ok in a if ok) / (len(a) or 1),
                     metrics.margin95(row.answerable_kept_correct, len(a)),
                     metrics.margin95(row.unanswerable_passed, len(u)))


def check_max_pass(max_pass: float) -> float:
    """`max_pass`, or a UserFacingError when it is no goal a threshold can be picked for."""
    # 1 picks the lowest unanswerable confidence and calls every validate half a success: a threshold that lets every
    # unanswerable question through was stored; 0 is missed by any one unanswerable question that passes
    if not 0.0 < max_pass < 1.0:  # NaN fails this too
        raise UserFacingError(f"The most unanswerable questions let through must be a share from 0 to 1, both "
                              f"excluded, e.g. 0.10 for 10% (got {max_pass:g}): 1 lets every one of them through, "
                              "and 0 is missed as soon as one passes.")
    return max_pass


def question_key(question: str) -> str:
    """What makes two golden questions the same one: case, accents and spacing aside."""
    return " ".join(fold(question.casefold()).split())


def distinct(results: Sequence[QuestionResult]) -> tuple[list[QuestionResult], tuple[int, ...]]:
    """Each question once, on its first line, and the lines of its repeats: a repeated question counted twice
    towards the minimum and could land in both halves, validating the threshold on the questions it was picked on."""
    seen: set[str] = set()
    kept: list[QuestionResult] = []
    dropped: list[int] = []
    for r in sorted(results, key=lambda r: r.line):
        key = question_key(r.question)
        if key in seen:
            dropped.append(r.line)
        else:
            seen.add(key)
            kept.append(r)
    return kept, tuple(dropped)


def pick(results: Sequence[QuestionResult], max_pass: float) -> Calibration:
    """Pick on the tune half the threshold letting at most `max_pass` unanswerable through and report both halves;
    each question counts once (`distinct`); nothing is stored."""
    check_max_pass(max_pass)
    results, duplicates = distinct(results)
    n_a = sum(1 for r in results if r.answerable)
    n_u = len(results) - n_a
    tune, validate = split(results)
    una = [r.confidence for r in tune if not r.answerable and r.confidence is not None]
    if not una:
        return Calibration(CalibrationOutcome.NO_UNANSWERABLE, max_pass, n_a, n_u, duplicates=duplicates)
    t = metrics.pick_threshold(una, max_pass)
    check = half_rates(validate, t)
    if min(n_a, n_u) < MIN_CALIBRATION_QUESTIONS:
        outcome = CalibrationOutcome.TOO_FEW_QUESTIONS
    elif metrics.above(check.unanswerable_passed, check.n_unanswerable, max_pass):
        outcome = CalibrationOutcome.MISSES_TARGET
    elif check.answerable_kept_correct < MIN_KEPT_SHARE * check.top1_without_threshold:
        outcome = CalibrationOutcome.REFUSES_ANSWERS
    else:
        outcome = CalibrationOutcome.PICKED
    return Calibration(outcome, max_pass, n_a, n_u, t, half_rates(tune, t), check, duplicates=duplicates)


def decider_of(results: Sequence[QuestionResult]) -> str:
    """What most questions were decided by (the answerability model, or the cosine rule where it could not run):
    a threshold is on one decider's scale."""
    return Counter(r.decider for r in results).most_common(1)[0][0] if results else COSINE


def preview(results: Sequence[QuestionResult], max_pass: float) -> tuple[Calibration, str]:
    """What a calibration would store, and for which decider, without storing it (the window shows it and asks)."""
    decider = decider_of(results)
    return pick([r for r in results if r.decider == decider], max_pass), decider


def calibrate(results: Sequence[QuestionResult], max_pass: float, reranker_id: str, write: IndexWriter) -> Calibration:
    """Pick the threshold on the probability of the answerability model (the cosine rule's confidence where the
    model cannot run: the questions decided by the commoner of the two) and, from enough questions, store it for
    the index's (embedder, reranker, decider) through `write`, the index's one writer."""
    cal, decider = preview(results, max_pass)
    if cal.outcome != CalibrationOutcome.PICKED or cal.threshold is None:
        return cal
    threshold = cal.threshold
    key = write(lambda store: store_threshold(store, reranker_id, threshold, decider))
    return replace(cal, outcome=CalibrationOutcome.STORED, stored_as=key)


def store_threshold(store: IndexStore, reranker_id: str, threshold: float, decider: str = COSINE) -> str:
    """Keep a calibrated threshold in the index for its (embedder, reranker, decider), and the one it replaces for
    Undo; returns the key it went under."""
    key = threshold_key(store.meta("embed_model") or "", reranker_id, decider)
    with store.transaction():
        store.set_meta(key + PREVIOUS, store.meta(key) or "")
        store.set_meta(key, repr(threshold))
    return key


def calibrated(store: IndexStore, reranker_id: str, decider: str = COSINE) -> tuple[float | None, bool]:
    """(the calibrated threshold of the index for (embedder, reranker, decider), or None for the shipped one;
    whether Undo has a change to take back)."""
    key = threshold_key(store.meta("embed_model") or "", reranker_id, decider)
    value = store.meta(key)
    return (float(value) if value else None), store.meta(key + PREVIOUS) is not None


def undo_threshold(store: IndexStore, reranker_id: str, decider: str = COSINE) -> float | None:
    """Put back the threshold the last calibration (or reset) replaced; returns the calibrated one now in force
    (None: the shipped one). Nothing to undo: nothing changes."""
    key = threshold_key(store.meta("embed_model") or "", reranker_id, decider)
    with store.transaction():
        previous = store.meta(key + PREVIOUS)
        if previous is not None:
            store.delete_meta(key + PREVIOUS)
            store.set_meta(key, previous) if previous else store.delete_meta(key)
    value = store.meta(key)
    return float(value) if value else None


def reset_threshold(store: IndexStore, reranker_id: str, decider: str = COSINE) -> None:
    """Back to the shipped threshold (the calibrated one kept for Undo)."""
    key = threshold_key(store.meta("embed_model") or "", reranker_id, decider)
    with store.transaction():
        current = store.meta(key)
        if current is not None:
            store.set_meta(key + PREVIOUS, current)
            store.delete_meta(key)

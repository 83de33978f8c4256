"""Retrieval and refusal metrics: hit@k, MRR, the sign test, AUROC, threshold tables and calibration."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial


def first_hit(hits: Sequence[bool]) -> int | None:
    """1-based rank of the first hit, or None."""
    return next((i + 1 for i, h in enumerate(hits) if h), None)


def hit_at(ranks: Sequence[int | None], k: int) -> float:
    return sum(1 for r in ranks if r is not None and r <= k) / len(ranks) if ranks else float("nan")


def mrr_at(ranks: Sequence[int | None], k: int = 20) -> float:
    return sum(1 / r for r in ranks if r is not None and r <= k) / len(ranks) if ranks else float("nan")


def recall(ranks: Sequence[int | None]) -> float:
    return sum(1 for r in ranks if r is not None) / len(ranks) if ranks else float("nan")


@dataclass(frozen=True)
class Metric:
    """A retrieval metric over the first-hit ranks of a stage (None = never hit)."""

    name: str  # the JSON key
    of: Callable[[Sequence[int | None]], float]
    label: str = ""  # the column header, when it differs from the name

    @property
    def header(self) -> str:
        return self.label or self.name


KS = (1, 3, 5, 20)
# The metrics that evaluation, the Markdown report, the quality doc and the GUI's table all show, in order:
# a new metric is one line here.
RANK_METRICS: tuple[Metric, ...] = (
    *(Metric(f"hit@{k}", partial(hit_at, k=k)) for k in KS),
    Metric("mrr@20", partial(mrr_at, k=20), "MRR@20"),
    Metric("recall@N", recall),
)


def stage_row(ranks: Sequence[int | None]) -> dict[str, float]:
    """Every registered metric of one stage's ranks."""
    return {m.name: m.of(ranks) for m in RANK_METRICS}


def sign_test(a: Sequence[bool], b: Sequence[bool]) -> dict[str, float]:
    """Paired sign test of b against a: wins (b right, a wrong), losses, and the exact two-sided p-value."""
    wins = sum(1 for x, y in zip(a, b, strict=True) if y and not x)
    losses = sum(1 for x, y in zip(a, b, strict=True) if x and not y)
    n = wins + losses
    if n == 0:
        return {"wins": 0, "losses": 0, "p": 1.0}
    tail = sum(math.comb(n, i) for i in range(min(wins, losses) + 1))
    return {"wins": wins, "losses": losses, "p": min(1.0, 2 * tail / 2**n)}


def auroc(positives: Sequence[float], negatives: Sequence[float]) -> float:
    """Probability that a random positive scores above a random negative (ties count half)."""
    if not positives or not negatives:
        return float("nan")
    pairs = sorted([(s, 1) for s in positives] + [(s, 0) for s in negatives])
    rank_sum, i = 0.0, 0
    while i < len(pairs):  # average ranks over ties
        j = i
        while j < len(pairs) and pairs[j][0] == pairs[i][0]:
            j += 1
        avg = (i + j + 1) / 2
        rank_sum += avg * sum(1 for _, lab in pairs[i:j] if lab)
        i = j
    n_pos, n_neg = len(positives), len(negatives)
    return (rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg)


@dataclass(frozen=True)
class ThresholdRow:
    """What a refusal threshold does: shares of answerable questions kept with a correct top-1 and with a wrong
    one, and of unanswerable questions passed (NaN without any)."""

    threshold: float
    answerable_kept_correct: float
    answerable_kept_wrong: float
    unanswerable_passed: float


def threshold_row(t: float, answerable: Sequence[tuple[float, bool]],
                  unanswerable: Sequence[float]) -> ThresholdRow:
    """At threshold t: share of answerable kept with a correct top-1, kept with a wrong one, unanswerable passed."""
    n_a = len(answerable) or 1
    return ThresholdRow(
        t,
        sum(1 for c, ok in answerable if c >= t and ok) / n_a,
        sum(1 for c, ok in answerable if c >= t and not ok) / n_a,
        sum(1 for c in unanswerable if c >= t) / len(unanswerable) if unanswerable else float("nan"),
    )


Z95 = 1.959964  # the two-sided 95 % normal quantile


def wilson95(share: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a share measured on n questions (honest at 0 % and 100 % and on few
    questions, where the normal approximation says "± 0")."""
    if n <= 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (share + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(share * (1 - share) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def margin95(share: float, n: int) -> float:
    """How far a share measured on n questions could move with another sample of the same size: the wider side of
    its 95 % Wilson interval (3 questions, none passed: ± 56 %, not ± 0 %)."""
    lo, hi = wilson95(share, n)
    return max(share - lo, hi - share)


def above(share: float, n: int, limit: float, alpha: float = 0.05) -> bool:
    """Whether `share` of n (a count) is, by an exact one-sided binomial test at `alpha`, more than a `limit`
    share would give: a target missed beyond chance."""
    k = round(share * n)
    if n <= 0 or k <= limit * n:
        return False
    tail = sum(math.comb(n, i) * limit**i * (1 - limit) ** (n - i) for i in range(k, n + 1))
    return tail < alpha


def pick_threshold(unanswerable: Sequence[float], max_pass: float) -> float:
    """The lowest threshold that lets at most `max_pass` of the unanswerable confidences through."""
    ordered = sorted(unanswerable, reverse=True)
    allowed = math.floor(max_pass * len(ordered) + 1e-9)
    if allowed >= len(ordered):
        return min(ordered)
    # just above the first confidence that must be stopped (ties with it are stopped too)
    return math.nextafter(ordered[allowed], math.inf)

"""The refusal decision: the final top-1's confidence against the threshold (override > calibrated > shipped)."""

from __future__ import annotations

import time

import numpy as np

from vaultrag.core.model import Candidate, Decision, QueryWarning
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import DecisionReason, StageName, ThresholdSource, WarningCode
from vaultrag.engines import shipped_threshold
from vaultrag.settings import Settings

# Confidence = cosine(question, top chunk) − BACKGROUND_WEIGHT × cosine(question, the vault's mean chunk).
# Subtracting the vault's background makes one threshold transfer between vaults: on the dev sets a raw-cosine
# threshold tuned on one let 90% of the other's unanswerable questions through; this one 6–14% (quality.md).
BACKGROUND_WEIGHT = 0.75
MEAN_TTL_S = 30.0  # while vectors fill, recompute the in-memory vault mean at most this often
# the shipped thresholds live with the engines that earned them (vaultrag/engines.py: RerankerEngine.thresholds)


def threshold_key(model_id: str, reranker_id: str) -> str:
    """The index_meta key of a calibrated threshold: thresholds belong to an (embedder, reranker) pair."""
    return f"threshold:{model_id}|{reranker_id}"


def resolve_threshold(store: IndexStore, settings: Settings, reranker_id: str,
                      override: float | None = None) -> tuple[float | None, ThresholdSource]:
    """The threshold in force and where it comes from: the question's, the settings', calibrated, shipped."""
    if override is not None:
        return override, ThresholdSource.OVERRIDE
    if settings.threshold is not None:
        return settings.threshold, ThresholdSource.SETTINGS
    model = store.meta("embed_model") or ""
    stored = store.meta(threshold_key(model, reranker_id))
    if stored is not None:
        return float(stored), ThresholdSource.CALIBRATED
    shipped = shipped_threshold(model, reranker_id)
    if shipped is not None:
        return shipped, ThresholdSource.SHIPPED
    return None, ThresholdSource.UNCALIBRATED


class VaultBackground:
    """The question's cosine with the vault's mean chunk vector (None before any vector exists).

    The stored mean (written after each embedding run) is a one-row read; while the first run is still filling
    vectors there is none yet, so a mean is computed here and reused for a while.
    """

    def __init__(self, store: IndexStore, model_id: str) -> None:
        self.store, self.model_id = store, model_id
        self._mean: tuple[np.ndarray | None, float] | None = None  # (mean vector or None, when computed)

    def __call__(self, qvec: np.ndarray) -> float | None:
        stored = self.store.vector_mean(self.model_id)
        mean: np.ndarray | None
        if stored is not None:
            mean = stored[1]
        else:
            if self._mean is None or time.monotonic() - self._mean[1] > MEAN_TTL_S:
                computed = self.store.compute_vector_mean()
                self._mean = (computed[1] if computed else None, time.monotonic())
            mean = self._mean[0]
        return float(mean @ qvec) if mean is not None else None


def decide(ranked: list[Candidate], threshold: float | None, source: ThresholdSource,
           background: float | None) -> Decision:
    """Refuse when the top candidate's confidence is below the threshold; the reason is a code, the numbers are
    the decision's own fields."""
    if not ranked:
        return Decision(False, None, None, None, ThresholdSource.NONE, DecisionReason.NO_CANDIDATE)
    cos = ranked[0].cosine
    def made(answered: bool, conf: float | None, margin: float | None, reason: DecisionReason,
             t: float | None = threshold) -> Decision:
        return Decision(answered, conf, t, margin, source, reason, top_cosine=cos, background=background,
                        background_weight=BACKGROUND_WEIGHT)

    if cos is None or background is None:  # BM25 while vectors fill
        return made(True, None, None, DecisionReason.NO_CONFIDENCE)
    conf = cos - BACKGROUND_WEIGHT * background
    if threshold is None:
        return made(True, conf, None, DecisionReason.NO_THRESHOLD)
    margin = conf - threshold
    if margin >= 0:
        return made(True, conf, margin, DecisionReason.ABOVE_THRESHOLD)
    return made(False, conf, margin, DecisionReason.BELOW_THRESHOLD)


class DecideStage:
    """Answer or refuse; a question with no searchable word is refused whatever its confidence."""

    name = StageName.DECIDE
    requires = needs(Slot.FINAL, Slot.TERMS)
    provides = needs(Slot.DECISION)

    def run(self, q: QueryState) -> None:
        background = q.background_of(q.qvec) if q.qvec is not None else None
        threshold, source = resolve_threshold(q.store, q.settings, q.reranker_id, q.threshold)
        decision = decide(q.final, threshold, source, background)
        if not q.terms:
            q.warnings.append(QueryWarning(WarningCode.STOP_WORDS_ONLY))
            if decision.answered:
                decision.answered = False
                decision.reason = DecisionReason.STOP_WORDS_ONLY
        q.decision = decision

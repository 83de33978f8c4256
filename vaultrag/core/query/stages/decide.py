"""The refusal decision: the answerability model's probability for the best-supported candidate among those that
reach the prompt (the cosine rule on the final top-1 when the model cannot run) against the threshold (override >
settings > calibrated > shipped)."""

from __future__ import annotations

import time

import numpy as np

from vaultrag.core.model import Candidate, Decision, QueryWarning
from vaultrag.core.query import answerability
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import DecisionReason, StageName, ThresholdSource, WarningCode
from vaultrag.engines import shipped_threshold
from vaultrag.settings import Settings

# Confidence = cosine(question, top chunk) − BACKGROUND_WEIGHT × cosine(question, the vault's mean chunk).
# Subtracting the vault's background makes one threshold transfer between vaults: on the dev sets a raw-cosine
# threshold tuned on one let 90% of the other's unanswerable questions through; this one 6–14% (quality.md).
BACKGROUND_WEIGHT = answerability.BACKGROUND_WEIGHT  # 0.75; the model's cosine_rule feature is this rule's
MEAN_TTL_S = 30.0  # while vectors fill, recompute the in-memory vault mean at most this often
# the shipped thresholds live with the engines that earned them (vaultrag/engines.py: RerankerEngine.thresholds)


COSINE = "cosine"  # the decider id of the cosine rule


def threshold_key(model_id: str, reranker_id: str, decider: str = COSINE) -> str:
    """The index_meta key of a calibrated threshold: thresholds belong to an (embedder, reranker, decider) triple
    (the cosine rule's keep the key they had before the answerability model)."""
    return f"threshold:{model_id}|{reranker_id}" + ("" if decider == COSINE else f"|{decider}")


def resolve_threshold(store: IndexStore, settings: Settings, reranker_id: str, override: float | None = None,
                      decider: answerability.Answerability | None = None) -> tuple[float | None, ThresholdSource]:
    """The threshold in force for `decider` (the model; None: the cosine rule) and where it comes from: the
    question's, the settings', calibrated, shipped."""
    if override is not None:
        return override, ThresholdSource.OVERRIDE
    if settings.threshold is not None:
        return settings.threshold, ThresholdSource.SETTINGS
    model = store.meta("embed_model") or ""
    stored = store.meta(threshold_key(model, reranker_id, decider.model_id if decider else COSINE))
    if stored is not None:
        return float(stored), ThresholdSource.CALIBRATED
    shipped = decider.threshold if decider is not None else shipped_threshold(model, reranker_id)
    if shipped is not None:
        return shipped, ThresholdSource.SHIPPED
    return None, ThresholdSource.UNCALIBRATED


def threshold_in_force(store: IndexStore, settings: Settings, reranker_id: str, decider: str) -> float | None:
    """The threshold a question decided by `decider` (a model id, or COSINE) meets when asked without its own."""
    model = answerability.shipped()
    chosen = model if model is not None and decider == model.model_id else None
    return resolve_threshold(store, settings, reranker_id, None, chosen)[0]


def rule_threshold(store: IndexStore, reranker_id: str) -> float | None:
    """The cosine rule's threshold (calibrated, else shipped): where the model's refusal, and why-not, say whether
    the topic is in the notes."""
    model = store.meta("embed_model") or ""
    stored = store.meta(threshold_key(model, reranker_id))
    return float(stored) if stored is not None else shipped_threshold(model, reranker_id)


def decider_for(q: QueryState, model: answerability.Answerability | None) -> answerability.Answerability | None:
    """The model when it can judge this question (its ranker made the final list, the question has a vector),
    else None: the cosine rule decides."""
    if model is None or q.qvec is None or not model.runs_on(q):
        return None
    return model


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


def decide_by_model(q: QueryState, model: answerability.Answerability, threshold: float | None,
                    source: ThresholdSource, background: float, cosine_threshold: float | None) -> Decision:
    """The model's decision on the best-supported of the candidates that reach the prompt (the final top k)."""
    ranked = q.final
    s = model.support(q, ranked[: max(1, q.k)], background)
    best = next(c for c in ranked if c.chunk_id == s.chunk_id)
    top = ranked[0].cosine
    # the topic is in the notes when the cosine rule would pass the best-supported candidate
    rule = best.cosine - BACKGROUND_WEIGHT * background if best.cosine is not None else None
    topic = rule is not None and cosine_threshold is not None and rule >= cosine_threshold

    def made(answered: bool, margin: float | None, reason: DecisionReason) -> Decision:
        return Decision(answered, s.probability, threshold, margin, source, reason, top_cosine=top,
                        background=background, background_weight=BACKGROUND_WEIGHT, decider=model.model_id,
                        supported_by=s.chunk_id, supported_note=best.note, contributions=s.contributions,
                        values=s.values, usual=s.usual, bias=s.bias, support=s.probabilities,
                        topic_found=topic and not answered)

    if threshold is None:
        return made(True, None, DecisionReason.NO_THRESHOLD)
    margin = s.probability - threshold
    if margin >= 0:
        return made(True, margin, DecisionReason.ABOVE_THRESHOLD)
    return made(False, margin, DecisionReason.BELOW_THRESHOLD)


class DecideStage:
    """Answer or refuse; a question with no searchable word is refused whatever its confidence."""

    name = StageName.DECIDE
    requires = needs(Slot.FINAL, Slot.TERMS)
    provides = needs(Slot.DECISION)

    def __init__(self, model: answerability.Answerability | bool | None = True) -> None:
        # True: the shipped model (read at the first question); None/False: the cosine rule only
        self._model = model

    @property
    def model(self) -> answerability.Answerability | None:
        if self._model is True:
            self._model = answerability.shipped()
        return self._model if isinstance(self._model, answerability.Answerability) else None

    def run(self, q: QueryState) -> None:
        asked = q
        # judged as the question reads in the top candidate's language: asked in Portuguese of English notes, the
        # decision reads the English translation (its words, its cosines, its distance from the vault's mean)
        q = q.view(q.note_languages([q.final[0].note]).get(q.final[0].note, "")) if q.final and q.translations else q
        background = q.background_of(q.qvec) if q.qvec is not None else None
        model = decider_for(q, self.model) if q.final and background is not None else None
        threshold, source = resolve_threshold(q.store, q.settings, q.reranker_id, q.threshold, model)
        if model is not None and background is not None:
            decision = decide_by_model(q, model, threshold, source, background, rule_threshold(q.store, q.reranker_id))
        else:
            decision = decide(q.final, threshold, source, background)
        q = asked
        if not q.terms and not any(q.translated_terms.values()):
            q.warnings.append(QueryWarning(WarningCode.STOP_WORDS_ONLY))
            if decision.answered:
                decision.answered = False
                decision.reason = DecisionReason.STOP_WORDS_ONLY
        elif not decision.answered:  # one vocabulary read, for a refusal only
            decision.unknown_words = answerability.unknown_words(q)
        q.decision = decision

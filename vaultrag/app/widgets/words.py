"""The trace in the window's language: decision reasons, stage names, statuses and notes built from the numbers."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication

from vaultrag.core.model import QueryTrace, Stage
from vaultrag.core.vocab import StageName, StageStatus, ThresholdSource


def tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # lupdate files module-level tr() under ""


def stage_title(name: StageName) -> str:
    return {StageName.BM25: tr("Keywords (BM25)"), StageName.VECTOR: tr("Meaning (vectors)"),
            StageName.FUSED: tr("Fused (RRF)"), StageName.RERANKED: tr("Reranked")}[name]


def status_word(status: StageStatus) -> str:
    return {StageStatus.OK: tr("ok"), StageStatus.EMPTY: tr("nothing matched"),
            StageStatus.PARTIAL: tr("partial"), StageStatus.UNAVAILABLE: tr("unavailable"),
            StageStatus.SKIPPED: tr("skipped")}[status]


def source_word(source: ThresholdSource) -> str:
    return {ThresholdSource.OVERRIDE: tr("this question's override"),
            ThresholdSource.SETTINGS: tr("override in settings"), ThresholdSource.CALIBRATED: tr("calibrated"),
            ThresholdSource.SHIPPED: tr("shipped default"), ThresholdSource.UNCALIBRATED: tr("uncalibrated"),
            ThresholdSource.NONE: tr("none")}[source]


def filling(trace: QueryTrace) -> str:
    """'vectors still filling: 10 of 40 chunks…' when the index is not fully embedded, else ''."""
    s = trace.index_state
    done, total = s.get("chunks_embedded"), s.get("chunks")
    if done is None or total is None or done >= total:
        return ""
    # "when asked": the status bar's progress moves on, this stays the count the question saw
    return tr("when asked, vectors were still filling: {d} of {t} chunks embedded; keyword search covered the "
              "rest").format(
        d=done, t=total)


def stage_note(trace: QueryTrace, stage: Stage) -> str:
    """Why a stage was skipped, partial or unavailable, in words (the core's note is the English fallback)."""
    if stage.status == StageStatus.SKIPPED and stage.name == StageName.RERANKED:
        return tr("no reranker configured: the fused order is final")
    if stage.status == StageStatus.PARTIAL:
        return filling(trace) or stage.note
    if stage.status == StageStatus.EMPTY:
        return tr("no chunk matched")
    if stage.status == StageStatus.UNAVAILABLE and stage.name == StageName.VECTOR:
        return tr("no vectors for this model yet: keyword search only")
    return stage.note if stage.status != StageStatus.OK else ""


def decision_reason(trace: QueryTrace) -> str:
    """The decision in words, from its numbers (so it is translated and never disagrees with them)."""
    d = trace.decision
    if not trace.final:
        return tr("no candidate: nothing in scope matches the question")
    if d.confidence is None:
        return tr("no vector for the top chunk yet, so no confidence: answering from keywords, unchecked")
    if d.threshold is None:
        return tr("no threshold for this model yet (run calibration): answered unchecked")
    if not d.answered and d.margin is not None and d.margin >= 0:
        return tr("the question has only stop words or symbols: rephrase it with the words you need")
    how = tr("confidence {c:.3f} (top chunk cosine {cos:.3f} − {w} × vault background {b:.3f})").format(
        c=d.confidence, cos=d.top_cosine or 0.0, w=d.background_weight, b=d.background or 0.0)
    if d.answered:
        return tr("{how} is {m:.3f} above the threshold {t:.3f}").format(how=how, m=d.margin or 0.0, t=d.threshold)
    return tr("{how} is {m:.3f} below the threshold {t:.3f}: no note seems to answer this").format(
        how=how, m=-(d.margin or 0.0), t=d.threshold)

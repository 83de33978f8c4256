"""Answered or refused: confidence against the threshold, the margin, and the reason in words."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QLabel

from vaultrag.core.model import Candidate, QueryTrace


class DecisionView(QLabel):
    def __init__(self) -> None:
        super().__init__()
        self.setWordWrap(True)
        self.setObjectName("decision")

    def set_trace(self, trace: QueryTrace) -> None:
        d = trace.decision
        verdict = self.tr("ANSWERED") if d.answered else self.tr("REFUSED")
        color = "#2e7d32" if d.answered else "#c62828"
        parts = [f"<b style='color:{color}'>{verdict}</b>"]
        if d.confidence is not None:
            parts.append(self.tr("confidence {c:.3f}").format(c=d.confidence))
        if d.threshold is not None:
            parts.append(self.tr("threshold {t:.3f} ({s})").format(t=d.threshold, s=d.threshold_source))
        if d.margin is not None:
            parts.append(self.tr("margin {m:+.3f}").format(m=d.margin))
        warn = "".join(f"<br><i>{escape(w)}</i>" for w in trace.warnings)
        self.setText(" · ".join(parts) + f"<br>{escape(d.reason)}{warn}")

    def clear(self) -> None:
        self.setText("")

    def select_chunk(self, cand: Candidate) -> None:
        pass  # the decision is about the question, not one chunk

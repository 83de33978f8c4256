"""Answered or refused: confidence against the threshold, the margin, and the reason in words (wraps, scrolls)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser

from vaultrag.app.words import decision_reason, source_word, warning_text
from vaultrag.core.model import Candidate, QueryTrace


class DecisionView(QTextBrowser):
    """A read-only text view: long reasons and warnings wrap and scroll instead of being cut."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("decision")
        self.setMinimumHeight(60)

    def set_trace(self, trace: QueryTrace) -> None:
        d = trace.decision
        verdict = self.tr("ANSWERED") if d.answered else self.tr("REFUSED")
        color = "#2e7d32" if d.answered else "#c62828"
        parts = [f"<b style='color:{color}'>{verdict}</b>"]
        if d.confidence is not None:
            parts.append(self.tr("confidence {c:.3f}").format(c=d.confidence))
        if d.threshold is not None:
            parts.append(self.tr("threshold {t:.3f} ({s})").format(t=d.threshold, s=source_word(d.threshold_source)))
        if d.margin is not None:
            parts.append(self.tr("margin {m:+.3f}").format(m=d.margin))
        # exactly the core's warnings, worded by code (the CLI prints the same ones)
        notes = [warning_text(w) for w in trace.warnings]
        warn = "".join(f"<br><i style='color:#8a5a00'>{escape(w)}</i>" for w in notes)
        self.setHtml(" · ".join(parts) + f"<br>{escape(decision_reason(trace))}{warn}")

    def set_answer(self, trace: QueryTrace) -> None:
        """After the language model's answer: its warnings join the decision's (the answer's language, a cut or
        stopped answer); the CLI prints the same after the streamed answer."""
        self.set_trace(trace)

    def clear(self) -> None:
        self.setHtml("")

    def select_chunk(self, cand: Candidate) -> None:
        pass  # the decision is about the question, not one chunk

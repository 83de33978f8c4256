"""Bar chart of what the decision read per candidate of the final list (the answerability model's probability, or
the cosine rule's confidence), with axes, the threshold line, names on hover."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QMouseEvent, QPainter, QPen
from PySide6.QtWidgets import QToolTip, QWidget

from vaultrag.app.widgets.stages_view import row_label
from vaultrag.app.words import local, number
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.vocab import StageName

IN_PROMPT = QColor(70, 130, 180)
LEFT_OUT = QColor(170, 170, 170)
THRESHOLD = QColor(200, 40, 40)


@dataclass
class Bar:
    cand: Candidate
    value: float | None  # confidence on the threshold's scale; None: no vector yet, or not judged by the model
    used: bool  # in the prompt
    decided: bool = False  # the passage the decision used (the model's best-supported, the rule's top-1)


class RerankChart(QWidget):
    """Each bar is what the decision read of a candidate, on the threshold's scale: the answerability model's
    probability for the candidates it judged (those that reach the prompt), or the cosine rule's confidence (its
    cosine minus the vault background). Blue: in the prompt; outlined in black: the one the decision used. A
    candidate without a value has no bar (a hollow mark); without values no bars are drawn at all.

    Signals:
        chunk_selected: the Candidate whose bar was clicked.
    """

    chunk_selected = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(120)
        self.setMouseTracking(True)
        self.bars: list[Bar] = []
        self.threshold: float | None = None
        self.title = ""
        self.by_model = False
        self.selected: int | None = None
        self._rects: list[QRectF] = []

    def set_trace(self, trace: QueryTrace) -> None:
        d = trace.decision
        used = {cid for doc in trace.context for cid in doc.chunk_ids}
        decided = d.supported_by if d.by_model else (trace.final[0].chunk_id if trace.final else None)
        self.bars = [Bar(c, d.confidence_of(c.cosine, c.chunk_id), c.chunk_id in used, c.chunk_id == decided)
                     for c in trace.final]
        self.threshold = d.threshold
        self.by_model = d.by_model
        reranked = trace.final_stage == StageName.RERANKED
        if d.by_model:
            self.title = self.tr("Probability that each passage the decision read answers the question")
        else:
            self.title = self.tr("Confidence of the reranked list") if reranked else \
                self.tr("Confidence of the fused list (no reranker)")
        self.update()

    def clear(self) -> None:
        self.bars, self.threshold, self.title, self.selected = [], None, "", None
        self.update()

    def select_chunk(self, cand: Candidate) -> None:
        self.selected = cand.chunk_id
        self.update()

    def values(self) -> list[float]:
        return [b.value for b in self.bars if b.value is not None]

    def value_range(self) -> tuple[float, float]:
        """The values the plot spans, bottom to top: one scale, 0 to 1, for every question (a 0.41 bar rescaled to
        the top looked like a 0.97 one), wider only for a value outside it (a negative confidence, a threshold
        set above 1)."""
        shown = self.values() + ([self.threshold] if self.threshold is not None else [])
        lo, hi = min(0.0, *shown), max(1.0, *shown)
        if lo < 0:
            lo -= (hi - lo) * 0.1  # a negative bar's end stays off the frame
        return lo, hi

    def ticks(self) -> list[float]:
        """The values labelled on the axis: its two ends and 0."""
        lo, hi = self.value_range()
        return sorted({lo, 0.0, hi})

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        w, h, lh = self.width(), self.height(), fm.height()
        p.drawText(QRectF(0, 0, w, lh), Qt.AlignmentFlag.AlignLeft, self.title)
        self._rects = []
        if not self.bars:
            p.drawText(QRectF(0, 0, w, h), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                       self.tr("Confidence chart: after a question, how likely each passage is to answer it, "
                               "against the threshold."))
            return
        values = self.values()
        if not values:
            p.drawText(QRectF(0, lh, w, h - lh), Qt.AlignmentFlag.AlignCenter | Qt.TextFlag.TextWordWrap,
                       self.tr("No confidence yet: the candidates have no vectors (still filling). "
                               "Bars appear once they do."))
            return
        lo, hi = self.value_range()
        left = fm.horizontalAdvance("−0.00") + 8
        top, bottom = lh + 4, h - 2 * lh - 4
        plot_w = w - left - 6
        scale = (bottom - top) / (hi - lo)

        def y_of(v: float) -> float:
            return bottom - (v - lo) * scale

        axis = self.palette().text().color()
        p.setPen(QPen(axis, 1))
        p.drawLine(QPointF(left, top), QPointF(left, bottom))
        p.drawLine(QPointF(left, y_of(0.0)), QPointF(w - 6, y_of(0.0)))
        for tick in self.ticks():
            p.drawText(QRectF(0, y_of(tick) - lh / 2, left - 4, lh),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, number(tick, 2))
        # the legend whole when it fits, else its short form, cut at its end: never clipped at both ends
        legend = self.legend() if fm.horizontalAdvance(self.legend()) <= w else self.legend(short=True)
        p.drawText(QRectF(0, h - lh, w, lh), Qt.AlignmentFlag.AlignCenter,
                   fm.elidedText(legend, Qt.TextElideMode.ElideRight, w))
        slot = plot_w / len(self.bars)
        bw = max(3.0, slot - 3)
        for i, b in enumerate(self.bars):
            x = left + 2 + i * slot
            rect = QRectF(x, top, bw, bottom - top)
            self._rects.append(rect)
            if b.value is None:  # no vector: a hollow mark on the axis, not a bar
                p.setPen(QPen(LEFT_OUT, 1, Qt.PenStyle.DotLine))
                p.drawRect(QRectF(x, y_of(0.0) - 6, bw, 6))
            else:
                y0, y1 = y_of(0.0), y_of(b.value)
                p.fillRect(QRectF(x, min(y0, y1), bw, abs(y0 - y1)), IN_PROMPT if b.used else LEFT_OUT)
                if b.decided:
                    p.setPen(QPen(axis, 2))
                    p.drawRect(QRectF(x, min(y0, y1), bw, abs(y0 - y1)))
            if b.cand.chunk_id == self.selected:
                p.setPen(QPen(QColor(255, 170, 0), 2))
                # a row without a value is marked where its hollow mark is: a full-height frame read as the tallest bar
                hollow = QRectF(x - 1, y_of(0.0) - 8, bw + 2, 10)
                p.drawRect(hollow if b.value is None else QRectF(x - 1, top, bw + 2, bottom - top))
            p.setPen(QPen(axis, 1))
            if bw >= fm.horizontalAdvance("99"):
                p.drawText(QRectF(x, bottom + 1, bw, lh), Qt.AlignmentFlag.AlignCenter, str(b.cand.rank))
        if self.threshold is not None:
            y = y_of(self.threshold)
            p.setPen(QPen(THRESHOLD, 2, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(left, y), QPointF(w - 6, y))
            label = local(self.tr("threshold {t:.3f}")).format(t=self.threshold)
            p.drawText(QRectF(w - 6 - fm.horizontalAdvance(label) - 4, y - lh - 1, fm.horizontalAdvance(label) + 4,
                              lh), Qt.AlignmentFlag.AlignRight, label)

    def legend(self, short: bool = False) -> str:
        """What the colours and the outline mean (several blue bars: neighbouring chunks merged into one document
        of the prompt each count); `short`, for a narrow chart."""
        if short:
            return self.tr("blue: in the prompt · outlined: the decision's · hover: the note")
        return self.tr("rank · blue: in the prompt (merged neighbours too) · outlined: what the decision used · "
                       "hover for the note")

    def explain(self, b: Bar) -> str:
        """A bar's tooltip line: its value and why it is blue, grey or outlined."""
        if b.value is None:
            value = self.tr("not judged: beyond the passages the decision reads") if self.by_model else \
                self.tr("no vector yet")
        elif self.by_model:
            value = local(self.tr("probability {p:.3f}")).format(p=b.value)
        else:
            value = local(self.tr("confidence {c:.3f}")).format(c=b.value)
        why = self.tr("in the prompt") if b.used else self.tr("not in the prompt")
        if b.decided:
            why += " · " + self.tr("the passage the decision used")
        return f"{value}\n{why}"

    def bar_at(self, x: float) -> Bar | None:
        for rect, b in zip(self._rects, self.bars, strict=False):
            if rect.left() <= x <= rect.right() + 3:
                return b
        return None

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        b = self.bar_at(event.position().x())
        if b is None:
            QToolTip.hideText()
            return
        QToolTip.showText(event.globalPosition().toPoint(), f"#{b.cand.rank} {row_label(b.cand)}\n{self.explain(b)}",
                          self)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        b = self.bar_at(event.position().x())
        if b is not None:
            self.chunk_selected.emit(b.cand)

"""Bar chart of the final list's confidence per candidate, the refusal threshold as a line, top-k marked."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.vocab import StageName


class RerankChart(QWidget):
    """Each bar is a candidate's confidence (its cosine minus the vault background), on the threshold's scale."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(140)
        self.bars: list[tuple[str, float, bool]] = []  # (label, value, in context)
        self.threshold: float | None = None
        self.title = ""

    def set_trace(self, trace: QueryTrace) -> None:
        d = trace.decision
        used = {cid for doc in trace.context for cid in doc.chunk_ids}
        self.bars = [(f"{c.rank}", d.confidence_of(c.cosine) or 0.0, c.chunk_id in used) for c in trace.final]
        self.threshold = d.threshold
        reranked = trace.final_stage == StageName.RERANKED
        self.title = self.tr("reranked") if reranked else self.tr("fused (no reranker)")
        self.update()

    def clear(self) -> None:
        self.bars, self.threshold, self.title = [], None, ""
        self.update()

    def select_chunk(self, cand: Candidate) -> None:
        pass  # the bars follow the final ranking; a selection elsewhere changes nothing here

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self.width(), self.height()
        p.drawText(6, 14, self.title)
        if not self.bars:
            p.drawText(QRectF(0, 0, w, h), Qt.AlignmentFlag.AlignCenter, self.tr("ask a question"))
            return
        values = [v for _, v, _ in self.bars] + ([self.threshold] if self.threshold is not None else [])
        lo, hi = min(0.0, *values), max(values) * 1.1 or 1.0
        top, bottom = 22, h - 18
        scale = (bottom - top) / (hi - lo or 1)
        bw = max(4.0, (w - 12) / len(self.bars) - 3)
        for i, (label, v, used) in enumerate(self.bars):
            x = 6 + i * (bw + 3)
            y0 = bottom - (0 - lo) * scale
            y1 = bottom - (v - lo) * scale
            color = QColor(70, 130, 180) if used else QColor(170, 170, 170)  # blue: in the context (top-k)
            p.fillRect(QRectF(x, min(y0, y1), bw, abs(y0 - y1)), color)
            p.drawText(QRectF(x, bottom, bw, 16), Qt.AlignmentFlag.AlignCenter, label)
        if self.threshold is not None:
            y = bottom - (self.threshold - lo) * scale
            p.setPen(QPen(QColor(200, 40, 40), 2, Qt.PenStyle.DashLine))
            p.drawLine(0, int(y), w, int(y))
            p.drawText(w - 120, int(y) - 4, f"threshold {self.threshold:.3f}")

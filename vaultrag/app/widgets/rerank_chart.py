"""Bar chart of the final list's confidence per candidate, the refusal threshold as a line, top-k marked."""

from __future__ import annotations

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QWidget

from vaultrag.core.model import QueryTrace
from vaultrag.core.search import BACKGROUND_WEIGHT


class RerankChart(QWidget):
    """Each bar is a candidate's confidence (its cosine minus the vault background), on the threshold's scale."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(140)
        self.bars: list[tuple[str, float, bool]] = []  # (label, value, in context)
        self.threshold: float | None = None
        self.title = ""

    def set_trace(self, trace: QueryTrace) -> None:
        reranked = trace.stages["reranked"].status == "ok"
        final = trace.stages["reranked" if reranked else "fused"].candidates
        d = trace.decision
        top = final[0].cosine if final else None
        background = (top - d.confidence) / BACKGROUND_WEIGHT if top is not None and d.confidence is not None else 0
        used = {cid for doc in trace.context for cid in doc.chunk_ids}
        self.bars = [(f"{c.rank}", (c.cosine or 0.0) - BACKGROUND_WEIGHT * background, c.chunk_id in used)
                     for c in final]
        self.threshold = d.threshold
        self.title = self.tr("reranked") if reranked else self.tr("fused (no reranker)")
        self.update()

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

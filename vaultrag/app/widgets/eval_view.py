"""Run a golden file: the per-stage table, the refusal trade-off curve, and calibration."""

from __future__ import annotations

import itertools
from typing import Any

from PySide6.QtCore import QPointF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vaultrag.core.quality.evaluate import STAGES
from vaultrag.core.quality.metrics import RANK_METRICS


class TradeoffCurve(QWidget):
    """Share of answerable kept with a correct top-1 against the share of unanswerable passed."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(160)
        self.points: list[tuple[float, float]] = []

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        w, h = self.width() - 40, self.height() - 30
        p.drawRect(30, 5, w, h)
        p.drawText(32, self.height() - 8, self.tr("unanswerable passed →"))
        if not self.points:
            return
        p.setPen(QPen(QColor(70, 130, 180), 2))
        pts = [QPointF(30 + x * w, 5 + (1 - y) * h) for x, y in self.points]
        for a, b in itertools.pairwise(pts):
            p.drawLine(a, b)


class EvalView(QWidget):
    """Signals: run_requested(golden path, limit or 0, max_pass or -1 for no calibration)."""

    run_requested = Signal(str, int, float)

    def __init__(self) -> None:
        super().__init__()
        self.path = QLineEdit()
        self.path.setPlaceholderText(self.tr("golden .jsonl file"))
        browse = QPushButton(self.tr("Browse…"))
        self.limit = QSpinBox()
        self.limit.setRange(0, 100000)
        self.limit.setSpecialValueText(self.tr("all"))
        self.max_pass = QDoubleSpinBox()
        self.max_pass.setRange(0.0, 1.0)
        self.max_pass.setSingleStep(0.05)
        self.max_pass.setValue(0.10)
        self.run = QPushButton(self.tr("Evaluate"))
        self.calibrate = QPushButton(self.tr("Calibrate"))
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.table = QTableWidget(len(STAGES), len(RANK_METRICS))
        self.table.setObjectName("eval-table")
        self.table.setHorizontalHeaderLabels([m.header for m in RANK_METRICS])
        self.table.setVerticalHeaderLabels(list(STAGES))
        self.curve = TradeoffCurve()
        top = QHBoxLayout()
        for wdg in (self.path, browse, QLabel(self.tr("limit")), self.limit, self.run, QLabel(self.tr("max pass")),
                    self.max_pass, self.calibrate):
            top.addWidget(wdg)
        col = QVBoxLayout(self)
        col.addLayout(top)
        col.addWidget(self.status)
        col.addWidget(self.table)
        col.addWidget(self.curve)
        browse.clicked.connect(self._browse)
        self.run.clicked.connect(lambda: self.run_requested.emit(self.path.text(), self.limit.value(), -1.0))
        self.calibrate.clicked.connect(lambda: self.run_requested.emit(self.path.text(), self.limit.value(),
                                                                       self.max_pass.value()))

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Golden set"), "", "JSONL (*.jsonl);;*")
        if path:
            self.path.setText(path)

    def set_progress(self, p: Any) -> None:
        eta = self.tr(", ETA {s:.0f}s").format(s=p.eta_s) if p.eta_s else ""
        self.status.setText(self.tr("evaluating: {d}/{t} questions{eta}").format(d=p.done, t=p.total, eta=eta))

    def set_result(self, result: tuple[Any, Any]) -> None:
        ev, cal = result
        for r, name in enumerate(STAGES):
            row = ev.stages[name]
            for c, v in enumerate(row[m.name] for m in RANK_METRICS):
                item = QTableWidgetItem(f"{v:.3f}")
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight)
                self.table.setItem(r, c, item)
        text = self.tr("{a} answerable, {u} unanswerable, {q:.1f} questions/s").format(
            a=ev.n_answerable, u=ev.n_unanswerable, q=ev.questions_per_s)
        if ev.refusal.get("available"):
            text += self.tr("; AUROC {x:.3f}").format(x=ev.refusal["auroc"])
            self.curve.points = [(t["unanswerable_passed"], t["answerable_kept_correct"]) for t in ev.refusal["table"]]
        else:
            text += f"; {ev.refusal['reason']}"
            self.curve.points = []
        if cal is not None:
            if cal.get("available"):
                v = cal["validate"]
                text += self.tr("<br>calibrated threshold {t:.4f} stored; validate half: {k:.1%} answerable kept "
                                "correct, {p:.1%} unanswerable passed").format(
                    t=cal["threshold"], k=v["answerable_kept_correct"], p=v["unanswerable_passed"])
            else:
                text += f"<br>{cal['reason']}"
        if ev.skipped_lines:
            text += "<br>" + "; ".join(ev.skipped_lines[:5])
        self.status.setText(text)
        self.curve.update()

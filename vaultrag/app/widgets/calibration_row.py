"""Settings' row for the index's calibrated threshold: the one in force, Undo the last calibration, back to shipped."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from vaultrag.app.words import local


class CalibrationRow(QWidget):
    """Reads the open vault's calibrated threshold through `evaluation` (the app's Evaluation part: on the query
    lane, written on the index lane) and offers Undo and Back to shipped."""

    def __init__(self, evaluation: Any) -> None:
        super().__init__()
        self.evaluation = evaluation
        self.said = QLabel(self.tr("threshold in force: …"))
        self.said.setObjectName("calibration-state")
        self.said.setWordWrap(True)
        self.undo = QPushButton(self.tr("Undo calibration"))
        self.undo.setObjectName("calibration-undo")
        self.undo.setToolTip(self.tr("Put back the threshold the last calibration replaced"))
        self.shipped = QPushButton(self.tr("Back to shipped"))
        self.shipped.setObjectName("calibration-shipped")
        self.shipped.setToolTip(self.tr("Forget this vault's calibrated threshold and use the shipped one"))
        col = QVBoxLayout(self)  # the words on their own line: beside the buttons they wrapped and were cut
        col.setContentsMargins(0, 0, 0, 0)
        col.addWidget(self.said)
        row = QHBoxLayout()
        row.addWidget(self.undo)
        row.addWidget(self.shipped)
        row.addStretch(1)
        col.addLayout(row)
        self.undo.setEnabled(False)
        self.shipped.setEnabled(False)
        self.undo.clicked.connect(evaluation.undo_threshold)
        self.shipped.clicked.connect(evaluation.reset_threshold)
        evaluation.threshold_state.connect(self.show_state)
        evaluation.failed.connect(self._no_vault)
        evaluation.read_threshold()

    def show_state(self, state: Any) -> None:
        if state.calibrated is not None:
            text = local(self.tr("this vault's calibrated threshold {t:.3f} is in force")).format(t=state.calibrated)
        elif state.in_force is not None:
            text = local(self.tr("the shipped threshold {t:.3f} is in force")).format(t=state.in_force)
        else:
            text = self.tr("no threshold is in force (nothing refuses)")
        self.said.setText(text)
        self.undo.setEnabled(state.undoable)
        self.shipped.setEnabled(state.calibrated is not None)

    def _no_vault(self, message: str) -> None:
        self.said.setText(message)

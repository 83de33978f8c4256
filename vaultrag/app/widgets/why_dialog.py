""""Why not this note?": a searchable note picker, the diagnosis with evidence, and one-click re-run."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
)


class WhyDialog(QDialog):
    """Signals: diagnose_requested(note, heading); rerun_requested()."""

    diagnose_requested = Signal(str, str)
    rerun_requested = Signal()

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.setWindowTitle(self.tr("Why not this note?"))
        self.question = QLabel()
        self.picker = QComboBox()
        self.picker.setEditable(True)
        self.picker.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.picker.setObjectName("why-note")
        completer = QCompleter(self.picker.model(), self)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.picker.setCompleter(completer)
        self.heading = QLineEdit()
        self.heading.setPlaceholderText(self.tr("optional: one heading of the note"))
        self.run = QPushButton(self.tr("Diagnose"))
        self.rerun = QPushButton(self.tr("Re-run the question"))
        self.result_view = QTextBrowser()
        self.result_view.setObjectName("why-result")
        form = QFormLayout()
        form.addRow(self.tr("Question:"), self.question)
        form.addRow(self.tr("Expected note:"), self.picker)
        form.addRow(self.tr("Heading:"), self.heading)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run)
        buttons.addWidget(self.rerun)
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addLayout(buttons)
        col.addWidget(self.result_view)
        self.resize(640, 420)
        self.run.clicked.connect(lambda: self.diagnose_requested.emit(self.picker.currentText().strip(),
                                                                      self.heading.text().strip()))
        self.rerun.clicked.connect(self.rerun_requested.emit)

    def set_notes(self, notes: list[str]) -> None:
        current = self.picker.currentText()
        self.picker.clear()
        self.picker.addItems(notes)
        self.picker.setEditText(current)

    def show_diagnosis(self, d: object) -> None:
        ev = "".join(f"<li><b>{escape(str(k))}</b>: {escape(str(v))}</li>"
                     for k, v in d.evidence.items())  # type: ignore[attr-defined]
        self.result_view.setHtml(
            f"<h3>{escape(d.note)}: {escape(d.verdict)}</h3>"  # type: ignore[attr-defined]
            f"<p>{self.tr('layer')} {d.layer}, {self.tr('stage')} {escape(d.stage)}</p>"  # type: ignore[attr-defined]
            f"<p>{escape(d.message)}</p>"  # type: ignore[attr-defined]
            f"<p><b>{self.tr('Suggestion')}:</b> {escape(d.suggestion)}</p><ul>{ev}</ul>"  # type: ignore[attr-defined]
        )

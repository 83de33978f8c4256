""""Why not this note?": a searchable note picker, the diagnosis with evidence, and one-click re-run."""

from __future__ import annotations

import re
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

from vaultrag.app import access
from vaultrag.app.words import stage_title, wording_tr
from vaultrag.core import wording
from vaultrag.core.quality.diagnose import Diagnosis

_CODE = re.compile(r"`([^`]+)`")


def rich(text: str) -> str:
    """Escaped text whose `code` spans (settings, frontmatter keys, commands) show as code, not as backticks."""
    return _CODE.sub(r"<code>\1</code>", escape(text))


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
        self.run.setObjectName("why-run")
        self.rerun = QPushButton(self.tr("Re-run the question"))
        self.rerun.setObjectName("why-rerun")
        self.result_view = QTextBrowser()
        self.result_view.setObjectName("why-result")
        self.scope_note = QLabel(self.tr("Runs the question again against the current index, with the same "
                                         "scope, k and threshold."))
        self.scope_note.setWordWrap(True)
        form = QFormLayout()
        form.addRow(self.tr("Question:"), self.question)
        form.addRow(self.tr("Expected note:"), self.picker)
        form.addRow(self.tr("Heading:"), self.heading)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run)
        buttons.addWidget(self.rerun)
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addWidget(self.scope_note)
        col.addLayout(buttons)
        col.addWidget(self.result_view)
        self.resize(640, 480)  # a diagnosis of an off-topic note (its words, three similarities, two fixes) whole
        self.run.clicked.connect(lambda: self.diagnose_requested.emit(self.picker.currentText().strip(),
                                                                      self.heading.text().strip()))
        self.rerun.clicked.connect(self.rerun_requested.emit)
        self.picker.editTextChanged.connect(lambda _t: self.clear_result())
        self.heading.textChanged.connect(lambda _t: self.clear_result())
        access.name_children(self)

    def set_vault_open(self, on: bool) -> None:
        """Diagnose and Re-run ask the open vault: without one they are disabled."""
        self.run.setEnabled(on)
        self.rerun.setEnabled(on)

    def set_notes(self, notes: list[str]) -> None:
        current = self.picker.currentText()
        self.picker.clear()
        self.picker.addItems(notes)
        self.picker.setEditText(current)

    def reset(self) -> None:
        """Another vault opens: the last vault's question, notes and verdict mean nothing there."""
        self.question.clear()
        self.picker.clear()
        self.picker.setEditText("")
        self.heading.clear()
        self.clear_result()

    def clear_result(self) -> None:
        """The note, heading or question changed: an old diagnosis must not stand for the new one."""
        hint = self.tr("Pick a note and press Diagnose.")
        self.result_view.setHtml(f"<p><i>{escape(hint)}</i></p>")

    def show_diagnosis(self, d: Diagnosis) -> None:
        """The core's verdict, what happened and what to do, worded by `core/wording.py` (as `vaultrag why` says
        them) in the window's language."""
        words = wording.diagnosis(d, wording_tr, stage_title)
        lines = wording.evidence_lines(d.evidence, wording_tr, stage_title)
        rows = "".join(f"<tr><td><b>{escape(k)}</b></td><td>{escape(v)}</td></tr>" for k, v in lines)
        todo = self.tr("What to do")
        how = self.tr("Diagnosed by asking the question again against the index as it is now.")
        self.result_view.setHtml(
            f"<h3>{escape(d.note)}</h3><p><b>{escape(words.title)}</b></p><p>{rich(words.message)}</p>"
            f"<p><b>{escape(todo)}:</b> {rich(words.advice)}</p><table cellpadding=2>{rows}</table>"
            f"<p><i>{escape(how)}</i></p>")

"""The exact assembled prompt, its token counts per part against the budget, and a copy button."""

from __future__ import annotations

from PySide6.QtGui import QFontDatabase, QGuiApplication
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QVBoxLayout, QWidget

from vaultrag.core.model import Candidate, QueryTrace


class PromptView(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.counts = QLabel()
        self.counts.setObjectName("prompt-counts")
        self.copy = QPushButton(self.tr("Copy"))
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        top = QHBoxLayout()
        top.addWidget(self.counts, 1)
        top.addWidget(self.copy)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(top)
        col.addWidget(self.text)
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self.text.toPlainText()))

    def set_trace(self, trace: QueryTrace) -> None:
        t = trace.prompt_tokens
        self.counts.setText(self.tr("{total} tokens: instructions {i}, documents {d} of budget {b}, question {q}")
                            .format(total=t["total"], i=t["instructions"], d=t["documents"], b=t["budget"],
                                    q=t["question"]))
        self.text.setPlainText(trace.prompt or self.tr("(refused: no prompt is assembled, nothing goes to a model)"))

    def clear(self) -> None:
        self.counts.setText("")
        self.text.clear()

    def select_chunk(self, cand: Candidate) -> None:
        pass  # the prompt is the same whichever chunk is selected

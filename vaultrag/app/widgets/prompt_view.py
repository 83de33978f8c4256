"""The exact assembled prompt, its token counts against the budget, its documents folded per source, and copy."""

from __future__ import annotations

from PySide6.QtGui import QBrush, QColor, QFontDatabase, QGuiApplication
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QPushButton,
    QSizePolicy,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app.widgets.flags import WARNING_COLOUR, WARNING_SIGN, flag_warning
from vaultrag.core.model import Candidate, QueryTrace


class PromptView(QWidget):
    """A tree: one folded item per source document (its text inside), then the whole prompt as sent."""

    def __init__(self) -> None:
        super().__init__()
        self.counts = QLabel()
        self.counts.setObjectName("prompt-counts")
        self.counts.setWordWrap(True)
        self.counts.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.copy = QPushButton(self.tr("Copy prompt"))
        self.tree = QTreeWidget()
        self.tree.setObjectName("prompt-tree")
        self.tree.setHeaderHidden(True)
        self.tree.setWordWrap(True)
        self._prompt = ""
        self._doc_chunks: list[list[int]] = []  # top-level item i holds these chunks
        top = QHBoxLayout()
        top.addWidget(self.counts, 1)
        top.addWidget(self.copy)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(top)
        col.addWidget(self.tree)
        self.copy.clicked.connect(lambda: QGuiApplication.clipboard().setText(self._prompt))
        self.clear()

    def text(self) -> str:
        """The prompt exactly as assembled."""
        return self._prompt

    def set_trace(self, trace: QueryTrace) -> None:
        t = trace.prompt_tokens
        self.counts.setText(self.tr("{total} tokens: instructions {i}, documents {d} of budget {b}, question {q}")
                            .format(total=t["total"], i=t["instructions"], d=t["documents"], b=t["budget"],
                                    q=t["question"]))
        self._prompt = trace.prompt
        self.tree.clear()
        self._doc_chunks = [d.chunk_ids for d in trace.context] if trace.prompt else []
        if not trace.prompt:
            self.tree.addTopLevelItem(QTreeWidgetItem(
                [self.tr("(refused: no prompt is assembled, nothing goes to a model)")]))
            return
        mono = QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont)
        for doc in trace.context:
            item = QTreeWidgetItem([self.tr("[{n}] {source} — {t} tokens").format(n=doc.index, source=doc.source,
                                                                                   t=doc.tokens)])
            item.setToolTip(0, doc.source)
            flags = trace.flagged.get(doc.note)
            if flags:  # a note that tries to give orders: marked, its warning on hover (its text is escaped)
                item.setText(0, f"{WARNING_SIGN} {item.text(0)}")
                item.setToolTip(0, f"{doc.source}\n{flag_warning(doc.note, flags)}")
                item.setForeground(0, QBrush(QColor(WARNING_COLOUR)))
                warning = QTreeWidgetItem([f"{WARNING_SIGN} {flag_warning(doc.note, flags)}"])
                warning.setForeground(0, QBrush(QColor(WARNING_COLOUR)))
                item.addChild(warning)
            body = QTreeWidgetItem([doc.text])
            body.setFont(0, mono)
            item.addChild(body)
            self.tree.addTopLevelItem(item)
        whole = QTreeWidgetItem([self.tr("The whole prompt as sent")])
        text = QTreeWidgetItem([trace.prompt])
        text.setFont(0, mono)
        whole.addChild(text)
        self.tree.addTopLevelItem(whole)

    def clear(self) -> None:
        # what the pane will show, said until a question fills it
        self.counts.setText(self.tr("Prompt: after a question, the exact prompt a language model gets, its "
                                    "sources numbered, with its token counts."))
        self._prompt = ""
        self._doc_chunks = []
        self.tree.clear()

    def select_chunk(self, cand: Candidate) -> None:
        """Unfold the document that holds the chunk (if it reached the prompt)."""
        for i in range(self.tree.topLevelItemCount()):
            item = self.tree.topLevelItem(i)
            if item is None:
                continue
            holds = i < len(self._doc_chunks) and cand.chunk_id in self._doc_chunks[i]
            item.setExpanded(holds)
            if holds:
                self.tree.scrollToItem(item)

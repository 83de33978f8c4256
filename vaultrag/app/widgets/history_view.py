"""The History tab: the conversations kept for the open vault; search them, reopen an exchange in the inspector,
export one as Markdown, delete one or all. It reads and writes through the HistoryKeeper (app/keeper.py)."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from vaultrag.core.history import Conversation, Exchange

ID_ROLE = Qt.ItemDataRole.UserRole
SEARCH_PAUSE_MS = 250  # typing in the search box asks once it pauses
ANSWER_SHOWN = 160  # characters of an answer in the list (the whole answer: Reopen, Export)


class HistoryView(QWidget):
    """Signals: reopen_requested (the QueryTrace of an exchange, to show in the inspector), forgotten (the
    questions deleted, or None for all: the question box's ↑/↓ recall forgets them too)."""

    reopen_requested = Signal(object)
    forgotten = Signal(object)

    def __init__(self, keeper: Any, vault: Callable[[], str | None]) -> None:
        super().__init__()
        self.keeper = keeper
        self.vault = vault
        self.search = QLineEdit()
        self.search.setObjectName("history-search")
        self.search.setPlaceholderText(self.tr("Search the questions and answers…"))
        self.search.setClearButtonEnabled(True)
        self.talks = QListWidget()
        self.talks.setObjectName("history-conversations")
        self.talks.setWordWrap(True)
        self.items = QListWidget()
        self.items.setObjectName("history-exchanges")
        self.items.setWordWrap(True)
        self.reopen = QPushButton(self.tr("Reopen in the inspector"))
        self.reopen.setObjectName("history-reopen")
        self.export = QPushButton(self.tr("Export as Markdown…"))
        self.export.setObjectName("history-export")
        self.delete = QPushButton(self.tr("Delete conversation"))
        self.delete.setObjectName("history-delete")
        self.delete_all = QPushButton(self.tr("Delete all"))
        self.delete_all.setObjectName("history-delete-all")
        self.state = QLabel(self.tr("Each question asked of this vault is kept here, with its answer and sources "
                                    "(under the app's home, never in the vault)."))
        self.state.setWordWrap(True)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(self.talks)
        split.addWidget(self.items)
        split.setSizes([380, 700])
        buttons = QHBoxLayout()
        for b in (self.reopen, self.export, self.delete):
            buttons.addWidget(b)
        buttons.addStretch(1)
        buttons.addWidget(self.delete_all)
        col = QVBoxLayout(self)
        col.addWidget(self.search)
        col.addWidget(self.state)
        col.addWidget(split, 1)
        col.addLayout(buttons)
        self._pause = QTimer(self)
        self._pause.setSingleShot(True)
        self._pause.setInterval(SEARCH_PAUSE_MS)
        self._pause.timeout.connect(self.refresh)
        self.search.textChanged.connect(lambda _t: self._pause.start())
        self.talks.currentItemChanged.connect(self._picked)
        self.items.itemActivated.connect(lambda _item: self._reopen())
        self.reopen.clicked.connect(self._reopen)
        self.export.clicked.connect(self._export)
        self.delete.clicked.connect(self._delete)
        self.delete_all.clicked.connect(self._delete_all)
        keeper.conversations_listed.connect(self.show_conversations)
        keeper.exchanges_listed.connect(self.show_exchanges)
        keeper.trace_read.connect(self.reopen_requested.emit)
        keeper.changed.connect(self._changed)
        keeper.exported.connect(lambda path: self.state.setText(self.tr("Written {path}").format(path=path)))
        self._buttons()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.refresh()  # read when the tab is opened: the exchanges of this session are there

    def refresh(self) -> None:
        self.keeper.list_conversations(self.search.text())

    def _changed(self) -> None:
        if self.isVisible():
            self.refresh()

    def show_conversations(self, talks: list[Conversation]) -> None:
        chosen = self._chosen(self.talks)
        self.talks.clear()
        for c in talks:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(c.started))
            item = QListWidgetItem(self.tr("{when} · {n} question(s) · {first}").format(
                when=when, n=c.exchanges, first=c.first_question))
            item.setData(ID_ROLE, c.id)
            item.setToolTip(c.first_question)
            self.talks.addItem(item)
            if c.id == chosen:
                self.talks.setCurrentItem(item)
        if self.talks.currentItem() is None and self.talks.count():
            self.talks.setCurrentRow(0)
        if not talks:
            self.items.clear()
        self._buttons()

    def show_exchanges(self, items: list[Exchange]) -> None:
        self.items.clear()
        for x in items:
            # one short line each: the question, the answer's start, the sources by note name
            sources = ", ".join(f"[{n}] {PurePosixPath(note).stem}" for n, _where, note, _line in x.sources)
            answer = " ".join(x.answer.split())
            answer = answer if len(answer) <= ANSWER_SHOWN else answer[: ANSWER_SHOWN - 1] + "…"
            text = f"{x.question}\n→ {answer}" + (f"\n{sources}" if sources else "")
            item = QListWidgetItem(text)
            item.setData(ID_ROLE, x.id)
            item.setToolTip("\n".join(f"[{n}] {where} (line {line})" for n, where, _note, line in x.sources))
            self.items.addItem(item)
        if self.items.count():
            self.items.setCurrentRow(self.items.count() - 1)
        self._buttons()

    def _chosen(self, view: QListWidget) -> Any:
        item = view.currentItem()
        return item.data(ID_ROLE) if item is not None else None

    def _picked(self, *_: Any) -> None:
        conversation = self._chosen(self.talks)
        if conversation is not None:
            self.keeper.list_exchanges(conversation)
        self._buttons()

    def _buttons(self) -> None:
        has_talk = self._chosen(self.talks) is not None
        self.reopen.setEnabled(self._chosen(self.items) is not None and has_talk)
        self.export.setEnabled(has_talk)
        self.delete.setEnabled(has_talk)
        self.delete_all.setEnabled(self.talks.count() > 0)

    def _reopen(self) -> None:
        exchange = self._chosen(self.items)
        if exchange is not None:
            self.keeper.read_trace(exchange)

    def _export(self) -> None:
        conversation, vault = self._chosen(self.talks), self.vault()
        if conversation is None or vault is None:
            return
        out, _ = QFileDialog.getSaveFileName(self, self.tr("Export the conversation"), "conversation.md",
                                             self.tr("Markdown (*.md)"))
        if out:
            self.keeper.export(conversation, vault, out)

    def _delete(self) -> None:
        conversation = self._chosen(self.talks)
        if conversation is None:
            return
        if QMessageBox.question(self, self.tr("Delete conversation"), self.tr(
                "Delete this conversation, its questions, answers and traces? This cannot be undone.")) \
                == QMessageBox.StandardButton.Yes:
            self.forgotten.emit([self.items.item(i).text().split("\n", 1)[0] for i in range(self.items.count())])
            self.keeper.delete(conversation)

    def _delete_all(self) -> None:
        if QMessageBox.question(self, self.tr("Delete all"), self.tr(
                "Delete every conversation kept for this vault? This cannot be undone.")) \
                == QMessageBox.StandardButton.Yes:
            self.forgotten.emit(None)
            self.keeper.delete(None)

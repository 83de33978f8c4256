"""The first-run offer of a local language model server: an info bar (Use / Not now / Never), never a modal."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QFrame, QHBoxLayout, QLabel, QPushButton, QSizePolicy

from vaultrag.core.llm.generator import FoundServer


class LlmOfferBar(QFrame):
    """Shows the servers found on this machine and the user's choice.

    Signals:
        use_requested(str, str): the base URL and the model the user took.
        never_requested: stop offering (saved in the settings).
    """

    use_requested = Signal(str, str)
    never_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("llm-offer")
        self.setStyleSheet("#llm-offer { background: #e8f0fe; border-bottom: 1px solid #9bb8e8; }")
        self.text = QLabel()
        self.text.setObjectName("llm-offer-text")
        self.text.setWordWrap(True)
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.choice = QComboBox()  # (server, model) pairs; shown when there is more than one
        self.choice.setObjectName("llm-offer-choice")
        self.use = QPushButton(self.tr("Use it"))
        self.use.setObjectName("llm-offer-use")
        self.later = QPushButton(self.tr("Not now"))
        self.later.setObjectName("llm-offer-later")
        self.never = QPushButton(self.tr("Never"))
        self.never.setObjectName("llm-offer-never")
        self.never.setToolTip(self.tr("Do not look for a local server again (Settings › Language model turns it "
                                      "back on)"))
        row = QHBoxLayout(self)
        row.setContentsMargins(8, 4, 8, 4)
        row.addWidget(self.text, 1)
        for w in (self.choice, self.use, self.later, self.never):
            row.addWidget(w)
        self.use.clicked.connect(self._use)
        self.later.clicked.connect(self.hide)
        self.never.clicked.connect(self._never)
        self.hide()

    def show_found(self, found: list[FoundServer]) -> None:
        first = found[0]
        models = ", ".join(first.models[:4]) + (" …" if len(first.models) > 4 else "")
        text = self.tr("Found {name} at {url} with models {models}: use it to write the answers?").format(
            name=first.name, url=first.base_url, models=models)
        if len(found) > 1:
            text += " " + self.tr("({n} servers found: pick one)").format(n=len(found))
        self.text.setText(text)
        self.choice.clear()
        for server in found:
            for model in server.models:
                self.choice.addItem(f"{model} — {server.name}", (server.base_url, model))
        self.choice.setVisible(self.choice.count() > 1)
        self.show()

    def _use(self) -> None:
        base_url, model = self.choice.currentData()
        self.hide()
        self.use_requested.emit(base_url, model)

    def _never(self) -> None:
        self.hide()
        self.never_requested.emit()

"""The Settings editor of the reranker: one choice per registered engine (vaultrag/engines.py); the one that takes a
model (a hub cross-encoder) gets its id or folder, downloaded with progress and Cancel."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app.widgets.download_bar import DownloadBar
from vaultrag.core import download as hub
from vaultrag.engines import RERANKERS


class RerankerEditor(QWidget):
    """Edits `Settings.reranker`. `downloader` is the AppController (download_cross_encoder, cancel_model_download
    and the model_download_* signals); without one the Download button is hidden (a folder still works)."""

    def __init__(self, value: str, downloader: Any = None, models_dir: Path | None = None) -> None:
        super().__init__()
        self.downloader, self.models_dir = downloader, models_dir
        self.endpoint: str | None = None  # a hub mirror (tests serve a tiny model locally); None: huggingface.co
        self.kind = QComboBox()
        self.kind.setObjectName("reranker-kind")
        # an unknown value (a plugin uninstalled since) shows the first engine: OK saves that one
        chosen = RERANKERS.chosen(value) or next(iter(RERANKERS))
        for engine in RERANKERS:  # the engines' words are the settings' data: the "Settings" context has them
            if engine.available() or engine is chosen:
                self.kind.addItem(QCoreApplication.translate("Settings", engine.words), engine.name)
        self.model = QLineEdit()
        self.model.setObjectName("reranker-model")
        self.model.setPlaceholderText(hub.DEFAULT_CROSS_ENCODER)
        self.model.setToolTip(self.tr("A model id on the Hugging Face hub, or the folder of a sentence-transformers "
                                      "CrossEncoder on this computer"))
        self.download = QPushButton(self.tr("Download"))
        self.download.setObjectName("reranker-download")
        self.cancel = QPushButton(self.tr("Cancel download"))
        self.cancel.setObjectName("reranker-cancel")
        self.bar = DownloadBar(downloader)
        self.bar.setObjectName("reranker-progress")
        self.state = QLabel()
        self.state.setObjectName("reranker-state")
        self.state.setWordWrap(True)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.model, 1)
        row.addWidget(self.download)
        row.addWidget(self.cancel)
        self.hub_box = QWidget()
        hub_col = QVBoxLayout(self.hub_box)
        hub_col.setContentsMargins(0, 0, 0, 0)
        hub_col.setSpacing(2)
        hub_col.addLayout(row)
        hub_col.addWidget(self.bar)
        hub_col.addWidget(self.state)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        col.addWidget(self.kind)
        col.addWidget(self.hub_box)

        self.kind.setCurrentIndex(self.kind.findData(chosen.name))
        # the multilingual one preselected
        self.model.setText(value.strip() if chosen.takes_model else hub.DEFAULT_CROSS_ENCODER)
        self.kind.currentIndexChanged.connect(self._refresh)
        self.model.textChanged.connect(self._refresh)
        self.download.clicked.connect(self.start_download)
        self.cancel.clicked.connect(self.cancel_download)
        self.bar.finished.connect(self._on_finished)
        self.bar.failed.connect(self._on_failed)
        self._refresh()

    @property
    def downloading(self) -> bool:
        """A download begun here is running."""
        return self.bar.active

    # -- what is chosen ------------------------------------------------------------------------
    def takes_model(self) -> bool:
        """Whether the chosen engine reads a model id or folder (the hub cross-encoder) instead of its name."""
        engine = RERANKERS.get(self.kind.currentData())
        return engine is not None and engine.takes_model

    def value(self) -> str:
        """The setting's value: the chosen engine's name ("builtin", "none"), or the cross-encoder's hub id / folder."""
        if not self.takes_model():
            return str(self.kind.currentData())
        return self.model.text().strip() or hub.DEFAULT_CROSS_ENCODER

    def ready(self) -> bool:
        """Whether the chosen cross-encoder can load without a network: a folder here, or a finished download."""
        if not self.takes_model():
            return True
        name = self.value()
        return Path(name).expanduser().is_dir() or (
            self.models_dir is not None and hub.downloaded(self.models_dir, name) is not None)

    def problem(self) -> str:
        """Why the dialog cannot be accepted with this choice ("" when it can)."""
        if self.downloading:
            return self.tr("A model is still downloading: wait for it, or cancel the download.")
        if not self.ready():
            return self.tr("Download the cross-encoder first (or give the folder of one on this computer), or "
                           "choose the built-in ranker.")
        return ""

    # -- the download --------------------------------------------------------------------------
    def start_download(self) -> None:
        if self.downloader is None or self.downloading:
            return
        self.bar.begin()
        self.state.setText(self.tr("Downloading {model} into the app's models folder…").format(model=self.value()))
        self._refresh()
        self.downloader.download_cross_encoder(self.value(), endpoint=self.endpoint)

    def cancel_download(self) -> None:
        if self.downloader is not None and self.downloading:
            self.downloader.cancel_model_download()

    def _on_finished(self, folder: str) -> None:
        self._refresh()

    def _on_failed(self, message: str) -> None:
        self._refresh()
        self.state.setText(message)
        self.state.setStyleSheet("color: #b71c1c;")

    def _refresh(self) -> None:
        hub_chosen = self.takes_model()
        self.hub_box.setVisible(hub_chosen)
        name = self.value()
        is_folder = Path(name).expanduser().is_dir()
        can_download = self.downloader is not None and not is_folder and hub.REPO_ID.match(name) is not None
        self.download.setVisible(can_download and not self.downloading and not self.ready())
        self.download.setEnabled(self.downloader is not None)
        self.cancel.setVisible(self.downloading)
        self.model.setEnabled(not self.downloading)
        self.kind.setEnabled(not self.downloading)
        self.bar.setVisible(self.bar.shown())
        if self.downloading:
            return
        self.state.setStyleSheet("")
        if not hub_chosen:
            self.state.clear()
        elif is_folder:
            self.state.setText(self.tr("A cross-encoder folder on this computer."))
        elif self.ready():
            self.state.setText(self.tr("Downloaded: it runs offline (needs the sentence-transformers extra)."))
        elif self.downloader is None:
            self.state.setText(self.tr("Not downloaded yet."))
        else:
            self.state.setText(self.tr("Not downloaded yet: Download fetches it once (a few hundred MB) with "
                                       "progress; the built-in ranker stays in use until it is there."))

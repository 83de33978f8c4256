"""Downloads: a hub cross-encoder fetched into the app's models folder on a worker, with progress and Cancel."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from vaultrag.app.tasks import MainThreadBridge, Workers
from vaultrag.app.words import user_message
from vaultrag.errors import UserFacingError

DOWNLOAD = "vaultrag-model-download"


class Downloads(QObject):
    """One download at a time. Signals: model_download_progress (a Progress in bytes), model_download_finished
    (the model's folder), model_download_failed (why: no network, cancelled, a wrong id)."""

    model_download_progress = Signal(object)
    model_download_finished = Signal(str)
    model_download_failed = Signal(str)

    def __init__(self, models_dir: Path, bridge: MainThreadBridge, workers: Workers) -> None:
        super().__init__()
        self.models_dir = models_dir
        self.bridge = bridge
        self.workers = workers
        self._cancel = threading.Event()
        self._ended = threading.Event()  # set once the running download has posted how it ended
        self._ended.set()

    def download_cross_encoder(self, repo_id: str, endpoint: str | None = None) -> None:
        """Download a hub cross-encoder on a worker (progress and the result come as signals; a failure or a
        cancel as `model_download_failed` with its message)."""
        from vaultrag.core import download as hub

        if not self._ended.is_set():
            self.model_download_failed.emit(self.tr("A model download is already running."))
            return
        self.workers.join(5, DOWNLOAD)  # it has said how it ended and is only returning: Download again must work
        self._cancel.clear()
        ended = self._ended = threading.Event()
        cancel = self._cancel

        def run() -> None:
            try:
                folder = hub.download(repo_id, self.models_dir,
                                      lambda p: self.bridge.run_on_main(lambda: self.model_download_progress.emit(p)),
                                      cancel.is_set, endpoint)
            except UserFacingError as e:
                error = e
                ended.set()
                self.bridge.run_on_main(lambda: self.model_download_failed.emit(user_message(error)))
                return
            ended.set()
            self.bridge.run_on_main(lambda: self.model_download_finished.emit(str(folder)))

        self.workers.start(DOWNLOAD, run)

    def cancel(self) -> None:
        """Stop the running download at its next chunk (finished files are kept for the next attempt)."""
        self._cancel.set()

    def running(self) -> bool:
        """Whether a download's worker is still running (it may have said how it ended and be returning)."""
        return self.workers.running(DOWNLOAD)

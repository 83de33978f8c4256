"""Downloads: a hub cross-encoder or a language model file fetched into the app's models folder on a worker,
with progress and Cancel."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from vaultrag.app.cycles import detached
from vaultrag.app.tasks import MainThreadBridge, Workers
from vaultrag.app.words import user_message
from vaultrag.core.vocab import Phase
from vaultrag.errors import UserFacingError

if TYPE_CHECKING:
    from vaultrag.core.llm.catalog import CatalogModel
    from vaultrag.core.model import Progress

DOWNLOAD = "vaultrag-model-download"


class Downloads(QObject):
    """One download at a time. Signals: model_download_progress (a Progress in bytes), model_download_finished
    (the cross-encoder's folder, or the language model's file), model_download_failed (why: no network, cancelled,
    a wrong id, a damaged file)."""

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
        cancel as `model_download_failed` with its message); finished carries the model's folder."""
        from vaultrag.core import download as hub

        self._start(lambda progress, cancel: hub.download(repo_id, self.models_dir, progress, cancel, endpoint))

    def download_gguf(self, model: CatalogModel, endpoint: str | None = None) -> None:
        """Download a catalog language model on a worker, as `download_cross_encoder` (a cancelled one resumes
        where it stopped); finished carries the model FILE's path."""
        from vaultrag.core.llm import gguf

        self._start(lambda progress, cancel: gguf.download_gguf(model.repo_id, model.filename, self.models_dir,
                                                                progress, cancel, endpoint))

    def _start(self, fetch: Callable[[Callable[[Progress], None], Callable[[], bool]], Path]) -> None:
        if not self._ended.is_set():
            self.model_download_failed.emit(self.tr("A model download is already running."))
            return
        self.workers.join(5, DOWNLOAD)  # it has said how it ended and is only returning: Download again must work
        self._cancel.clear()
        ended = self._ended = threading.Event()
        cancel = self._cancel

        shown = [-1]

        def progress(p: Progress) -> None:
            # a bar needs a report per percent, not per chunk: a 2 GB model in 256 kB reads would post 8000 events
            percent = 100 * p.done // p.total if p.total else 0
            if percent != shown[0] or p.phase == Phase.DONE:
                shown[0] = percent
                self.bridge.run_on_main(lambda: self.model_download_progress.emit(p))

        def run() -> None:
            try:
                path = fetch(progress, cancel.is_set)
            except UserFacingError as e:
                error = detached(e)  # no frames: they would hold this closure (app/cycles.py)
                ended.set()
                self.bridge.run_on_main(lambda: self.model_download_failed.emit(user_message(error)))
                return
            ended.set()
            self.bridge.run_on_main(lambda: self.model_download_finished.emit(str(path)))

        self.workers.start(DOWNLOAD, run)

    def cancel(self) -> None:
        """Stop the running download at its next chunk (what arrived is kept for the next attempt)."""
        self._cancel.set()

    def running(self) -> bool:
        """Whether a download's worker is still running (it may have said how it ended and be returning)."""
        return self.workers.running(DOWNLOAD)

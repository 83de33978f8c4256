"""A model download's progress (a cross-encoder, a language model file): the one bar every downloading editor shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QProgressBar, QWidget

from vaultrag.app.words import number
from vaultrag.core.model import Progress

STEPS = 1000  # the bar's resolution: a 2 GB file moves it every 2 MB


def size_words(n: float) -> str:
    """A size in the window's language ("≈ 1,1 GB" in Portuguese), as the editors' rows write them."""
    return f"≈ {number(n / 1e9, 1)} GB" if n >= 1e9 else f"≈ {number(n / 1e6, 0)} MB" if n >= 1e6 else \
        f"≈ {number(n / 1e3, 0)} kB"


class DownloadBar(QProgressBar):
    """Follows the one model download the app runs at a time (`source`: the downloads' signals, the app's
    Downloads or a test's stand-in) from `begin()` to its end, and says where it is: asking the hub, "120 MB / 1.1
    GB, about 40 s left", downloaded, not downloaded. Reports of a download it did not begin are not its own (the
    other editor's): it ignores them. `finished` (the model's folder or file) and `failed` (the words why) are
    emitted once per download it began."""

    finished = Signal(str)
    failed = Signal(str)

    def __init__(self, source: Any, parent: QWidget | None = None, size: Callable[[float], str] = size_words) -> None:
        super().__init__(parent)
        self.active = False  # a download begun here is running
        self._size = size
        self.setTextVisible(True)
        self.hide()
        if source is not None:
            source.model_download_progress.connect(self._on_progress)
            source.model_download_finished.connect(self._on_finished)
            source.model_download_failed.connect(self._on_failed)

    def begin(self) -> None:
        """A download starts: busy until the first report gives the size."""
        self.active = True
        self.setRange(0, 0)
        self.setFormat(self.tr("asking the hub…"))
        self.show()

    def shown(self) -> bool:
        """Whether the bar has something to say: a download running, or the end of one."""
        return self.active or self.value() > 0

    def _on_progress(self, p: Progress) -> None:
        if not self.active or not p.total:
            return
        self.setRange(0, STEPS)
        self.setValue(round(STEPS * p.done / p.total))
        eta = self.tr(", about {s} s left").format(s=round(p.eta_s)) if p.eta_s else ""
        self.setFormat(f"{self._size(p.done)} / {self._size(p.total)}{eta}")

    def _end(self, value: int, words: str) -> None:
        self.active = False
        self.setRange(0, STEPS)
        self.setValue(value)
        self.setFormat(words)

    def _on_finished(self, result: str) -> None:
        if self.active:
            self._end(STEPS, self.tr("downloaded"))
            self.finished.emit(result)

    def _on_failed(self, message: str) -> None:
        if self.active:
            self._end(0, self.tr("not downloaded"))
            self.failed.emit(message)

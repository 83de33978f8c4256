"""The window while e5's vectors fill behind a complete fast tier (issue 27): the status line and the health panel say
each tier's share, and a question's vector list says the fast tier listed it, in English and in Portuguese (a real
window offscreen, a real vault and index; the two models are the counting fakes)."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from PySide6.QtWidgets import QApplication

from tests.fakes import CountingEmbedder
from tests.test_app import ask
from tests.test_fast_tier import notes, tier
from vaultrag.app.controller import AppController
from vaultrag.app.main import _install_translator
from vaultrag.app.widgets.candidate_table import CandidateTable
from vaultrag.app.widgets.main_window import MainWindow
from vaultrag.core import fast_tier
from vaultrag.core.vocab import StageName, StageReason

LANE = "vaultrag-index-lane"


class HeldOnTheLane(CountingEmbedder):
    """e5's fake whose backlog (on the index lane) waits after its first batch; questions embed at once."""

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        if threading.current_thread().name == LANE and self.passages and not self.release.is_set():
            self.held.set()
            assert self.release.wait(60), "the test never released the backlog"
        return super().embed_passages(texts)


WORDS = {
    "en": ("fast vectors 100 % · full-quality vectors", "fast vectors search meanwhile",
           "listed by the fast vectors"),
    "pt": ("vetores rápidos 100 % · vetores de qualidade plena", "os rápidos já buscam",
           "listados pelos vetores rápidos"),
}


@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_window_says_each_tiers_share_and_which_tier_listed(qtbot, home: Path, vault: Path,
                                                                 monkeypatch: pytest.MonkeyPatch, language: str):
    monkeypatch.setattr(fast_tier, "MIN_BACKLOG", 1)  # a few dozen chunks: a fast tier anyway
    shares, status, listed = WORDS[language]
    notes(vault)
    e5 = HeldOnTheLane(floor=0.8)
    fast, fake = tier()
    app = QApplication.instance()
    translator = _install_translator(app, language) if language == "pt" else None
    w = MainWindow(AppController(home, embedder_factory=lambda _: e5, fast_factory=lambda _: fast))
    qtbot.addWidget(w)
    w.show()
    try:
        w.open_vault(vault)
        qtbot.waitUntil(e5.held.is_set, timeout=30_000)  # the backlog waits in its second e5 batch
        qtbot.waitUntil(lambda: shares in w.status.text(), timeout=30_000)
        assert status in w.status.text()
        assert fake.passages, "the fast tier was filled before e5's vectors"
        w.tabs.setCurrentIndex(1)
        with qtbot.waitSignal(w.c.health_ready, timeout=30_000):
            w.c.refresh_health()
        assert shares in w.health.summary.text()
        w.tabs.setCurrentIndex(0)
        trace = ask(qtbot, w, "refund deadline seven days cancelling")
        assert trace.stages[StageName.VECTOR].reason == StageReason.FAST_TIER
        heads = [t.horizontalHeaderItem(i).toolTip() for t in w.findChildren(CandidateTable)
                 for i in range(1, t.columnCount()) if t.horizontalHeaderItem(i) is not None]
        assert any(listed in h for h in heads), heads
    finally:
        e5.release.set()
        w.close()
        if translator is not None:
            app.removeTranslator(translator)


def test_an_open_health_tab_follows_the_vectors_while_they_fill(qtbot, home: Path, vault: Path,
                                                                monkeypatch: pytest.MonkeyPatch):
    """The Index health tab, open while the vectors fill, is read again as they fill (no click on Check): it
    shows the fast tier complete while e5's backlog is still held."""
    from vaultrag.app.widgets import main_window

    monkeypatch.setattr(fast_tier, "MIN_BACKLOG", 1)
    monkeypatch.setattr(main_window, "HEALTH_REFRESH_S", 0.0)
    notes(vault)
    e5 = HeldOnTheLane(floor=0.8)
    fast, _ = tier()
    w = MainWindow(AppController(home, embedder_factory=lambda _: e5, fast_factory=lambda _: fast))
    qtbot.addWidget(w)
    w.show()
    w.tabs.setCurrentIndex(1)
    try:
        w.open_vault(vault)
        qtbot.waitUntil(e5.held.is_set, timeout=30_000)
        qtbot.waitUntil(lambda: WORDS["en"][0] in w.health.summary.text(), timeout=30_000)
        # the index's format by its number, not its migration's name
        from vaultrag.core.store.migrations import MIGRATIONS

        latest = MIGRATIONS[-1][0]
        summary = w.health.summary.text()
        assert f"index format {int(latest.partition('_')[0])}" in summary and latest not in summary
    finally:
        e5.release.set()
        w.close()

"""The Qt/GIL freeze: no QObject is ever freed by Python's collector off the GUI thread (app/collector.py, cycles.py).

Each scenario runs under a watchdog (tests/hard_limit.py) that dumps every thread's stack and ends the run instead
of hanging, as the deadlock did (the index lane collected a QObject while the GUI thread connected a signal).
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent

from tests.fakes import CountingEmbedder
from tests.hard_limit import watchdog
from tests.test_app import SLOW_MS, fake_controller, wordy_vault
from vaultrag.app import collector
from vaultrag.app.widgets.main_window import MainWindow

ROUNDS = 20  # the close-mid-index scenario, again and again (benchmarks/freeze.py runs it 50 times)


class Cycle:
    """Cyclic garbage of no Qt kind: allocating it on a worker is what triggers an automatic collection there."""

    def __init__(self) -> None:
        self.me = self


@pytest.fixture
def load() -> Iterator[threading.Event]:
    """A worker that allocates cyclic garbage non-stop (and a second core busy), until the test ends."""
    stop = threading.Event()

    def churn() -> None:
        while not stop.wait(0.001):  # the GIL is shared: a loop without pause would slow the scenario tenfold
            for _ in range(500):
                Cycle()

    thread = threading.Thread(target=churn, name="test-load")
    thread.start()
    yield stop
    stop.set()
    thread.join()


def qobjects_in_cyclic_garbage() -> list[str]:
    """The QObjects (of ours) Python's collector would free now: collected on this thread with every object kept
    for a look, then let go."""
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        gc.collect()
        found = sorted({f"{type(o).__module__}.{type(o).__name__}" for o in gc.garbage
                        if isinstance(o, shiboken6.Shiboken.Object)})
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
    gc.collect()
    return found


def test_once_the_window_exists_python_collects_on_the_gui_thread_only(qtbot, home: Path, load: threading.Event):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    installed = collector.installed()
    assert installed is not None and not gc.isenabled(), "automatic collection must be off once the window exists"
    before = installed.collections
    qtbot.wait(1_500)  # the load thread allocates cycles all along: a collection may start on no thread but this one
    assert installed.off_thread == [], f"collected off the GUI thread: {installed.off_thread[:3]}"
    assert installed.collections > before, "the GUI thread's timer never collected"
    w.close()


def test_closing_mid_index_again_and_again_under_load_frees_no_qobject_off_the_gui_thread(
        qtbot, home: Path, tmp_path: Path, load: threading.Event):
    vault = wordy_vault(tmp_path / "v", 40)
    forced: list[int] = []
    stop_forcing = threading.Event()

    def force() -> None:  # what a library's own gc.collect() on a worker does: it must find no QObject to free
        # collect first, then wait: a fast machine ends a round in under one wait, and each round must collect
        while True:
            forced.append(gc.collect())
            if stop_forcing.wait(0.05):
                return

    for round_ in range(ROUNDS):
        with watchdog(120):
            first = CountingEmbedder()
            first.hold_after = 16  # the second batch of vectors waits: the vault closes mid-embedding
            w = MainWindow(fake_controller(home / f"round-{round_}", first))  # a new index: it embeds again
            forcer = threading.Thread(target=force, name="test-forced-collect")
            forcer.start()
            try:
                w.open_vault(vault)
                qtbot.waitUntil(first.held.is_set, timeout=SLOW_MS)
                lane = w.c.lane
                assert lane is not None
                w.c.close_vault()  # the lane stops on a worker while a batch runs; the window connects meanwhile
                qtbot.waitUntil(lambda lane=lane: lane.stopping, timeout=10_000)
            finally:
                first.release.set()
                w.close()  # joins every thread
                stop_forcing.set()
                forcer.join()
                stop_forcing.clear()
            w.deleteLater()  # as qtbot and a closed dialog do: Qt deletes it, Python keeps what cycles hold
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
            del w, lane
            leftover = qobjects_in_cyclic_garbage()
            assert leftover == [], f"round {round_}: QObjects held only by reference cycles: {leftover}"
    assert len(forced) >= ROUNDS, f"a forced collection on a worker ran in every round: {len(forced)}"
    installed = collector.installed()
    assert installed is not None
    # only the test's own forced collections ran off the GUI thread, never an automatic one
    assert {name.split(" ")[0] for name in installed.off_thread} <= {"test-forced-collect"}
    installed.off_thread.clear()


def test_a_controller_and_a_settings_dialog_once_let_go_leave_no_qobject_to_the_collector(qtbot, home: Path,
                                                                                        tmp_path: Path):
    """What the window lets go of (a closed vault's parts, a dialog after Cancel) is freed by reference counting,
    where it is let go of: never left to the collector, which may run on any thread."""
    from vaultrag.app.widgets.settings_dialog import SettingsDialog
    from vaultrag.core.scope import Scope

    with watchdog(120):
        c = fake_controller(home)
        with qtbot.waitSignal(c.index_changed, timeout=SLOW_MS, check_params_cb=lambda e: e.kind == "embedded"):
            c.open_vault(wordy_vault(tmp_path / "v", 8))
        failures: list[str] = []
        c.failed.connect(failures.append)
        with qtbot.waitSignals([c.search_finished], timeout=60_000, raising=False) as asked:
            c.ask("Frase 3 da nota 2", Scope(), None, None)  # the query lane's searcher, the answer writer
        assert asked.signal_triggered, f"no answer in 60 s; the window was told: {failures}"
        c.shutdown()
        dialog = SettingsDialog(c.settings, None, c, c.paths.models_dir)  # every editor, the language model's too
        dialog.reject()
        dialog.deleteLater()
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
        del c, dialog
        assert qobjects_in_cyclic_garbage() == []

"""A pane is its widget plus one PaneSpec line: a toy pane added to PANES is laid out, fed, listed in the View
menu with its Alt+N and its own items, and gets note texts — with no other file naming it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLabel

from tests.test_app_widgets import cand, trace
from vaultrag.app.controller import AppController
from vaultrag.app.widgets import inspector
from vaultrag.app.widgets.inspector import PANES, Column, PaneSpec
from vaultrag.app.widgets.main_window import MainWindow
from vaultrag.core.model import Answer
from vaultrag.core.vocab import AnswerKind, StageName


class ToyPane(QLabel):
    """Counts what the inspector tells it; asks for a note, shows the text it gets, offers one View item."""

    note_requested = Signal(object)

    def __init__(self) -> None:
        super().__init__("toy")
        self.questions: list[str] = []
        self.picked: list[int] = []
        self.notes: list[object] = []
        self.loud = QAction("Toy: louder", self)
        self.loud.setShortcut("Ctrl+Shift+Y")

    def set_trace(self, t) -> None:
        self.questions.append(t.question)

    def clear(self) -> None:
        self.questions.append("")

    def select_chunk(self, c) -> None:
        self.picked.append(c.chunk_id)

    def show_note(self, note: object) -> None:
        self.notes.append(note)

    def view_actions(self) -> list[QAction]:
        return [self.loud]


def test_a_toy_pane_is_one_panespec_line(qtbot, home: Path, monkeypatch):
    monkeypatch.setattr(inspector, "PANES", (*PANES, PaneSpec("toy", "Toy", ToyPane, Column.RIGHT, (440, 260))))
    w = MainWindow(AppController(home))
    qtbot.addWidget(w)
    w.show()
    w.resize(1280, 800)
    w.pages.setCurrentIndex(1)  # past the welcome page: the page with the inspector
    toy = w.inspector.panes["toy"]
    assert isinstance(toy, ToyPane) and w.inspector.columns[Column.RIGHT.value].indexOf(toy) == len(
        [s for s in PANES if s.column == Column.RIGHT])  # below the right column's panes
    # sized from its spec: as tall as the preview (both 260 in their specs)
    qtbot.waitUntil(lambda: toy.height() > 0)
    heights = dict(zip([s.key for s in inspector.PANES if s.column == Column.RIGHT],
                       w.inspector.columns[Column.RIGHT.value].sizes(), strict=True))
    assert abs(heights["toy"] - heights["preview"]) <= 1 and heights["toy"] > heights["decision"]
    # the View menu: "Toy: full size" on the next Alt+N, and the pane's own item
    keys = dict(w.shortcuts())
    assert keys["Toy: full size"] == f"Alt+{len(PANES) + 1}" and keys["Toy: louder"] == "Ctrl+Shift+Y"
    full = next(a for a in w.menu_actions if a.text() == "Toy: full size")
    full.trigger()
    assert toy.isVisibleTo(w) and not w.inspector.panes["candidates"].isVisibleTo(w)
    w.maximize_pane(None)
    # fed like every pane: a trace, a picked chunk, a clear
    final = [cand(7, 1), cand(8, 2)]
    w.inspector.set_trace(trace(Answer(AnswerKind.EXTRACTIVE, "x", "Casa/Reembolso.md"), final))
    w.inspector.panes["candidates"].tables[StageName.FUSED].selectRow(1)
    w.inspector.clear()
    assert toy.questions == ["prazo?", ""] and toy.picked == [7, 8]
    # a note asked for by the toy goes to the controller's reader; its text comes back to the toy
    with qtbot.waitSignal(w.inspector.note_requested) as asked:
        toy.note_requested.emit(final[0])
    assert asked.args == [final[0]]
    w.c.note_read.emit("the note's text")
    assert toy.notes == ["the note's text"]
    w.close()


def test_the_candidates_pane_brings_its_own_view_item(qtbot, home: Path):
    """Keyword and vector lists (Ctrl+Shift+L) comes from the candidates pane, not from the main window."""
    w = MainWindow(AppController(home))
    qtbot.addWidget(w)
    w.show()
    lists = next(a for a in w.menu_actions if a.text().replace("&", "") == "Keyword and vector lists")
    stages = w.inspector.panes["candidates"]
    assert lists.shortcut().toString() == "Ctrl+Shift+L" and lists.isChecked() and stages.first_stages_shown()
    lists.trigger()
    assert not lists.isChecked() and not stages.first_stages_shown()
    lists.trigger()
    assert stages.first_stages_shown()
    w.close()

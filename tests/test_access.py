"""Keyboard and screen readers: every interactive widget named and described (both languages), Tab in reading order
with one stop per table, shortcuts to each inspector pane listed in Help, the focus visible, the decision and the
answer announced (app/access.py). A real window on the demo vault (fake embedder), offscreen."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QHeaderView,
    QLineEdit,
    QPlainTextEdit,
    QTabBar,
    QTextEdit,
    QWidget,
)

from tests.test_app import ask, fake_controller, open_and_wait
from tests.test_app import demo as demo
from vaultrag.app import access
from vaultrag.app.main import _install_translator
from vaultrag.app.widgets.main_window import MainWindow

INTERACTIVE = (QAbstractButton, QLineEdit, QComboBox, QAbstractItemView, QTextEdit, QPlainTextEdit, QAbstractSpinBox,
               QTabBar)


def window_on_demo(qtbot, home: Path, demo: Path) -> MainWindow:
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    w.resize(1280, 800)
    open_and_wait(qtbot, w, demo)
    ask(qtbot, w, "Qual o prazo do reembolso?")
    return w


def interactive(w: QWidget) -> list[QWidget]:
    """The widgets a keyboard or a screen reader user meets: taking focus, not Qt's own inner parts (a spin box's
    editor, a header, a combo box's popup list, scroll buttons)."""
    out = []
    for x in w.findChildren(QWidget):  # every page and tab, shown or not (Index health and Evaluation too)
        if isinstance(x, QHeaderView) or not (isinstance(x, INTERACTIVE) or x.focusPolicy() & Qt.FocusPolicy.TabFocus):
            continue
        if x.window() is not w:  # a combo box's popup, a dialog: windows of their own
            continue
        if x.focusPolicy() == Qt.FocusPolicy.NoFocus or x.objectName().startswith(("qt_", "Scroll")):
            continue
        if isinstance(x.parent(), (QAbstractSpinBox, QComboBox, QTabBar)):
            continue
        out.append(x)
    return out


def said(x: QWidget) -> tuple[str, str]:
    face = QAccessible.queryAccessibleInterface(x)
    assert face is not None, x
    if isinstance(x, QTabBar):  # Qt's tab list says its current tab and each tab by its title (no description)
        tabs = [face.child(i).text(QAccessible.Text.Name) for i in range(face.childCount())
                if face.child(i).role() == QAccessible.Role.PageTab]
        return face.text(QAccessible.Text.Name), "; ".join(tabs) if tabs and all(tabs) else ""
    return face.text(QAccessible.Text.Name), face.text(QAccessible.Text.Description)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_every_interactive_widget_has_a_name_and_a_description_in_the_window_language(
        qtbot, home: Path, demo: Path, language: str):
    app = QApplication.instance()
    translator = _install_translator(app, language) if language == "pt" else None
    try:
        w = window_on_demo(qtbot, home, demo)
        widgets = interactive(w)
        assert len(widgets) >= 40, [type(x).__name__ for x in widgets]
        missing = [f"{type(x).__name__} {x.objectName()!r}: {said(x)}" for x in widgets
                   if not all(s.strip() for s in said(x))]
        assert missing == [], "\n".join(missing)
        assert said(w.question)[0] == ("Pergunta" if language == "pt" else "Question")
        assert said(w.inspector.panes["decision"])[0] == ("Decisão" if language == "pt" else "Decision")
        w.close()
    finally:
        if translator is not None:
            app.removeTranslator(translator)


@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_settings_and_why_not_dialogs_name_every_field(qtbot, home: Path, language: str):
    from vaultrag.app.widgets.settings_dialog import SettingsDialog
    from vaultrag.settings import Settings

    app = QApplication.instance()
    translator = _install_translator(app, language) if language == "pt" else None
    try:
        c = fake_controller(home)
        dialog = SettingsDialog(Settings(), None, c, c.paths.models_dir)
        qtbot.addWidget(dialog)
        w = MainWindow(c)
        qtbot.addWidget(w)
        for root in (dialog, w.why_dialog):
            widgets = interactive(root)
            assert len(widgets) >= (30 if root is dialog else 5)
            missing = [f"{type(x).__name__} {x.objectName()!r}: {said(x)}" for x in widgets
                       if not all(s.strip() for s in said(x))]
            assert missing == [], "\n".join(missing)
        k = dialog.fields["k"]
        assert said(k)[0] == ("Documentos por resposta (k)" if language == "pt" else "Documents per answer (k)")
        dialog.close()
        w.close()
    finally:
        if translator is not None:
            app.removeTranslator(translator)


def test_tab_follows_the_reading_order_and_a_table_is_one_stop(qtbot, home: Path, demo: Path):
    w = window_on_demo(qtbot, home, demo)
    w.activateWindow()
    w.question.setFocus()
    qtbot.waitUntil(w.question.hasFocus)
    seen: list[QWidget] = []
    for _ in range(40):
        qtbot.keyClick(QApplication.focusWidget(), Qt.Key.Key_Tab)
        seen.append(QApplication.focusWidget())
        if seen[-1] is w.question:
            break
    walked = [f"{type(x).__name__}:{x.objectName() or said(x)[0]}" for x in seen]
    assert seen[-1] is w.question, f"Tab came back to the question within 40 presses: {walked}"
    panes = w.inspector.panes
    table = panes["candidates"].table
    order = [w.ask_button, w.k, w.threshold, w.folder_box, w.tag_box, w.answer_view.browser, w.answer_view.copy,
             table, panes["decision"], panes["prompt"].copy, panes["prompt"].tree, panes["preview"].text]
    if panes["preview"].open_editor.isEnabled():  # a note shown in the preview (else a disabled button: no stop)
        order.insert(-1, panes["preview"].open_editor)
    at = [next((i for i, x in enumerate(seen) if x is o or o.isAncestorOf(x)), None) for o in order]
    assert None not in at, [type(o).__name__ for o, i in zip(order, at, strict=True) if i is None]
    assert at == sorted(at), "Tab walks the window in reading order"
    assert sum(x is table for x in seen) == 1, "the candidate table is one Tab stop (the arrows move inside)"
    before = table.currentRow()
    table.setFocus()
    qtbot.keyClick(table, Qt.Key.Key_Down)
    assert table.hasFocus() and table.currentRow() == before + 1


def test_each_pane_has_a_shortcut_listed_in_help_and_the_focus_is_drawn(qtbot, home: Path, demo: Path):
    w = window_on_demo(qtbot, home, demo)
    w.activateWindow()
    keys = dict(w.shortcuts())
    for action in ("Focus the question", "New conversation", "Go to Candidates", "Go to Decision", "Go to Prompt",
                   "Go to Note preview", "Go to Confidence chart"):
        assert keys.get(action), f"{action} has no shortcut in Help"
    targets = access.pane_focus(w)
    for key in ("candidates", "decision", "prompt", "preview", "chart"):
        w.question.setFocus()
        w.go_to_pane(key)
        qtbot.waitUntil(targets[key].hasFocus)
    decision = w.inspector.panes["decision"]
    w.go_to_pane("decision")
    qtbot.waitUntil(decision.hasFocus)
    focused = decision.grab().toImage()
    w.question.setFocus()
    qtbot.waitUntil(w.question.hasFocus)
    assert focused != decision.grab().toImage(), "the focused pane looks different (its frame)"


def test_the_decision_and_the_answer_are_announced(qtbot, home: Path, demo: Path, monkeypatch):
    events: list[tuple[Any, str, Any]] = []

    def heard(e: Any) -> None:
        assert isinstance(e, QAccessibleAnnouncementEvent) and e.type() == QAccessible.Event.Announcement
        events.append((e.object(), e.message(), e.politeness()))

    monkeypatch.setattr(access, "_send", heard)
    w = window_on_demo(qtbot, home, demo)
    decision = w.inspector.panes["decision"]
    from_decision = [m for o, m, _ in events if o is decision]
    from_answer = [m for o, m, _ in events if o is w.answer_view.browser]
    assert from_decision and from_decision[-1].startswith(("ANSWERED. ", "REFUSED. "))
    trace = w.answer_view._trace
    assert trace is not None and from_answer
    assert (from_answer[-1].startswith(("Answer: ", "Refused: ")) and trace.answer.text[:20] in from_answer[-1]) or \
        (trace.answer.sentence and trace.answer.sentence[:20] in from_answer[-1])
    assert all(p == QAccessible.AnnouncementPoliteness.Polite for *_, p in events)


def test_in_a_high_contrast_theme_every_coloured_row_and_mark_still_reads(qtbot, home: Path, demo: Path):
    from PySide6.QtGui import QColor, QPalette

    app = QApplication.instance()
    before = app.palette()
    dark = QPalette()
    for role, colour in ((QPalette.ColorRole.Window, "#000000"), (QPalette.ColorRole.Base, "#000000"),
                         (QPalette.ColorRole.Text, "#ffffff"), (QPalette.ColorRole.WindowText, "#ffffff")):
        dark.setColor(role, QColor(colour))
    app.setPalette(dark)
    try:
        w = window_on_demo(qtbot, home, demo)
        table = w.inspector.panes["candidates"].table
        base = table.palette().color(QPalette.ColorRole.Base)
        coloured = [table.item(r, c).foreground().color() for r in range(table.rowCount())
                    for c in range(table.columnCount()) if table.item(r, c) is not None
                    and table.item(r, c).foreground().style() != Qt.BrushStyle.NoBrush]
        assert coloured, "the rows in the prompt are coloured"
        assert min(access.contrast(c, base) for c in coloured) >= access.MIN_CONTRAST
        decision = w.inspector.panes["decision"].toHtml()
        verdict = QColor(decision.split("color:", 1)[1][:8].strip(" ;'\""))
        assert access.contrast(verdict, base) >= access.MIN_CONTRAST, verdict.name()
        w.close()
    finally:
        app.setPalette(before)
    assert access.contrast(access.legible("#195596", table), QColor("#000000")) >= access.MIN_CONTRAST

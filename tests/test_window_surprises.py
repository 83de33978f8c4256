"""Nothing in the window that surprises (issue 24): the answer pane's source above the fold and its one marked
sentence, the wheel over Settings, tools without a vault, a banner that can be dismissed, "Open in editor" with
no program, each vault's own history, the evaluation's questions opened in the inspector, "line 25", a folder
picked is in the scope at once (real widgets, pytest-qt offscreen; a real index of the demo vault)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QObject, QPoint, QPointF, Qt, Slot
from PySide6.QtGui import QDesktopServices, QTextCursor, QWheelEvent
from PySide6.QtWidgets import QAbstractButton, QApplication, QComboBox, QScrollArea, QSpinBox

from tests.test_app import ask, fake_controller, open_and_wait
from tests.test_app import demo as demo  # the fixture: a copy of the demo vault
from tests.test_app_widgets import cand, trace
from tests.test_app_window import plain
from vaultrag.app.widgets.answer_view import AnswerView
from vaultrag.app.widgets.main_window import ANSWER_HEIGHT, MainWindow
from vaultrag.app.widgets.settings_dialog import SettingsDialog
from vaultrag.core.model import Answer, Candidate, ContextDoc
from vaultrag.core.query.stages.answer import extractive
from vaultrag.core.vocab import AnswerKind


def visible_text(view: AnswerView) -> str:
    """What a reader sees of the answer pane without scrolling: its visible labels, and the browser's text between
    its viewport's top-left and bottom-right corners."""
    labels = [plain(w.text()) for w in (view.kind, view.notice, getattr(view, "source", None)) if w is not None
              and w.isVisibleTo(view)]
    b = view.browser
    first = b.cursorForPosition(QPoint(0, 0)).position()
    last = b.cursorForPosition(QPoint(b.viewport().width() - 1, b.viewport().height() - 1)).position()
    cursor = QTextCursor(b.document())
    cursor.setPosition(first)
    cursor.setPosition(last, QTextCursor.MoveMode.KeepAnchor)
    return "\n".join(labels) + "\n" + cursor.selectedText()


def highlighted(view: AnswerView) -> list[str]:
    """The runs of the answer's text drawn on a background (the marks), in order."""
    runs = []
    block = view.browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            frag = it.fragment()
            if frag.charFormat().background().style() != Qt.BrushStyle.NoBrush:
                runs.append(frag.text())
            it += 1
        block = block.next()
    return runs


# -- 5: the answer pane ---------------------------------------------------------------------------------
def test_a_long_passage_keeps_its_source_above_the_fold(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    view.resize(1260, ANSWER_HEIGHT)
    view.set_heights(ANSWER_HEIGHT, ANSWER_HEIGHT)
    view.show()
    long = "\n\n".join(f"Parágrafo {i} sobre outra coisa qualquer." for i in range(30))
    sentence = "O prazo do estorno é de 7 dias úteis."
    a = Answer(AnswerKind.EXTRACTIVE, f"{long}\n\n**{sentence}**\n\nFim.", sentence=sentence,
               source="Casa/Reembolso.md > Prazo", note="Casa/Reembolso.md", line=62)
    view.show_answer(trace(a, [cand(1, 1)]))
    seen = visible_text(view)
    assert "O prazo do estorno" in seen, "the marked sentence is scrolled into view"
    assert "[1] Casa/Reembolso.md > Prazo" in seen and "62" in seen, f"the source is below the fold: {seen!r}"


NOTE = """## O prazo é de 7 dias

**Importante:** guarde o recibo da compra.

O prazo é de 7 dias. Veja ![[recibo.png]]
"""


def test_the_answers_sentence_is_the_only_mark_and_no_markup_leaks(qtbot):
    """Only the sentence the answer used is highlighted: not the note's own bold, not the same words in the heading
    above it; no `**` of the mark and no embed's `!` show."""
    doc = ContextDoc("Casa/Reembolso.md", ["Reembolso"], 0, len(NOTE), 0, 5, index=1, chunk_ids=[1],
                     source="Casa/Reembolso.md", text=NOTE, tokens=20)
    a = extractive("qual o prazo, 7 dias?", [doc])
    assert a.sentence == "O prazo é de 7 dias."
    assert a.text.startswith("## O prazo é de 7 dias\n"), "the heading's same words are not the answer's mark"
    view = AnswerView()
    qtbot.addWidget(view)
    view.show_answer(trace(a, [cand(1, 1)]))
    assert highlighted(view) == ["O prazo é de 7 dias."]
    text = view.browser.toPlainText()
    assert "**" not in text and "!" not in text and "Importante:" in text and "[recibo.png]" in text
    # an embed right after a sentence's "!": the sentence ends there, the embed stays whole
    b = Answer(AnswerKind.EXTRACTIVE, "Texto antes.\n\n**Veja o recibo !**[[recibo.png]] depois.",
               sentence="Veja o recibo !", note="Casa/Reembolso.md", source="Casa/Reembolso.md")
    view.show_answer(trace(b, [cand(1, 1)]))
    text = view.browser.toPlainText()
    assert "!" not in text and "[recibo.png]" in text and highlighted(view) == ["Veja o recibo"]


# -- 6, 7: Settings ----------------------------------------------------------------------------------------
def test_the_wheel_over_an_unfocused_settings_field_scrolls_the_page(qtbot, home: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    dialog = SettingsDialog(w.c.settings, w, w.c, w.c.paths.models_dir)
    qtbot.addWidget(dialog)
    dialog.resize(700, 500)
    dialog.show()
    scroll = dialog.findChild(QScrollArea).verticalScrollBar()
    field = dialog.fields["vector_n"]
    assert isinstance(field, QSpinBox)
    dialog.findChild(QScrollArea).ensureWidgetVisible(field)
    before, top = field.value(), scroll.value()
    for widget in (field, *dialog.findChildren(QComboBox)[:3]):
        value = widget.value() if isinstance(widget, QSpinBox) else widget.currentIndex()
        at = scroll.value()
        centre = QPointF(widget.rect().center())
        wheel = QWheelEvent(centre, QPointF(widget.mapToGlobal(centre.toPoint())), QPoint(0, 0), QPoint(0, -120),
                            Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase,
                            False)
        QApplication.sendEvent(widget, wheel)
        now = widget.value() if isinstance(widget, QSpinBox) else widget.currentIndex()
        assert now == value, f"the wheel changed {widget.objectName()} from {value} to {now}"
        assert scroll.value() > at or scroll.value() == scroll.maximum(), "the page scrolls instead"
    assert field.value() == before and scroll.value() > top
    field.setFocus()
    qtbot.waitUntil(field.hasFocus)
    wheel = QWheelEvent(QPointF(5, 5), QPointF(field.mapToGlobal(QPoint(5, 5))), QPoint(0, 0), QPoint(0, 120),
                        Qt.MouseButton.NoButton, Qt.KeyboardModifier.NoModifier, Qt.ScrollPhase.NoScrollPhase, False)
    QApplication.sendEvent(field, wheel)
    assert field.value() == before + 1, "a field the user clicked takes the wheel"
    dialog.reject()
    w.close()


# -- 9: tools without a vault, and a banner that goes away -----------------------------------------------
def test_tools_need_an_open_vault_and_a_banner_can_be_dismissed(qtbot, home: Path, demo: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    by_name = {a.text().replace("&", ""): a for a in w.menu_actions}
    tools = [by_name[n] for n in ("Why not this note?", "Index health", "Evaluation", "Ask")]
    assert not any(a.isEnabled() for a in tools), "nothing to ask, diagnose or evaluate without a vault"
    for button in (w.why_dialog.run, w.evaluation.run, w.evaluation.calibrate, w.health.reindex):
        assert not button.isEnabled(), button.text()
    by_name["Why not this note?"].trigger()
    assert not w.why_dialog.isVisible()
    w.show_error("Something went wrong")
    dismiss = w.error.findChild(QAbstractButton)
    assert w.error.isVisible() and dismiss is not None and dismiss.isVisible()
    qtbot.mouseClick(dismiss, Qt.MouseButton.LeftButton)
    assert not w.error.isVisible(), "the banner goes away with its button"
    open_and_wait(qtbot, w, demo)
    assert all(a.isEnabled() for a in tools) and w.why_dialog.run.isEnabled() and w.evaluation.calibrate.isEnabled()
    w.close()


# -- 10: Open in editor with no program -------------------------------------------------------------------
class Opener(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.opened: list[str] = []

    @Slot("QUrl")
    def open(self, url) -> None:  # type: ignore[no-untyped-def]
        self.opened.append(url.toLocalFile())


def test_open_in_editor_says_so_in_the_window_when_nothing_opens(qtbot, home: Path, demo: Path):
    """Offscreen Qt has no program to open a file with (as a desktop without one): the window says it."""
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    open_and_wait(qtbot, w, demo)
    trace_ = ask(qtbot, w, "Qual o prazo do reembolso?")
    preview = w.inspector.panes["preview"]
    with qtbot.waitSignal(w.c.note_read, timeout=10_000):
        preview.select_chunk(trace_.final[0])
    assert preview.open_editor.isEnabled()
    qtbot.mouseClick(preview.open_editor, Qt.MouseButton.LeftButton)
    path = str(demo / trace_.final[0].note)
    said = [lbl.text() for lbl in preview.findChildren(type(w.status)) if lbl.isVisibleTo(preview)]
    assert any(path in s for s in said), f"nothing said in the pane: {said}"
    said = w.statusBar().toolTip()
    assert path in said or "Nothing opened" in said
    opener = Opener()  # a program that opens files: nothing to say
    QDesktopServices.setUrlHandler("file", opener, "open")
    try:
        qtbot.mouseClick(preview.open_editor, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert opener.opened == [path]
    assert not any(path in lbl.text() for lbl in preview.findChildren(type(w.status)) if lbl.isVisibleTo(preview))
    w.close()


# -- 15: history per vault, the evaluation's questions, "line 25", the folder picked -----------------------
def test_each_vault_keeps_its_own_question_history_out_of_the_shared_file(qtbot, home: Path, demo: Path,
                                                                         tmp_path: Path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "nota.md").write_text("# Nota\n\nOutro cofre, outra conversa.\n", encoding="utf-8")
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    open_and_wait(qtbot, w, demo)
    ask(qtbot, w, "Qual o prazo do reembolso?")
    open_and_wait(qtbot, w, other)
    ask(qtbot, w, "pergunta do outro cofre")
    assert w.history == ["pergunta do outro cofre"], "the first vault's question is not offered here"
    w.close()
    shared = (home / "ui.ini").read_text(encoding="utf-8")
    assert "reembolso" not in shared and "outro cofre" not in shared, "no question in the shared ui.ini"
    folder = w.c.paths.vault_dir(demo)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700, "only this user reads what was asked"
    again = MainWindow(fake_controller(home))
    qtbot.addWidget(again)
    open_and_wait(qtbot, again, demo)
    assert again.history == ["Qual o prazo do reembolso?"]
    again.question.setFocus()
    qtbot.keyClick(again.question, Qt.Key.Key_Up)
    assert again.question.text() == "Qual o prazo do reembolso?"
    again.close()


def test_an_evaluation_question_that_failed_opens_in_the_inspector(qtbot, home: Path, demo: Path, tmp_path: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    open_and_wait(qtbot, w, demo)
    golden = tmp_path / "g.jsonl"
    lost = "Qual a senha do wifi da academia?"  # the gym's note never says it: its note is not found first
    golden.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in (
        {"question": "Qual o prazo do reembolso?", "note": "Casa/Reembolso e cancelamentos.md"},
        {"question": lost, "note": "Travel/Lisbon trip.md"},
        {"question": "Quem ganhou a copa de 1970?", "note": None})), encoding="utf-8")
    w._tab(2)
    w.evaluation.path.setText(str(golden))
    with qtbot.waitSignal(w.c.eval_finished, timeout=60_000):
        w.evaluation.run.click()
    table = w.evaluation.questions
    assert table.rowCount() == 3 and table.isVisibleTo(w)
    assert table.item(0, 0).text() == lost and table.item(0, 1).text() == "Lisbon trip", "failures first"
    assert table.item(0, 3).text(), "where it was lost, in words"
    with qtbot.waitSignal(w.c.search_finished, timeout=30_000) as searched, \
            qtbot.waitSignal(w.c.diagnosis_finished, timeout=30_000) as diagnosed:
        table.setCurrentCell(0, 0)
        table.activated.emit(table.model().index(0, 0))
    assert searched.args[0].question == lost and w.tabs.currentIndex() == 0, "asked again, in the inspector"
    assert diagnosed.args[0].note == "Travel/Lisbon trip.md" and w.why_dialog.isVisible()
    w.close()


def test_a_one_line_chunk_is_line_25_not_lines_25_25(qtbot):
    from vaultrag.app.widgets.note_preview import NotePreview
    from vaultrag.core.index.vault import NoteText

    preview = NotePreview()
    qtbot.addWidget(preview)
    text = "".join(f"linha {n}\n" for n in range(1, 40))
    for first, end, said in ((24, 25, "a.md — line 25"), (10, 14, "a.md — lines 11–14")):
        start = text.index(f"linha {first + 1}\n")
        preview.select_chunk(Candidate("a.md", [], start, start + 8, first, end, chunk_id=1, rank=1, score=1.0))
        preview.show_note(NoteText("/v", "a.md", "/v/a.md", text, "", False, start))
        assert preview.title.text() == said


def test_a_folder_picked_is_in_the_scope_at_once(qtbot, home: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    w.pages.setCurrentIndex(1)
    w._on_notes_listed({"folders": ["Casa", "Trabalho"], "tags": ["viagem"], "notes": []})
    for box, key, steps, picked in ((w.folder_box, "folders", 2, ["Trabalho"]), (w.tag_box, "tags", 1, ["viagem"])):
        box.setFocus()
        qtbot.keyClick(box, Qt.Key.Key_Down)  # the arrow opens the list: stepping through it picks nothing yet
        popup = box.view()
        qtbot.waitUntil(popup.isVisible)
        assert getattr(w.scope, key) == []
        for _ in range(steps):  # past the hint to the item wanted
            qtbot.keyClick(popup, Qt.Key.Key_Down)
        qtbot.keyClick(popup, Qt.Key.Key_Return)  # the user picks it
        assert getattr(w.scope, key) == picked, "picked, and in the scope: no other button to press"
        assert box.currentIndex() == 0 and w.findChild(QAbstractButton, f"chip-{key}-{picked[0]}") is not None
    w.close()


def cut_buttons(root) -> list[str]:
    """Visible buttons whose text is wider than the room they have ("Downloa")."""
    from PySide6.QtWidgets import QPushButton

    bad = []
    for b in root.findChildren(QPushButton):
        if b.isVisibleTo(root) and b.text():
            need = b.fontMetrics().horizontalAdvance(b.text().replace("&", ""))
            if need > b.contentsRect().width() - 6:
                bad.append(f"{b.text()!r}: {need} px in {b.contentsRect().width()} px")
    return bad


@pytest.mark.parametrize("language", ["en", "pt"])
def test_settings_fits_its_content_on_every_page(qtbot, home: Path, language: str):
    """No help text cut short, no button cut ("Downloa"), on each reranker and language model page, in both
    languages, in a 1280×800 window."""
    from tests.test_app_window import clipped_labels, deliver_posted_events
    from vaultrag.app.main import _install_translator

    app = QApplication.instance()
    translator = _install_translator(app, language) if language == "pt" else None
    try:
        w = MainWindow(fake_controller(home))
        qtbot.addWidget(w)
        w.resize(1280, 800)
        w.show()
        w.show_settings()
        dialog = w.settings_dialog
        scroll = dialog.findChild(QScrollArea)
        bad = []
        for combo in (dialog.reranker.kind, dialog.llm.mode):
            for i in range(combo.count()):
                combo.setCurrentIndex(i)
                deliver_posted_events()
                for y in range(0, scroll.verticalScrollBar().maximum() + 1, max(1, scroll.viewport().height())):
                    scroll.verticalScrollBar().setValue(y)
                    deliver_posted_events()
                bad += [f"{combo.itemText(i)}: {b}" for b in clipped_labels(dialog) + cut_buttons(dialog)]
        assert bad == [], "\n".join(bad)
        assert dialog.width() <= w.screen().availableGeometry().width()
        dialog.reject()
        w.close()
    finally:
        if translator is not None:
            app.removeTranslator(translator)


def test_a_tables_header_row_is_never_the_answers_sentence():
    """The header names the columns ("| Serviço | Canal | Horário |"): the row under it holds the answer."""
    from vaultrag.core.query.stages.answer import best_sentence

    table = "| Serviço | Canal | Horário |\n|---|---|---|\n| Academia | app | das 6h às 22h |\n"
    sentence, at = best_sentence("Qual o horário e o canal da academia?", table)
    assert sentence.startswith("| Academia") and table[at:].startswith("| Academia")


def test_a_generated_answers_bold_is_bold_not_highlighted(qtbot):
    """The model's own **bold** is emphasis: it is not drawn with the answer's sentence highlight."""
    from vaultrag.core.model import SentenceCheck
    from vaultrag.core.vocab import SupportVerdict

    view = AnswerView()
    qtbot.addWidget(view)
    text = "O prazo é de **7 dias úteis** [1]."
    a = Answer(AnswerKind.GENERATED, text, model="m", sentences=[SentenceCheck(text, [1], SupportVerdict.SUPPORTED)])
    view.show_answer(trace(a, [cand(1, 1)]))
    assert "7 dias úteis" in view.browser.toPlainText() and "**" not in view.browser.toPlainText()
    assert highlighted(view) == []

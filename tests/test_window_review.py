"""A fresh-eyes review of the window: opening another vault starts clean (scope, chips, question), a scope's
problem in the window's language, a failed question said in the answer pane, the evaluation's failures opened on
their expected note beside the answer, "line 17" in the CLI, ui.ini only for its user, passing status messages,
plain numbers in Settings (real widgets offscreen, a real index of the demo vault, the fake embedder)."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QRect
from PySide6.QtWidgets import QAbstractButton, QApplication, QDoubleSpinBox

from tests.test_app import ask, fake_controller, open_and_wait
from tests.test_app import demo as demo  # the fixture: a copy of the demo vault
from tests.test_app_widgets import cand, trace
from vaultrag.app.main import _install_translator
from vaultrag.app.widgets import main_window
from vaultrag.app.widgets.eval_view import EvalView
from vaultrag.app.widgets.main_window import MainWindow
from vaultrag.app.widgets.settings_dialog import SettingsDialog
from vaultrag.app.words import problem_text
from vaultrag.cli.show import format_answer
from vaultrag.core import wording
from vaultrag.core.model import Answer, Diagnosis, Evidence
from vaultrag.core.quality.evaluate import CONTEXT, QuestionResult
from vaultrag.core.vocab import AnswerKind, StageName, Verdict
from vaultrag.errors import Problem
from vaultrag.settings import Settings


def window(qtbot, home: Path) -> MainWindow:
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    return w


def test_opening_another_vault_drops_the_scope_and_the_question(qtbot, home: Path, demo: Path, tmp_path: Path):
    other = tmp_path / "other"
    other.mkdir()
    (other / "nota.md").write_text("# Nota\n\nOutro cofre, outra conversa sobre o prazo.\n", encoding="utf-8")
    w = window(qtbot, home)
    open_and_wait(qtbot, w, demo)
    qtbot.waitUntil(lambda: w.folder_box.findText("Casa") > 0, timeout=10_000)
    w.folder_box.setCurrentIndex(w.folder_box.findText("Casa"))
    w._add_chip("folders", w.folder_box)
    assert w.scope.folders == ["Casa"] and w.findChild(QAbstractButton, "chip-folders-Casa") is not None
    ask(qtbot, w, "Qual o prazo do reembolso?")
    open_and_wait(qtbot, w, other)
    qtbot.waitUntil(lambda: w.findChild(QAbstractButton, "chip-folders-Casa") is None, timeout=5_000)
    assert w.scope.folders == [] and w.scope_hint.isVisible(), "the last vault's folder is not in this scope"
    assert w.question.text() == "", "the last vault's question is not offered here"
    answered = ask(qtbot, w, "qual o prazo?")
    assert answered.final and answered.final[0].note == "nota.md"
    w.close()


def test_a_question_that_fails_says_so_in_the_answer_pane_in_the_windows_language(qtbot, home: Path, demo: Path):
    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    assert translator is not None
    try:
        w = window(qtbot, home)
        open_and_wait(qtbot, w, demo)
        w.scope.folders.append("en/Obsidian Sync")  # a folder of another vault
        w.question.setText("Qual o prazo do reembolso?")
        with qtbot.waitSignal(w.c.failed, timeout=30_000) as failed:
            w.ask()
        said = failed.args[0]
        assert "en/Obsidian Sync" in said and "No folder" not in said, f"English in the Portuguese window: {said}"
        assert said == problem_text(Problem.SCOPE_NO_FOLDER, {"folder": "en/Obsidian Sync"})
        text = w.answer_view.browser.toPlainText()
        assert "Searching" not in text and "Pesquisando" not in text, text
        assert said in text and text != said, "the pane says the question failed, and why"
        w.close()
    finally:
        app.removeTranslator(translator)


def test_an_evaluation_failure_opens_its_expected_note_beside_the_answer(qtbot, home: Path, demo: Path,
                                                                        tmp_path: Path):
    w = window(qtbot, home)
    open_and_wait(qtbot, w, demo)
    golden = tmp_path / "g.jsonl"
    lost = "Qual a senha do wifi da academia?"
    golden.write_text(json.dumps({"question": lost, "note": "Travel/Lisbon trip.md"}, ensure_ascii=False) + "\n",
                      encoding="utf-8")
    w._tab(2)
    w.evaluation.path.setText(str(golden))
    with qtbot.waitSignal(w.c.eval_finished, timeout=60_000):
        w.evaluation.run.click()
    picked: list[str] = []
    w.inspector.chunk_selected.connect(lambda c: picked.append(c.note))
    table = w.evaluation.questions
    with qtbot.waitSignal(w.c.search_finished, timeout=30_000) as searched, \
            qtbot.waitSignal(w.c.diagnosis_finished, timeout=30_000):
        table.activated.emit(table.model().index(0, 0))
    assert searched.args[0].final[0].note != "Travel/Lisbon trip.md", "the case: another note came first"
    assert picked and picked[-1] == "Travel/Lisbon trip.md", f"the top candidate previewed, not the note: {picked}"
    answer = QRect(w.answer_view.mapToGlobal(w.answer_view.rect().topLeft()), w.answer_view.size())
    assert w.why_dialog.isVisible() and not w.why_dialog.frameGeometry().intersects(answer), \
        "why-not covers the answer"
    w.close()


def result(line: int, question: str, answerable: bool, confidence: float, top1: bool) -> QuestionResult:
    return QuestionResult(line, question, answerable, {CONTEXT: 1 if answerable else None}, confidence, top1)


def test_refusals_and_answers_to_unanswerable_questions_are_failures_and_the_question_gets_the_room(qtbot):
    view = EvalView()
    qtbot.addWidget(view)
    view.resize(1000, 500)
    view.show()
    note = "Pasta muito comprida/Subpasta com nome longo/ENGENHARIA DE SOFTWARE – regulamento.md"
    results = [result(1, "Qual o prazo certo?", True, 0.50, True),
               result(2, "Qual o prazo recusado?", True, 0.10, True),
               result(3, "Quem ganhou a copa de 1970?", False, 0.40, False),
               result(4, "Quem ganhou a copa de 1958?", False, 0.05, False)]
    view._questions(results, {1: note, 2: note}, 0.25)
    table = view.questions
    rows = {table.item(r, 0).text(): table.item(r, 3).text() for r in range(table.rowCount())}
    assert rows["Qual o prazo recusado?"] == "refused (confidence 0.100 below 0.250)"
    assert rows["Quem ganhou a copa de 1970?"] == "answered though no note holds the answer"
    assert rows["Qual o prazo certo?"] == "" and rows["Quem ganhou a copa de 1958?"] == ""
    assert {table.item(r, 0).text() for r in (0, 1)} == {"Qual o prazo recusado?", "Quem ganhou a copa de 1970?"}
    head = table.horizontalHeader()
    # the question and what went wrong share the room (what went wrong was cut even at 1920 wide)
    qtbot.waitUntil(lambda: head.sectionSize(3) >= head.sectionSize(0) >= head.sectionSize(1) >= 120)
    row = 2 if table.item(2, 1).text() else 3
    shown = table.item(row, 1).text()
    assert "…" in shown and shown.startswith("ENGENHARIA D"), "the note by its title, cut at its end"
    assert table.item(row, 1).toolTip() == note, "its whole path on hover"
    assert table.fontMetrics().horizontalAdvance(shown) <= head.sectionSize(1)
    assert any(table.item(r, 1).toolTip() == note for r in range(table.rowCount()))


def test_the_cli_says_line_17_for_a_one_line_document():
    t = trace(Answer(AnswerKind.EXTRACTIVE, "O reembolso sai em até 7 dias.", sentence="O reembolso",
                     source="Casa/Reembolso.md > Prazo", note="Casa/Reembolso.md", line=17), [cand(1, 1)])
    t.context[0].line_start, t.context[0].line_end = 16, 17
    assert "(line 17)" in format_answer(t) and "17–17" not in format_answer(t)
    t.context[0].line_start, t.context[0].line_end = 16, 20
    assert "(lines 17–20)" in format_answer(t)


def test_the_vaults_history_file_is_for_its_user_only(qtbot, home: Path, demo: Path):
    w = window(qtbot, home)
    open_and_wait(qtbot, w, demo)
    ask(qtbot, w, "Qual o prazo do reembolso?")
    w.close()
    ini = w.c.paths.vault_dir(demo) / "ui.ini"
    assert "reembolso" in ini.read_text(encoding="utf-8")
    assert stat.S_IMODE(ini.stat().st_mode) == 0o600


def test_a_passing_status_message_is_cut_to_the_bar_and_goes(qtbot, home: Path, monkeypatch):
    monkeypatch.setattr(main_window, "STATUS_MS", 300)
    w = window(qtbot, home)
    long = "Nothing opened /a/very/long/path/" + "folder/" * 60 + "note.md: no program opens it"
    w._on_open_failed(long)
    bar = w.statusBar()
    shown = bar.currentMessage()
    assert shown.endswith("…") and bar.fontMetrics().horizontalAdvance(shown) <= bar.width()
    assert bar.toolTip() == long, "the whole of it on hover"
    qtbot.waitUntil(lambda: bar.currentMessage() == "", timeout=5_000)
    w.close()


def test_a_new_answer_clears_an_earlier_passing_message(qtbot, home: Path, demo: Path):
    w = window(qtbot, home)
    open_and_wait(qtbot, w, demo)
    w._on_open_failed("Nothing opened /somewhere/note.md: no program opens it")
    assert w.statusBar().currentMessage()
    ask(qtbot, w, "Qual o prazo do reembolso?")
    assert w.statusBar().currentMessage() == "" and "ms" in w.status.text(), "the new state, not the old message"
    w.close()


def test_settings_show_whole_seconds_and_why_not_names_the_stage_in_lower_case(qtbot, home: Path):
    dialog = SettingsDialog(Settings(), None, None, home / "models")
    qtbot.addWidget(dialog)
    box = dialog.fields["llm_timeout"]
    assert isinstance(box, QDoubleSpinBox) and box.text() == "60", box.text()
    box.setValue(2.5)
    assert box.text() == "2.5" and box.value() == 2.5
    d = Diagnosis("a.md", Verdict.BELOW_K, 1, evidence=Evidence(final_stage=StageName.RERANKED, rank=7, k=5))
    said = wording.diagnosis(d, stage_title=lambda _s: "Reranked").message
    assert "after reranked" in said, said
    said = wording.diagnosis(d, stage_title=lambda _s: "BM25").message
    assert "after BM25" in said, said

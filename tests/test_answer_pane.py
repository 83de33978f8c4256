"""The answer pane with a language model: "loading model…" while it starts, a streamed answer that grows the pane
and keeps its latest line in view, Copy answer with sources (button and shortcut), and every missing piece said
in words above the answer, question after question (pytest-qt, a real index, a real local HTTP server)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests import engine_loading, test_app_llm
from tests.conftest import DEMO_VAULT
from tests.llama_server import server_missing, small_gguf
from tests.llm_server import ScriptedServer
from tests.test_app import fake_controller, open_and_wait
from vaultrag.app.widgets.answer_view import AnswerView
from vaultrag.app.widgets.main_window import MainWindow, answer_height
from vaultrag.core import wording
from vaultrag.core.vocab import AnswerKind, LLMFailure
from vaultrag.errors import Problem, problem_words

# test_app_llm's fixtures: the window on the demo vault, answered by a scripted server
window, server, extra_notes = test_app_llm.window, test_app_llm.server, test_app_llm.extra_notes
WAIT_MS = 120_000  # the built-in model starts within the first answer: 30 s was short on a busy 2-core machine
QUESTION = "Qual o prazo do reembolso?"


def ask(qtbot, w: MainWindow, question: str = QUESTION, signal: str = "answer_finished"):
    with qtbot.waitSignal(getattr(w.c, signal), timeout=WAIT_MS) as got:
        w.question.setText(question)
        w.ask()
    return got.args[0]


def test_copy_answer_with_sources_by_button_and_shortcut(qtbot, window: MainWindow, server: ScriptedServer):
    view, clipboard = window.answer_view, QApplication.clipboard()
    window.show()
    qtbot.waitExposed(window)
    assert not view.copy.isEnabled(), "nothing to copy yet"
    trace = ask(qtbot, window)
    doc = next(d for d in trace.context if d.index == 1)
    assert doc.note == "Casa/Reembolso e cancelamentos.md"
    lines = Path(window.c.ws.vault / doc.note).read_text(encoding="utf-8").splitlines()
    assert lines[doc.line_start].strip(), "the source's line number points at the passage's first line"
    # the note's first heading is its title: named once ("Reembolso e cancelamentos › Prazo do reembolso")
    assert doc.heading_path[0] == "Reembolso e cancelamentos"
    expected = (f"{server.reply}\n\nSources:\n[1] Reembolso e cancelamentos › {' › '.join(doc.heading_path[1:])} "
                f"(Casa/Reembolso e cancelamentos.md:{doc.line_start + 1})\n")
    clipboard.clear()
    qtbot.mouseClick(view.copy, Qt.MouseButton.LeftButton)
    assert clipboard.text() == expected
    assert window.statusBar().currentMessage() == "Answer and sources copied"
    clipboard.clear()
    window.activateWindow()
    window.question.setFocus()
    qtbot.keyClick(window.question, Qt.Key.Key_C,
                   Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert clipboard.text() == expected, "Ctrl+Shift+C copies it too"
    assert ("Copy answer with sources", "Ctrl+Shift+C") in window.shortcuts()
    window.question.setText(QUESTION)
    window.ask()
    assert not view.copy.isEnabled(), "the old answer is not copied for the new one while it is searched"
    qtbot.waitSignal(window.c.answer_finished, timeout=WAIT_MS).wait()


@pytest.mark.parametrize("missing", ["model name", "client package"])
def test_a_missing_piece_is_said_in_the_answer_pane_question_after_question(
        qtbot, window: MainWindow, server: ScriptedServer, monkeypatch: pytest.MonkeyPatch, missing: str):
    c, view = window.c, window.answer_view
    if missing == "model name":
        c.save_settings(c.settings.replace(llm_model=""))
        said = problem_words(Problem.LLM_NO_MODEL, {"where": server.base_url})  # the one wording of it
    else:
        monkeypatch.setitem(sys.modules, "openai", None)  # the client library cannot be imported
        said = wording.llm_failure(LLMFailure.NOT_INSTALLED, {})  # the core's words for it
    for _ in range(2):  # the next search does not wipe it
        trace = ask(qtbot, window, signal="search_finished")
        assert trace.answer.kind == AnswerKind.EXTRACTIVE
        assert not view.notice.isHidden() and view.notice.text() == said
        assert "Extractive" in view.kind.text() and "no language model configured" not in view.kind.text()
        assert trace.answer.sentence[:40] in view.browser.toPlainText(), "the best passage still shows"
        assert window.error.isHidden()
    assert server.requests == [], "no answer was asked of a model that cannot answer"
    monkeypatch.undo()  # the client is back
    c.save_settings(c.settings.replace(llm_model="tiny-model"))
    ask(qtbot, window)
    assert view.notice.isHidden(), "fixed: nothing more to say"


def test_the_pane_says_loading_model_while_the_model_starts(qtbot, window: MainWindow,
                                                            request: pytest.FixtureRequest):
    from vaultrag.engines import GENERATORS, GeneratorEngine

    GENERATORS.register(GeneratorEngine("slow-start", "A model that takes a while to start", "tests.engine_loading"))
    engine_loading.GATE.clear()

    def undo() -> None:
        engine_loading.GATE.set()
        GENERATORS.unregister("slow-start")

    request.addfinalizer(undo)
    c, view = window.c, window.answer_view
    c.save_settings(c.settings.replace(llm_backend="slow-start", llm_model="slow-model"))
    states: list[object] = []
    c.model_state_changed.connect(states.append)
    ask(qtbot, window, signal="answer_started")
    qtbot.waitUntil(lambda: "loading model…" in view.browser.toPlainText(), timeout=WAIT_MS)
    assert "Loading slow-model…" in view.kind.text() and [str(s) for s in states] == ["loading"]
    assert view.answer_with_sources() == "", "nothing written yet: nothing to copy"
    with qtbot.waitSignal(c.answer_finished, timeout=WAIT_MS) as done:
        engine_loading.GATE.set()
    assert [str(s) for s in states] == ["loading", "ready"]
    assert done.args[0].answer.kind == AnswerKind.GENERATED
    assert "The refund deadline is seven business days" in view.browser.toPlainText()
    assert "loading model…" not in view.browser.toPlainText()


def test_a_long_streamed_answer_keeps_the_panes_height_and_its_latest_line_in_view(qtbot, window: MainWindow,
                                                                                  server: ScriptedServer):
    """The pane grew with a long answer and shrank at the next question: its height jumped between questions.
    One height for every answer, scaled with the window; a long one scrolls, its latest line in view."""
    view = window.answer_view
    window.show()
    qtbot.waitExposed(window)
    height = answer_height(window.height())
    server.reply = "O prazo do reembolso é de 7 dias úteis [1]."
    ask(qtbot, window)
    assert view.height() == height, "a short answer: the pane's height"
    window.c.save_settings(window.c.settings.replace(llm_max_tokens=4000))  # not cut at the default 512 tokens
    server.reply = " ".join(f"Frase {i}: o prazo do reembolso é de sete dias úteis [1]." for i in range(120))
    ask(qtbot, window)
    bar = view.browser.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0 and bar.value() == bar.maximum(), timeout=WAIT_MS)
    assert view.height() == height, "a long answer: the same height, it scrolls to its latest line"
    window.question.setText(QUESTION)
    window.ask()
    qtbot.waitSignal(window.c.answer_finished, timeout=WAIT_MS).wait()
    assert view.height() == height
    window.resize(window.width(), 700)  # a smaller window: a smaller pane, the same for every answer
    qtbot.waitUntil(lambda: view.height() == answer_height(window.height()), timeout=WAIT_MS)


def test_a_reader_who_scrolled_up_is_left_where_they_are(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    view.set_heights(150, 330)
    view.resize(800, 150)
    view.show()
    qtbot.waitExposed(view)
    view.begin_stream("tiny-model")
    view.append_stream("\n\n".join(f"Line {i} [1]." for i in range(60)))
    qtbot.waitUntil(lambda: view.renders == 1, timeout=WAIT_MS)
    bar = view.browser.verticalScrollBar()
    assert view.height() == 330 and bar.value() == bar.maximum() > 0, "it grew while it streamed, end in view"
    bar.setValue(0)  # the reader goes back up to read the start
    view.append_stream("\n\nLine 60 [2].")
    qtbot.waitUntil(lambda: view.renders == 2, timeout=WAIT_MS)
    assert bar.value() == 0


@pytest.mark.skipif(bool(server_missing()), reason=server_missing() or "-")
def test_the_built_in_model_says_loading_model_then_writes_the_answer(qtbot, home: Path, tmp_path: Path):
    """The real llama.cpp server with the SmolLM2 GGUF, started by the window's first question."""
    gguf = small_gguf()
    assert gguf is not None
    (home / "settings.toml").write_text(f'llm_backend = "local"\nllm_gguf = "{gguf}"\nllm_max_tokens = 32\n',
                                        encoding="utf-8")
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    open_and_wait(qtbot, w, vault)
    shown: list[tuple[str, str, str]] = []  # (state, what the pane says then, its title)
    view = w.answer_view
    w.c.model_state_changed.connect(  # after the pane's own slot: what it shows for that state
        lambda s: shown.append((str(s), view.browser.toPlainText(), view.kind.text())))
    trace = ask(qtbot, w)
    assert [s for s, _, _ in shown] == ["loading", "ready"], "the first question starts the model"
    assert shown[0][1] == "loading model…" and f"Loading {gguf.stem}…" in shown[0][2]
    # ready, it reads the prompt before its first word: the pane says so, not "loading" nor "writing" yet
    assert shown[1][1] == "reading the notes…" and "is reading the question and the notes" in shown[1][2]
    assert trace.answer.kind == AnswerKind.GENERATED and trace.answer.model == gguf.stem
    assert view.notice.isHidden() and f"Written by {gguf.stem}" in view.kind.text()
    shown.clear()
    ask(qtbot, w)
    assert [s for s, _, _ in shown] == ["ready"], "the next question finds the model running"
    w.close()

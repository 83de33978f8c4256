"""The window's language-model answer: streamed off the GUI thread, Stop, follow-ups, failures (pytest-qt, a real
index and model, a scripted OpenAI-compatible server)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QObject, Signal

from tests.conftest import DEMO_VAULT
from tests.llm_server import ScriptedServer
from tests.test_app import open_and_wait
from tests.test_llm import free_port
from vaultrag.app.controller import AppController
from vaultrag.app.widgets.main_window import MainWindow
from vaultrag.core.vocab import AnswerKind, GenerationStatus, RewriteMethod


class RecordingAnswerView(QObject):
    """The AnswerView API (issue 13's widget) as a recorder: what the window would show."""

    stop_requested = Signal()
    new_conversation_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.model = ""
        self.text = ""
        self.errors: list[str] = []
        self.shown: list[object] = []

    def begin_stream(self, model: str) -> None:
        self.model, self.text = model, ""

    def append_stream(self, piece: str) -> None:
        self.text += piece

    def show_stream_error(self, message: str) -> None:
        self.errors.append(message)

    def show_answer(self, trace: object) -> None:
        self.shown.append(trace)


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer(reply="O prazo do reembolso é de 7 dias úteis [1].").start()
    yield s
    s.stop()


@pytest.fixture
def window(qtbot, home: Path, server: ScriptedServer, tmp_path: Path):
    (home / "settings.toml").write_text(f'llm_base_url = "{server.base_url}"\nllm_model = "tiny-model"\n'
                                        "llm_timeout = 5\n", encoding="utf-8")
    w = MainWindow(AppController(home))
    qtbot.addWidget(w)
    w.view = RecordingAnswerView()  # type: ignore[attr-defined]
    w.connect_answer_stream(w.view)  # type: ignore[attr-defined]
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    open_and_wait(qtbot, w, vault)
    yield w
    w.close()


def test_the_answer_streams_in_after_the_trace_and_follow_ups_are_rewritten(qtbot, window: MainWindow,
                                                                            server: ScriptedServer):
    view = window.view  # type: ignore[attr-defined]
    c = window.c
    with qtbot.waitSignal(c.answer_finished, timeout=30_000) as done:
        with qtbot.waitSignal(c.search_finished, timeout=30_000) as searched:
            c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
        assert searched.args[0].answer.kind == AnswerKind.EXTRACTIVE, "the trace shows before the model answers"
    trace = done.args[0]
    assert view.model == "tiny-model" and view.text == server.reply == trace.answer.text
    assert view.shown == [trace] and trace.answer.kind == AnswerKind.GENERATED
    assert server.requests[-1]["messages"][0]["content"] == trace.prompt
    with qtbot.waitSignal(c.search_finished, timeout=30_000) as follow:
        c.ask("e para cancelar?", window_scope(), None, None)
    assert follow.args[0].rewrite.method == RewriteMethod.MODEL, "a configured model rewrites the follow-up"
    assert "Qual o prazo do reembolso?" in server.requests[-1]["messages"][0]["content"]
    qtbot.waitSignal(c.answer_finished, timeout=30_000).wait()
    view.new_conversation_requested.emit()
    assert c.conversation.turns == []


def test_stop_keeps_the_part_written_and_failures_are_shown(qtbot, window: MainWindow, server: ScriptedServer):
    view, c = window.view, window.c  # type: ignore[attr-defined]
    server.mode = "endless"
    with qtbot.waitSignal(c.answer_finished, timeout=30_000) as done:
        c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
        qtbot.waitUntil(lambda: len(view.text.split()) >= 3, timeout=30_000)
        view.stop_requested.emit()
    assert done.args[0].generation.status == GenerationStatus.STOPPED
    c.save_settings(c.settings.replace(llm_base_url=f"http://127.0.0.1:{free_port()}/v1"))
    with qtbot.waitSignal(c.answer_failed, timeout=30_000) as failed:
        c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
    assert "Cannot reach a language model server" in failed.args[0] and view.errors == [failed.args[0]]


def window_scope():
    from vaultrag.core.query.scope import Scope

    return Scope()

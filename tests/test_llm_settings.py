"""Settings › Language model, finished by a person: the choice, the server's models listed and the model tested on
workers against a real local HTTP server, each failure in words in both languages (pytest-qt, offscreen)."""

from __future__ import annotations

import functools
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt

from tests.llm_server import ScriptedServer
from tests.test_app import fake_controller
from tests.test_llm import free_port
from vaultrag.app.controller import AppController
from vaultrag.app.widgets.llm_editor import LlmEditor, Mode
from vaultrag.app.widgets.settings_dialog import SettingsDialog
from vaultrag.core.llm.openai_compat import OpenAICompatible
from vaultrag.settings import Settings

WAIT_MS = 30_000


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer(models=["tiny-model", "other-model"], reply="Hello from the tiny model.").start()
    yield s
    s.stop()


@pytest.fixture
def controller(home: Path) -> Iterator[AppController]:
    c = fake_controller(home)
    yield c
    c.shutdown()


@pytest.fixture
def network_threads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The threads that asked a server for its models or a test answer (spied, still real)."""
    seen: list[str] = []
    for name in ("list_models", "test_connection"):
        real = getattr(OpenAICompatible, name)

        def spy(self: Any, *a: Any, _real: Any = real, **k: Any) -> Any:
            seen.append(threading.current_thread().name)
            return _real(self, *a, **k)

        monkeypatch.setattr(OpenAICompatible, name, functools.wraps(real)(spy))
    return seen


def dialog_for(qtbot, c: AppController, **settings: Any) -> tuple[SettingsDialog, LlmEditor]:
    dialog = SettingsDialog(Settings(llm_timeout=5.0).replace(**settings), None, c, c.paths.models_dir)
    qtbot.addWidget(dialog)
    assert dialog.llm is not None
    return dialog, dialog.llm


def models_of(editor: LlmEditor) -> list[str]:
    return [editor.model.itemText(i) for i in range(editor.model.count())]


def test_the_server_page_lists_the_models_and_the_test_answers_with_model_latency_and_sample(
        qtbot, controller: AppController, server: ScriptedServer, network_threads: list[str]):
    dialog, editor = dialog_for(qtbot, controller, llm_base_url=server.base_url)
    assert editor.chosen() == Mode.SERVER and editor.address.text() == server.base_url
    for name in ("llm_base_url", "llm_model"):  # one editor for the choice and its settings: no rows of their own
        assert name not in dialog.fields
    qtbot.waitUntil(lambda: models_of(editor) == ["other-model", "tiny-model"], timeout=WAIT_MS)
    assert editor.models_state.text() == "2 model(s) on this server."
    assert editor.model.currentText() == "other-model", "none was set: the first one listed is offered"
    editor.model.setCurrentText("")
    dialog._accept()
    assert dialog.result_settings is None and "Choose the server's model" in dialog.problem.text()
    editor.model.setCurrentText("tiny-model")
    qtbot.mouseClick(editor.test, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "answered in" in editor.tested.text(), timeout=WAIT_MS)
    said = editor.tested.text()
    assert said.startswith("✓ tiny-model answered in ") and said.endswith(" ms: «Hello from the tiny model.»")
    assert server.requests[-1]["model"] == "tiny-model" and server.requests[-1]["max_tokens"] == 24
    assert network_threads and threading.main_thread().name not in network_threads, "the dialog never waits"
    server.models.append("new-model")  # pulled meanwhile: Refresh shows it
    qtbot.mouseClick(editor.refresh, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: "new-model" in models_of(editor), timeout=WAIT_MS)
    assert editor.model.currentText() == "tiny-model", "Refresh keeps the model chosen"
    dialog._accept()
    got = dialog.result_settings
    assert got is not None and (got.llm_backend, got.llm_base_url, got.llm_model) == ("openai", server.base_url,
                                                                                       "tiny-model")


def test_no_model_keeps_the_best_passage_and_saves_no_server(qtbot, controller: AppController,
                                                             server: ScriptedServer):
    dialog, editor = dialog_for(qtbot, controller, llm_base_url=server.base_url, llm_model="tiny-model")
    shown = lambda name: dialog.fields[name].isVisibleTo(dialog)  # noqa: E731
    assert shown("llm_api_key_env") and shown("llm_temperature") and not shown("llm_idle_minutes"), \
        "My server: its settings, not the built-in model's"
    editor.mode.setCurrentIndex(editor.mode.findData(Mode.NONE))
    assert not editor.pages.isVisibleTo(dialog) and not editor.test_row.isVisibleTo(dialog)
    assert not shown("llm_api_key_env") and not shown("llm_temperature") and shown("llm_offer_local")
    dialog._accept()
    assert dialog.result_settings is not None and dialog.result_settings.llm_base_url == ""
    fresh, editor = dialog_for(qtbot, controller)
    assert editor.chosen() == Mode.NONE, "no server set: no model"
    editor.mode.setCurrentIndex(editor.mode.findData(Mode.SERVER))
    fresh._accept()
    assert fresh.result_settings is None and "address of your server" in fresh.problem.text()


def test_a_server_without_its_model_name_cannot_be_saved_and_the_test_says_so(qtbot, controller: AppController,
                                                                            server: ScriptedServer):
    server.models = []
    _, editor = dialog_for(qtbot, controller, llm_base_url=server.base_url)
    qtbot.waitUntil(lambda: "no model" in editor.models_state.text(), timeout=WAIT_MS)
    assert editor.models_state.text() == "The server has no model: load or pull one there, then Refresh."
    qtbot.mouseClick(editor.test, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: editor.tested.text().startswith("✗"), timeout=WAIT_MS)
    assert "but no model: choose the model in Settings" in editor.tested.text()


def failures(server: ScriptedServer) -> list[tuple[str, dict[str, Any], Any]]:
    """(name, settings, what the server does): refused, wrong URL, wrong model, timeout, bad key."""
    root = server.base_url.removesuffix("/v1")
    return [("refused", {"llm_base_url": f"http://127.0.0.1:{free_port()}/v1", "llm_model": "tiny-model"}, None),
            ("wrong url", {"llm_base_url": root + "/api", "llm_model": "tiny-model"}, None),
            ("wrong model", {"llm_base_url": server.base_url, "llm_model": "no-such-model"}, None),
            ("timeout", {"llm_base_url": server.base_url, "llm_model": "tiny-model", "llm_timeout": 1.0}, "silent"),
            ("bad key", {"llm_base_url": server.base_url, "llm_model": "tiny-model"}, 401)]


ENGLISH = {"refused": "Cannot reach a language model server at {url}",
           "wrong url": "answers, but has no OpenAI-compatible API there",
           "wrong model": "does not know the model 'no-such-model'",
           "timeout": "sent nothing for 1 s",
           "bad key": "refused the API key (HTTP 401)"}
PORTUGUESE = {"refused": "Não foi possível contatar um servidor de modelo de linguagem em {url}",
              "wrong url": "responde, mas não tem ali uma API compatível com a OpenAI",
              "wrong model": "não conhece o modelo 'no-such-model'",
              "timeout": "não enviou nada por 1 s",
              "bad key": "recusou a chave de API (HTTP 401)"}


@pytest.fixture(params=["en", "pt"])
def language(request: pytest.FixtureRequest) -> Iterator[str]:
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.main import _install_translator

    if request.param == "en":
        yield "en"
        return
    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    assert translator is not None
    yield "pt"
    app.removeTranslator(translator)


def test_test_connection_says_each_failure_in_words_in_the_window_language(qtbot, controller: AppController,
                                                                          server: ScriptedServer, language: str):
    from tests.test_app_window import english_left

    expected = ENGLISH if language == "en" else PORTUGUESE
    for name, settings, behaviour in failures(server):
        server.mode, server.status = ("silent", 500) if behaviour == "silent" else \
            ("status", behaviour) if behaviour else ("ok", 500)
        _, editor = dialog_for(qtbot, controller, **settings)
        qtbot.mouseClick(editor.test, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda e=editor: e.tested.text().startswith(("✓", "✗")), timeout=WAIT_MS)
        said = editor.tested.text()
        # the test's result, or the model list's above it when it is the same problem: said once, not twice
        both = said + "\n" + editor.models_state.text()
        want = expected[name].format(url=settings["llm_base_url"])
        assert said.startswith("✗ ") and both.count(want) == 1, (name, both)
        assert "llm_base_url" not in both, "the field by its label (Address), not its settings.toml key"
        if language == "pt":
            names = [settings["llm_base_url"], "llm_timeout", "llm_api_key_env", "vaultrag", "/v1",
                     "no-such-model", "model.gguf"]  # addresses, setting names and commands stay as they are
            assert english_left([(name, said)], names) == [], said
    server.mode = "ok"


def test_a_missing_client_package_is_said_on_the_server_page(qtbot, controller: AppController,
                                                            server: ScriptedServer, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "openai", None)  # the client library cannot be imported
    dialog, editor = dialog_for(qtbot, controller, llm_base_url=server.base_url, llm_model="tiny-model")
    assert editor.client_state.isVisibleTo(dialog)
    assert editor.client_state.text().startswith("Answers from a language model need the openai client library")
    qtbot.waitUntil(lambda: editor.models_state.text().startswith("Answers from"), timeout=WAIT_MS)


@pytest.mark.parametrize("kind", ["lmstudio", "ollama"])
def test_a_native_server_lists_no_embedding_model_and_the_test_says_the_models_context(
        qtbot, controller: AppController, kind: str):
    from tests.native_servers import FakeServer

    fake = FakeServer(kind).start()
    try:
        chat = "qwen2.5-7b-instruct" if kind == "lmstudio" else "llama3.2:latest"
        dialog, editor = dialog_for(qtbot, controller, llm_base_url=fake.base_url)
        qtbot.waitUntil(lambda: models_of(editor) == [chat], timeout=WAIT_MS)  # the embedding model is hidden
        editor.model.setCurrentText(chat)
        qtbot.mouseClick(editor.test, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "answered in" in editor.tested.text(), timeout=WAIT_MS)
        said = editor.tested.text()
        if kind == "lmstudio":  # loaded with 4,096 tokens: enough for 1,500 (notes) + 300 (frame) + 512 (answer)
            assert said.startswith("✓ ") and "Its context: 4,096 tokens (LM Studio)." in said
        else:
            assert said.startswith("✓ ") and "Its context: 131,072 tokens (Ollama)." in said
        fake.lmstudio_models[0]["loaded_context_length"] = 2048  # now smaller than a question needs
        fake.ollama_models[0].context_length = 2048
        editor.model.setCurrentText(chat)
        # a fresh backend is built per test: it asks the server again
        qtbot.mouseClick(editor.test, Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda: "2,048 tokens" in editor.tested.text(), timeout=WAIT_MS)
        said = editor.tested.text()
        assert said.startswith("✗ ") and "less than a question needs (about 2,312" in said
        dialog.close()
    finally:
        fake.stop()

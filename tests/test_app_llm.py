"""The window's language-model answer: streamed off the GUI thread, Stop, follow-ups, failures (pytest-qt, a real
index, the counting fake embedder, a scripted OpenAI-compatible server)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QObject, Qt, Signal

from tests.conftest import DEMO_VAULT, write
from tests.llm_server import ScriptedServer
from tests.test_app import fake_controller, open_and_wait
from tests.test_generate import INJECTION
from tests.test_llm import free_port
from vaultrag import settings as settings_mod
from vaultrag.app.widgets.flags import WARNING_SIGN
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
def extra_notes() -> dict[str, str]:
    return {}  # notes written beside the demo vault's (a test parametrizes this name to add some)


@pytest.fixture
def window(qtbot, home: Path, server: ScriptedServer, tmp_path: Path, extra_notes: dict[str, str]):
    (home / "settings.toml").write_text(f'llm_base_url = "{server.base_url}"\nllm_model = "tiny-model"\n'
                                        "llm_timeout = 5\n", encoding="utf-8")
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.view = RecordingAnswerView()  # type: ignore[attr-defined]
    w.connect_answer_stream(w.view)  # type: ignore[attr-defined]
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    for rel, text in extra_notes.items():
        write(vault, rel, text)
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


def test_the_query_lane_stays_free_while_the_model_writes_and_a_new_question_stops_it(qtbot, window: MainWindow,
                                                                                     server: ScriptedServer):
    """The answer runs the pipeline's generate unit after the read snapshot, off the query lane: other reads go on
    meanwhile; a new question stops the answer being written (its server sees the client hang up)."""
    view, c = window.view, window.c  # type: ignore[attr-defined]
    server.mode = "endless"  # an answer that ends only when it is stopped
    c.save_settings(c.settings.replace(llm_max_tokens=100_000))
    finished: list[object] = []
    c.answer_finished.connect(finished.append)
    c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
    qtbot.waitUntil(lambda: len(view.text.split()) >= 3, timeout=30_000)
    with qtbot.waitSignal(c.health_ready, timeout=30_000):
        c.refresh_health()
    assert finished == [] and server.streaming == 1, "the lane answered while the model was still writing"
    with qtbot.waitSignal(c.search_finished, timeout=30_000):
        c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
    qtbot.waitUntil(lambda: len(server.requests) == 2 and server.streaming == 1, timeout=30_000)
    with qtbot.waitSignal(c.answer_finished, timeout=30_000) as done:
        view.stop_requested.emit()
    qtbot.waitUntil(lambda: server.streaming == 0, timeout=30_000)
    assert finished == [done.args[0]], "the first answer, stopped by the new question, is never shown"
    assert done.args[0].generation.status == GenerationStatus.STOPPED


@pytest.fixture
def portuguese() -> Iterator[None]:
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.main import _install_translator

    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    assert translator is not None
    yield
    app.removeTranslator(translator)


def test_a_language_model_failure_speaks_the_window_language(qtbot, portuguese: None, window: MainWindow,
                                                             server: ScriptedServer):
    """The failure's words come from its code and details (core/wording.py), translated: a refused key (HTTP 401)
    and a refused connection read in Portuguese, with the server's address in them."""
    from tests.test_app_window import english_left

    view, c = window.view, window.c  # type: ignore[attr-defined]
    server.mode, server.status = "status", 401
    with qtbot.waitSignal(c.answer_failed, timeout=30_000) as failed:
        c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
    said = failed.args[0]
    assert "recusou a chave de API (HTTP 401)" in said and server.base_url in said
    assert english_left([("401", said)], [server.base_url, "llm_api_key_env", "vaultrag"]) == []
    down = f"http://127.0.0.1:{free_port()}/v1"
    c.save_settings(c.settings.replace(llm_base_url=down))
    with qtbot.waitSignal(c.answer_failed, timeout=30_000) as failed:
        c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
    said = failed.args[0]
    assert "Não foi possível contatar um servidor de modelo de linguagem em " + down in said
    assert view.errors[-1] == said


def test_a_missing_generation_backend_reaches_the_window_worded_by_its_code(qtbot, portuguese: None,
                                                                           window: MainWindow,
                                                                           request: pytest.FixtureRequest):
    """A backend whose package does not import: the window says so in its language (the error's Problem code
    and details), not in the core's English, above the answer — where the next search does not wipe it."""
    from vaultrag.engines import GENERATORS, GeneratorEngine

    GENERATORS.register(GeneratorEngine("absent", "Absent", "vaultrag_absent_backend",
                                        packages=("vaultrag_absent_backend",), install="pip install absent"))
    request.addfinalizer(lambda: GENERATORS.unregister("absent"))
    c = window.c
    c.save_settings(c.settings.replace(llm_backend="absent"))
    with qtbot.waitSignal(c.llm_unavailable, timeout=30_000) as unavailable, \
            qtbot.waitSignal(c.search_finished, timeout=30_000):
        c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
    said = unavailable.args[0]
    assert said.startswith("absent precisa de vaultrag_absent_backend, que não pode ser importado (")
    assert said.endswith("): pip install absent — ou escolha outro nas Configurações.")
    assert window.answer_view.notice.text() == said and not window.answer_view.notice.isHidden()


def test_an_answer_in_another_language_is_flagged_in_the_decision_pane(qtbot, window: MainWindow,
                                                                      server: ScriptedServer):
    """The language check runs after the model's answer, so the decision pane, set when the search finished,
    gets the answer's trace again: its warning shows there (the CLI prints it after the streamed answer)."""
    from vaultrag.app.words import warning_text
    from vaultrag.core.vocab import WarningCode

    decision = window.inspector.panes["decision"]
    server.reply = "The refund shows up on the bill within seven business days after the cancellation [1]."
    with qtbot.waitSignal(window.c.answer_finished, timeout=30_000) as done:
        window.question.setText("Qual o prazo do reembolso?")
        window.ask()
    [said] = [w for w in done.args[0].warnings if w.code == WarningCode.LLM_LANGUAGE]
    assert (said.answer_language, said.question_language) == ("en", "pt")
    shown = decision.toPlainText()
    assert warning_text(said) in shown and "the answer is in English but the question is in Portuguese" in shown
    assert "ANSWERED" in shown, "the decision itself is still shown"
    server.reply = "O prazo do reembolso é de até 7 dias úteis após a confirmação do cancelamento [1]."
    with qtbot.waitSignal(window.c.answer_finished, timeout=30_000):
        window.ask()
    assert "the answer is in" not in decision.toPlainText(), "an answer in the question's language: no flag"


def window_scope():
    from vaultrag.core.scope import Scope

    return Scope()


@pytest.mark.parametrize("extra_notes", [{"shopping.md": INJECTION}])  # the seeds' injection case
def test_the_rewrite_and_a_cited_hostile_note_show_in_the_inspector_and_the_answer(qtbot, window: MainWindow,
                                                                                  server: ScriptedServer,
                                                                                  extra_notes: dict[str, str]):
    c = window.c
    with qtbot.waitSignal(c.answer_finished, timeout=30_000):
        c.ask("Qual o prazo do reembolso?", window_scope(), None, None)
    stages = window.inspector.panes["candidates"]
    # the first question is searched as asked: the bar says only its translation (the demo vault has English
    # notes too), no rewrite
    assert "Follow-up" not in stages.rewrite.text() and "Also searched in English" in stages.rewrite.text()

    def cite_the_hostile_note(trace) -> None:  # runs before the answer is asked for (same emit)
        doc = next(d for d in trace.context if d.note == "shopping.md")
        server.reply = f"The refund deadline is one year [{doc.index}]."

    server.reply = "What is the refund deadline, and is milk bought on Friday?"  # the model's rewrite
    c.search_finished.connect(cite_the_hostile_note)
    with qtbot.waitSignal(c.answer_finished, timeout=30_000) as done:
        window.question.setText("and what about milk on Friday?")
        window.ask()
    c.search_finished.disconnect(cite_the_hostile_note)
    trace = done.args[0]
    assert trace.rewrite.method == RewriteMethod.MODEL and trace.flagged == {
        "shopping.md": ["ignore-instructions", "fake-tag", "role-marker"]}
    bar = stages.rewrite
    assert bar.isVisibleTo(window) and "by the language model" in bar.text()
    assert "and what about milk on Friday?" in bar.text()
    assert "What is the refund deadline, and is milk bought on Friday?" in bar.text()
    # the flagged note's rows in the stage tables, its prompt document, and the answer that cites it
    table = stages.tables[trace.final_stage]
    rows = [table.item(r, 2) for r in range(table.rowCount())]
    marked = [i.text() for i in rows if i.text().startswith(WARNING_SIGN)]
    assert marked and all("shopping" in m for m in marked)
    assert all("shopping" not in i.text() for i in rows if not i.text().startswith(WARNING_SIGN))
    prompt = window.inspector.panes["prompt"]
    doc = next(d for d in trace.context if d.note == "shopping.md")
    item = prompt.tree.topLevelItem(doc.index - 1)
    assert item.text(0).startswith(f"{WARNING_SIGN} [{doc.index}]") and "orders" in item.child(0).text(0)
    answer = window.answer_view.browser.toPlainText()
    assert "The refund deadline is one year" in answer
    assert f"{WARNING_SIGN} [{doc.index}] shopping.md tries to give the language model orders" in answer
    # the health panel lists the flagged note
    with qtbot.waitSignal(c.health_ready, timeout=30_000):
        window._tab(1, refresh=True)
    flagged = window.health.lists["flagged"]
    assert [flagged.item(i).text().split(" — ")[0] for i in range(flagged.count())] == ["shopping.md"]


def offer_window(qtbot, home: Path, *ports: int) -> MainWindow:
    (home / "settings.toml").write_text(f"llm_detect_ports = {list(ports)}\n", encoding="utf-8")
    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    return w


def test_a_local_server_found_at_start_is_offered_and_taken(qtbot, home: Path, server: ScriptedServer):
    assert server.httpd is not None
    server.models = ["tiny-model", "other-model"]
    w = offer_window(qtbot, home, free_port(), server.httpd.server_address[1])  # the first port: nobody there
    with qtbot.waitSignal(w.c.local_llm_found, timeout=10_000):
        w.offer_local_llm()
    bar = w.llm_offer
    assert bar.isVisible() and not bar.isWindow(), "an info bar in the window, not a dialog"
    assert server.base_url in bar.text.text() and "other-model, tiny-model" in bar.text.text()
    assert bar.choice.isVisible() and bar.choice.count() == 2
    bar.choice.setCurrentIndex(1)
    qtbot.mouseClick(bar.use, Qt.MouseButton.LeftButton)
    assert not bar.isVisible()
    saved = settings_mod.load(home / "settings.toml")
    assert (saved.llm_base_url, saved.llm_model) == (server.base_url, "tiny-model")
    assert w.c.settings == saved
    assert not w.c.look_for_local_llm(), "a server is set: nothing is offered any more"
    w.close()


def test_not_now_asks_again_next_time_and_never_does_not(qtbot, home: Path, server: ScriptedServer):
    assert server.httpd is not None
    port = server.httpd.server_address[1]
    w = offer_window(qtbot, home, port)
    with qtbot.waitSignal(w.c.local_llm_found, timeout=10_000):
        w.offer_local_llm()
    assert not w.llm_offer.choice.isVisible(), "one model: nothing to pick"
    qtbot.mouseClick(w.llm_offer.later, Qt.MouseButton.LeftButton)
    assert not w.llm_offer.isVisible() and settings_mod.load(home / "settings.toml").llm_offer_local
    w.close()
    w = MainWindow(fake_controller(home))  # the next start: offered again
    qtbot.addWidget(w)
    w.show()
    with qtbot.waitSignal(w.c.local_llm_found, timeout=10_000):
        w.offer_local_llm()
    qtbot.mouseClick(w.llm_offer.never, Qt.MouseButton.LeftButton)
    saved = settings_mod.load(home / "settings.toml")
    assert not saved.llm_offer_local and saved.llm_base_url == "" and saved.llm_detect_ports == [port]
    w.close()
    again = fake_controller(home)  # and never again
    assert not again.look_for_local_llm()
    again.shutdown()

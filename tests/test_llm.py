"""The language model client against a real HTTP server that streams like an OpenAI-compatible one."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator

import pytest

from tests.llm_server import ScriptedServer
from vaultrag.core.llm import registry
from vaultrag.core.llm.generator import Generated, LLMError, Message
from vaultrag.core.llm.openai_compat import NO_KEY, LLMConfig, OpenAICompatible
from vaultrag.core.vocab import GenerationStatus, LLMFailure
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

PROMPT = 'Rules…\n<documents>\n<document index="1">\n…</document>\n</documents>\n\nQuestion: ção?\n'


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer().start()
    yield s
    s.stop()


def model(server: ScriptedServer, **kw: object) -> OpenAICompatible:
    base = {"base_url": server.base_url, "model": "tiny-model", "timeout": 5.0, "max_tokens": 64}
    return OpenAICompatible(LLMConfig(**{**base, **kw}))  # type: ignore[arg-type]


def ask(generator: OpenAICompatible, cancel: threading.Event | None = None,
        on_piece: Callable[[str], None] | None = None) -> tuple[list[str], Generated]:
    pieces: list[str] = []

    def got(piece: str) -> None:
        pieces.append(piece)
        if on_piece is not None:
            on_piece(piece)

    return pieces, generator.generate([Message("user", PROMPT)], got, cancel)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_streams_the_prompt_byte_for_byte_and_reports_its_figures(server: ScriptedServer):
    pieces, got = ask(model(server, temperature=0.3))
    assert len(pieces) == 8 and "".join(pieces) == got.text == server.reply
    sent = server.requests[-1]
    assert sent["messages"] == [{"role": "user", "content": PROMPT}] and sent["stream"] is True
    assert sent["max_tokens"] == 64 and sent["temperature"] == 0.3
    r = got.record
    assert r.status == GenerationStatus.COMPLETE and r.failure is None
    assert r.prompt_tokens == 321 and r.completion_tokens == 8 and r.tokens_counted_by == "server"
    assert r.ttft_ms is not None and 0 < r.ttft_ms <= r.total_ms and r.tokens_per_s and r.tokens_per_s > 0


def test_without_usage_the_streamed_pieces_are_counted(server: ScriptedServer):
    server.usage = False
    _, got = ask(model(server))
    assert got.record.completion_tokens == 8
    assert got.record.tokens_counted_by == "stream" and got.record.prompt_tokens is None


def failure(generator: OpenAICompatible) -> Generated:
    _, got = ask(generator)
    r = got.record
    assert r.status == GenerationStatus.FAILED and r.failure is not None and r.error
    return got


def test_server_down_wrong_url_wrong_model_each_say_what_to_do(server: ScriptedServer):
    down = failure(OpenAICompatible(LLMConfig(f"http://127.0.0.1:{free_port()}/v1", "tiny-model", timeout=2.0)))
    assert down.record.failure == LLMFailure.SERVER_DOWN and "is it running?" in down.record.error
    wrong_url = failure(model(server, base_url=server.base_url.removesuffix("/v1")))
    assert wrong_url.record.failure == LLMFailure.BAD_URL and "ends in /v1" in wrong_url.record.error
    wrong_model = failure(model(server, model="llama-9000"))
    assert wrong_model.record.failure == LLMFailure.BAD_MODEL and "'llama-9000'" in wrong_model.record.error
    assert "vaultrag llm models" in wrong_model.record.error
    server.mode = "error500"
    broken = failure(model(server))
    assert broken.record.failure == LLMFailure.SERVER_ERROR and "500" in broken.record.error
    assert "out of memory" in broken.record.error, "the server's own words are shown (never read)"


@pytest.mark.parametrize(("status", "kind"), [(401, LLMFailure.AUTH), (403, LLMFailure.AUTH),
                                              (404, LLMFailure.BAD_MODEL), (400, LLMFailure.BAD_MODEL),
                                              (422, LLMFailure.BAD_MODEL), (500, LLMFailure.SERVER_ERROR),
                                              (503, LLMFailure.SERVER_ERROR)])
def test_failures_are_classified_by_status_code_not_by_the_servers_words(server: ScriptedServer, status: int,
                                                                         kind: LLMFailure):
    server.mode, server.status = "status", status
    server.error_text = "model not found: the model does not exist"  # words that once decided the failure
    server.models = ["other-model"] if kind == LLMFailure.BAD_MODEL else ["tiny-model"]
    got = failure(model(server))
    assert got.record.failure == kind
    if kind == LLMFailure.AUTH:
        assert f"HTTP {status}" in got.record.error and "llm_api_key_env" in got.record.error


def test_a_refused_request_for_a_listed_model_is_a_server_error_whatever_it_says(server: ScriptedServer):
    server.mode, server.status = "status", 400
    server.error_text = "unknown model 'tiny-model'"  # the model IS listed: the words don't decide
    got = failure(model(server))
    assert got.record.failure == LLMFailure.SERVER_ERROR and "HTTP 400" in got.record.error


def test_a_silent_server_times_out(server: ScriptedServer):
    server.mode = "silent"
    got = failure(model(server, timeout=0.5))
    assert got.record.failure == LLMFailure.TIMEOUT and "0.5 s" in got.record.error


def test_a_stream_cut_in_the_middle_keeps_the_part_received(server: ScriptedServer):
    server.mode = "cut"
    got = failure(model(server))
    assert got.record.failure == LLMFailure.STREAM_CUT and "broke off in the middle" in got.record.error
    assert got.text and server.reply.startswith(got.text) and got.text != server.reply
    server.mode = "no-finish"
    got = failure(model(server))
    assert got.record.failure == LLMFailure.STREAM_CUT and "may be incomplete" in got.record.error
    assert got.text == server.reply


def test_an_endless_answer_is_cut_at_the_cap(server: ScriptedServer):
    server.mode = "endless"  # a server that ignores max_tokens (a 10,000-token answer and more)
    pieces, got = ask(model(server, max_tokens=20))
    assert len(pieces) == 20 and got.record.status == GenerationStatus.CAPPED
    assert "cut at 20 tokens" in got.record.error


def test_stop_keeps_the_answer_so_far(server: ScriptedServer):
    server.mode = "endless"
    cancel = threading.Event()
    seen: list[str] = []

    def stop_at_five(piece: str) -> None:
        seen.append(piece)
        if len(seen) == 5:
            cancel.set()

    pieces, got = ask(model(server, max_tokens=10_000), cancel, stop_at_five)
    assert len(pieces) == 5 and got.record.status == GenerationStatus.STOPPED and got.text == "".join(pieces)


def test_models_are_listed_a_local_server_is_detected_and_the_connection_tested(server: ScriptedServer):
    server.models = ["b-model", "a-model"]
    assert model(server).list_models() == ["a-model", "b-model"]
    assert server.httpd is not None
    port = server.httpd.server_address[1]
    found = registry.detect_local_servers(Settings(llm_detect_ports=[free_port(), port]))
    assert [(f.name, f.base_url, f.models) for f in found] == [("OpenAI-compatible server", server.base_url,
                                                                 ["a-model", "b-model"])]
    server.models, server.reply = ["tiny-model"], "Hello there!\nA second line."
    test = model(server).test_connection()
    assert test.ok and test.sample == "Hello there!" and test.latency_ms is not None and test.latency_ms > 0
    assert (test.model, test.address) == ("tiny-model", server.base_url)
    assert server.requests[-1]["max_tokens"] < 64 and server.requests[-1]["temperature"] == 0.0
    # a server that answers under any name (llama.cpp's) but does not list this one: the name is wrong
    asked = len(server.requests)
    wrong = OpenAICompatible(LLMConfig(server.base_url, "qwen2.5:7b", timeout=5.0)).test_connection()
    assert not wrong.ok and wrong.failure == LLMFailure.BAD_MODEL and len(server.requests) == asked, "no answer asked"
    down = OpenAICompatible(LLMConfig(f"http://127.0.0.1:{free_port()}/v1", "tiny-model", timeout=2.0))
    test = down.test_connection()
    assert not test.ok and test.failure == LLMFailure.SERVER_DOWN and "is it running?" in test.error
    # no model chosen and nothing at the address: the address is the problem, not the missing name
    with pytest.raises(LLMError) as no_model:
        registry.from_settings(Settings(llm_base_url=down.address, llm_timeout=2.0))
    assert no_model.value.kind == LLMFailure.SERVER_DOWN
    with pytest.raises(LLMError) as e:
        down.list_models()
    assert e.value.kind == LLMFailure.SERVER_DOWN


def test_the_factory_reads_the_settings_and_the_key_from_the_environment(monkeypatch: pytest.MonkeyPatch,
                                                                        server: ScriptedServer):
    assert registry.from_settings(Settings()) is None, "no server set: the extractive answer stays"
    with pytest.raises(UserFacingError, match="no model"):  # the server answers: the missing name is the problem
        registry.from_settings(Settings(llm_base_url=server.base_url))
    lister = registry.from_settings(Settings(llm_base_url="http://localhost:11434/v1"), need_model=False)
    assert lister is not None and lister.address == "http://localhost:11434/v1"
    typed = registry.from_settings(Settings(llm_base_url="localhost:11434/v1"), need_model=False)
    assert typed is not None and typed.address == "http://localhost:11434/v1", "the scheme people leave out"
    with pytest.raises(UserFacingError, match=r"Unknown llm_backend 'nope': .*'openai'"):  # the settings' check
        registry.from_settings(Settings(llm_backend="nope", llm_base_url="http://x/v1", llm_model="m"))
    monkeypatch.setenv("MY_KEY", "sk-123")
    s = Settings(llm_base_url="http://localhost:11434/v1/", llm_model="m", llm_api_key_env="MY_KEY")
    g = registry.from_settings(s)
    assert isinstance(g, OpenAICompatible) and g.config.api_key == "sk-123"
    assert g.address == "http://localhost:11434/v1"
    monkeypatch.delenv("MY_KEY")
    g = registry.from_settings(s)
    assert isinstance(g, OpenAICompatible) and g.config.api_key == NO_KEY
    assert "sk-123" not in repr(Settings().to_dict()), "the key itself is never a setting"

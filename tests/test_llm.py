"""The language model client against a real HTTP server that streams like an OpenAI-compatible one."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator

import pytest

from tests.llm_server import ScriptedServer
from vaultrag.core import llm
from vaultrag.core.llm import LLMConfig, LLMError, Stream
from vaultrag.core.vocab import GenerationStatus, LLMFailure
from vaultrag.settings import Settings

PROMPT = 'Rules…\n<documents>\n<document index="1">\n…</document>\n</documents>\n\nQuestion: ção?\n'


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer().start()
    yield s
    s.stop()


def cfg(server: ScriptedServer, **kw: object) -> LLMConfig:
    base = {"base_url": server.base_url, "model": "tiny-model", "timeout": 5.0, "max_tokens": 64}
    return LLMConfig(**{**base, **kw})  # type: ignore[arg-type]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_streams_the_prompt_byte_for_byte_and_reports_its_figures(server: ScriptedServer):
    stream = Stream(cfg(server, temperature=0.3), PROMPT)
    pieces = list(stream)
    assert len(pieces) == 8 and "".join(pieces) == stream.text == server.reply
    sent = server.requests[-1]
    assert sent["messages"] == [{"role": "user", "content": PROMPT}] and sent["stream"] is True
    assert sent["max_tokens"] == 64 and sent["temperature"] == 0.3
    r = stream.result
    assert r is not None and r.status == GenerationStatus.COMPLETE and r.failure is None
    assert r.prompt_tokens == 321 and r.completion_tokens == 8 and r.tokens_counted_by == "server"
    assert r.ttft_ms is not None and 0 < r.ttft_ms <= r.total_ms and r.tokens_per_s and r.tokens_per_s > 0


def test_without_usage_the_streamed_pieces_are_counted(server: ScriptedServer):
    server.usage = False
    stream = Stream(cfg(server), PROMPT)
    list(stream)
    assert stream.result is not None and stream.result.completion_tokens == 8
    assert stream.result.tokens_counted_by == "stream" and stream.result.prompt_tokens is None


def failure(config: LLMConfig) -> LLMError:
    stream = Stream(config, PROMPT)
    with pytest.raises(LLMError) as e:
        list(stream)
    assert stream.result is not None and stream.result.status == GenerationStatus.FAILED
    assert stream.result.failure == e.value.kind and stream.result.error == str(e.value)
    return e.value


def test_server_down_wrong_url_wrong_model_each_say_what_to_do(server: ScriptedServer):
    down = failure(LLMConfig(f"http://127.0.0.1:{free_port()}/v1", "tiny-model", timeout=2.0))
    assert down.kind == LLMFailure.SERVER_DOWN and "is it running?" in str(down)
    wrong_url = failure(cfg(server, base_url=server.base_url.removesuffix("/v1")))
    assert wrong_url.kind == LLMFailure.BAD_URL and "ends in /v1" in str(wrong_url)
    wrong_model = failure(cfg(server, model="llama-9000"))
    assert wrong_model.kind == LLMFailure.BAD_MODEL and "'llama-9000'" in str(wrong_model)
    assert "vaultrag llm models" in str(wrong_model)
    server.mode = "error500"
    broken = failure(cfg(server))
    assert broken.kind == LLMFailure.SERVER_ERROR and "500" in str(broken) and "out of memory" in str(broken)


def test_a_silent_server_times_out(server: ScriptedServer):
    server.mode = "silent"
    e = failure(cfg(server, timeout=0.5))
    assert e.kind == LLMFailure.TIMEOUT and "0.5 s" in str(e)


def test_a_stream_cut_in_the_middle_keeps_the_part_received(server: ScriptedServer):
    server.mode = "cut"
    e = failure(cfg(server))
    assert e.kind == LLMFailure.STREAM_CUT and "broke in the middle" in str(e)
    assert e.partial and server.reply.startswith(e.partial)
    server.mode = "no-finish"
    e = failure(cfg(server))
    assert e.kind == LLMFailure.STREAM_CUT and "may be incomplete" in str(e) and e.partial == server.reply


def test_an_endless_answer_is_cut_at_the_cap(server: ScriptedServer):
    server.mode = "endless"  # a server that ignores max_tokens (a 10,000-token answer and more)
    stream = Stream(cfg(server, max_tokens=20), PROMPT)
    assert len(list(stream)) == 20
    assert stream.result is not None and stream.result.status == GenerationStatus.CAPPED
    assert "cut at 20 tokens" in stream.result.error


def test_stop_keeps_the_answer_so_far(server: ScriptedServer):
    server.mode = "endless"
    cancel = threading.Event()
    stream = Stream(cfg(server, max_tokens=10_000), PROMPT, cancel)
    got = []
    for piece in stream:
        got.append(piece)
        if len(got) == 5:
            cancel.set()
    assert len(got) == 5 and stream.result is not None and stream.result.status == GenerationStatus.STOPPED


def test_models_are_listed_and_a_local_server_is_detected(server: ScriptedServer):
    server.models = ["b-model", "a-model"]
    assert llm.list_models(cfg(server)) == ["a-model", "b-model"]
    assert server.httpd is not None
    port = server.httpd.server_address[1]
    found = llm.detect_local_servers(ports=(("Nothing", free_port()), ("Ollama", port)))
    assert [(f.name, f.base_url, f.models) for f in found] == [("Ollama", server.base_url, ["a-model", "b-model"])]


def test_config_from_settings_reads_the_key_from_the_environment(monkeypatch: pytest.MonkeyPatch):
    assert LLMConfig.from_settings(Settings()) is None, "no server set: the extractive answer stays"
    with pytest.raises(llm.UserFacingError, match="no model"):
        LLMConfig.from_settings(Settings(llm_base_url="http://localhost:11434/v1"))
    monkeypatch.setenv("MY_KEY", "sk-123")
    s = Settings(llm_base_url="http://localhost:11434/v1/", llm_model="m", llm_api_key_env="MY_KEY")
    c = LLMConfig.from_settings(s)
    assert c is not None and c.api_key == "sk-123" and c.base_url == "http://localhost:11434/v1"
    monkeypatch.delenv("MY_KEY")
    c = LLMConfig.from_settings(s)
    assert c is not None and c.api_key == llm.NO_KEY
    assert "sk-123" not in repr(Settings().to_dict()), "the key itself is never a setting"

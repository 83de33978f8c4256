"""A language model behind an OpenAI-compatible server: streamed answers, model listing, local server detection."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from vaultrag.core.model import Generation
from vaultrag.core.vocab import GenerationStatus, LLMFailure
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

# Where local servers listen by default: Ollama, llama.cpp's llama-server, LM Studio
LOCAL_SERVERS = (("Ollama", 11434), ("llama.cpp server", 8080), ("LM Studio", 1234))
KEYRING_SERVICE = "vaultrag"
NO_KEY = "not-needed"  # local servers take any key; the client library insists on one


class LLMError(UserFacingError):
    """A language model failure with its code (`kind`) and, for a broken stream, the text received so far."""

    def __init__(self, kind: LLMFailure, message: str, partial: str = "") -> None:
        super().__init__(message)
        self.kind = kind
        self.partial = partial


@dataclass(frozen=True)
class LLMConfig:
    """Where and how to ask the model (from the settings; the API key from the environment or the keyring)."""

    base_url: str
    model: str
    api_key: str = NO_KEY
    temperature: float = 0.2
    max_tokens: int = 512
    timeout: float = 60.0

    @classmethod
    def from_settings(cls, s: Settings) -> LLMConfig | None:
        """The configured model, or None when no server is set (the extractive answer stays)."""
        if not s.llm_base_url.strip():
            return None
        if not s.llm_model.strip():
            raise UserFacingError(f"A language model server is set ({s.llm_base_url}) but no model: set llm_model "
                                  f"(`vaultrag llm models` lists the server's models).")
        return cls(s.llm_base_url.strip().rstrip("/"), s.llm_model.strip(), api_key(s), s.llm_temperature,
                   s.llm_max_tokens, s.llm_timeout)


def api_key(s: Settings) -> str:
    """The API key: the environment variable named in the settings, else the OS keyring, else none needed."""
    key = os.environ.get(s.llm_api_key_env, "") if s.llm_api_key_env else ""
    if key:
        return key
    try:
        import keyring  # optional: only when installed

        key = keyring.get_password(KEYRING_SERVICE, s.llm_base_url.strip().rstrip("/")) or ""
    except Exception:  # no keyring library or no backend on this desktop: local servers need no key
        key = ""
    return key or NO_KEY


def _client(cfg: LLMConfig, timeout: float | None = None) -> Any:
    try:
        import openai
    except ImportError as e:
        raise LLMError(LLMFailure.NOT_INSTALLED, "Answers from a language model need the openai client library: "
                       "pip install 'vaultrag[llm]' (or pip install openai).") from e
    t = timeout if timeout is not None else cfg.timeout
    # no retries: a person is waiting, and a retry would hide a server that is down
    return openai.OpenAI(base_url=cfg.base_url, api_key=cfg.api_key, max_retries=0,
                         timeout=openai.Timeout(t, connect=min(t, 5.0)))


def _explain(e: Exception, cfg: LLMConfig) -> LLMError:
    """The library's exception as a message a person can act on."""
    import openai

    where = cfg.base_url
    if isinstance(e, openai.APITimeoutError):
        return LLMError(LLMFailure.TIMEOUT, f"The language model server at {where} did not answer within "
                        f"{cfg.timeout:g} s. It may still be loading the model: try again, or raise llm_timeout.")
    if isinstance(e, openai.APIConnectionError):
        return LLMError(LLMFailure.SERVER_DOWN, f"Cannot reach a language model server at {where}: is it running? "
                        "(Ollama: `ollama serve`; llama.cpp: `llama-server -m model.gguf`; LM Studio: start its "
                        "server.) Check llm_base_url.")
    if isinstance(e, openai.AuthenticationError | openai.PermissionDeniedError):
        return LLMError(LLMFailure.AUTH, f"The server at {where} refused the API key. Put the key in the "
                        "environment variable named by llm_api_key_env, or in the OS keyring under 'vaultrag'.")
    if isinstance(e, openai.NotFoundError | openai.BadRequestError | openai.UnprocessableEntityError):
        body = str(getattr(e, "message", e))
        if "model" in body.lower():
            return LLMError(LLMFailure.BAD_MODEL, f"The server at {where} does not know the model "
                            f"{cfg.model!r} ({body}). `vaultrag llm models` lists the ones it has.")
        if isinstance(e, openai.NotFoundError):
            return LLMError(LLMFailure.BAD_URL, f"{where} answers, but has no OpenAI-compatible chat API there "
                            "(404). The address usually ends in /v1, e.g. http://localhost:11434/v1.")
        return LLMError(LLMFailure.SERVER_ERROR, f"The server at {where} rejected the request: {body}")
    if isinstance(e, openai.APIStatusError):
        return LLMError(LLMFailure.SERVER_ERROR, f"The server at {where} failed (HTTP {e.status_code}): "
                        f"{getattr(e, 'message', e)}")
    return LLMError(LLMFailure.SERVER_ERROR, f"The language model server at {where} failed: {e}")


def list_models(cfg: LLMConfig) -> list[str]:
    """The model names the server lists at /v1/models (raises LLMError with advice when it can't)."""
    client = _client(cfg, timeout=min(cfg.timeout, 10.0))
    import openai

    try:
        return sorted(m.id for m in client.models.list())
    except openai.APIError as e:
        raise _explain(e, cfg) from e
    except ValueError as e:  # not JSON: something else listens there
        raise LLMError(LLMFailure.BAD_URL, f"{cfg.base_url} does not answer like an OpenAI-compatible server "
                       "(its /models reply is not a model list). The address usually ends in /v1.") from e


@dataclass(frozen=True)
class FoundServer:
    """A local server answering at one of the usual ports."""

    name: str
    base_url: str
    models: list[str]


def named_ports(ports: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """(server name, port) for each port: the usual servers by name, any other port as a plain server."""
    names = {port: name for name, port in LOCAL_SERVERS}
    return tuple((names.get(p, "OpenAI-compatible server"), p) for p in ports)


def detect_local_servers(host: str = "127.0.0.1", timeout: float = 0.5,
                         ports: tuple[tuple[str, int], ...] = LOCAL_SERVERS) -> list[FoundServer]:
    """The OpenAI-compatible servers answering on this machine's usual ports (for the first run's offer)."""
    found = []
    for name, port in ports:
        cfg = LLMConfig(f"http://{host}:{port}/v1", "", timeout=timeout)
        try:
            found.append(FoundServer(name, cfg.base_url, list_models(cfg)))
        except LLMError:
            continue
    return found


class Stream:
    """One answer being generated: iterate for the text pieces; `result` and `text` once iteration ends.

    Iteration raises LLMError (with `partial`) on failure; `cancel` (set from any thread) stops it between two
    pieces and the answer so far is kept (status stopped). A server that ignores max_tokens is cut here too.
    """

    def __init__(self, cfg: LLMConfig, prompt: str, cancel: threading.Event | None = None) -> None:
        self.cfg = cfg
        self.prompt = prompt
        self.cancel = cancel or threading.Event()
        self.text = ""
        self.result: Generation | None = None

    def __iter__(self) -> Iterator[str]:
        cfg = self.cfg
        client = _client(cfg)
        import openai

        started = time.perf_counter()
        first: float | None = None
        pieces = 0
        usage: Any = None
        finish: str | None = None
        status = GenerationStatus.COMPLETE
        try:
            stream = client.chat.completions.create(
                model=cfg.model,
                messages=[{"role": "user", "content": self.prompt}],  # the trace's prompt, byte for byte
                stream=True,
                stream_options={"include_usage": True},
                temperature=cfg.temperature,
                max_tokens=cfg.max_tokens,
            )
        except openai.APIError as e:
            raise self._failed(_explain(e, cfg), started, first, pieces) from e
        try:
            for chunk in stream:
                if chunk.usage is not None:
                    usage = chunk.usage
                for choice in chunk.choices or []:
                    piece = choice.delta.content if choice.delta else None
                    if piece:
                        first = first or time.perf_counter()
                        pieces += 1
                        self.text += piece
                        yield piece
                    finish = choice.finish_reason or finish
                if self.cancel.is_set():
                    status = GenerationStatus.STOPPED
                    break
                if pieces >= cfg.max_tokens and finish is None:  # the server ignores max_tokens: cut it here
                    status, finish = GenerationStatus.CAPPED, "length"
                    break
        except Exception as e:  # the transport's own errors (read timeout, connection reset, bad chunk…)
            if isinstance(e, openai.APITimeoutError) or "Timeout" in type(e).__name__:
                err = LLMError(LLMFailure.TIMEOUT, f"The model stopped sending for {cfg.timeout:g} s in the middle "
                               "of the answer; the part received is kept. Try again or raise llm_timeout.", self.text)
            else:
                err = LLMError(LLMFailure.STREAM_CUT, f"The connection to {cfg.base_url} broke in the middle of "
                               f"the answer ({type(e).__name__}); the part received is kept. Try again.", self.text)
            raise self._failed(err, started, first, pieces) from e
        finally:
            stream.close()
        if status == GenerationStatus.COMPLETE and finish is None:
            err = LLMError(LLMFailure.STREAM_CUT, f"The answer from {cfg.base_url} ended without the server "
                           "saying it was finished: it may be incomplete.", self.text)
            raise self._failed(err, started, first, pieces)
        if finish == "length":
            status = GenerationStatus.CAPPED
        self.result = self._stats(status, started, first, pieces, usage)
        if status == GenerationStatus.CAPPED:
            self.result.error = (f"The answer was cut at {cfg.max_tokens} tokens (llm_max_tokens): it may be "
                                 "incomplete.")

    def _stats(self, status: GenerationStatus, started: float, first: float | None, pieces: int,
               usage: Any = None) -> Generation:
        end = time.perf_counter()
        completion = int(usage.completion_tokens) if usage is not None and usage.completion_tokens else pieces
        rate = completion / (end - first) if first is not None and end > first and completion else None
        return Generation(
            model=self.cfg.model, base_url=self.cfg.base_url, status=status,
            ttft_ms=round((first - started) * 1000, 1) if first is not None else None,
            total_ms=round((end - started) * 1000, 1),
            prompt_tokens=int(usage.prompt_tokens) if usage is not None and usage.prompt_tokens else None,
            completion_tokens=completion, tokens_counted_by="server" if usage is not None else "stream",
            tokens_per_s=round(rate, 2) if rate is not None else None,
        )

    def _failed(self, err: LLMError, started: float, first: float | None, pieces: int) -> LLMError:
        self.result = self._stats(GenerationStatus.FAILED, started, first, pieces)
        self.result.failure = err.kind
        self.result.error = str(err)
        return err

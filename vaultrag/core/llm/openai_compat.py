"""The OpenAI-compatible backend (Ollama, llama.cpp's server, LM Studio, vLLM, hosted APIs): the openai client, lazy.

The only module that knows the openai client and `LLMConfig`. Failures are classified from exception types and
HTTP status codes (never from the server's message text), each worded by its code in core/wording.py.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from vaultrag.core import wording
from vaultrag.core.llm import servers
from vaultrag.core.llm.generator import ConnectionTest, FoundServer, Generated, LLMError, Message, connection_test
from vaultrag.core.model import Generation
from vaultrag.core.vocab import GenerationStatus, LLMFailure, ModelState
from vaultrag.settings import Settings

# Where local servers listen by default: Ollama, llama.cpp's llama-server, LM Studio
LOCAL_SERVERS = (("Ollama", 11434), ("llama.cpp server", 8080), ("LM Studio", 1234))
KEYRING_SERVICE = "vaultrag"
NO_KEY = "not-needed"  # local servers take any key; the client library insists on one
LIST_TIMEOUT_S = 10.0
DETECT_TIMEOUT_S = 0.5
# Ollama's context per request (`options.num_ctx`): the prompt's o200k count with this share for another
# tokenizer's count, plus the answer's cap, rounded up to a step (each new size reloads the model)
OLLAMA_TOKEN_MARGIN = 1.25
OLLAMA_CTX_STEP = 1024
OLLAMA_CTX_MIN = 2048

@dataclass(frozen=True)
class LLMConfig:
    """Where and how to ask the model (from the settings; the API key from the environment or the keyring)."""

    base_url: str
    model: str
    api_key: str = NO_KEY
    temperature: float = 0.2
    max_tokens: int = 512
    timeout: float = 60.0


@dataclass(frozen=True)
class Failure:
    """A classified failure: its code and what fills its words."""

    kind: LLMFailure
    status: int | None = None
    detail: str = ""

    def details(self, cfg: LLMConfig) -> dict[str, str]:
        """What its words need (`wording.llm_failure`): a window words them in its own language."""
        return {"where": cfg.base_url, "model": cfg.model, "timeout": f"{cfg.timeout:g}",
                "status": "" if self.status is None else str(self.status), "detail": self.detail}

    def words(self, cfg: LLMConfig) -> str:
        return wording.llm_failure(self.kind, self.details(cfg))

    def error(self, cfg: LLMConfig) -> LLMError:
        return LLMError(self.kind, self.words(cfg), **self.details(cfg))


def build(s: Settings) -> OpenAICompatible | None:
    """The configured server, or None when no server is set (the extractive answer stays)."""
    if not s.llm_base_url.strip():
        return None
    address = s.llm_base_url.strip().rstrip("/")
    if "://" not in address:  # "localhost:11434/v1" as people type it: a local server speaks plain http
        address = "http://" + address
    return OpenAICompatible(LLMConfig(address, s.llm_model.strip(), api_key(s),
                                      s.llm_temperature, s.llm_max_tokens, s.llm_timeout))


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


def named_ports(ports: Sequence[int]) -> tuple[tuple[str, int], ...]:
    """(server name, port) for each port: the usual servers by name, any other port as a plain server."""
    names = {port: name for name, port in LOCAL_SERVERS}
    return tuple((names.get(p, "OpenAI-compatible server"), p) for p in ports)


def detect(s: Settings, host: str = "127.0.0.1") -> list[FoundServer]:
    """The OpenAI-compatible servers answering on this machine's ports named in `llm_detect_ports`."""
    found = []
    for name, port in named_ports(s.llm_detect_ports):
        server = OpenAICompatible(LLMConfig(f"http://{host}:{port}/v1", "", timeout=DETECT_TIMEOUT_S))
        try:
            models = server.list_models()
        except LLMError:
            continue
        info = server.server_info()
        # named by what its endpoints say it is, not by its port (LM Studio on 11434 is LM Studio)
        named = info.name if info is not None and info.kind != servers.ServerKind.OPENAI else (
            name if name not in ("Ollama", "LM Studio") else "OpenAI-compatible server")
        found.append(FoundServer(named, server.address, models, kind=str(info.kind) if info else ""))
    return found


def _transport_failure(e: BaseException) -> Failure | None:
    """A failure of the connection itself (before or during an answer), from the exception's type: openai's own
    classes before the answer; during it the HTTP library's (httpx or httpx2, by openai's version) pass through
    unwrapped, so the OS error they were raised from (a socket timeout, a refused or reset connection) decides."""
    import openai

    if isinstance(e, openai.APITimeoutError) or _caused_by(e, TimeoutError):
        return Failure(LLMFailure.TIMEOUT)
    if isinstance(e, openai.APIConnectionError) or _caused_by(e, ConnectionRefusedError):
        return Failure(LLMFailure.SERVER_DOWN, detail=type(e).__name__)
    return None


def _caused_by(e: BaseException, kind: type[BaseException]) -> bool:
    """Whether `e` or an exception it was raised from (or while handling) is a `kind`."""
    seen: set[int] = set()
    at: BaseException | None = e
    while at is not None and id(at) not in seen:
        if isinstance(at, kind):
            return True
        seen.add(id(at))
        at = at.__cause__ or at.__context__
    return False


class OpenAICompatible:
    """A model behind an OpenAI-compatible chat completions API (streamed; no retries: a person is waiting)."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._info: servers.ServerInfo | None = None
        self._info_asked = False

    def server_info(self, fresh: bool = False) -> servers.ServerInfo | None:
        """What kind of server this is and its models (asked once; None when nothing answers)."""
        if fresh or not self._info_asked:
            self._info_asked = True
            key = "" if self.config.api_key == NO_KEY else self.config.api_key
            try:
                self._info = servers.identify(self.config.base_url, min(self.config.timeout, servers.PROBE_TIMEOUT_S),
                                              key)
            except (OSError, ValueError):
                self._info = None
        return self._info

    def model_details(self) -> list[servers.ServerModel]:
        """The models that can answer, each with what its server says of it (context, kind, size)."""
        names = self.list_models()
        info = self.server_info()
        if info is None or info.kind == servers.ServerKind.OPENAI:
            return [servers.ServerModel(n) for n in names]
        return [info.model(n) or servers.ServerModel(n) for n in names]

    def context_window(self) -> int | None:
        """The most tokens (prompt + answer) the configured model gets, when its server says: Ollama's model length
        (vaultrag asks for the context each prompt needs), LM Studio's loaded (or maximum) context."""
        info = self.server_info()
        model = info.model(self.config.model) if info is not None else None
        if model is None:
            return None
        return model.max_context if info is not None and info.kind == servers.ServerKind.OLLAMA else model.context

    @property
    def model(self) -> str:
        return self.config.model

    @property
    def address(self) -> str:
        return self.config.base_url

    @property
    def max_tokens(self) -> int:
        return self.config.max_tokens

    def _client(self, timeout: float | None = None) -> Any:
        """The openai client (typed loosely: the messages are built from our own Message values); a missing library
        is a coded failure, not an ImportError."""
        try:
            import openai
        except ImportError as e:
            raise Failure(LLMFailure.NOT_INSTALLED).error(self.config) from e
        cfg = self.config
        t = timeout if timeout is not None else cfg.timeout
        # no retries: a person is waiting, and a retry would hide a server that is down
        return openai.OpenAI(base_url=cfg.base_url, api_key=cfg.api_key, max_retries=0,
                             timeout=openai.Timeout(t, connect=min(t, 5.0)))

    def _classify(self, e: BaseException) -> Failure:
        """What went wrong, from the exception's type and HTTP status: a refused request (400, 404, 422) is told
        apart by asking the server for its models (an unknown model, or no OpenAI-compatible API there)."""
        import openai

        found = _transport_failure(e)
        if found is not None:
            return found
        if not isinstance(e, openai.APIStatusError):
            return Failure(LLMFailure.SERVER_ERROR, detail=f"{type(e).__name__}: {e}")
        status, said = e.status_code, str(getattr(e, "message", e))
        if status in (401, 403):
            return Failure(LLMFailure.AUTH, status)
        if status in (400, 404, 422):
            try:
                listed = self.list_models()
            except LLMError:
                listed = None
            if listed is not None and not _listed(self.config.model, listed):
                return Failure(LLMFailure.BAD_MODEL, status)
            if listed is None and status == 404:
                return Failure(LLMFailure.BAD_URL, status, f"HTTP {status}")
        return Failure(LLMFailure.SERVER_ERROR, status, said)

    def list_models(self) -> list[str]:
        """The model names the server lists at /models (raises LLMError with advice when it can't)."""
        client = self._client(timeout=min(self.config.timeout, LIST_TIMEOUT_S))
        import openai

        try:
            names = sorted(m.id for m in client.models.list())
        except openai.APIStatusError as e:
            status = e.status_code
            if status in (401, 403):
                raise Failure(LLMFailure.AUTH, status).error(self.config) from e
            if status == 404:
                raise Failure(LLMFailure.BAD_URL, status, wording.LLM_HTTP_MODEL_LIST).error(self.config) from e
            raise Failure(LLMFailure.SERVER_ERROR, status, str(getattr(e, "message", e))).error(self.config) from e
        except (openai.APIError, ValueError) as e:
            found = _transport_failure(e)
            if found is not None:
                raise found.error(self.config) from e
            # not JSON, or not a model list: something else listens there
            raise Failure(LLMFailure.BAD_URL, detail=wording.LLM_NO_MODEL_LIST).error(self.config) from e
        finally:
            client.close()  # its connection pool: a long-lived process (the window) asks again and again
        info = self.server_info(fresh=True)
        if info is None:
            return names
        embedding = {m.name for m in info.models if m.kind == servers.ModelKind.EMBEDDING}
        return [n for n in names if n not in embedding]  # an embedding model cannot write an answer

    def test_connection(self) -> ConnectionTest:
        """The model's one-sentence answer, but first whether the server lists the model: some servers (llama.cpp's)
        answer under any name, so a wrong name would pass the test and fail later on a server that checks."""
        try:
            listed = self.list_models()
        except LLMError:
            listed = None  # no model list here: the answer alone decides
        if listed is not None and not _listed(self.config.model, listed):
            f = Failure(LLMFailure.BAD_MODEL)
            return ConnectionTest(self.model, self.address, failure=f.kind, error=f.words(self.config),
                                  details=f.details(self.config))
        info = self.server_info()
        named = info.name if info is not None and info.kind != servers.ServerKind.OPENAI else ""
        return replace(connection_test(self), context=self.context_window(), server=named)

    def prepare(self, on_state: Callable[[ModelState], None] | None = None) -> None:
        """A server runs its model itself: ready at once."""
        if on_state is not None:
            on_state(ModelState.READY)

    def generate(self, messages: Sequence[Message], on_piece: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None, temperature: float | None = None,
                 max_tokens: int | None = None) -> Generated:
        """Stream the answer. A server that ignores max_tokens is cut here too; Stop keeps the answer so far."""
        cfg = self.config
        cap = max_tokens if max_tokens is not None else cfg.max_tokens
        run = _Run(cfg)
        info = self.server_info()
        if info is not None and info.kind == servers.ServerKind.OLLAMA:
            # Ollama's /v1 ignores a context size and cuts a long prompt silently: its own chat API takes one
            return self._generate_ollama(info, messages, run, cap, on_piece, cancel, temperature)
        try:
            client = self._client()
        except LLMError as e:
            return run.failed(Failure(e.kind))
        import openai

        try:
            stream = client.chat.completions.create(
                model=cfg.model,
                messages=[{"role": m.role, "content": m.content} for m in messages],  # the prompt, byte for byte
                stream=True,
                stream_options={"include_usage": True},
                temperature=cfg.temperature if temperature is None else temperature,
                max_tokens=cap,
            )
        except openai.APIError as e:
            client.close()
            return run.failed(self._classify(e))
        status = GenerationStatus.COMPLETE
        finish: str | None = None
        chunks = iter(stream)
        try:
            while True:
                try:
                    chunk = next(chunks)
                except StopIteration:
                    break
                except Exception as e:  # the transport's own errors (read timeout, connection reset, a bad chunk…)
                    found = _transport_failure(e)
                    cut = Failure(LLMFailure.STREAM_CUT, detail=type(e).__name__)
                    return run.failed(found if found is not None and found.kind == LLMFailure.TIMEOUT else cut)
                if chunk.usage is not None:
                    run.usage = chunk.usage
                for choice in chunk.choices if isinstance(chunk.choices, list) else []:
                    delta = getattr(choice, "delta", None)
                    piece = getattr(delta, "content", None)
                    if isinstance(piece, str) and piece:
                        run.piece(piece)
                        if on_piece is not None:  # outside the `except`: the caller's own errors are not ours
                            on_piece(piece)
                    reason = getattr(choice, "finish_reason", None)
                    finish = reason if isinstance(reason, str) and reason else finish
                if cancel is not None and cancel.is_set():
                    status = GenerationStatus.STOPPED
                    break
                if run.pieces >= cap and finish is None:  # the server ignores max_tokens: cut it here
                    status, finish = GenerationStatus.CAPPED, "length"
                    break
        finally:
            stream.close()
            client.close()
        return run.ended(status, finish, cap)


    def ollama_context(self, messages: Sequence[Message], cap: int) -> int:
        """The context to ask Ollama for: the prompt and the answer with room to spare, within the model's length."""
        from vaultrag.core import tokens

        prompt = sum(tokens.count(m.content) for m in messages)
        need = int(prompt * OLLAMA_TOKEN_MARGIN) + cap + 64
        size = max(OLLAMA_CTX_MIN, -(-need // OLLAMA_CTX_STEP) * OLLAMA_CTX_STEP)
        most = self.context_window()
        return min(size, most) if most else size

    def _generate_ollama(self, info: servers.ServerInfo, messages: Sequence[Message], run: _Run, cap: int,
                         on_piece: Callable[[str], None] | None, cancel: threading.Event | None,
                         temperature: float | None) -> Generated:
        """Stream from Ollama's native `/api/chat` (newline-delimited JSON) with `options.num_ctx` set."""
        cfg = self.config
        body = {"model": cfg.model, "stream": True,
                "messages": [{"role": m.role, "content": m.content} for m in messages],
                "options": {"num_ctx": self.ollama_context(messages, cap), "num_predict": cap,
                            "temperature": cfg.temperature if temperature is None else temperature}}
        key = "" if cfg.api_key == NO_KEY else cfg.api_key
        status, done_reason = GenerationStatus.COMPLETE, ""
        lines = servers.stream_lines(f"{info.root}/api/chat", body, cfg.timeout, key)
        try:
            quiet_since = time.monotonic()
            for line in lines:
                if not isinstance(line, dict):  # a line of JSON that is no object: no Ollama chat stream
                    return run.failed(Failure(LLMFailure.STREAM_CUT, detail=wording.LLM_NO_END))
                if line.get("error"):  # an error after the answer began (Ollama sends it as a line)
                    return run.failed(Failure(LLMFailure.SERVER_ERROR, None, servers.error_words(line["error"])))
                message = line.get("message")
                piece = message.get("content") if isinstance(message, dict) else None
                if isinstance(piece, str) and piece:
                    quiet_since = time.monotonic()
                    run.piece(piece)
                    if on_piece is not None:
                        on_piece(piece)
                elif time.monotonic() - quiet_since > cfg.timeout:  # lines that say nothing, forever
                    return run.failed(Failure(LLMFailure.TIMEOUT))
                if line.get("done"):
                    reason = line.get("done_reason")
                    done_reason = reason if isinstance(reason, str) and reason else "stop"
                    run.usage = _OllamaUsage(servers.positive_int(line.get("prompt_eval_count")),
                                             servers.positive_int(line.get("eval_count")))
                    break
                if cancel is not None and cancel.is_set():
                    status = GenerationStatus.STOPPED
                    break
                if run.pieces >= cap:
                    status, done_reason = GenerationStatus.CAPPED, "length"
                    break
        except servers.ServerError as e:
            return run.failed(_ollama_failure(e))
        except (TimeoutError, OSError) as e:
            found = _transport_failure(e)
            if found is not None:
                return run.failed(found)
            started = run.pieces > 0
            return run.failed(Failure(LLMFailure.STREAM_CUT if started else LLMFailure.SERVER_DOWN,
                                      detail=type(e).__name__))
        except ValueError as e:  # a line that is no JSON
            return run.failed(Failure(LLMFailure.STREAM_CUT, detail=type(e).__name__))
        finally:
            lines.close()
        return run.ended(status, done_reason or None, cap)


@dataclass(frozen=True)
class _OllamaUsage:
    """Ollama's counts in the shape of the openai client's usage."""

    prompt_tokens: int | None
    completion_tokens: int | None


def _ollama_failure(e: servers.ServerError) -> Failure:
    """An error status of Ollama's chat API, by its code (the body's words are the detail)."""
    if e.status in (401, 403):
        return Failure(LLMFailure.AUTH, e.status)
    if e.status == 404:  # {"error": "model \"x\" not found, try pulling it first"}
        return Failure(LLMFailure.BAD_MODEL, e.status, e.message)
    return Failure(LLMFailure.SERVER_ERROR, e.status, e.message)


def _listed(model: str, listed: list[str]) -> bool:
    # Ollama serves "llama3.2" as "llama3.2:latest"
    return model in listed or f"{model}:latest" in listed


class _Run:
    """One answer's text and figures while it streams."""

    def __init__(self, cfg: LLMConfig) -> None:
        self.cfg = cfg
        self.text = ""
        self.pieces = 0
        self.usage: Any = None
        self.started = time.perf_counter()
        self.first: float | None = None

    def piece(self, piece: str) -> None:
        self.first = self.first or time.perf_counter()
        self.pieces += 1
        self.text += piece

    def record(self, status: GenerationStatus) -> Generation:
        end, first = time.perf_counter(), self.first
        usage = self.usage
        if usage is not None and not (servers.positive_int(getattr(usage, "completion_tokens", None))
                                      and servers.positive_int(getattr(usage, "prompt_tokens", None))):
            usage = None  # counts that are no whole numbers above 0 ("x", [1]): the streamed pieces are counted
        completion = int(usage.completion_tokens) if usage is not None else self.pieces
        # tokens after the first over the time since it came: one token alone gives no rate (it read 4,146 tokens/s)
        rate = (completion - 1) / (end - first) if first is not None and end > first and completion > 1 else None
        return Generation(
            model=self.cfg.model, base_url=self.cfg.base_url, status=status,
            ttft_ms=round((first - self.started) * 1000, 1) if first is not None else None,
            total_ms=round((end - self.started) * 1000, 1),
            prompt_tokens=int(usage.prompt_tokens) if usage is not None and usage.prompt_tokens else None,
            completion_tokens=completion, tokens_counted_by="server" if usage is not None else "stream",
            tokens_per_s=round(rate, 2) if rate is not None else None,
        )

    def ended(self, status: GenerationStatus, finish: str | None, cap: int) -> Generated:
        """The streamed answer once it stopped: cut without an end (no finish reason), capped at `cap`, or whole."""
        if status == GenerationStatus.COMPLETE and finish is None:
            return self.failed(Failure(LLMFailure.STREAM_CUT, detail=wording.LLM_NO_END))
        if finish == "length":
            status = GenerationStatus.CAPPED
        record = self.record(status)
        if status == GenerationStatus.CAPPED:
            record.error = f"The answer was cut at {cap} tokens (llm_max_tokens): it may be incomplete."
        return Generated(self.text, record)

    def failed(self, failure: Failure) -> Generated:
        self.usage = None  # a failed answer counts the pieces it streamed
        record = self.record(GenerationStatus.FAILED)
        record.failure = failure.kind
        record.error = failure.words(self.cfg)
        record.failure_details = failure.details(self.cfg)
        return Generated(self.text, record)

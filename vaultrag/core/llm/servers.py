"""Which local model server answers at an address (Ollama, LM Studio, or any OpenAI-compatible one), and its models.

Recognised by their native endpoints, never by port or by the words of a reply: Ollama answers `GET /api/version`
with its version and lists models at `GET /api/tags` (`POST /api/show` gives a model's capabilities and context
length); LM Studio lists models at `GET /api/v0/models` with their type, load state and context length. Plain HTTP
with the standard library: these endpoints are not OpenAI's, so the openai client has no part here.
"""

from __future__ import annotations

import json
import re
import time
import urllib.error
import urllib.request
from collections.abc import Generator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

PROBE_TIMEOUT_S = 2.0  # a probe's whole answer (a server that drips a byte at a time is cut there)
SHOW_BUDGET_S = 6.0  # all of Ollama's /api/show requests of one listing; the models after it come without details
MAX_SHOW = 200  # models asked for their details (Ollama: one request each); more are listed without them
MAX_BODY = 8 << 20  # the largest JSON answer read from a probe


class ServerKind(StrEnum):
    OLLAMA = "ollama"
    LM_STUDIO = "lmstudio"
    OPENAI = "openai"  # any other OpenAI-compatible server (llama.cpp's, vLLM, a hosted API)


SERVER_NAMES = {ServerKind.OLLAMA: "Ollama", ServerKind.LM_STUDIO: "LM Studio",
                ServerKind.OPENAI: "OpenAI-compatible server"}


class ModelKind(StrEnum):
    CHAT = "chat"  # writes text: a generator
    EMBEDDING = "embedding"  # embeds only: hidden from the generator picker
    UNKNOWN = "unknown"  # the server does not say


@dataclass(frozen=True)
class ServerModel:
    """One model as its server describes it."""

    name: str
    kind: ModelKind = ModelKind.UNKNOWN
    context: int | None = None  # the context the server will give it (tokens), when it says
    max_context: int | None = None  # the most the model was made for
    loaded: bool | None = None  # LM Studio: loaded in memory now
    details: str = ""  # family, size, quantization, in a few words


@dataclass(frozen=True)
class ServerInfo:
    """What answers at an address and the models it has."""

    kind: ServerKind
    root: str  # the server's address without its /v1
    models: list[ServerModel] = field(default_factory=list)
    version: str = ""

    @property
    def name(self) -> str:
        return SERVER_NAMES[self.kind]

    def model(self, name: str) -> ServerModel | None:
        """The model named `name` (Ollama's "llama3.2" is "llama3.2:latest")."""
        for m in self.models:
            if m.name == name or m.name == f"{name}:latest":
                return m
        return None

    def generators(self) -> list[ServerModel]:
        """The models that can write an answer (embedding-only ones left out)."""
        return [m for m in self.models if m.kind != ModelKind.EMBEDDING]


class ServerError(Exception):
    """A native endpoint answered with an error status; `message` is the error body's own words."""

    def __init__(self, status: int | None, message: str) -> None:
        super().__init__(f"{status}: {message}" if status else message)
        self.status = status
        self.message = message


def root_of(base_url: str) -> str:
    """The server's own address from its OpenAI-compatible one ("http://h:11434/v1" → "http://h:11434")."""
    address = base_url.strip().rstrip("/")
    return address[: -len("/v1")] if address.endswith("/v1") else address


def error_words(err: Any) -> str:
    """An error's words, from a string or an {"message": …} object (Ollama's and OpenAI's shapes)."""
    if isinstance(err, dict):
        return str(err.get("message") or err.get("type") or err)[:300]
    return str(err)[:300]


def error_message(body: bytes) -> str:
    """The words of an error body: Ollama's {"error": "…"}, LM Studio's and OpenAI's {"error": {"message": …}}."""
    try:
        data = json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        return body.decode("utf-8", "replace").strip()[:300]
    err = data.get("error") if isinstance(data, dict) else None
    return error_words(err if err is not None else data)


def request(url: str, body: dict[str, Any] | None = None, timeout: float = PROBE_TIMEOUT_S,
            api_key: str = "") -> Any:
    """GET (or POST `body` as JSON) and the JSON answer, all of it within `timeout`; ServerError on an error
    status, OSError (TimeoutError) / ValueError when nothing, too little in time or no JSON answers."""
    deadline = time.monotonic() + timeout
    with _open(url, body, timeout, api_key) as reply:
        data = bytearray()
        while chunk := reply.read1(65536):
            data += chunk
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} sent its answer too slowly")
            if len(data) > MAX_BODY:
                raise ValueError(f"{url} sent more than {MAX_BODY:,} bytes")
        return json.loads(bytes(data).decode("utf-8"))


def positive_int(value: Any) -> int | None:
    """`value` when it is a whole number above 0 (a server's context length), else None (a string, a negative,
    a boolean: no context said)."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else None


def _dict(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def stream_lines(url: str, body: dict[str, Any], timeout: float,
                 api_key: str = "") -> Generator[dict[str, Any], None, None]:
    """POST `body` and yield each JSON line of the streamed answer (Ollama's newline-delimited JSON)."""
    with _open(url, body, timeout, api_key) as reply:
        for line in reply:
            if line.strip():
                yield json.loads(line)


def _open(url: str, body: dict[str, Any] | None, timeout: float, api_key: str) -> Any:
    headers = {"Accept": "application/json"}
    data = None
    if body is not None:
        data = json.dumps(body).encode("utf-8")
        headers["Content-Type"] = "application/json"
    if api_key:
        headers["Authorization"] = f"Bearer {api_key}"
    req = urllib.request.Request(url, data=data, headers=headers, method="POST" if body is not None else "GET")
    try:
        return urllib.request.urlopen(req, timeout=timeout)  # an address the user configured
    except urllib.error.HTTPError as e:
        raise ServerError(e.code, error_message(e.read())) from e


def identify(base_url: str, timeout: float = PROBE_TIMEOUT_S, api_key: str = "") -> ServerInfo:
    """What answers at `base_url` and its models; a server that is neither Ollama nor LM Studio is OPENAI with no
    models here (the openai client lists those). Raises OSError when nothing answers at all."""
    root = root_of(base_url)
    try:
        version = request(f"{root}/api/version", timeout=timeout, api_key=api_key)
        if isinstance(version, dict) and isinstance(version.get("version"), str):
            return ServerInfo(ServerKind.OLLAMA, root, ollama_models(root, timeout, api_key), version["version"])
    except (ServerError, ValueError):
        pass
    try:
        listed = request(f"{root}/api/v0/models", timeout=timeout, api_key=api_key)
        if isinstance(listed, dict) and isinstance(listed.get("data"), list):
            return ServerInfo(ServerKind.LM_STUDIO, root, lmstudio_models(listed))
    except (ServerError, ValueError):
        pass
    return ServerInfo(ServerKind.OPENAI, root)


def ollama_models(root: str, timeout: float = PROBE_TIMEOUT_S, api_key: str = "") -> list[ServerModel]:
    """Ollama's models (`/api/tags`), each with its capabilities and context from `/api/show` (all of those within
    SHOW_BUDGET_S; a malformed entry is left out, a malformed detail read as unsaid)."""
    tags = _dict(request(f"{root}/api/tags", timeout=timeout, api_key=api_key))
    out = []
    budget = time.monotonic() + SHOW_BUDGET_S
    for i, m in enumerate(_list(tags.get("models"))):
        m = _dict(m)
        name = m.get("name") or m.get("model")
        if not isinstance(name, str) or not name:
            continue
        d = _dict(m.get("details"))
        details = " ".join(str(d[k]) for k in ("family", "parameter_size", "quantization_level")
                           if isinstance(d.get(k), str | int | float) and d.get(k))
        if i >= MAX_SHOW or time.monotonic() > budget:
            out.append(ServerModel(name, details=details))
            continue
        try:
            shown = _dict(request(f"{root}/api/show", {"model": name}, timeout=timeout, api_key=api_key))
        except (ServerError, OSError, ValueError):
            out.append(ServerModel(name, details=details))
            continue
        out.append(_ollama_model(name, shown, details))
    return out


def _ollama_model(name: str, shown: dict[str, Any], details: str) -> ServerModel:
    caps = [c for c in _list(shown.get("capabilities")) if isinstance(c, str)]
    if caps:
        kind = ModelKind.EMBEDDING if "embedding" in caps and "completion" not in caps else ModelKind.CHAT
    else:
        kind = ModelKind.UNKNOWN
    info = _dict(shown.get("model_info"))
    arch = info.get("general.architecture")
    trained = positive_int(info.get(f"{arch}.context_length")) if isinstance(arch, str) and arch else None
    if trained is None:
        trained = next((positive_int(v) for k, v in info.items()
                        if isinstance(k, str) and k.endswith(".context_length") and positive_int(v)), None)
    # a Modelfile's PARAMETER num_ctx is what the server gives it; without one, vaultrag asks per request (the
    # server's own default depends on its version and memory): the model's length is then the limit
    parameters = shown.get("parameters")
    set_ctx = re.search(r"(?m)^\s*num_ctx\s+(\d+)", parameters) if isinstance(parameters, str) else None
    return ServerModel(name, kind, positive_int(int(set_ctx.group(1))) if set_ctx else trained, trained,
                       details=details)


def lmstudio_models(listed: dict[str, Any]) -> list[ServerModel]:
    """LM Studio's models from its `/api/v0/models` list (malformed entries left out)."""
    kinds = {"llm": ModelKind.CHAT, "vlm": ModelKind.CHAT, "embeddings": ModelKind.EMBEDDING}
    out = []
    for m in _list(listed.get("data")):
        m = _dict(m)
        name = m.get("id")
        if not isinstance(name, str) or not name:
            continue
        most = positive_int(m.get("max_context_length"))
        state = m.get("state")
        loaded = state == "loaded" if isinstance(state, str) else None
        now = positive_int(m.get("loaded_context_length"))
        details = " ".join(str(m[k]) for k in ("arch", "quantization") if isinstance(m.get(k), str) and m.get(k))
        kind = m.get("type")
        out.append(ServerModel(name, kinds.get(kind, ModelKind.UNKNOWN) if isinstance(kind, str) else ModelKind.UNKNOWN,
                               now or most, most, loaded, details))
    return out

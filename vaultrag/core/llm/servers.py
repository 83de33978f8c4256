"""Which local model server answers at an address (Ollama, LM Studio, or any OpenAI-compatible one), and its models.

Recognised by their native endpoints, never by port or by the words of a reply: Ollama answers `GET /api/version`
with its version and lists models at `GET /api/tags` (`POST /api/show` gives a model's capabilities and context
length); LM Studio lists models at `GET /api/v0/models` with their type, load state and context length. Plain HTTP
with the standard library: these endpoints are not OpenAI's, so the openai client has no part here.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.request
from collections.abc import Generator
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

PROBE_TIMEOUT_S = 2.0
MAX_SHOW = 200  # models asked for their details (Ollama: one request each); more are listed without them


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


def error_message(body: bytes) -> str:
    """The words of an error body: Ollama's {"error": "…"}, LM Studio's and OpenAI's {"error": {"message": …}}."""
    try:
        data = json.loads(body.decode("utf-8", "replace"))
    except ValueError:
        return body.decode("utf-8", "replace").strip()[:300]
    err = data.get("error") if isinstance(data, dict) else None
    if isinstance(err, dict):
        return str(err.get("message") or err.get("type") or err)[:300]
    return str(err if err is not None else data)[:300]


def request(url: str, body: dict[str, Any] | None = None, timeout: float = PROBE_TIMEOUT_S,
            api_key: str = "") -> Any:
    """GET (or POST `body` as JSON) and the JSON answer; ServerError on an error status, OSError/ValueError when
    nothing or no JSON answers."""
    with _open(url, body, timeout, api_key) as reply:
        return json.loads(reply.read().decode("utf-8"))


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
    """Ollama's models (`/api/tags`), each with its capabilities and context from `/api/show`."""
    tags = request(f"{root}/api/tags", timeout=timeout, api_key=api_key)
    out = []
    for i, m in enumerate(tags.get("models") or []):
        name = str(m.get("name") or m.get("model") or "")
        if not name:
            continue
        d = m.get("details") or {}
        details = " ".join(str(d[k]) for k in ("family", "parameter_size", "quantization_level") if d.get(k))
        if i >= MAX_SHOW:
            out.append(ServerModel(name, details=details))
            continue
        try:
            shown = request(f"{root}/api/show", {"model": name}, timeout=timeout, api_key=api_key)
        except (ServerError, OSError, ValueError):
            out.append(ServerModel(name, details=details))
            continue
        out.append(_ollama_model(name, shown, details))
    return out


def _ollama_model(name: str, shown: dict[str, Any], details: str) -> ServerModel:
    caps = [str(c) for c in shown.get("capabilities") or []]
    if caps:
        kind = ModelKind.EMBEDDING if "embedding" in caps and "completion" not in caps else ModelKind.CHAT
    else:
        kind = ModelKind.UNKNOWN
    info = shown.get("model_info") or {}
    arch = str(info.get("general.architecture") or "")
    trained = info.get(f"{arch}.context_length") if arch else None
    if not isinstance(trained, int):
        trained = next((v for k, v in info.items() if k.endswith(".context_length") and isinstance(v, int)), None)
    # a Modelfile's PARAMETER num_ctx is what the server gives it; without one, vaultrag asks per request (the
    # server's own default depends on its version and memory): the model's length is then the limit
    set_ctx = re.search(r"(?m)^\s*num_ctx\s+(\d+)", str(shown.get("parameters") or ""))
    return ServerModel(name, kind, int(set_ctx.group(1)) if set_ctx else trained, trained, details=details)


def lmstudio_models(listed: dict[str, Any]) -> list[ServerModel]:
    """LM Studio's models from its `/api/v0/models` list."""
    kinds = {"llm": ModelKind.CHAT, "vlm": ModelKind.CHAT, "embeddings": ModelKind.EMBEDDING}
    out = []
    for m in listed.get("data") or []:
        name = str(m.get("id") or "")
        if not name:
            continue
        most = m.get("max_context_length") if isinstance(m.get("max_context_length"), int) else None
        loaded = m.get("state") == "loaded" if isinstance(m.get("state"), str) else None
        now = m.get("loaded_context_length") if isinstance(m.get("loaded_context_length"), int) else None
        details = " ".join(str(m[k]) for k in ("arch", "quantization") if m.get(k))
        out.append(ServerModel(name, kinds.get(str(m.get("type")), ModelKind.UNKNOWN), now or most, most, loaded,
                               details))
    return out

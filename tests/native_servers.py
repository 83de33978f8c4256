"""Small fake Ollama and LM Studio servers for tests: real HTTP, the shapes of their documented APIs, a scripted model.

Ollama: `GET /api/version`, `GET /api/tags`, `POST /api/show`, `POST /api/chat` (newline-delimited JSON; errors as
{"error": "…"}, also as a line mid-stream), and its OpenAI-compatible `/v1/models` and `/v1/chat/completions` (which
ignore a context size: a request there is recorded, so a test can see it was not used). LM Studio: `GET
/api/v0/models` (type, state, max_context_length, loaded_context_length), `/v1/models`, `/v1/chat/completions` (SSE;
errors as {"error": {"message": …}}), and its answer to an endpoint it lacks (HTTP 200, {"error": "Unexpected
endpoint or method. (GET /api/version)"}).
"""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler
from typing import Any

from tests.llm_server import ClosingHTTPServer, stop_serving


@dataclass
class OllamaModel:
    name: str
    capabilities: list[str] = field(default_factory=lambda: ["completion", "tools"])
    arch: str = "llama"
    context_length: int = 131072
    parameters: str = "stop \"<|eot_id|>\""


@dataclass
class FakeServer:
    kind: str  # "ollama" | "lmstudio"
    ollama_models: list[OllamaModel] = field(default_factory=lambda: [
        OllamaModel("llama3.2:latest"),
        OllamaModel("nomic-embed-text:latest", ["embedding"], "nomic-bert", 2048, "")])
    lmstudio_models: list[dict[str, Any]] = field(default_factory=lambda: [
        {"id": "qwen2.5-7b-instruct", "object": "model", "type": "llm", "publisher": "lmstudio-community",
         "arch": "qwen2", "compatibility_type": "gguf", "quantization": "Q4_K_M", "state": "loaded",
         "max_context_length": 32768, "loaded_context_length": 4096},
        {"id": "text-embedding-nomic-embed-text-v1.5", "object": "model", "type": "embeddings",
         "publisher": "nomic-ai", "arch": "nomic-bert", "compatibility_type": "gguf", "quantization": "Q4_K_M",
         "state": "not-loaded", "max_context_length": 2048}])
    reply: str = "Water the tomatoes every second morning [1]."
    # ok | error500 | error-line | tags-garbage | show-garbage | chat-objectless | chat-silent-lines | drip-version
    mode: str = "ok"
    requests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    httpd: ClosingHTTPServer | None = None
    thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        assert self.httpd is not None
        return int(self.httpd.server_address[1])

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def names(self) -> list[str]:
        if self.kind == "ollama":
            return [m.name for m in self.ollama_models]
        return [str(m["id"]) for m in self.lmstudio_models]

    def start(self) -> FakeServer:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: Any, kind: str = "application/json") -> None:
                data = (body if isinstance(body, bytes) else json.dumps(body).encode())
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _chunk(self, data: bytes) -> None:
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _missing(self) -> None:
                if server.kind == "lmstudio":  # LM Studio answers an endpoint it lacks with 200 and an error
                    self._send(200, {"error": f"Unexpected endpoint or method. ({self.command} {self.path})"})
                else:
                    self._send(404, b"404 page not found", "text/plain")

            def do_GET(self) -> None:
                server.requests.append((self.path, {}))
                if server.kind == "ollama" and self.path == "/api/version" and server.mode == "drip-version":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.end_headers()
                    try:
                        for b in b'{"version": "0.12.3"}':  # a byte every half second: 11 s for the whole answer
                            self.wfile.write(bytes([b]))
                            self.wfile.flush()
                            time.sleep(0.5)
                    except OSError:  # the client gave up, as it should
                        return
                elif server.kind == "ollama" and self.path == "/api/version":
                    self._send(200, {"version": "0.12.3"})
                elif server.kind == "ollama" and self.path == "/api/tags" and server.mode == "tags-garbage":
                    self._send(200, {"models": [7, "llama3.2:latest", {"name": ["x"]}, {"name": "ok:latest",
                                                                                        "details": "text"}]})
                elif server.kind == "ollama" and self.path == "/api/tags":
                    self._send(200, {"models": [
                        {"name": m.name, "model": m.name, "modified_at": "2026-11-02T10:00:00Z", "size": 2019393189,
                         "digest": "a80c4f17acd5", "details": {"format": "gguf", "family": m.arch,
                                                               "parameter_size": "3.2B",
                                                               "quantization_level": "Q4_K_M"}}
                        for m in server.ollama_models]})
                elif server.kind == "lmstudio" and self.path == "/api/v0/models":
                    self._send(200, {"object": "list", "data": server.lmstudio_models})
                elif self.path == "/v1/models":
                    self._send(200, {"object": "list", "data": [
                        {"id": n, "object": "model", "created": 1730000000, "owned_by": "library"}
                        for n in server.names()]})
                else:
                    self._missing()

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])) or b"{}")
                server.requests.append((self.path, body))
                if server.kind == "ollama" and self.path == "/api/show":
                    m = next((m for m in server.ollama_models if m.name in (body.get("model"),
                                                                             f"{body.get('model')}:latest")), None)
                    if m is None:
                        self._send(404, {"error": f"model '{body.get('model')}' not found"})
                        return
                    if server.mode == "show-garbage":
                        self._send(200, {"capabilities": 5, "model_info": [1, 2], "parameters": ["num_ctx 9"]})
                        return
                    self._send(200, {"modelfile": "# Modelfile", "parameters": m.parameters,
                                     "template": "{{ .Prompt }}", "details": {"family": m.arch},
                                     "capabilities": m.capabilities,
                                     "model_info": {"general.architecture": m.arch,
                                                    f"{m.arch}.context_length": m.context_length,
                                                    f"{m.arch}.embedding_length": 3072}})
                elif server.kind == "ollama" and self.path == "/api/chat":
                    self._ollama_chat(body)
                elif self.path == "/v1/chat/completions":
                    self._openai_chat(body)
                else:
                    self._missing()

            def _ollama_chat(self, body: dict[str, Any]) -> None:
                if body.get("model") not in server.names() and f"{body.get('model')}:latest" not in server.names():
                    self._send(404, {"error": f"model \"{body.get('model')}\" not found, try pulling it first"})
                    return
                if server.mode == "error500":
                    self._send(500, {"error": "llama runner process has terminated: exit status 2"})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "application/x-ndjson")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                if server.mode == "chat-objectless":
                    self._chunk(b'["not", "an", "object"]\n')
                    self._chunk(b"")
                    return
                if server.mode == "chat-silent-lines":  # lines that never say anything, and never end
                    try:
                        while True:
                            self._chunk(json.dumps({"message": {"role": "assistant", "content": ""},
                                                    "done": False}).encode() + b"\n")
                            time.sleep(0.05)
                    except OSError:
                        return
                words = server.reply.split(" ")
                for i, w in enumerate(words):
                    line = {"model": body["model"], "created_at": "2026-12-03T10:00:00Z",
                            "message": {"role": "assistant", "content": w if i == 0 else " " + w}, "done": False}
                    self._chunk(json.dumps(line).encode() + b"\n")
                    if server.mode == "error-line" and i == 1:
                        self._chunk(json.dumps({"error": "an error was encountered while running the model"})
                                    .encode() + b"\n")
                        self._chunk(b"")
                        return
                self._chunk(json.dumps({"model": body["model"], "created_at": "2026-12-03T10:00:01Z",
                                        "message": {"role": "assistant", "content": ""}, "done": True,
                                        "done_reason": "stop", "total_duration": 4883583458,
                                        "prompt_eval_count": 321, "eval_count": len(words)}).encode() + b"\n")
                self._chunk(b"")

            def _openai_chat(self, body: dict[str, Any]) -> None:
                if body.get("model") not in server.names():
                    self._send(404, {"error": {"message": f"Model '{body.get('model')}' not found",
                                               "type": "invalid_request_error", "code": "model_not_found"}})
                    return
                if server.mode == "error500":
                    self._send(500, {"error": {"message": "Failed to load model: not enough memory",
                                               "type": "server_error"}})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                for i, w in enumerate(server.reply.split(" ")):
                    delta = {"choices": [{"index": 0, "delta": {"content": w if i == 0 else " " + w},
                                          "finish_reason": None}]}
                    self._chunk(f"data: {json.dumps(delta)}\n\n".encode())
                self._chunk(f"data: {json.dumps({'choices': [{'index': 0, 'delta': {}, 'finish_reason': 'stop'}]})}"
                            "\n\n".encode())
                self._chunk(b"data: [DONE]\n\n")
                self._chunk(b"")

        self.httpd = ClosingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, name=f"fake-{self.kind}", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        stop_serving(self.httpd, self.thread)

    def paths(self) -> list[str]:
        return [p for p, _ in self.requests]

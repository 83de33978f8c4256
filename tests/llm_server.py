"""A scripted OpenAI-compatible HTTP server for tests: real HTTP and server-sent events, a fake model behind.

`ScriptedServer.reply` decides what the "model" says; `mode` makes it misbehave the ways real servers do
(unknown model, stream cut in the middle, silence, an answer that ignores max_tokens).
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

ENDLESS_PAUSE_S = 0.005  # 512 tokens (the default cap) take 2.5 s: far longer than a Stop click


class ClosingHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server whose server_close() ends every request thread: it shuts the open connections
    (a keep-alive connection would hold its thread in a read) and joins their threads, so a test leaves none."""

    daemon_threads = False  # ThreadingMixIn joins non-daemon request threads in server_close

    def __init__(self, address: tuple[str, int], handler: Any) -> None:
        super().__init__(address, handler)
        self._open: set[socket.socket] = set()
        self._open_lock = threading.Lock()

    def process_request(self, request: Any, client_address: Any) -> None:
        with self._open_lock:
            self._open.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self._open_lock:
            self._open.discard(request)
        super().shutdown_request(request)

    def server_close(self) -> None:
        with self._open_lock:
            still_open = list(self._open)
        for conn in still_open:
            with contextlib.suppress(OSError):  # closed meanwhile
                conn.shutdown(socket.SHUT_RDWR)
        super().server_close()


def stop_serving(httpd: ThreadingHTTPServer | None, thread: threading.Thread | None) -> None:
    """Stop a test server started on `thread`: its loop, its open connections and request threads, then the thread."""
    if httpd is not None:
        httpd.shutdown()
        httpd.server_close()
    if thread is not None:
        thread.join()


class _QuietServer(ClosingHTTPServer):
    def handle_error(self, request: Any, client_address: Any) -> None:
        pass  # a client that hangs up mid-answer (Stop, the max-tokens cap) is expected here


@dataclass
class ScriptedServer:
    models: list[str] = field(default_factory=lambda: ["tiny-model"])
    reply: str = "The refund deadline is seven business days [1]."
    mode: str = "ok"  # ok | cut | silent | endless | no-finish | error500 | status
    status: int = 500  # mode "status": every chat request is answered with this HTTP status…
    error_text: str = "out of memory"  # …and these words in its error body
    usage: bool = True
    requests: list[dict[str, Any]] = field(default_factory=list)
    streaming: int = 0  # answers being sent right now (a client that hangs up ends its answer)
    httpd: ThreadingHTTPServer | None = None
    thread: threading.Thread | None = None

    @property
    def base_url(self) -> str:
        assert self.httpd is not None
        return f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"

    def start(self) -> ScriptedServer:
        server = self
        lock = threading.Lock()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:
                pass

            def _json(self, status: int, body: Any) -> None:
                data = json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def do_GET(self) -> None:
                if self.path == "/v1/models":
                    self._json(200, {"object": "list", "data": [{"id": m, "object": "model"} for m in server.models]})
                else:
                    self._json(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                server.requests.append(body)
                if self.path != "/v1/chat/completions":
                    self._json(404, {"error": {"message": "not found"}})
                    return
                if server.mode == "status":
                    self._json(server.status, {"error": {"message": server.error_text, "type": "invalid"}})
                    return
                if body["model"] not in server.models:
                    self._json(404, {"error": {"message": f"model '{body['model']}' not found", "type": "invalid"}})
                    return
                if server.mode == "error500":
                    self._json(500, {"error": {"message": "out of memory"}})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                with lock:
                    server.streaming += 1
                try:
                    self._stream(body)
                finally:
                    with lock:
                        server.streaming -= 1

            def _event(self, payload: Any) -> None:
                data = f"data: {payload if isinstance(payload, str) else json.dumps(payload)}\n\n".encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()

            def _stream(self, body: dict[str, Any]) -> None:
                words = server.reply.split(" ")
                if server.mode == "endless":
                    words = ["word"] * 100_000
                if server.mode == "silent":
                    time.sleep(3)
                sent = 0
                for i, w in enumerate(words):
                    piece = w if i == 0 else " " + w
                    self._event({"choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]})
                    sent += 1
                    if server.mode == "endless":  # a model's pace: a stop must be able to arrive before the cap
                        time.sleep(ENDLESS_PAUSE_S)
                    if server.mode == "cut" and i == len(words) // 2:
                        self.wfile.write(b"5\r\ndata:")  # half a chunk, then the connection drops
                        self.wfile.flush()
                        self.connection.shutdown(socket.SHUT_RDWR)  # the peer sees the connection drop
                        self.close_connection = True
                        return
                if server.mode != "no-finish":
                    self._event({"choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]})
                if server.usage:
                    self._event({"choices": [], "usage": {"prompt_tokens": 321, "completion_tokens": sent,
                                                          "total_tokens": 321 + sent}})
                self._event("[DONE]")
                self.wfile.write(b"0\r\n\r\n")
                self.wfile.flush()

        self.httpd = _QuietServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, name="scripted-llm", daemon=True)
        self.thread.start()
        return self

    def stop(self) -> None:
        stop_serving(self.httpd, self.thread)

"""A local HTTP server playing the Hugging Face hub for one repository: the API's repo info and file tree, each
file's metadata HEAD (X-Repo-Commit, ETag and X-Linked-Etag = its sha256, X-Linked-Size) and GET with HTTP Range;
it counts what it served, can serve a file with a damaged byte while its metadata keeps the true sha256, and can
hold a transfer at a given byte until the test releases it."""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

from tests.llm_server import ClosingHTTPServer

COMMIT = "0123456789abcdef0123456789abcdef01234567"
BLOCK = 256 * 1024
RANGE = re.compile(r"^bytes=(\d+)-(\d*)$")


@dataclass(frozen=True)
class Served:
    """One GET of a file: where it started (the Range's first byte, 0 without one) and how many bytes went out."""

    name: str
    start: int
    sent: int


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as f:
        while block := f.read(1 << 20):
            digest.update(block)
    return digest.hexdigest()


class LocalHub:
    """Serves `files` (name → path on disk) as the files of hub repository `repo`; `url` is its endpoint."""

    def __init__(self, repo: str, files: Mapping[str, Path]) -> None:
        self.repo = repo
        self.files = dict(files)
        self.sha = {name: _sha256(path) for name, path in self.files.items()}
        self.gets: dict[str, int] = dict.fromkeys(self.files, 0)
        self.served: list[Served] = []
        self.damaged: dict[str, int] = {}  # name → the offset of a byte served flipped
        self.hold_at: int | None = None  # a GET waits on `release` once it has sent this many bytes of the file
        self.no_checksum = False  # answer HEADs as for a file kept without LFS: a git etag, no sha256
        self.release = threading.Event()
        self.lock = threading.Lock()
        hub = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: object) -> None:
                pass

            def _file(self) -> str | None:
                prefix = f"/{hub.repo}/resolve/"
                if not self.path.startswith(prefix):
                    return None
                name = self.path[len(prefix):].split("/", 1)[1].split("?")[0]
                return name if name in hub.files else None

            def _empty(self, status: int) -> None:
                self.send_response(status)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def _meta(self, name: str) -> None:
                self.send_header("X-Repo-Commit", COMMIT)
                if hub.no_checksum:
                    self.send_header("ETag", f'"{hub.sha[name][:40]}"')
                else:
                    self.send_header("ETag", f'"{hub.sha[name]}"')
                    self.send_header("X-Linked-Etag", f'"{hub.sha[name]}"')
                self.send_header("X-Linked-Size", str(hub.files[name].stat().st_size))
                self.send_header("Accept-Ranges", "bytes")

            def do_HEAD(self) -> None:
                name = self._file()
                if name is None:
                    self._empty(404)
                    return
                self.send_response(200)
                self._meta(name)
                self.send_header("Content-Length", str(hub.files[name].stat().st_size))
                self.end_headers()

            def do_GET(self) -> None:
                if self.path.startswith(f"/api/models/{hub.repo}"):
                    self._api()
                    return
                name = self._file()
                if name is None:
                    self._empty(404)
                    return
                size = hub.files[name].stat().st_size
                start = 0
                ranged = RANGE.match(self.headers.get("Range", ""))
                if ranged:
                    start = int(ranged.group(1))
                    if start >= size:
                        self._empty(416)
                        return
                    self.send_response(206)
                    self.send_header("Content-Range", f"bytes {start}-{size - 1}/{size}")
                else:
                    self.send_response(200)
                self._meta(name)
                self.send_header("Content-Length", str(size - start))
                self.end_headers()
                with hub.lock:
                    hub.gets[name] += 1
                sent = 0
                try:
                    with hub.files[name].open("rb") as f:
                        f.seek(start)
                        offset = start
                        while block := f.read(BLOCK):
                            if hub.hold_at is not None and offset >= hub.hold_at:
                                hub.release.wait(60)  # the test acts on what arrived, then lets the rest go
                            block = hub._tampered(name, offset, block)
                            self.wfile.write(block)
                            sent += len(block)
                            offset += len(block)
                except (BrokenPipeError, ConnectionResetError):
                    self.close_connection = True  # the client stopped reading (a cancelled download)
                finally:
                    with hub.lock:
                        hub.served.append(Served(name, start, sent))

            def _api(self) -> None:
                if "/tree/" in self.path:  # the file listing
                    info: object = [{"type": "file", "path": n, "size": p.stat().st_size,
                                     "oid": hashlib.sha1(p.read_bytes()).hexdigest()}
                                    for n, p in hub.files.items()]
                else:
                    info = {"id": hub.repo, "sha": COMMIT, "siblings": [{"rfilename": n} for n in hub.files]}
                body = json.dumps(info).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ClosingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def _tampered(self, name: str, offset: int, block: bytes) -> bytes:
        at = self.damaged.get(name)
        if at is None or not offset <= at < offset + len(block):
            return block
        i = at - offset
        return block[:i] + bytes([block[i] ^ 0xFF]) + block[i + 1:]

    def sent(self, name: str) -> int:
        """The bytes of `name` served so far, over every GET."""
        with self.lock:
            return sum(s.sent for s in self.served if s.name == name)

    def close(self) -> None:
        self.release.set()
        self.server.shutdown()
        self.server.server_close()
        self.thread.join()


@contextmanager
def serving(monkeypatch: Any, repo: str, filename: str, path: Path) -> Iterator[LocalHub]:
    """A hub serving `path` as `repo`/`filename`, with huggingface_hub let online (the suite runs offline) and small
    reads (a cancel lands mid-file)."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    monkeypatch.setattr(constants, "DOWNLOAD_CHUNK_SIZE", 256 * 1024)
    hub = LocalHub(repo, {filename: path})
    try:
        yield hub
    finally:
        hub.close()

"""The built-in model: a GGUF file that vaultrag runs itself, with llama-cpp-python's OpenAI-compatible server as a
child process it manages, and then speaks to like any server (core/llm/openai_compat.py).

One server per (file, context, threads) per process, started on first use on a free port and ready when its
/v1/models answers; it stops after `llm_idle_minutes` unused, on `shutdown()` (the app's exit; the CLI's atexit),
and dies with this process even after a kill -9 (the child's side is core/llm/serve.py with core/lifeline.py). A
server that ends in the middle of an answer is a coded failure (MODEL_CRASHED) and starts again on the next one.
"""

from __future__ import annotations

import atexit
import contextlib
import importlib.util
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from vaultrag.core import wording
from vaultrag.core.llm.generator import ConnectionTest, Generated, LLMError, Message, connection_test
from vaultrag.core.llm.gguf import MAGIC, regular_file
from vaultrag.core.llm.openai_compat import NO_KEY, LLMConfig, OpenAICompatible
from vaultrag.core.llm.serve import MODEL_FILE_EXIT, NO_RUNTIME_EXIT
from vaultrag.core.model import Generation
from vaultrag.core.vocab import GenerationStatus, LLMFailure, ModelState
from vaultrag.engines import GENERATORS
from vaultrag.paths import log_dir
from vaultrag.settings import Settings

RUNTIME = ("llama_cpp", "uvicorn")  # what the server process imports (llama-cpp-python[server])
START_TIMEOUT_S = 600.0  # loading a multi-GB file from a slow disk
POLL_S = 0.25  # how often a starting server is asked for its models, and a running one looked at
PROBE_TIMEOUT_S = 2.0
CRASH_WAIT_S = 5.0  # after a failed answer: how long to wait to see whether the server has ended
STOP_WAIT_S = 10.0  # a stopped server has this long to end before it is killed

OnState = Callable[[ModelState], None]


def build(s: Settings) -> LocalModel | None:
    """The built-in model of the settings, or None when no file is set (the extractive answer stays)."""
    if not s.llm_gguf.strip():
        return None
    return LocalModel(Path(s.llm_gguf.strip()).expanduser(), context=s.llm_context, threads=threads(s.llm_threads),
                      idle_s=s.llm_idle_minutes * 60, temperature=s.llm_temperature, max_tokens=s.llm_max_tokens,
                      timeout=s.llm_timeout)


def threads(setting: int) -> int:
    """The threads to run the model on: the setting, or (0) every core this process may use."""
    if setting > 0:
        return setting
    affinity = getattr(os, "sched_getaffinity", None)
    return max(1, len(affinity(0)) if affinity is not None else os.cpu_count() or 1)


def runtime_missing() -> list[str]:
    """The server's packages that cannot be imported here (a module set to None in sys.modules counts as missing)."""
    missing = []
    for name in RUNTIME:
        try:
            found = importlib.util.find_spec(name) is not None
        except (ImportError, ValueError):  # ValueError: sys.modules[name] is None (marked unimportable)
            found = False
        if not found:
            missing.append(name)
    return missing


def install_words() -> str:
    """The command that installs the runtime (from the backend's line in vaultrag/engines.py)."""
    engine = GENERATORS.get("local")
    return engine.install if engine is not None else "pip install llama-cpp-python[server]"


def server_command(model: Path, port: int, context: int, n_threads: int, alias: str) -> list[str]:
    """The child's command line: this interpreter running core/llm/serve.py, or the frozen app's `--llm-server`."""
    args = ["--parent", str(os.getpid()), "--model", str(model), "--port", str(port), "--ctx", str(context),
            "--threads", str(n_threads), "--alias", alias]
    if getattr(sys, "frozen", False):  # packaging/launcher.py dispatches --llm-server to serve.main
        return [sys.executable, "--llm-server", *args]
    return [sys.executable, "-m", "vaultrag.core.llm.serve", *args]


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass(frozen=True)
class ServerKey:
    """What makes two servers different: the file and how it runs."""

    model: Path
    context: int
    threads: int


class ModelError(Exception):
    """The server could not be made ready: a coded failure and the detail that words it."""

    def __init__(self, kind: LLMFailure, detail: str = "", status: str = "") -> None:
        super().__init__(kind, detail)
        self.kind, self.detail, self.status = kind, detail, status


class ModelServer:
    """One child server process and the thread that keeps it: the thread starts the process (the kernel's
    parent-death signal follows the thread that started a child, so it lives exactly as long as the process),
    waits for it, and stops it when it has been idle too long or is told to stop."""

    def __init__(self, key: ServerKey, alias: str) -> None:
        self.key, self.alias = key, alias
        self._starting = threading.Lock()  # one start at a time; the others wait for its outcome
        self._cond = threading.Condition()
        self.proc: subprocess.Popen[bytes] | None = None
        self.url = ""
        self.idle_s = 600.0
        self._keeper: threading.Thread | None = None
        self._busy = 0
        self._last_used = time.monotonic()
        self._stop = False
        self._crashed = False  # it ended on its own (not idle, not told): the next start is a restart
        self.exit_code: int | None = None
        self._log: Path | None = None

    # -- state --------------------------------------------------------------------------------------------------
    @property
    def pid(self) -> int | None:
        proc = self.proc
        return proc.pid if proc is not None and proc.poll() is None else None

    def running(self) -> bool:
        return self.pid is not None and bool(self.url)

    @property
    def crashed(self) -> bool:
        """Whether it ended on its own after it was ready (not idle, not told to stop)."""
        return self._crashed

    def idle(self) -> bool:
        with self._cond:
            return self._busy == 0

    @contextlib.contextmanager
    def using(self) -> Iterator[None]:
        """Busy while inside: no idle stop in the middle of a start or an answer."""
        with self._cond:
            self._busy += 1
        try:
            yield
        finally:
            with self._cond:
                self._busy -= 1
                self._last_used = time.monotonic()
                self._cond.notify_all()

    # -- start --------------------------------------------------------------------------------------------------
    def ensure(self, on_state: OnState | None, idle_s: float) -> str:
        """The running server's URL, started first when it is not running (raises ModelError)."""
        with self._starting:
            self.idle_s = idle_s
            if self.running():
                if on_state is not None:
                    on_state(ModelState.READY)
                return self.url
            self.join()  # a server that ended (idle, crashed): its keeper is finishing
            if on_state is not None:
                on_state(ModelState.RESTARTING if self._crashed else ModelState.LOADING)
            self._start()
            if on_state is not None:
                on_state(ModelState.READY)
            return self.url

    def _start(self) -> None:
        missing = runtime_missing()
        if missing:
            raise ModelError(LLMFailure.NO_RUNTIME, install_words())
        port = free_port()
        # in the app home, not /tmp: what the server prints may quote the prompt (the notes), and a log there
        # outlived a killed app where every user could list it; mkstemp makes it this user's only
        folder = log_dir()
        try:
            folder.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd, log = tempfile.mkstemp(prefix="llm-server-", suffix=".log", dir=folder)
        except OSError as e:
            raise ModelError(LLMFailure.MODEL_START, f"cannot write the server's log in {folder}: {e.strerror or e}"
                             ) from e
        os.close(fd)
        self._log = Path(log)
        cmd = server_command(self.key.model, port, self.key.context, self.key.threads, self.alias)
        spawned = threading.Event()
        failed: list[BaseException] = []
        with self._cond:
            self._stop, self._crashed, self.exit_code, self.url = False, False, None, ""
            self._last_used = time.monotonic()
        keeper = threading.Thread(target=self._keep, args=(cmd, spawned, failed), name="vaultrag-llm-server",
                                  daemon=True)  # daemon: the CLI's atexit (after non-daemon joins) stops it
        self._keeper = keeper
        keeper.start()
        spawned.wait()
        if failed:
            raise ModelError(LLMFailure.MODEL_START, f"{type(failed[0]).__name__}: {failed[0]}")
        url = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + START_TIMEOUT_S
        while not self._answers(url):
            code = self.wait_ended(POLL_S)
            if code is not None:
                raise self._start_failure(code)
            if time.monotonic() > deadline:
                self.stop()
                raise ModelError(LLMFailure.MODEL_START, wording.LLM_NO_ANSWER, f"{START_TIMEOUT_S:g}")
        with self._cond:
            self.url = url
            self._last_used = time.monotonic()

    def _keep(self, cmd: list[str], spawned: threading.Event, failed: list[BaseException]) -> None:
        assert self._log is not None
        try:
            with self._log.open("wb") as log:  # a file, not a pipe: nobody reads a pipe while the server runs
                env = {**os.environ, "OMP_WAIT_POLICY": "PASSIVE"}  # no spinning threads: the app shares the cores
                self.proc = proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=log,
                                                    stderr=subprocess.STDOUT, env=env)
        except OSError as e:
            failed.append(e)
            spawned.set()
            return
        spawned.set()
        told = False
        with self._cond:
            while proc.poll() is None:
                idle = self._busy == 0 and bool(self.url) and time.monotonic() - self._last_used >= self.idle_s
                if self._stop or idle:
                    told = True
                    break
                self._cond.wait(POLL_S)
        if told:
            _end(proc)
        code = proc.wait()
        with self._cond:
            self.exit_code = code
            self._crashed = not told and bool(self.url)  # ended by itself after it was ready
            self.url = ""
            self._cond.notify_all()

    def _answers(self, url: str) -> bool:
        """Whether the server lists the model (it loads the file before it listens)."""
        try:
            with urllib.request.urlopen(f"{url}/models", timeout=PROBE_TIMEOUT_S) as r:
                listed = json.loads(r.read())
        except (OSError, ValueError):  # refused, reset, timed out (URLError is an OSError), not JSON
            return False
        return any(m.get("id") == self.alias for m in listed.get("data", []) if isinstance(m, dict))

    def _start_failure(self, code: int) -> ModelError:
        said = self.log_tail()
        if code == NO_RUNTIME_EXIT:
            return ModelError(LLMFailure.NO_RUNTIME, install_words())
        if code == MODEL_FILE_EXIT:
            return ModelError(LLMFailure.MODEL_FILE, said or wording.LLM_NOT_GGUF)
        return ModelError(LLMFailure.MODEL_START, said or wording.LLM_EXITED, str(code))

    def log_tail(self) -> str:
        """The server's last line of output (what it said when it failed)."""
        try:
            lines = [ln.strip() for ln in (self._log.read_text(errors="replace") if self._log else "").splitlines()]
        except OSError:
            return ""
        return next((ln for ln in reversed(lines) if ln), "")[-300:]

    # -- end ----------------------------------------------------------------------------------------------------
    def wait_ended(self, timeout: float) -> int | None:
        """The exit code once the server process has ended (within `timeout`), else None."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while self.exit_code is None and self._keeper is not None and self._keeper.is_alive():
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self._cond.wait(min(left, POLL_S))
            return self.exit_code

    def stop(self) -> None:
        """Stop the server (if it runs) and wait for its keeper."""
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        self.join()

    def join(self) -> None:
        keeper = self._keeper
        if keeper is not None and keeper is not threading.current_thread():
            keeper.join()
        if self._log is not None:
            with contextlib.suppress(OSError):
                self._log.unlink()
            self._log = None


def _end(proc: subprocess.Popen[bytes]) -> None:
    proc.terminate()
    try:
        proc.wait(STOP_WAIT_S)
    except subprocess.TimeoutExpired:
        proc.kill()


_SERVERS: dict[ServerKey, ModelServer] = {}
_LOCK = threading.Lock()
_ATEXIT: list[bool] = []


def server_for(key: ServerKey, alias: str) -> ModelServer:
    """This process's server for `key` (one per key); registers the exit's clean-up once."""
    with _LOCK:
        if not _ATEXIT:
            atexit.register(shutdown)
            _ATEXIT.append(True)
        server = _SERVERS.get(key)
        if server is None:
            server = _SERVERS[key] = ModelServer(key, alias)
        return server


def servers() -> list[ModelServer]:
    with _LOCK:
        return list(_SERVERS.values())


def shutdown() -> None:
    """Stop every built-in model's server of this process (the app's exit, the CLI's atexit)."""
    for server in servers():
        server.stop()


class LocalModel:
    """A GGUF file run by vaultrag: speaks the Generator protocol through an OpenAI-compatible client of its own
    server, which it starts on first use (or `prepare`) and restarts after a crash."""

    def __init__(self, path: Path, context: int = 4096, threads: int = 1, idle_s: float = 600.0,
                 temperature: float = 0.2, max_tokens: int = 512, timeout: float = 60.0) -> None:
        self.path = path
        self.key = ServerKey(path.resolve() if path.exists() else path, context, threads)
        self.idle_s = idle_s
        self.temperature, self._max_tokens, self.timeout = temperature, max_tokens, timeout

    @property
    def model(self) -> str:
        return self.path.stem

    @property
    def address(self) -> str:
        return str(self.path)

    @property
    def max_tokens(self) -> int:
        return self._max_tokens

    @property
    def server(self) -> ModelServer:
        return server_for(self.key, self.model)

    def _check_file(self) -> None:
        if self.path.exists() and not regular_file(self.path):
            # a FIFO would block the open below (and the server's) for ever; a folder or a device is no model either
            raise ModelError(LLMFailure.MODEL_FILE, wording.LLM_NOT_GGUF)
        try:
            with self.path.open("rb") as f:
                magic = f.read(len(MAGIC))
        except FileNotFoundError as e:
            raise ModelError(LLMFailure.MODEL_FILE, wording.LLM_NOT_FOUND) from e
        except OSError as e:
            raise ModelError(LLMFailure.MODEL_FILE, f"{type(e).__name__}: {e.strerror}") from e
        if magic != MAGIC:
            raise ModelError(LLMFailure.MODEL_FILE, wording.LLM_NOT_GGUF)

    def _ready(self, on_state: OnState | None) -> str:
        self._check_file()
        server = self.server
        for other in servers():  # one model in memory at a time: another file's idle server goes
            if other is not server and other.running() and other.idle():
                other.stop()
        return server.ensure(on_state, self.idle_s)

    def details(self, error: ModelError) -> dict[str, str]:
        """What words a failure (`wording.llm_failure`)."""
        return {"where": str(self.path), "model": self.model, "timeout": f"{self.timeout:g}", "status": error.status,
                "detail": error.detail}

    def error(self, e: ModelError) -> LLMError:
        details = self.details(e)
        return LLMError(e.kind, wording.llm_failure(e.kind, details), **details)

    def prepare(self, on_state: OnState | None = None) -> None:
        """Start the model's server unless it runs, telling `on_state` (LOADING or RESTARTING, then READY)."""
        with self.server.using():
            try:
                self._ready(on_state)
            except ModelError as e:
                raise self.error(e) from e

    def _delegate(self, url: str) -> OpenAICompatible:
        return OpenAICompatible(LLMConfig(url, self.model, NO_KEY, self.temperature, self._max_tokens, self.timeout))

    def generate(self, messages: Sequence[Message], on_piece: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None, temperature: float | None = None,
                 max_tokens: int | None = None) -> Generated:
        """Start the server if needed, then stream the answer from it; a server that ends meanwhile is MODEL_CRASHED."""
        started = time.perf_counter()
        server = self.server
        with server.using():
            try:
                url = self._ready(None)
            except ModelError as e:
                return self._failed(e, started)
            got = self._delegate(url).generate(messages, on_piece, cancel, temperature, max_tokens)
            if got.record.failure is None or got.record.failure in (LLMFailure.BAD_MODEL, LLMFailure.AUTH):
                return got
            code = server.wait_ended(CRASH_WAIT_S)
            if code is None or not server.crashed:
                return got
        crash = ModelError(LLMFailure.MODEL_CRASHED, wording.LLM_EXITED, str(code))
        record = got.record
        record.failure, record.failure_details = crash.kind, self.details(crash)
        record.error = wording.llm_failure(crash.kind, record.failure_details)
        return got

    def _failed(self, e: ModelError, started: float) -> Generated:
        details = self.details(e)
        return Generated("", Generation(self.model, str(self.path), GenerationStatus.FAILED,
                                        total_ms=round((time.perf_counter() - started) * 1000, 1), failure=e.kind,
                                        error=wording.llm_failure(e.kind, details), failure_details=details))

    def list_models(self) -> list[str]:
        """The one model this backend runs: its file's name (checked, not started)."""
        try:
            self._check_file()
        except ModelError as e:
            raise self.error(e) from e
        return [self.model]

    def test_connection(self) -> ConnectionTest:
        return connection_test(self)

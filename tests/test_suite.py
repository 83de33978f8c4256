"""The suite's own promises: a run without the shared eval data says so loudly, and the cached index is keyed by
what it depends on."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

from tests.index_cache import content_key

ROOT = Path(__file__).resolve().parents[1]


def test_a_run_without_the_shared_data_says_so_in_its_summary(tmp_path: Path):
    (tmp_path / "conftest.py").write_text("from tests.conftest import pytest_terminal_summary  # noqa: F401\n",
                                          encoding="utf-8")
    (tmp_path / "test_needs.py").write_text("from tests.conftest import needs_eval\n\n\n"
                                            "def test_needs():\n    needs_eval('no-such-set')\n\n\n"
                                            "def test_other():\n    pass\n", encoding="utf-8")
    r = subprocess.run([sys.executable, "-m", "pytest", str(tmp_path), "-q", "-p", "no:cacheprovider"], cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "SHARED EVAL DATA MISSING: 1 test(s) did not run" in r.stdout, r.stdout
    assert "no-such-set" in r.stdout.split("SHARED EVAL DATA MISSING")[1]


def test_the_cached_index_key_follows_the_vault_and_not_a_copy_of_it(tmp_path: Path):
    vault = tmp_path / "v"
    shutil.copytree(ROOT / "resources" / "demo-vault", vault)
    key = content_key(vault)
    copy = tmp_path / "elsewhere" / "v"
    shutil.copytree(vault, copy)
    assert content_key(copy) == key, "the same files give the same key wherever they are"
    (vault / "Início.md").write_text("# Início\n\nchanged\n", encoding="utf-8")
    assert content_key(vault) != key, "a changed note builds a new index"
    (vault / "Início.md").rename(vault / "Inicio.md")
    assert content_key(vault) not in (key, content_key(copy)), "so does a renamed one"

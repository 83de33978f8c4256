"""The import architecture: the core is Qt-free, and no two parts of the package import each other (import-linter)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
LINT = Path(sys.executable).with_name("lint-imports")

CODE = """
import sys, pkgutil, importlib
import vaultrag.core
for m in pkgutil.walk_packages(vaultrag.core.__path__, "vaultrag.core."):
    importlib.import_module(m.name)
import vaultrag.cli.query, vaultrag.cli.watch
heavy = sorted(n for n in ("PySide6", "torch", "sentence_transformers", "matplotlib") if n in sys.modules)
print(",".join(heavy) or "clean")
"""


def test_core_imports_no_qt_and_no_heavy_optional_packages():
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "clean"


def lint(root: Path, *contracts: str) -> subprocess.CompletedProcess[str]:
    """lint-imports on the package under `root` (its pyproject.toml's contracts; `contracts` picks some by id)."""
    ids = [a for c in contracts for a in ("--contract", c)]
    return subprocess.run([str(LINT), "--no-cache", "--no-logo", *ids], cwd=root, capture_output=True, text=True,
                          timeout=120)


def test_the_import_contracts_hold():
    r = lint(REPO)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "0 broken" in r.stdout


@pytest.mark.parametrize(("module", "back_import"), [
    ("vaultrag/cli/llm.py", "from vaultrag.cli.query import check_question"),  # two commands importing each other
    ("vaultrag/errors.py", "from vaultrag.core import vocab"),  # errors over the core that raises them
    ("vaultrag/core/store/reads.py", "from vaultrag.core.query import search"),  # the store over the query flow
    ("vaultrag/app/words.py", "from vaultrag.app import controller"),  # the window's words over the controller
])
def test_an_import_cycle_breaks_the_acyclic_contract(tmp_path: Path, module: str, back_import: str):
    shutil.copytree(REPO / "vaultrag", tmp_path / "vaultrag", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(REPO / "pyproject.toml", tmp_path)
    assert lint(tmp_path, "acyclic").returncode == 0, "the copy starts acyclic"
    with (tmp_path / module).open("a", encoding="utf-8") as f:
        f.write(f"\n{back_import}  # noqa\n")
    r = lint(tmp_path, "acyclic")
    assert r.returncode != 0 and "No cycles are allowed" in r.stdout, r.stdout

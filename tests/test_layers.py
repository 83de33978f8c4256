"""The core is Qt-free: importing and running it never loads PySide6 (the import-linter contract, enforced)."""

from __future__ import annotations

import subprocess
import sys

CODE = """
import sys, pkgutil, importlib
import vaultrag.core
for m in pkgutil.walk_packages(vaultrag.core.__path__, "vaultrag.core."):
    importlib.import_module(m.name)
import vaultrag.cli_query, vaultrag.cli_watch
heavy = sorted(n for n in ("PySide6", "torch", "sentence_transformers", "matplotlib") if n in sys.modules)
print(",".join(heavy) or "clean")
"""


def test_core_imports_no_qt_and_no_heavy_optional_packages():
    r = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "clean"

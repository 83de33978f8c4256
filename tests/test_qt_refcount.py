"""PySide6 6.12.0 on Python 3.11 drops a reference to None on every void Qt call: the app keeps None alive
(vaultrag/app/qt_refcount.py), so a long session does not abort with "none_dealloc"."""

from __future__ import annotations

import os
import subprocess
import sys

CALLS = 20_000  # 4× what took None's count to 0 in a bare process
SCRIPT = f"""
import sys
if sys.argv[1] == "app":
    import vaultrag.app  # noqa: F401
from PySide6.QtWidgets import QApplication, QLabel
app = QApplication([])
label = QLabel()
for _ in range({CALLS}):
    label.setText("a")
print("alive")
"""


def run(mode: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", SCRIPT, mode], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def test_a_long_session_of_qt_calls_keeps_none_alive():
    got = run("app")
    assert got.returncode == 0 and got.stdout.strip() == "alive", got.stderr[-500:]
    bare = run("bare")  # without the app's guard: aborts where the bindings have the bug, lives where not
    if sys.version_info < (3, 12) and bare.returncode != 0:
        assert "none_dealloc" in bare.stderr

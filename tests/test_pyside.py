"""The Qt binding itself: PySide6 6.12.0 on Python 3.11 drops a reference to True on every Signal.emit() from
Python, and the interpreter aborts ("bool_dealloc") after a few hundred; pyproject.toml keeps that version out."""

from __future__ import annotations

import subprocess
import sys

EMITS = """
import sys
from PySide6.QtCore import QCoreApplication, QObject, Signal

class Emitter(QObject):
    said = Signal(object)

app = QCoreApplication([])
e, got = Emitter(), []
e.said.connect(got.append)
before = sys.getrefcount(True)
for n in range(20_000):  # an answer streamed piece by piece, an index's progress: thousands of emits
    e.said.emit(n)
print(len(got), sys.getrefcount(True) - before)
"""


def test_twenty_thousand_emits_leave_true_alone_and_the_process_exits_cleanly():
    r = subprocess.run([sys.executable, "-c", EMITS], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    delivered, drift = map(int, r.stdout.split())
    assert delivered == 20_000 and abs(drift) < 100, r.stdout

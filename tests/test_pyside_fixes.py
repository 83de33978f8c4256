"""The PySide6 work-arounds: a process that emits many signals from Python exits cleanly."""

from __future__ import annotations

import os
import subprocess
import sys

EMITS = """
from PySide6.QtCore import QCoreApplication, QObject, Signal
{setup}
app = QCoreApplication([])
class Source(QObject):
    changed = Signal(object)
source = Source()
source.changed.connect(lambda value: None)
for i in range(20_000):
    source.changed.emit(i)
print("emitted")
"""


def run(setup: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", EMITS.format(setup=setup)], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})


def test_many_emits_do_not_abort_the_app():
    """PySide6 6.12 on Python 3.11 loses a reference to True per emit: without the fix such a process aborts
    ("bool_dealloc"); with the app package imported it exits 0."""
    fixed = run("import vaultrag.app")
    assert fixed.returncode == 0 and "emitted" in fixed.stdout, fixed.stderr[-2000:]
    bare = run("")
    if bare.returncode != 0:  # the bug is in this PySide6: the fix is what made the difference
        assert "bool_dealloc" in bare.stderr

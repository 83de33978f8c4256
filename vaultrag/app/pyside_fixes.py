"""Work-arounds for bugs of the PySide6 in use, applied once when the app package is imported."""

from __future__ import annotations

import ctypes
import sys

IMMORTAL = 1 << 40  # what Python 3.12 gives True and False: a count no drift reaches


def keep_bools_alive() -> bool:
    """PySide6 6.12 on Python 3.11: `SignalInstance.emit` returns True without owning a reference to it, so every
    emit made from Python takes one of True's references away, and after a few hundred emits Python aborts
    ("Fatal Python error: bool_dealloc", at exit or earlier). Python 3.12 made True and False immortal; on an older
    Python whose PySide6 loses references, give both a reference count no number of emits can use up (a bool is
    never freed anyway). Returns whether it was needed."""
    if sys.version_info >= (3, 12):
        return False
    from PySide6.QtCore import QObject, Signal

    class Probe(QObject):
        ping = Signal()

    probe = Probe()
    before = sys.getrefcount(True), sys.getrefcount(False)
    for _ in range(8):
        probe.ping.emit()
    if (sys.getrefcount(True), sys.getrefcount(False)) >= before:
        return False
    for value in (True, False):
        ctypes.c_ssize_t.from_address(id(value)).value += IMMORTAL  # ob_refcnt, the first field of every object
    return True

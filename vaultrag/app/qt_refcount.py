"""Keeps None, True and False alive under PySide6 6.12.0 on Python 3.11, whose bindings drop a reference to the
returned None on every call of a void Qt method (Python 3.12+ never frees them: they are immortal there)."""

from __future__ import annotations

import ctypes
import sys

# ~5,000 calls such as QLabel.setText took None's count to 0 and aborted the process ("none_dealloc"); a window
# makes that many in minutes. A large count on the three singletons (never freed anyway) keeps them from 0.
SPARE_REFS = 1 << 40


def keep_singletons_alive() -> bool:
    """Add SPARE_REFS to None, True and False where the bug can bite; returns whether it did."""
    if sys.version_info >= (3, 12):
        return False
    for obj in (None, True, False):
        ctypes.c_ssize_t.from_address(id(obj)).value += SPARE_REFS  # ob_refcnt: a PyObject's first field
    return True

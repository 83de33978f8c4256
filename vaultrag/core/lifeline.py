"""A child process that must not outlive the process that started it (parsing workers, the model's server)."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
import time

WATCH_S = 1.0  # how often the watch looks at the parent: the child is gone within about this long


def die_with_parent(parent: int) -> None:
    """Make this process die when `parent` does, even after its kill -9 (which runs no clean-up of the parent's):
    the kernel kills it on Linux (PR_SET_PDEATHSIG); everywhere a thread watches the parent's pid too, because the
    kernel's signal follows the parent THREAD that started the child, not only the process."""
    if sys.platform == "linux":
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    if os.getppid() != parent:  # the parent died while this process was starting
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_S)
        os._exit(1)

    threading.Thread(target=watch, name="vaultrag-parent-watch", daemon=True).start()

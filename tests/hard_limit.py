"""A hard per-test time limit that holds when the main thread is stuck in native code: every thread's stack, then exit.

pytest-timeout's limit is Python code: its signal handler runs only when the main thread runs bytecode, and its
thread method needs the GIL — a test deadlocked in Qt while holding the GIL (the freeze of app/collector.py) sat
there for good. faulthandler's watchdog is a C thread that needs no GIL: past the limit it writes every thread's
Python stack to the terminal and ends the process, so a hung suite fails and says where, instead of never ending.
Loaded with `-p tests.hard_limit` (pyproject's addopts) before pytest captures the output, so the stacks reach the
real stderr.
"""

from __future__ import annotations

import contextlib
import faulthandler
import os
import sys
from collections.abc import Iterator

import pytest

# pytest-timeout's 600 s (pyproject) fires first when Python can still run; this one a minute later, when it cannot
HARD_LIMIT_S = float(os.environ.get("VAULTRAG_TEST_HARD_LIMIT_S", "660"))
_stderr = os.fdopen(os.dup(sys.stderr.fileno()), "w")  # the terminal, taken before pytest redirects fd 2


def _arm(seconds: float) -> None:
    faulthandler.dump_traceback_later(seconds, repeat=False, file=_stderr, exit=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """Arm the watchdog for the test's setup, call and teardown (the main thread's stack names the test)."""
    _arm(HARD_LIMIT_S)
    try:
        yield
    finally:
        faulthandler.cancel_dump_traceback_later()


@contextlib.contextmanager
def watchdog(seconds: float) -> Iterator[None]:
    """A shorter limit inside a test (a scenario that could deadlock): stacks and exit past `seconds`, then the
    test's own limit again."""
    _arm(seconds)
    try:
        yield
    finally:
        _arm(HARD_LIMIT_S)


def pytest_unconfigure(config: pytest.Config) -> None:
    faulthandler.cancel_dump_traceback_later()
    _stderr.close()

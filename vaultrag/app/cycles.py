"""No reference cycle through a QObject: callbacks that hold their object weakly, exceptions kept without frames.

Python's collector frees a cycle on whichever thread allocates next, and a QObject freed off the GUI thread
deadlocks against it (app/collector.py keeps the automatic collector off the workers; these keep the app's own
QObjects out of cycles, so even a collection on a worker has none to free)."""

from __future__ import annotations

import weakref
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
E = TypeVar("E", bound=BaseException)


def weak_method(method: Callable[..., T], dead: Any = None) -> Callable[..., T]:
    """`method` (a bound method) called through a weak reference to its object; returns `dead` once that is gone
    (a child widget or a worker that kept the bound method itself would make a cycle through its object)."""
    ref = weakref.WeakMethod(method)

    def call(*args: Any, **kwargs: Any) -> T:
        bound = ref()
        return dead if bound is None else bound(*args, **kwargs)

    return call


def detached(error: E) -> E:
    """`error` with no traceback, in its whole chain: an exception kept past its `except` (to be worded on the GUI
    thread) holds its frames, and they hold the closure that keeps it — a cycle through every QObject they name."""
    seen: set[int] = set()
    stack: list[BaseException | None] = [error]
    while stack:
        e = stack.pop()
        if e is None or id(e) in seen:
            continue
        seen.add(id(e))
        e.__traceback__ = None
        stack += [e.__cause__, e.__context__]
    return error

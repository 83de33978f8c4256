"""Which thread runs the core's work while a window test drives the app: the GUI thread must run none of it."""

from __future__ import annotations

import functools
import importlib
import inspect
import pkgutil
import threading
from collections.abc import Callable
from typing import Any

import pytest

from vaultrag.core import embedders
from vaultrag.core.embedders import e5onnx
from vaultrag.core.index.indexer import Indexer
from vaultrag.core.query.search import Asked, Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.store.reads import QueryReads


def _embedder_classes() -> tuple[type, ...]:
    """Every embedder backend (one module each in core/embedders/): the classes that embed passages."""
    found: list[type] = []
    for info in pkgutil.iter_modules(embedders.__path__):
        module = importlib.import_module(f"{embedders.__name__}.{info.name}")
        found += [c for c in vars(module).values() if inspect.isclass(c) and c.__module__ == module.__name__
                  and callable(getattr(c, "embed_passages", None))]
    return tuple(found)


# the core's blocking work: every read and write of the index, indexing, searching (and a model's answer after
# it: Asked.finish), loading and running a model
CORE = (IndexStore, QueryReads, Indexer, Searcher, Asked, e5onnx.OnnxE5, *_embedder_classes())
NOT_WORK = {"Asked.trace"}  # the trace the lane computed, as a value: no index, no model


class CoreCalls:
    """Records (thread name, Class.method) for every call into CORE while it is installed."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []
        self.recording = True
        self._lock = threading.Lock()

    def on_gui_thread(self) -> list[str]:
        return [what for thread, what in self.calls if thread == threading.main_thread().name]

    def elsewhere(self) -> set[str]:
        return {what for thread, what in self.calls if thread != threading.main_thread().name}

    def _wrap(self, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        def spy(*args: Any, **kwargs: Any) -> Any:
            if self.recording:
                with self._lock:
                    self.calls.append((threading.current_thread().name, name))
            return fn(*args, **kwargs)

        return spy

    def install(self, monkeypatch: pytest.MonkeyPatch) -> CoreCalls:
        """Wrap each public method, classmethod and constructor of CORE (the wrappers only record, then call)."""
        for cls in CORE:
            for attr, value in list(vars(cls).items()):
                if attr.startswith("_") and attr != "__init__":
                    continue
                name = f"{cls.__name__}.{attr}"
                if name in NOT_WORK:
                    continue
                if isinstance(value, classmethod):
                    monkeypatch.setattr(cls, attr, classmethod(self._wrap(name, value.__func__)))
                elif isinstance(value, staticmethod):
                    monkeypatch.setattr(cls, attr, staticmethod(self._wrap(name, value.__func__)))
                elif inspect.isfunction(value):
                    monkeypatch.setattr(cls, attr, self._wrap(name, value))
        return self

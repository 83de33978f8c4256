"""Which thread runs the core's work while a window test drives the app: the GUI thread must run none of it."""

from __future__ import annotations

import functools
import inspect
import threading
from collections.abc import Callable
from typing import Any

import pytest

from vaultrag.core import e5onnx, embed
from vaultrag.core.index.indexer import Indexer
from vaultrag.core.query.search import Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.store.reads import QueryReads

# the core's blocking work: every read and write of the index, indexing, searching, loading and running a model
CORE = (IndexStore, QueryReads, Indexer, Searcher, embed.E5Embedder, embed.UseEmbedder,
        embed.SentenceTransformerEmbedder, e5onnx.OnnxE5)


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
                if isinstance(value, classmethod):
                    monkeypatch.setattr(cls, attr, classmethod(self._wrap(name, value.__func__)))
                elif isinstance(value, staticmethod):
                    monkeypatch.setattr(cls, attr, staticmethod(self._wrap(name, value.__func__)))
                elif inspect.isfunction(value):
                    monkeypatch.setattr(cls, attr, self._wrap(name, value))
        return self

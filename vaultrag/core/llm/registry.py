"""The generation backends, one line each, and the factory that builds the configured one from the settings."""

from __future__ import annotations

import sys
from typing import Protocol, cast

from vaultrag.core import engine_build
from vaultrag.core.llm.generator import FoundServer, Generator
from vaultrag.engines import GENERATORS, GeneratorEngine
from vaultrag.errors import Problem, UserFacingError
from vaultrag.settings import Settings


class Backend(Protocol):
    """What a generation backend's module offers (named by its line in `vaultrag/engines.py`'s GENERATORS)."""

    def build(self, s: Settings) -> Generator | None: ...


def _backend(engine: GeneratorEngine) -> Backend:
    return cast(Backend, engine_build.backend(engine))


def from_settings(s: Settings, need_model: bool = True) -> Generator | None:
    """The configured language model, or None when none is set; `need_model` False when only its models are
    listed."""
    generator = cast("Generator | None", engine_build.build(GENERATORS, s))
    if generator is not None and need_model and not generator.model:
        generator.list_models()  # a server that is down or wrong says so first: there is no model to choose yet
        raise UserFacingError(Problem.LLM_NO_MODEL, where=generator.address)
    return generator


def detect_local_servers(s: Settings) -> list[FoundServer]:
    """The servers of every backend that can look for one, answering on this machine."""
    found: list[FoundServer] = []
    for engine in GENERATORS:
        detect = getattr(_backend(engine), "detect", None)  # a backend that cannot look for a server has none
        if detect is not None:
            found += detect(s)
    return found


def shutdown() -> None:
    """Stop what the backends run for this process (the built-in model's server): the app's exit. Only backends
    already imported can have started something, so none is imported here."""
    for engine in GENERATORS:
        module = sys.modules.get(engine.module or "")
        stop = getattr(module, "shutdown", None) if module is not None else None
        if stop is not None:
            stop()

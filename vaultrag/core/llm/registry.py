"""The generation backends, one line each, and the factory that builds the configured one from the settings."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from vaultrag import settings as settings_mod
from vaultrag.core.llm import openai_compat
from vaultrag.core.llm.generator import FoundServer, Generator
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings


@dataclass(frozen=True)
class Backend:
    """How to build one backend from the settings (None: not configured, the extractive answer stays) and, when it
    can, how to find one already running on this machine (the first run's offer)."""

    build: Callable[[Settings], Generator | None]
    detect: Callable[[Settings], list[FoundServer]] | None = None


# llm_backend → its backend. A new backend is one module and one line here.
GENERATORS: dict[str, Backend] = {
    "openai": Backend(openai_compat.from_settings, openai_compat.detect_local_servers),
}
# the llm_backend setting's values: settings never import the core, so this registry fills their hook
settings_mod.GENERATORS.fill(lambda: {name: name for name in GENERATORS})


def from_settings(s: Settings, need_model: bool = True) -> Generator | None:
    """The configured language model, or None when none is set; `need_model` False when only its models are
    listed."""
    backend = GENERATORS.get(s.llm_backend)
    if backend is None:
        raise UserFacingError(f"Unknown llm_backend {s.llm_backend!r}: use one of {', '.join(sorted(GENERATORS))}.")
    generator = backend.build(s)
    if generator is not None and need_model and not generator.model:
        raise UserFacingError(f"A language model is set ({generator.address}) but no model: set llm_model "
                              f"(`vaultrag llm models` lists the server's models).")
    return generator


def detect_local_servers(s: Settings) -> list[FoundServer]:
    """The servers of every backend that can look for one, answering on this machine."""
    return [found for b in GENERATORS.values() if b.detect is not None for found in b.detect(s)]

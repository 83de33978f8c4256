"""The Translator protocol (a question from one language into another, offline) and the translator the settings
name, built from the registry (vaultrag/engines.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast

from vaultrag.core import engine_build
from vaultrag.engines import TRANSLATORS, TranslatorEngine

if TYPE_CHECKING:
    from vaultrag.settings import Settings


class Translator(Protocol):
    """Translates short texts (questions) between the language pairs it names."""

    model_id: str  # recorded in the trace beside each translation
    pairs: frozenset[tuple[str, str]]  # (source, target), ISO 639-1 codes

    def translate(self, text: str, source: str, target: str) -> str: ...


class TranslatorBackend(Protocol):
    """What a translator's module offers (core/translators/*.py)."""

    def build(self, settings: Settings) -> Translator: ...


def engine(settings: Settings) -> TranslatorEngine:
    """The engine the `translator` setting names (validated by Settings: always one of the registry's)."""
    return engine_build.engine(TRANSLATORS, settings)


def from_settings(settings: Settings) -> Translator | None:
    """The configured translator: None for `translator = "none"`; raises ModelUnavailable when its package is
    missing (the stage then says so and the question is searched as asked)."""
    return cast("Translator | None", engine_build.build(TRANSLATORS, settings))


def prepare() -> None:
    """Ready the translators that need it on the calling thread, which must outlive every question (the app's GUI
    thread): bergamot's native module (core/translators/bergamot.py). A missing package is said at the first
    question that needs it, not here."""
    import contextlib

    from vaultrag.core.translators import bergamot

    with contextlib.suppress(ImportError):
        bergamot.import_native()

"""The Embedder protocol, and the embedder the settings name, built from the registry (vaultrag/engines.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, cast, runtime_checkable

import numpy as np

from vaultrag.core import engine_build
from vaultrag.engines import EMBEDDERS, EmbedderEngine

if TYPE_CHECKING:
    from vaultrag.settings import Settings


@runtime_checkable
class Embedder(Protocol):
    """Turns chunk texts and questions into L2-normalized float32 vectors."""

    model_id: str  # pinned in the index; a different id marks the index stale
    dim: int
    max_tokens: int  # the model's input limit in its own tokens; longer chunks are flagged `truncated`

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

    def count_tokens(self, text: str) -> int: ...


def fit_to_model(model: Embedder, text: str) -> str:
    """`text` cut to the model's input limit (such chunks are flagged `truncated`): no embedder is ever handed
    more than it can take, whatever a note looks like."""
    limit = model.max_tokens
    cut = text[: limit * 16]  # no tokenizer makes 16+ characters per token on average: skip counting megabytes
    n = model.count_tokens(cut)
    while n > limit:
        cut = cut[: max(1, int(len(cut) * limit / n * 0.95))]
        n = model.count_tokens(cut)
    return cut


class EmbedderBackend(Protocol):
    """What an embedder's module offers (core/embedders/*.py)."""

    def build(self, settings: Settings, one_question: bool) -> Embedder: ...

    def describe(self, settings: Settings) -> str: ...


def engine(settings: Settings) -> EmbedderEngine:
    """The registry's entry for the settings' embedder."""
    return engine_build.engine(EMBEDDERS, settings)


def from_settings(settings: Settings, one_question: bool = False) -> Embedder:
    """The embedder the settings name (model loading happens here; call it off the GUI thread).

    `one_question`: the process embeds a single question (`vaultrag ask`): a backend may pick what loads fastest.
    """
    return cast(Embedder, engine_build.build(EMBEDDERS, settings, one_question))


def describe(settings: Settings) -> str:
    """The model id the settings would produce, without loading the model (for staleness checks)."""
    return cast(EmbedderBackend, engine_build.backend(engine(settings))).describe(settings)


def preload(settings: Settings) -> None:
    """Let the settings' embedder do, before any window shows, the parts of loading that hold the GIL (e5 on
    onnxruntime: core/embedders/e5.py); most backends have nothing to do."""
    entry = EMBEDDERS.get(settings.embedder)
    hook = getattr(entry.load(), "preload", None) if entry is not None else None
    if hook is not None:
        hook(settings)

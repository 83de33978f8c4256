"""A test-only embedder backend (the counting bag-of-words fake): one module, registered by tests/test_engines.py."""

from __future__ import annotations

from tests.fakes import CountingEmbedder
from vaultrag.settings import Settings

MODEL_ID = "test-bow/256"


def build(settings: Settings, one_question: bool) -> CountingEmbedder:
    return CountingEmbedder(MODEL_ID)


def describe(settings: Settings) -> str:
    return MODEL_ID

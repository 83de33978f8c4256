"""A test-only generation backend: a scripted model (tests/fakes.py's ScriptedGenerator); one module, registered by
tests/test_generate.py."""

from __future__ import annotations

from tests.fakes import ScriptedGenerator
from vaultrag.settings import Settings

MADE: list[ScriptedGenerator] = []  # every model built, so the test can count what each was asked


def build(s: Settings) -> ScriptedGenerator:
    model = ScriptedGenerator.from_settings(s)
    model.replies = ["What is the deadline for cancelling a refund?", "Seven business days [1]."]
    MADE.append(model)
    return model

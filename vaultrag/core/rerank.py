"""The Reranker protocol (what a reranker reads of a question and what it returns), and the reranker the settings
name, built from the registry (vaultrag/engines.py)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, cast

from vaultrag.core import engine_build
from vaultrag.core.model import Stage, StoredChunk
from vaultrag.core.vocab import StageName
from vaultrag.engines import RERANKERS

if TYPE_CHECKING:
    from vaultrag.settings import Settings


class QuestionSoFar(Protocol):
    """What a reranker may read of the question's state (core/query/state.py's QueryState is one): the lists so
    far, the cosines, the candidates' chunks and the languages; the built-in ranker computes its features from it."""

    @property
    def question(self) -> str: ...

    @property
    def language(self) -> str: ...

    @property
    def stages(self) -> Mapping[StageName, Stage]: ...

    @property
    def cosines(self) -> Mapping[int, float]: ...

    @property
    def chunks(self) -> Mapping[int, StoredChunk]: ...

    def note_languages(self, notes: list[str]) -> Mapping[str, str]: ...

    def chunk_links(self, ids: list[int]) -> Mapping[int, Sequence[tuple[str, int]]]: ...

    def view(self, language: str) -> QuestionSoFar: ...


@dataclass(frozen=True)
class RerankInput:
    """One question's fused candidates, best first, as a reranker reads them."""

    question: str
    chunk_ids: tuple[int, ...]
    texts: tuple[str, ...]  # each candidate's `prefix > text`: what a cross-encoder reads with the question
    state: QuestionSoFar  # the question's state so far: what the built-in ranker computes its features from


@dataclass(frozen=True)
class Reranked:
    """A reranker's answer: a score per candidate (higher is more relevant), in the input's order."""

    scores: tuple[float, ...]
    # per candidate, each feature's part of its score (a model that can explain itself, like the built-in ranker)
    contributions: tuple[Mapping[str, float], ...] | None = None
    note: str = ""  # what the stage says it did; empty: the reranker's model id


class Reranker(Protocol):
    """Re-scores one question's fused candidates."""

    model_id: str  # part of the threshold key: thresholds are per (embedder, reranker)

    def score(self, batch: RerankInput) -> Reranked: ...


class RerankerBackend(Protocol):
    """What a reranker's module offers (core/rerankers/*.py)."""

    def build(self, settings: Settings, models_dir: Path | None) -> Reranker: ...


def from_settings(settings: Settings, models_dir: Path | None = None) -> Reranker | None:
    """The configured reranker: None for an engine with nothing to build (`reranker = "none"`: the stage is then
    marked skipped), else its backend's. `models_dir` holds the cross-encoders downloaded from the hub."""
    return cast("Reranker | None", engine_build.build(RERANKERS, settings, models_dir))

"""The CrossEncoder reranker backend, loaded for real from a tiny cross-encoder the test builds and saves."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import rerank
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.query.search import Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.errors import ModelUnavailable
from vaultrag.settings import Settings

pytestmark = pytest.mark.st


def test_cross_encoder_backend_scores_pairs(tiny_cross_encoder: Path):
    ce = rerank.from_settings(Settings(reranker=str(tiny_cross_encoder)))
    assert ce is not None and ce.model_id == f"ce/{tiny_cross_encoder.name}"
    scores = ce.score("refund deadline", ["The refund takes seven days.", "The flight leaves at 7."])
    assert len(scores) == 2 and all(isinstance(s, float) for s in scores)
    assert ce.score("q", []) == []


def test_reranker_stage_reorders_the_fused_list(tiny_cross_encoder: Path, vault: Path, tmp_path: Path):
    for i in range(6):
        write(vault, f"n{i}.md", f"# Note {i}\n\nThe refund deadline for case {i} is {i + 3} days.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        ce = rerank.CrossEncoderReranker(str(tiny_cross_encoder))
        trace = Searcher(store, Settings(), embedder, ce).ask("refund deadline", threshold=-1)
    finally:
        store.close()
    stage = trace.stages["reranked"]
    assert stage.status == "ok" and stage.note == ce.model_id
    assert {c.chunk_id for c in stage.candidates} == {c.chunk_id for c in trace.stages["fused"].candidates}
    scores = [c.score for c in stage.candidates]
    assert scores == sorted(scores, reverse=True)
    assert trace.context[0].chunk_ids[0] == stage.candidates[0].chunk_id
    assert trace.settings["reranker"] == ce.model_id


def test_a_missing_cross_encoder_is_a_clear_error(tmp_path: Path):
    with pytest.raises(ModelUnavailable, match="Cannot load cross-encoder folder"):
        rerank.CrossEncoderReranker(str(tmp_path))
    assert rerank.from_settings(Settings(reranker="none")) is None

"""Rerankers drive the final order: the shipped built-in ranker on a vault built for it, and a real CrossEncoder
(a tiny one the test builds and saves) whose own scores of (question, `prefix > text`) decide the order."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import rerank
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.query.search import Searcher
from vaultrag.core.rerankers.builtin import LearnedRanker
from vaultrag.core.store.index_store import IndexStore
from vaultrag.errors import ModelUnavailable, Problem
from vaultrag.settings import Settings


def test_the_builtin_ranker_puts_the_note_that_answers_above_the_keyword_stuffed_ones(vault: Path, tmp_path: Path):
    """Two notes repeat the question's words (BM25 and the bag-of-words vectors put one of them first, and it says
    "please see [[Ops]]" for the answer); one note answers. The shipped ranker's features (the credit the pointer
    passes to its target, sentence coverage, the cosine gap) move the answer to the top: a reranker whose scores
    were ignored, or constant, would leave the fused order."""
    write(vault, "Backup.md", "# Backups\n\nBackup run checklist, backup run log, backup run owners. For when the "
                              "backup runs, please see [[Ops]].\n")
    write(vault, "Backup notes.md",
          "# Backup\n\nBackup, backup and more backup: the run book lists every backup run.\n")
    write(vault, "Ops.md", "# Ops\n\nThe nightly backup does run at 2 am, when the server is idle.\n")
    write(vault, "Garden.md", "# Garden\n\nWater the tomatoes when the soil is dry.\n")
    embedder = CountingEmbedder(floor=0.8)  # cosines in e5's range, where the ranker was fitted
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        ranker = rerank.from_settings(Settings(reranker="builtin"))
        assert isinstance(ranker, LearnedRanker)
        trace = Searcher(store, Settings(), embedder, ranker).ask("When does the backup run?", threshold=-1)
    finally:
        store.close()
    fused, reranked = trace.stages["fused"].candidates, trace.stages["reranked"].candidates
    assert fused[0].note == "Backup.md", "the vault is built to fool the fused list"
    assert reranked[0].note == "Ops.md" and trace.final[0].note == "Ops.md"
    assert trace.context[0].note == "Ops.md", "the answer is built from the reranked order"
    assert reranked[0].contributions is not None and reranked[0].contributions["pointed"] > 0
    scores = [c.score for c in reranked]
    assert scores == sorted(scores, reverse=True) and len(set(scores)) == len(scores)
    for c in reranked:  # each score is the sum of its features' parts: the ranker's own numbers, not the stage's
        assert c.contributions is not None and sum(c.contributions.values()) + ranker.bias == pytest.approx(c.score)


@pytest.mark.st
def test_cross_encoder_backend_scores_pairs(tiny_cross_encoder: Path):
    ce = rerank.from_settings(Settings(reranker=str(tiny_cross_encoder)))
    assert ce is not None and ce.model_id == f"ce/{tiny_cross_encoder.name}"
    predict = ce.predict  # type: ignore[attr-defined]
    scores = predict("refund deadline", ["The refund takes seven days.", "The flight leaves at 7."])
    assert len(scores) == 2 and all(isinstance(s, float) for s in scores) and scores[0] != scores[1]
    assert predict("q", []) == []


@pytest.mark.st
def test_a_cross_encoders_scores_of_the_prefixed_text_decide_the_order(tiny_cross_encoder: Path, vault: Path,
                                                                        tmp_path: Path):
    for i in range(6):
        write(vault, f"n{i}.md", f"# Note {i}\n\nThe refund deadline for case {i} is {i + 3} days.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        ce = rerank.from_settings(Settings(reranker=str(tiny_cross_encoder)))
        assert ce is not None
        trace = Searcher(store, Settings(), embedder, ce).ask("refund deadline", threshold=-1)
        fused = trace.stages["fused"].candidates
        texts = store.stored_chunks([c.chunk_id for c in fused])
    finally:
        store.close()
    stage = trace.stages["reranked"]
    assert stage.status == "ok" and stage.note == ce.model_id and trace.settings["reranker"] == ce.model_id
    # the model's own scores of (question, `prefix > text`), asked here pair by pair, order the stage's list
    own = {c.chunk_id: ce.predict("refund deadline", [texts[c.chunk_id].search_text])[0]  # type: ignore[attr-defined]
           for c in fused}
    expected = sorted(own, key=lambda cid: -own[cid])
    assert [c.chunk_id for c in stage.candidates] == expected
    assert [c.score for c in stage.candidates] == pytest.approx([own[cid] for cid in expected], abs=1e-5)
    assert expected != [c.chunk_id for c in fused], "the model's order is not the fused one, so it really decided"
    assert trace.final_stage == "reranked" and trace.context[0].chunk_ids[0] == expected[0]


@pytest.mark.st
def test_a_missing_cross_encoder_is_a_clear_error(tmp_path: Path):
    with pytest.raises(ModelUnavailable) as failed:
        rerank.from_settings(Settings(reranker=str(tmp_path)))
    assert failed.value.problem == Problem.MODEL_CANNOT_LOAD and failed.value.details["model"] == str(tmp_path)
    assert rerank.from_settings(Settings(reranker="none")) is None
    assert rerank.from_settings(Settings(reranker=" NONE ")) is None, "the names are read in any case"

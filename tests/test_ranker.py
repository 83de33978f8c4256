"""The built-in ranker: its JSON model, the features of real candidates, and the contributions in the trace."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import rerank
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.query import features
from vaultrag.core.query.search import Searcher
from vaultrag.core.rerankers.builtin import LearnedRanker
from vaultrag.core.store.index_store import IndexStore
from vaultrag.errors import ModelUnavailable
from vaultrag.settings import Settings


def model(weights: dict[str, float]) -> dict:
    n = len(features.FEATURES)
    return {"id": "test-lr", "features": list(features.FEATURES), "mean": [0.0] * n, "scale": [1.0] * n,
            "weights": [weights.get(f, 0.0) for f in features.FEATURES], "bias": 0.5}


def test_scores_are_the_sum_of_the_contributions():
    ranker = LearnedRanker(model({"cosine": 2.0, "coverage": 1.0}))
    x = np.zeros((2, len(features.FEATURES)))
    x[0, features.FEATURES.index("cosine")] = 0.5
    x[1, features.FEATURES.index("coverage")] = 0.25
    scores, parts = ranker.explain(x)
    assert scores.tolist() == pytest.approx([1.5, 0.75]) and parts.sum(axis=1) + 0.5 == pytest.approx(scores)


def test_a_data_file_for_other_features_is_refused(tmp_path: Path):
    bad = {**model({}), "features": ["cosine"]}
    with pytest.raises(ModelUnavailable, match=r"re-run benchmarks/train_ranker\.py"):
        LearnedRanker(bad)
    (tmp_path / "r.json").write_text("{not json", encoding="utf-8")
    with pytest.raises(ModelUnavailable, match="Cannot read"):
        LearnedRanker.load(tmp_path / "r.json")


def test_the_shipped_ranker_loads_from_settings():
    ranker = rerank.from_settings(Settings(reranker="builtin"))
    assert isinstance(ranker, LearnedRanker) and ranker.model_id.startswith("builtin")
    # the three QA dev sets, the two real-vault sets (eval/obsidian-help-*.jsonl), and the QA sets' twins with
    # templates and maps of content (benchmarks/train_ranker.py)
    assert ranker.data["trained_on"] == ["faquad-pt", "xquad-en", "xquad-xl", "help-en", "help-pt", "faquad-pt+tpl",
                                         "xquad-en+tpl", "xquad-xl+tpl"]
    assert {"pointer", "pointed", "title_cov"} <= set(ranker.data["features"])


def test_the_rerank_stage_explains_every_candidate(vault: Path, tmp_path: Path):
    for i in range(6):
        write(vault, f"n{i}.md", f"# Note {i}\n\nThe refund deadline for case {i} is {i + 3} days.\n")
    write(vault, "other.md", "# Other\n\nThe flight leaves at seven from gate nine.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        ranker = LearnedRanker(model({"coverage": 1.0, "cosine": 0.1}))
        trace = Searcher(store, Settings(), embedder, ranker).ask("refund deadline for case 4", threshold=-1)
    finally:
        store.close()
    stage = trace.stages["reranked"]
    assert stage.status == "ok" and trace.final_stage == "reranked" and "test-lr" in stage.note
    assert {c.chunk_id for c in stage.candidates} == {c.chunk_id for c in trace.stages["fused"].candidates}
    for c in stage.candidates:
        assert c.contributions is not None and set(c.contributions) == set(features.FEATURES)
        assert sum(c.contributions.values()) + 0.5 == pytest.approx(c.score)
    scores = [c.score for c in stage.candidates]
    assert scores == sorted(scores, reverse=True)
    assert stage.candidates[0].note == "n4.md"  # the only chunk with every content word ("4" included)
    assert trace.settings["reranker"] == "test-lr"


def test_why_names_the_features_behind_a_rank_change(vault: Path, tmp_path: Path):
    from vaultrag.core import wording
    from vaultrag.core.quality.diagnose import diagnose

    for i in range(4):
        write(vault, f"n{i}.md", f"# Note {i}\n\nThe refund deadline for case {i} is {i + 3} days.\n")
    filler = " ".join(f"word{i}" for i in range(150))
    write(vault, "long.md", f"# Long\n\nA refund, among many other things: {filler}.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        searcher = Searcher(store, Settings(), embedder, LearnedRanker(model({"log_length": 1.0})))
        trace = searcher.ask("refund deadline", threshold=-1)
        d = diagnose(searcher, vault, "refund deadline", "long.md", threshold=-1)
    finally:
        store.close()
    top = trace.final[0]  # the note's winning chunk (a long note may have more than one)
    fused_rank = next(c.rank for c in trace.stages["fused"].candidates if c.chunk_id == top.chunk_id)
    assert trace.final[0].note == "long.md" and fused_rank > 1  # the longest chunk wins under this model
    change = d.evidence.rank_change
    assert change is not None and (change.fused_rank, change.reranked_rank) == (fused_rank, 1)
    assert [f for f, _ in change.features] == ["log_length"] and "moved it up" in wording.diagnosis(d).message
    # the feature in words, as the window says it (never its code name)
    assert "mean: length +" in wording.diagnosis(d).message and "log_length" not in wording.diagnosis(d).message


def test_portuguese_words_meet_their_plurals_and_verb_forms_through_snowball_stems(vault: Path, tmp_path: Path):
    write(vault, "Cursos.md", "# Graduação\n\nO curso noturno de Direito foi criado pela reitoria em março.\n")
    write(vault, "Biblioteca.md", "# Biblioteca\n\nA biblioteca central abre cedo e fecha tarde todos os dias.\n")
    write(vault, "Campus.md", "# Campus\n\nO campus tem quadras, cantinas e estacionamento para alunos.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        searcher = Searcher(store, Settings(), embedder, LearnedRanker(model({"sentence_idf": 1.0})))
        # "cursos noturnos … criados": the note says "curso noturno … criado" (cut at six letters they differ)
        trace = searcher.ask("Quando os cursos noturnos foram criados?", threshold=-1)
    finally:
        store.close()
    top = trace.stages["reranked"].candidates[0]
    assert top.note == "Cursos.md"
    assert top.contributions is not None and top.contributions["sentence_idf"] > 0
    assert features.snowball_content("cursos noturnos criados", "pt") == \
        frozenset().union(*features.snowball_sentences("curso noturno criado", "pt"))


def test_cognates_share_character_grams_across_languages():
    question = features.grams(["universidad", "petróleo"])
    english = features.sentence_grams("The university sold petroleum. Nothing else here.")
    assert len(question & english[0]) >= 8 and not question & english[1]

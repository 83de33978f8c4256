""""Why not this note?" on small vaults where each verdict is the known truth (real index, fake embedder)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.quality.diagnose import diagnose
from vaultrag.core.query.search import Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.settings import Settings

Q = "When is the garden watering schedule?"


@pytest.fixture
def setup(vault: Path, tmp_path: Path):
    for i in range(6):
        write(vault, f"garden/g{i}.md", f"# Garden {i}\n\nThe garden watering schedule {i} is on day {i} of the "
              f"week, in the morning.\n")
    write(vault, "prices.md", "# Prices\n\n| Item | Price |\n|---|---|\n"
          + "\n".join(f"| hose model {i} | {i * 3} euros |" for i in range(40)) + "\n")
    write(vault, "secret.md", "---\ntags: [private]\n---\n# S\n\nThe garden watering schedule secret.\n")
    write(vault, "drafts/d.md", "# D\n\nThe garden watering schedule draft.\n")
    write(vault, ".vaultragignore", "drafts/\n")
    (vault / "binary.md").write_bytes(b"\x00\x01\x02")
    write(vault, "empty.md", "")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    yield vault, store, embedder
    store.close()


def why(setup, note: str, question: str = Q, **settings: object):
    vault, store, embedder = setup
    s = Settings(**settings)  # type: ignore[arg-type]
    return diagnose(Searcher(store, s, embedder), vault, question, note)


def test_excluded_by_private_tag_and_by_ignore_file(setup):
    d = why(setup, "secret.md")
    assert (d.verdict, d.layer, d.evidence["rule"], d.evidence["code"]) == ("excluded", 0, "private tag #private",
                                                                           "private-tag")
    assert "private tag" in d.suggestion
    d = why(setup, "drafts/d.md")
    assert d.verdict == "excluded" and ".vaultragignore" in d.message and "drafts/" in d.message
    assert ".vaultragignore" in d.suggestion


def test_not_in_the_vault_names_the_closest_paths(setup):
    d = why(setup, "garden/g7.md")
    assert d.verdict == "not in the vault" and d.evidence["closest"][0].startswith("garden/g")


def test_failed_empty_and_stale(setup):
    vault = setup[0]
    d = why(setup, "binary.md")
    assert d.verdict == "failed to read" and "binary" in d.message and "not a text note" in d.suggestion
    d = why(setup, "empty.md")
    assert d.verdict == "no chunks" and "empty note" in d.message
    write(vault, "garden/g1.md", "# Garden 1\n\nChanged after indexing, with more words than before.\n")
    d = why(setup, "garden/g1.md")
    assert d.verdict == "stale" and "re-index" in d.suggestion


def test_a_table_row_answer_not_in_candidates_gets_the_missing_words_and_table_hint(setup):
    d = why(setup, "prices.md", "What does the garden watering equipment cost?", bm25_n=3, vector_n=3)
    assert d.verdict == "not in candidates" and d.layer == 1
    assert d.evidence["missing_words"] == ["garden", "watering", "equipment", "cost"]
    assert "bm25" not in d.evidence and "no chunk of it contains any query word" in d.message
    assert d.evidence["vector"]["rank"] > 3
    assert "alias" in d.suggestion and "table" in d.suggestion and "header row" in d.suggestion


def test_pushed_out_by_k(setup):
    vault, store, embedder = setup
    s = Settings(k=1)
    trace = Searcher(store, s, embedder).ask(Q, threshold=-1)
    second = trace.final[1]
    d = diagnose(Searcher(store, s, embedder), vault, Q, second.note)
    assert d.verdict == "reranked below k" and d.evidence["rank"] == 2 and d.evidence["k"] == 1
    assert d.suggestion == "Raise k to 2 to include it."


def test_cut_by_threshold(setup):
    d = why(setup, "garden/g3.md", threshold=0.999)
    assert d.verdict == "below threshold" and d.evidence["threshold"] == 0.999
    assert f"at most {d.evidence['confidence']:.3f}" in d.suggestion


def test_cut_by_budget(setup):
    vault, store, embedder = setup
    s = Settings(context_tokens=80, k=5, threshold=-1.0)
    trace = Searcher(store, s, embedder).ask(Q)
    cut = [cid for cid, st in trace.context_status.items() if st == "cut by budget"]
    assert cut, trace.context_status
    note = next(c.note for c in trace.final if c.chunk_id == cut[0])
    d = diagnose(Searcher(store, s, embedder), vault, Q, note)
    assert d.verdict == "cut by budget" and "context_tokens" in d.suggestion


def test_reached_the_prompt(setup):
    vault, store, embedder = setup
    s = Settings(threshold=-1.0)
    top = Searcher(store, s, embedder).ask(Q).context[0]
    d = diagnose(Searcher(store, s, embedder), vault, Q, top.note)
    assert d.verdict == "reached the prompt" and d.layer == 3 and "[1]" in d.message


def test_a_diagnosis_embeds_the_question_once(setup):
    vault, store, embedder = setup
    s = Settings()
    diagnose(Searcher(store, s, embedder), vault, Q, "garden/g3.md")
    assert embedder.queries == [Q]


def test_the_window_s_k_and_threshold_apply_to_one_diagnosis(setup):
    vault, store, embedder = setup
    searcher = Searcher(store, Settings(), embedder)
    second = searcher.ask(Q, threshold=-1).final[1]
    d = diagnose(searcher, vault, Q, second.note, k=1, threshold=-1.0)
    assert d.verdict == "reranked below k" and d.evidence["k"] == 1
    assert searcher.settings.k == Settings().k, "the searcher's own settings are untouched"

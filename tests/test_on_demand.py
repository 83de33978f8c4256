"""While a vault's vectors fill, the top candidates without a vector are embedded at question time (real index)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.state import ON_DEMAND_EACH
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import StageName, Timing
from vaultrag.settings import Settings


@pytest.fixture
def half_embedded(vault: Path, tmp_path: Path):
    """A real index whose first embedding run stopped after 4 chunks (the rest wait for a vector)."""
    for i in range(12):
        write(vault, f"plans/plan-{i}.md", f"# Plan {i}\n\nThe refund deadline of plan {i} is {i + 2} days.\n")
    write(vault, "refund.md", "# Refund\n\nThe refund deadline is seven days after cancelling the order.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    embedder.fail_after = 4
    with pytest.raises(RuntimeError, match="fake embedder failure"):
        run_to_end(Indexer(vault, store, IndexOptions(embed_batch=4), embedder).run())
    embedder.fail_after = None
    done, pending = store.embed_counts()
    assert done == 4 and pending > 2 * ON_DEMAND_EACH
    embedder.passages.clear()
    yield vault, store, embedder
    store.close()


def test_the_top_candidates_without_a_vector_get_their_cosine_at_question_time(half_embedded):
    _, store, embedder = half_embedded
    searcher = Searcher(store, Settings(), embedder)
    question = "refund deadline seven days cancelling"
    trace = searcher.ask(question)
    qvec = embedder._vec(question)
    chunks = store.stored_chunks([c.chunk_id for s in trace.stages.values() for c in s.candidates])
    stored = store.cosines(qvec, list(chunks))
    embedded_now, waiting = set(), 0
    for c in (c for s in trace.stages.values() for c in s.candidates if c.chunk_id not in stored):
        if c.cosine is None:
            waiting += 1  # left for the backlog
        else:  # embedded now: its cosine is the one the indexer will store
            assert c.cosine == pytest.approx(float(embedder._vec(chunks[c.chunk_id].search_text) @ qvec), abs=1e-5)
            embedded_now.add(chunks[c.chunk_id].search_text)
    # the top of each ranked list (BM25's, the vectors', the fused one) and only those
    bm25_missing = [c for c in trace.stages[StageName.BM25].candidates if c.chunk_id not in stored]
    assert all(c.cosine is not None for c in bm25_missing[:ON_DEMAND_EACH]) and waiting > 0
    assert len(embedded_now) <= 3 * ON_DEMAND_EACH
    assert embedded_now and sorted(embedder.passages) == sorted(embedded_now)
    assert trace.timings_ms[Timing.EMBED_CANDIDATES] >= 0
    top = trace.final[0]
    assert chunks[top.chunk_id].note == "refund.md" and top.cosine is not None
    # the same candidates come back: nothing is embedded twice
    again = searcher.ask(question)
    assert len(embedder.passages) == len(embedded_now)
    assert [c.cosine for c in again.final] == [c.cosine for c in trace.final]


def test_nothing_is_embedded_at_question_time_once_every_chunk_has_its_vector(half_embedded):
    vault, store, embedder = half_embedded
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    embedder.passages.clear()
    trace = Searcher(store, Settings(), embedder).ask("refund deadline seven days")
    assert embedder.passages == [] and Timing.EMBED_CANDIDATES not in trace.timings_ms
    assert all(c.cosine is not None for s in trace.stages.values() for c in s.candidates)


def test_question_time_vectors_match_what_the_index_stores(half_embedded):
    vault, store, embedder = half_embedded
    question = "refund deadline seven days cancelling"
    before = {c.chunk_id: c.cosine for c in Searcher(store, Settings(), embedder).ask(question).final
              if c.cosine is not None}
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    after = {c.chunk_id: c.cosine for c in Searcher(store, Settings(), embedder).ask(question).final}
    assert before and all(np.isclose(after[cid], cos, atol=1e-5) for cid, cos in before.items())

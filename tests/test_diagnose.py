""""Why not this note?" on small vaults where each verdict is the known truth (real index, fake embedder)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import wording
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.quality import evaluate
from vaultrag.core.quality.calibration import store_threshold
from vaultrag.core.quality.diagnose import UNRELATED_WHEN, diagnose
from vaultrag.core.query.search import Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import ContextStatus, DecisionReason, Reason, StageName, Verdict
from vaultrag.settings import Settings

Q = "When is the garden watering schedule?"


def indexed(vault: Path, tmp_path: Path) -> tuple[IndexStore, CountingEmbedder]:
    """The vault's real index (the counting fake for the model), built to the end."""
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    return store, embedder


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
    store, embedder = indexed(vault, tmp_path)
    yield vault, store, embedder
    store.close()


def why(setup, note: str, question: str = Q, **settings: object):
    vault, store, embedder = setup
    s = Settings(**settings)  # type: ignore[arg-type]
    return diagnose(Searcher(store, s, embedder), vault, question, note)


def said(d) -> tuple[str, str]:
    """What `vaultrag why` and the window say: the message and the advice (English)."""
    words = wording.diagnosis(d)
    return words.message, words.advice


def test_excluded_by_private_tag_and_by_ignore_file(setup):
    d = why(setup, "secret.md")
    assert (d.verdict, d.layer, d.evidence.rule, d.evidence.code) == (Verdict.EXCLUDED, 0, "private tag #private",
                                                                     Reason.PRIVATE_TAG)
    assert d.stages == (), "layer 0 (the vault and the index) names no pipeline stage"
    assert "private tag" in said(d)[1]
    d = why(setup, "drafts/d.md")
    message, advice = said(d)
    assert d.verdict == "excluded" and ".vaultragignore" in message and "drafts/" in message
    assert ".vaultragignore" in advice


def test_not_in_the_vault_names_the_closest_paths(setup):
    d = why(setup, "garden/g7.md")
    assert d.verdict == "not-in-vault" and d.evidence.closest[0].startswith("garden/g")
    assert f"Did you mean {d.evidence.closest[0]}" in said(d)[0]



def test_a_path_outside_the_vault_is_not_in_the_vault(setup, tmp_path: Path):
    outside = tmp_path / "outside.md"
    outside.write_text("# Outside\n\nThe garden watering schedule outside.\n", encoding="utf-8")
    for note in ("../../../../etc/passwd", "../outside.md", str(outside)):
        d = why(setup, note)
        assert d.verdict == Verdict.NOT_IN_VAULT and "not in the index" not in said(d)[0], note


def test_failed_empty_and_stale(setup):
    vault = setup[0]
    d = why(setup, "binary.md")
    assert d.verdict == "failed-to-read" and d.evidence.code == Reason.BINARY
    assert "binary" in said(d)[0] and "not a text note" in said(d)[1]
    d = why(setup, "empty.md")
    assert d.verdict == "no-chunks" and "empty note" in said(d)[0]
    write(vault, "garden/g1.md", "# Garden 1\n\nChanged after indexing, with more words than before.\n")
    d = why(setup, "garden/g1.md")
    assert d.verdict == "stale" and d.evidence.disk_size != d.evidence.indexed_size and "re-index" in said(d)[1]


def test_a_note_that_shares_no_word_with_the_question_is_unrelated_with_the_table_hint(setup):
    # "how much" is the question's own: no word to add to the note (a fresh-eyes user was told to add "much")
    d = why(setup, "prices.md", "How much does the garden watering equipment cost?", bm25_n=3, vector_n=3)
    assert d.verdict == Verdict.UNRELATED and d.layer == 1
    assert d.evidence.missing_words == ("garden", "watering", "equipment", "cost")
    assert d.evidence.bm25 is None and d.evidence.vector is not None and d.evidence.vector.rank > 3
    message, advice = said(d)
    assert "shares none of the question's content words" in message
    assert "Nothing to tune" in advice and "header row" in advice


def test_a_note_that_shares_the_words_but_is_outside_both_lists_is_not_in_candidates(setup):
    d = why(setup, "garden/g3.md", bm25_n=1, vector_n=1)
    assert d.verdict == Verdict.NOT_IN_CANDIDATES and d.evidence.bm25 is not None  # tied with the others: rank 1
    assert d.evidence.missing_words == () and d.evidence.in_lists == ()
    message, advice = said(d)
    # the verdict's English words for the two retrieval lists the evidence has typed fields for (bm25, vector): the
    # exact sentence IS what this line pins (the code is checked above); a new retrieval list would add its own
    assert f"Not in the BM25 top-1 nor the vector top-1: its best chunk is BM25 rank {d.evidence.bm25.rank}" in message
    assert "raise Keyword candidates and Vector candidates (Settings › Search)" in advice  # words, not keys


def test_pushed_out_by_k(setup):
    vault, store, embedder = setup
    s = Settings(k=1)
    trace = Searcher(store, s, embedder).ask(Q, threshold=-1)
    second = trace.final[1]
    d = diagnose(Searcher(store, s, embedder), vault, Q, second.note)
    assert d.verdict == "below-k" and d.evidence.rank == 2 and d.evidence.k == 1
    assert said(d)[1] == "Raise k to 2 to include it."


TOPIC_THRESHOLD = 0.1  # the cosine rule's threshold for the fake embedder, stored as `vaultrag calibrate` stores it


@pytest.fixture
def topics(vault: Path, tmp_path: Path):
    """Three notes on the question's topic, one on bread (none of its words, little of its meaning), one that
    shares only its stop words, which the bag-of-words embedder counts as meaning (close, without the words), and
    one that holds one of its words (far in meaning, but not without the words)."""
    for i in range(3):
        write(vault, f"garden/g{i}.md", f"# Garden {i}\n\nThe garden watering schedule {i} is on day {i} of the "
              f"week, in the morning.\n")
    write(vault, "bread.md", "# Bread\n\nKnead the dough for ten minutes, then bake it at 220 degrees.\n")
    write(vault, "when.md", "# When is it\n\nWhen is it, the day? It is the morning.\n")
    write(vault, "tools.md", "# Tools\n\nA garden hose, a rake and two buckets.\n")
    store, embedder = indexed(vault, tmp_path)
    yield vault, store, embedder
    store.close()


def calibrated(store: IndexStore, settings: Settings, embedder: CountingEmbedder) -> Searcher:
    searcher = Searcher(store, settings, embedder)
    store_threshold(store, searcher.reranker_id, TOPIC_THRESHOLD)
    return searcher


def test_an_unrelated_note_below_k_is_called_unrelated_and_a_related_one_still_raises_k(topics):
    """The review's case: a note ranked below k that holds none of the question's words and is farther in meaning
    than the cosine rule counts as on topic is not "raise k" but "the note needs the question's words"; the code
    stays below-k, the first stage that dropped it."""
    vault, store, embedder = topics
    searcher = calibrated(store, Settings(k=1), embedder)
    trace = searcher.ask(Q)
    assert trace.decision.answered and trace.decision.threshold_source == "calibrated"
    related = trace.final[1]
    assert related.note.startswith("garden/")
    d = diagnose(searcher, vault, Q, related.note)
    assert d.verdict == Verdict.BELOW_K and not d.evidence.off_topic
    assert said(d)[1] == "Raise k to 2 to include it."

    bread = next(c for c in trace.final if c.note == "bread.md")
    d = diagnose(searcher, vault, Q, "bread.md")
    ev = d.evidence
    assert (d.verdict, d.stages, ev.rank) == (Verdict.BELOW_K, (trace.final_stage,), bread.rank), "the code is kept"
    assert ev.off_topic and ev.bm25 is None and ev.missing_words == ("garden", "watering", "schedule")
    assert ev.top_cosine == pytest.approx(trace.final[0].cosine)
    assert ev.topic_cosine == pytest.approx(TOPIC_THRESHOLD + 0.75 * trace.decision.background)
    assert ev.vector is not None and ev.vector.score < ev.topic_cosine < ev.top_cosine
    message, advice = said(d)
    assert message.startswith(f"Ranked {bread.rank} after fused, below the k = 1 documents")
    assert "This note does not seem to be about the question: it never uses the question's words (garden, " \
           "watering, schedule)" in message
    assert f"({ev.vector.score:.3f})" in message and f"below the {ev.topic_cosine:.3f}" in message
    assert f"the top passage has {ev.top_cosine:.3f}" in message
    assert advice.startswith("If this note should answer the question, it needs the words the question uses "
                             "(garden, watering, schedule")
    assert advice.endswith(f"Raising k to {bread.rank} would include it, but only as a passage unrelated to the "
                           "question."), "raising k is only the second option"


def test_a_note_close_in_meaning_or_with_one_of_the_words_still_raises_k(topics):
    """Both halves of the rule: neither none of the question's words nor a meaning off topic is enough alone."""
    vault, store, embedder = topics
    searcher = calibrated(store, Settings(k=1), embedder)
    d = diagnose(searcher, vault, Q, "when.md")
    ev = d.evidence
    assert d.verdict == Verdict.BELOW_K and ev.bm25 is None and ev.missing_words == ("garden", "watering", "schedule")
    assert ev.vector is not None and ev.topic_cosine is not None
    assert ev.topic_cosine <= ev.vector.score < ev.top_cosine, "on topic, though below the top passage"
    assert not ev.off_topic and said(d)[1] == f"Raise k to {ev.rank} to include it."
    d = diagnose(searcher, vault, Q, "tools.md")
    ev = d.evidence
    assert d.verdict == Verdict.BELOW_K and ev.bm25 is not None and ev.missing_words == ("watering", "schedule")
    assert ev.vector is not None and ev.topic_cosine is not None and ev.vector.score < ev.topic_cosine
    assert not ev.off_topic, "it uses one of the question's words: not unrelated"


def test_without_a_calibrated_or_shipped_threshold_no_note_is_called_unrelated(topics):
    vault, store, embedder = topics  # the fake embedder has no shipped threshold, and nothing was calibrated
    d = diagnose(Searcher(store, Settings(k=1), embedder), vault, Q, "bread.md")
    assert d.verdict == Verdict.BELOW_K and not d.evidence.off_topic and d.evidence.topic_cosine is None
    assert said(d)[1] == f"Raise k to {d.evidence.rank} to include it."


def test_a_refused_question_s_unrelated_note_gets_no_advice_to_lower_the_threshold(topics):
    vault, store, embedder = topics
    searcher = calibrated(store, Settings(), embedder)
    d = diagnose(searcher, vault, Q, "bread.md", threshold=0.999)
    assert d.verdict == Verdict.BELOW_THRESHOLD and d.stages == (StageName.DECIDE,) and d.evidence.off_topic
    message, advice = said(d)
    assert message.startswith(f"Confidence {d.evidence.confidence:.3f} is below the threshold 0.999.")
    assert "does not seem to be about the question" in message
    assert "at most" not in advice and advice.startswith("If this note should answer the question")
    d = diagnose(searcher, vault, Q, "garden/g1.md", threshold=0.999)
    assert not d.evidence.off_topic and f"at most {d.evidence.confidence:.3f}" in said(d)[1]


def test_cut_by_threshold(setup):
    d = why(setup, "garden/g3.md", threshold=0.999)
    assert d.verdict == "below-threshold" and d.evidence.threshold == 0.999 and d.stages == (StageName.DECIDE,)
    assert d.evidence.decision == DecisionReason.BELOW_THRESHOLD
    assert f"at most {d.evidence.confidence:.3f}" in said(d)[1]


def test_cut_by_budget(setup):
    vault, store, embedder = setup
    s = Settings(context_tokens=80, k=5, threshold=-1.0)
    trace = Searcher(store, s, embedder).ask(Q)
    cut = [cid for cid, st in trace.context_status.items() if st == ContextStatus.CUT_BY_BUDGET]
    assert cut, trace.context_status
    note = next(c.note for c in trace.final if c.chunk_id == cut[0])
    d = diagnose(Searcher(store, s, embedder), vault, Q, note)
    assert d.verdict == "cut-by-budget" and d.evidence.budget == 80 and "context_tokens" in said(d)[1]


def test_reached_the_prompt(setup):
    vault, store, embedder = setup
    s = Settings(threshold=-1.0)
    top = Searcher(store, s, embedder).ask(Q).context[0]
    d = diagnose(Searcher(store, s, embedder), vault, Q, top.note)
    assert d.verdict == "reached-prompt" and d.layer == 3 and d.evidence.document == 1 and "[1]" in said(d)[0]
    assert d.stages == (StageName.PROMPT,)
    # the extractive answer shows document 1: its note's fix is the note's wording, not "the model"
    assert d.evidence.answer_document == 1 and "the model" not in said(d)[1] and "note's wording" in said(d)[1]
    trace = Searcher(store, s, embedder).ask(Q)
    other = next(doc for doc in trace.context if doc.index > 1 and doc.note != top.note)
    d2 = diagnose(Searcher(store, s, embedder), vault, Q, other.note)
    assert d2.verdict == "reached-prompt" and d2.evidence.document == other.index
    assert f"document [1]'s: this note's (document [{other.index}]) is in the prompt but not read" in said(d2)[0]
    assert f"Open document [{other.index}] in the Prompt pane" in said(d2)[1]


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
    assert d.verdict == "below-k" and d.evidence.k == 1
    assert searcher.settings.k == Settings().k, "the searcher's own settings are untouched"


def test_why_and_the_evaluation_name_the_same_stage(setup, tmp_path: Path):
    """One classifier (`dropped.dropped_at`) for both: each gold note the evaluation lost carries the verdict code
    `vaultrag why` gives that note (why may say `unrelated` where the evaluation, without the index-wide search,
    says not-in-candidates or fused-out), and names the stages that lost it."""
    vault, store, embedder = setup
    notes = [f"garden/g{i}.md" for i in range(6)]
    golden = tmp_path / "golden.jsonl"
    golden.write_text("\n".join(json.dumps({"question": Q, "gold_note": n}) for n in notes), encoding="utf-8")
    seen = set()
    for settings in (Settings(bm25_n=2, vector_n=2, k=1), Settings(context_tokens=80, k=5)):
        searcher = Searcher(store, settings, embedder)
        run = evaluate.run_golden(searcher, golden)
        for r, note in zip(run.results, notes, strict=True):
            d = diagnose(searcher, vault, Q, note, threshold=float("-inf"))  # as the evaluation asks
            if r.failure is None:
                assert d.verdict == Verdict.REACHED_PROMPT, (note, d)
                continue
            assert r.failure == d.verdict or (d.verdict == Verdict.UNRELATED and r.failure in UNRELATED_WHEN)
            seen.add(r.failure)
            trace = searcher.ask(Q, threshold=float("-inf"))
            expected = {Verdict.NOT_IN_CANDIDATES: (StageName.BM25, StageName.VECTOR),
                        Verdict.BELOW_K: (trace.final_stage,), Verdict.CUT_BY_BUDGET: (StageName.CONTEXT,)}
            assert d.stages == expected[d.verdict], d
    assert seen == {Verdict.NOT_IN_CANDIDATES, Verdict.BELOW_K, Verdict.CUT_BY_BUDGET}

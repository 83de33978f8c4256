"""The pipeline is a list of units with checked contracts: a new step (a follow-up `rewrite`, a `generate` answer,
another ranked retrieval list) is one more unit, and a pipeline that lacks what a unit needs fails when built."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from tests.pipelines import up_to, with_unit, without
from vaultrag.core import wording
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.model import Answer, Stage
from vaultrag.core.quality import evaluate, report
from vaultrag.core.quality.diagnose import diagnose
from vaultrag.core.query.contracts import PipelineError
from vaultrag.core.query.conversation import Conversation, RewriteStage
from vaultrag.core.query.search import PIPELINE, Searcher, conversation_pipeline
from vaultrag.core.query.stages.generate import GenerateStage
from vaultrag.core.query.stages.rerank import RerankStage
from vaultrag.core.query.state import QueryState, Slot, needs
from vaultrag.core.query.terms import match_expression
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import AnswerKind, StageName, StageStatus, Verdict
from vaultrag.settings import Settings


class ExpandAbbreviations:
    """A trivial `rewrite` step: makes the question standalone before any retriever reads it."""

    name = StageName.REWRITE
    requires = needs(Slot.QUESTION)
    provides = needs(Slot.QUESTION)

    def run(self, q: QueryState) -> None:
        q.question = q.question.replace("rfd", "refund deadline")


class EchoGenerate:
    """A trivial `generate` step: answers with the first document's source, as a model would cite it."""

    name = StageName.GENERATE
    requires = needs(Slot.CONTEXT, Slot.ANSWER)
    provides = needs(Slot.ANSWER)

    def run(self, q: QueryState) -> None:
        if q.context:
            q.answer = Answer(AnswerKind.GENERATED, f"See [1] ({q.context[0].source}).", source=q.context[0].source)


# -- a toy ranked retrieval stage, as its own module would hold it: a name, a contract, a run ----------------------
TITLE = StageName("title")


class TitleMatch:
    """The chunks whose title or headings hold a question word (BM25 on the heading path only)."""

    name = TITLE
    requires = needs(Slot.TERMS)
    provides = needs(TITLE, Slot.RETRIEVED)

    def run(self, q: QueryState) -> None:
        t = time.perf_counter()
        hits = q.store.bm25(f"prefix : ({match_expression(q.terms)})", 10, q.scope_sql) if q.terms else []
        status = StageStatus.OK if hits else StageStatus.EMPTY
        q.stages[TITLE] = Stage(TITLE, status, q.candidates(hits), round((time.perf_counter() - t) * 1000, 3))


@pytest.fixture
def store(vault: Path, tmp_path: Path):
    write(vault, "refund.md", "# Refund\n\nThe refund deadline is seven business days after cancelling.\n")
    write(vault, "flight.md", "# Flight\n\nThe flight to Lisbon leaves at seven in the morning.\n")
    # 'deadline' only in a heading, never in the text: the title list finds it, the text's words do not say it
    write(vault, "taxes.md", "# Taxes\n\n## Deadline\n\nSend the forms by the end of April, with the receipts.\n")
    write(vault, "calendar.md", "# Calendar\n\nDeadline after deadline: every deadline of the year, one by one.\n")
    s = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, s, IndexOptions(), CountingEmbedder()).run())
    yield s
    s.close()


def test_the_default_pipeline_is_declared_once_in_order():
    # the exact shipped list IS the behaviour under test here (every other test builds its pipelines by unit name)
    assert [u.name for u in PIPELINE] == ["translate", "bm25", "vector", "fused", "reranked", "decide", "context",
                                          "prompt", "answer"]
    assert all(isinstance(u.name, StageName) for u in PIPELINE)


def test_a_rewrite_and_a_generate_step_are_one_unit_each(store: IndexStore):
    embedder = CountingEmbedder()
    plain = Searcher(store, Settings(), embedder).ask("rfd?", threshold=-1)
    assert plain.stages[StageName.BM25].candidates == [], "the abbreviation alone matches nothing"
    pipeline = (ExpandAbbreviations(), *PIPELINE, EchoGenerate())
    trace = Searcher(store, Settings(), embedder, pipeline=pipeline).ask("rfd?", threshold=-1)
    assert trace.question == "refund deadline?"
    assert trace.stages[StageName.BM25].candidates[0].note == "refund.md"
    assert embedder.queries[-1] == "refund deadline?", "every later stage reads the rewritten question"
    assert trace.answer.kind == AnswerKind.GENERATED and trace.answer.text == "See [1] (refund.md > Refund)."
    assert trace.prompt.rstrip().endswith("Question: refund deadline?")


def test_a_unit_can_add_its_own_ranked_stage(store: IndexStore, tmp_path: Path, qtbot):
    """A ranked retrieval stage is its unit and one pipeline entry: the trace, fusion, the evaluation and the
    window's tables take it up with no other change."""
    from vaultrag.app.widgets.eval_view import EvalView
    from vaultrag.app.widgets.stages_view import StagesView, movement

    pipeline = with_unit(PIPELINE, TitleMatch(), after=StageName.VECTOR)
    searcher = Searcher(store, Settings(), CountingEmbedder(), pipeline=pipeline)
    trace = searcher.ask("refund deadline", threshold=-1)
    without_title = Searcher(store, Settings(), CountingEmbedder()).ask("refund deadline", threshold=-1)
    shipped = list(without_title.stages)  # the shipped pipeline's lists, whatever they are
    assert TITLE not in shipped
    # the trace: its own list, in pipeline order (right after the vector list), fed by nothing
    at = shipped.index(StageName.VECTOR) + 1
    assert list(trace.stages) == [*shipped[:at], TITLE, *shipped[at:]]
    title = trace.stages[TITLE]
    assert title.status == StageStatus.OK and title.inputs == []
    assert {c.note for c in title.candidates} == {"refund.md", "taxes.md"}  # '# Refund', '## Deadline'
    # fusion: fed by it, and a candidate it listed carries its RRF term
    fused = trace.stages[StageName.FUSED]
    assert fused.inputs == [*without_title.stages[StageName.FUSED].inputs, TITLE]
    taxes = next(c for c in fused.candidates if c.note == "taxes.md")
    assert taxes.contributions is not None and taxes.contributions["title"] > 0
    assert taxes.score == pytest.approx(sum(taxes.contributions.values()))
    assert all(c.cosine is not None for c in fused.candidates), "its candidates get their cosines too"
    before = next(c for c in without_title.stages[StageName.FUSED].candidates if c.chunk_id == taxes.chunk_id)
    assert taxes.score == pytest.approx(before.score + taxes.contributions["title"])  # its RRF term added
    # the evaluation: a row of its own, and a sign test against the list it fed
    golden = tmp_path / "golden.jsonl"
    golden.write_text("\n".join(json.dumps(r) for r in [
        {"question": "refund deadline", "gold_note": "refund.md"},
        {"question": "when is the taxes deadline", "gold_note": "taxes.md"},
        {"question": "when does the plane leave for Lisbon", "gold_note": "flight.md"}]), encoding="utf-8")
    run = evaluate.run_golden(searcher, golden)
    ev = evaluate.summarize(run.results, "v", str(golden), {}, run.seconds, run.skipped_lines, run.inputs)
    assert list(ev.stages) == [*trace.stages, "context"]
    assert "title -> fused" in ev.sign_tests and "bm25 -> fused" in ev.sign_tests
    assert ev.stages[TITLE]["hit@1"] == pytest.approx(2 / 3)  # refund and taxes by their headings; not the flight
    assert any(line.startswith("| title | ") for line in report.stage_table(ev))
    # the window: a table of its own among the stage tables, and a row in the evaluation's table
    view = StagesView()
    qtbot.addWidget(view)
    view.set_trace(trace)
    assert list(view.tables) == list(trace.stages)
    assert view.tables[TITLE].rowCount() == len(title.candidates)
    assert view.headers[TITLE].text().startswith("<b>title</b>")  # no words for it yet: its name
    # a fused row's move is measured from its best rank in every list that fed fusion, the title list's too
    one = Searcher(store, Settings(vector_n=1), CountingEmbedder(), pipeline=pipeline).ask("deadline", threshold=-1)
    ranks = {n: {c.note: c.rank for c in s.candidates} for n, s in one.stages.items()}
    assert ranks[TITLE]["taxes.md"] == 1 and ranks[StageName.BM25]["taxes.md"] > 1  # only its heading says it
    assert ranks[StageName.VECTOR].get("taxes.md", 99) > 1
    view.set_trace(one)
    taxes = next(c for c in one.stages[StageName.FUSED].candidates if c.note == "taxes.md")
    assert view.tables[StageName.FUSED].item(taxes.rank - 1, 0).text() == f"{taxes.rank}\u2009{movement(taxes.rank, 1)}"
    view.set_trace(without_title)  # the next question, from the shipped pipeline: the columns follow the trace
    assert list(view.tables) == shipped
    table = EvalView()
    qtbot.addWidget(table)
    table.set_result((ev, None))
    labels = [table.table.verticalHeaderItem(r).text() for r in range(table.table.rowCount())]
    row = list(ev.stages).index(TITLE)
    assert labels[row] == "title" and len(labels) == len(ev.stages)  # no words for it yet: its name
    assert table.table.item(row, 0).text() == f"{ev.stages[TITLE]['hit@1']:.3f}"


def test_a_unit_can_note_on_a_stage_and_read_the_final_ranking(store: IndexStore):
    class Recorder:
        name = StageName("audit")
        requires = needs(StageName.BM25, Slot.FINAL)
        provides = needs()

        def run(self, q: QueryState) -> None:
            q.stages[StageName.BM25].note += " (audited)"
            q.warnings.append(f"{len(q.final)} candidates reached the decision")

    pipeline = with_unit(PIPELINE, Recorder(), after=StageName.RERANKED)
    trace = Searcher(store, Settings(), CountingEmbedder(), pipeline=pipeline).ask("refund deadline", threshold=-1)
    assert trace.stages[StageName.BM25].note.endswith("(audited)")
    assert f"{len(trace.final)} candidates reached the decision" in trace.warnings


def test_a_pipeline_without_the_fused_list_fails_when_the_searcher_is_built(store: IndexStore):
    no_fusion = without(PIPELINE, StageName.FUSED)
    with pytest.raises(PipelineError, match=r"reranked requires the ranked list 'fused', which no unit before it"):
        Searcher(store, Settings(), CountingEmbedder(), pipeline=no_fusion)
    # the same list after the unit that needs it is no better
    late = with_unit(without(PIPELINE, StageName.RERANKED), RerankStage(), after=StageName.VECTOR)
    with pytest.raises(PipelineError, match="reranked requires the ranked list 'fused'"):
        Searcher(store, Settings(), CountingEmbedder(), pipeline=late)
    # and a question's own pipeline is checked before it runs
    with pytest.raises(PipelineError, match="reranked requires"):
        Searcher(store, Settings(), CountingEmbedder()).ask("refund deadline", pipeline=no_fusion)


def test_a_rewrite_or_a_generate_unit_without_its_needs_fails_when_built(store: IndexStore):
    from tests.fakes import ScriptedGenerator

    model = ScriptedGenerator("an answer")
    # a rewrite after the retrievers: they would have searched the question before it was rewritten
    with pytest.raises(PipelineError, match=r"rewrite changes 'question' after .*\bbm25, vector\b.* read it"):
        late_rewrite = with_unit(PIPELINE, RewriteStage(Conversation()), after=StageName.VECTOR)
        Searcher(store, Settings(), None, pipeline=late_rewrite)
    # generate with no prompt to send
    no_prompt = without(PIPELINE, StageName.PROMPT)
    with pytest.raises(PipelineError, match=r"generate requires 'prompt', which no unit before it provides"):
        Searcher(store, Settings(), None, pipeline=(*no_prompt, GenerateStage(model)))
    # a conversation's pipeline is checked when it is built, around whatever base it is given
    with pytest.raises(PipelineError, match="generate requires 'prompt'"):
        conversation_pipeline(Conversation(), model, base=no_prompt)
    # with nothing that decides or answers, `trace()` could never run
    with pytest.raises(PipelineError, match="no unit provides 'answer', 'decision'"):
        Searcher(store, Settings(), None, pipeline=up_to(PIPELINE, StageName.RERANKED))
    # a unit that declares no contract is named
    class Bare:
        name = StageName("bare")

        def run(self, q: QueryState) -> None: ...

    with pytest.raises(PipelineError, match="Bare declares no `requires`"):
        Searcher(store, Settings(), None, pipeline=(*PIPELINE, Bare()))  # type: ignore[arg-type]
    assert conversation_pipeline(Conversation(), model)[0].name == StageName.REWRITE  # the shipped one is fine


def test_a_note_only_an_added_list_found_was_a_candidate(store: IndexStore, vault: Path, tmp_path: Path, qtbot):
    """"Why not this note?" and the evaluation read every first-level list, not only bm25 and vector: a note only
    the title list found was a candidate, lost at fusion (one classifier, `dropped.dropped_at`, for both)."""
    pipeline = with_unit(PIPELINE, TitleMatch(), after=StageName.VECTOR)
    searcher = Searcher(store, Settings(bm25_n=1, vector_n=1), CountingEmbedder(), pipeline=pipeline)
    trace = searcher.ask("deadline", threshold=-1)
    notes = {name: {c.note for c in stage.candidates} for name, stage in trace.stages.items()}
    assert notes[TITLE] == {"taxes.md"} and "taxes.md" not in notes[StageName.BM25] | notes[StageName.VECTOR]
    assert "taxes.md" not in notes[StageName.FUSED]  # cut to the larger of bm25_n and vector_n: one
    d = diagnose(searcher, vault, "deadline", "taxes.md", threshold=-1)
    assert (d.verdict, d.stages) == (Verdict.FUSED_OUT, (StageName.FUSED,))
    title = d.evidence.listed(TITLE)
    assert title is not None and title.rank == 1
    # a note no list found: every first-level list lost it, the added one too
    d = diagnose(searcher, vault, "deadline", "refund.md", threshold=-1)
    first_level = tuple(name for name, stage in trace.stages.items() if not stage.inputs)
    assert TITLE in first_level and StageName.BM25 in first_level
    assert (d.verdict, d.stages) == (Verdict.NOT_IN_CANDIDATES, first_level)
    # the evaluation's failure is the same code, and its report, JSON and words carry it
    golden = tmp_path / "golden.jsonl"
    golden.write_text("\n".join(json.dumps({"question": "deadline", "gold_note": n})
                                for n in ("taxes.md", "refund.md", "calendar.md")), encoding="utf-8")
    run = evaluate.run_golden(searcher, golden)
    assert [r.failure for r in run.results] == [Verdict.FUSED_OUT, Verdict.NOT_IN_CANDIDATES, None]
    ev = evaluate.summarize(run.results, "v", str(golden), {}, run.seconds, run.skipped_lines, run.inputs)
    assert ev.failures == {Verdict.FUSED_OUT: 1, Verdict.NOT_IN_CANDIDATES: 1}
    assert json.loads(report.to_json(ev))["failures"] == {"fused-out": 1, "not-in-candidates": 1}
    assert "- `fused-out`: 1\n- `not-in-candidates`: 1\n" in report.markdown(ev)
    assert wording.failures(ev.failures) == ("Where the gold was lost: Dropped when the lists were fused: 1; "
                                             "Not among the candidates: 1")
    from vaultrag.app.widgets.eval_view import EvalView

    view = EvalView()  # the window's evaluation words the same codes
    qtbot.addWidget(view)
    view.set_result((ev, None))
    assert "Where the gold was lost: Dropped when the lists were fused: 1; Not among the candidates: 1" in (
        view.status.text())

"""The pipeline is a list of units: a new step (a follow-up `rewrite`, a `generate` answer) is one more unit."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.model import Answer, Stage
from vaultrag.core.query.search import PIPELINE, Searcher
from vaultrag.core.query.state import QueryState
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import AnswerKind, StageName, StageStatus
from vaultrag.settings import Settings


class ExpandAbbreviations:
    """A trivial `rewrite` step: makes the question standalone before any retriever reads it."""

    name = "rewrite"

    def run(self, q: QueryState) -> None:
        q.question = q.question.replace("rfd", "refund deadline")


class EchoGenerate:
    """A trivial `generate` step: answers with the first document's source, as a model would cite it."""

    name = "generate"

    def run(self, q: QueryState) -> None:
        if q.context:
            q.answer = Answer(AnswerKind.GENERATED, f"See [1] ({q.context[0].source}).", source=q.context[0].source)


@pytest.fixture
def store(vault: Path, tmp_path: Path):
    write(vault, "refund.md", "# Refund\n\nThe refund deadline is seven business days after cancelling.\n")
    write(vault, "flight.md", "# Flight\n\nThe flight to Lisbon leaves at seven in the morning.\n")
    s = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, s, IndexOptions(), CountingEmbedder()).run())
    yield s
    s.close()


def test_the_default_pipeline_is_declared_once_in_order():
    assert [u.name for u in PIPELINE] == ["bm25", "vector", "fused", "reranked", "decide", "context", "prompt",
                                          "answer"]


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


def test_a_unit_can_add_its_own_stage_to_the_trace(store: IndexStore):
    class Recorder:
        name = "audit"

        def run(self, q: QueryState) -> None:
            q.stages[StageName.BM25].note += " (audited)"
            q.warnings.append(f"{len(q.final)} candidates reached the decision")

    pipeline = (*PIPELINE[:4], Recorder(), *PIPELINE[4:])
    trace = Searcher(store, Settings(), CountingEmbedder(), pipeline=pipeline).ask("refund deadline", threshold=-1)
    assert trace.stages[StageName.BM25].note.endswith("(audited)")
    assert f"{len(trace.final)} candidates reached the decision" in trace.warnings
    assert isinstance(trace.stages[StageName.FUSED], Stage) and trace.stages[StageName.FUSED].status == StageStatus.OK

"""The generate and rewrite stages in the pipeline, and hostile notes: flagged at index time, in the trace,
escaped in the prompt, listed by health."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder, ScriptedGenerator
from tests.llm_server import ScriptedServer
from vaultrag.core import wording
from vaultrag.core.health import health
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.llm.openai_compat import LLMConfig, OpenAICompatible
from vaultrag.core.query.conversation import Conversation, carry_terms, is_follow_up
from vaultrag.core.query.search import Searcher, conversation_pipeline, start_in_conversation
from vaultrag.core.scope import Scope
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import (
    AnswerKind,
    GenerationStatus,
    LLMFailure,
    NoteFlag,
    RewriteMethod,
    SupportVerdict,
    WarningCode,
)
from vaultrag.settings import Settings

INJECTION = (Path(__file__).parent / "data" / "hostile-note.md").read_text(encoding="utf-8")  # the seeds' case


@pytest.fixture
def server() -> Iterator[ScriptedServer]:
    s = ScriptedServer().start()
    yield s
    s.stop()


@pytest.fixture
def store(vault: Path, tmp_path: Path) -> Iterator[IndexStore]:
    write(vault, "Casa/refund.md", "# Refund\n\nThe refund deadline is seven business days after cancelling.\n\n"
          "## Cancelling\n\nCancelling a trip is free until the deadline: 48 hours before departure.\n")
    write(vault, "Travel/flight.md", "# Flight\n\nThe flight to Lisbon leaves at seven in the morning.\n")
    write(vault, "shopping.md", INJECTION)
    s = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, s, IndexOptions(), CountingEmbedder()).run())
    yield s
    s.close()


def config(server: ScriptedServer) -> OpenAICompatible:
    return OpenAICompatible(LLMConfig(server.base_url, "tiny-model", timeout=5.0))


def test_the_model_answers_the_traces_prompt_and_each_sentence_is_checked(store: IndexStore,
                                                                          server: ScriptedServer):
    server.reply = ("The refund deadline is seven business days after cancelling [1]. "
                    "Refunds are paid in gold coins by the captain [1]. Have a nice day and good luck.")
    pieces: list[str] = []
    trace = Searcher(store, Settings(), CountingEmbedder()).ask(
        "refund deadline", threshold=-1, pipeline=conversation_pipeline(None, config(server), pieces.append))
    assert server.requests[-1]["messages"][0]["content"] == trace.prompt, "byte for byte the inspector's prompt"
    assert "".join(pieces) == trace.answer.text == server.reply
    a = trace.answer
    assert a.kind == AnswerKind.GENERATED and a.model == "tiny-model" and a.note == "Casa/refund.md"
    assert [s.verdict for s in a.sentences] == [SupportVerdict.SUPPORTED, SupportVerdict.UNSUPPORTED,
                                                SupportVerdict.UNCITED]
    g = trace.generation
    assert g is not None and g.status == GenerationStatus.COMPLETE and g.completion_tokens == len(pieces)
    assert "generate" in trace.timings_ms


def test_a_failed_model_keeps_the_extractive_answer_and_says_why(store: IndexStore, server: ScriptedServer):
    server.mode = "cut"
    trace = Searcher(store, Settings(), CountingEmbedder()).ask(
        "refund deadline", threshold=-1, pipeline=conversation_pipeline(None, config(server)))
    assert trace.answer.kind == AnswerKind.EXTRACTIVE and trace.stages and trace.context
    assert trace.generation is not None and trace.generation.failure == LLMFailure.STREAM_CUT
    failed = [w for w in trace.warnings if w.code == WarningCode.LLM_FAILED]
    assert [w.failure for w in failed] == [LLMFailure.STREAM_CUT] and "broke off in the middle" in failed[0].detail
    assert wording.warning(failed[0]).startswith("language model: ")


def test_refusal_and_wrong_language_are_recognised(store: IndexStore, server: ScriptedServer):
    searcher = Searcher(store, Settings(), CountingEmbedder())
    server.reply = "I couldn't find this in the notes."
    trace = searcher.ask("refund deadline", threshold=-1, pipeline=conversation_pipeline(None, config(server)))
    assert trace.answer.kind == AnswerKind.REFUSAL and trace.answer.model == "tiny-model"
    assert [s.verdict for s in trace.answer.sentences] == [SupportVerdict.REFUSAL]
    server.reply = "O prazo do reembolso é de sete dias úteis depois do cancelamento da viagem [1]."
    trace = searcher.ask("refund deadline", threshold=-1, pipeline=conversation_pipeline(None, config(server)))
    [said] = [w for w in trace.warnings if w.code == WarningCode.LLM_LANGUAGE]
    assert (said.answer_language, said.question_language) == ("pt", "en")
    assert "the answer is in Portuguese but the question is in English" in wording.warning(said)


def test_a_refused_question_sends_nothing_to_the_model(store: IndexStore, server: ScriptedServer):
    trace = Searcher(store, Settings(), CountingEmbedder()).ask(
        "refund deadline", threshold=2.0, pipeline=conversation_pipeline(None, config(server)))
    assert not trace.decision.answered and trace.answer.kind == AnswerKind.REFUSAL
    assert server.requests == [] and trace.generation is None


def test_a_follow_up_carries_the_previous_terms_and_scope(store: IndexStore):
    assert is_follow_up("and the deadline for cancelling?") and not is_follow_up("when does the flight leave Lisbon")
    assert not is_follow_up("Qual o prazo do reembolso?"), "a question word and two words of its own stand alone"
    assert is_follow_up("Qual o prazo?") and is_follow_up("deadline for cancelling?")
    # a question for a definition names its whole topic (a fresh-eyes user's "What is a callout?" after a question
    # on sync came out "What is a callout (sync vault another device)?"); one for "the" thing leans on the last
    for whole in ("What is a callout?", "What are callouts?", "O que é um callout?", "Who was Turing?"):
        assert not is_follow_up(whole), whole
    for leaning in ("What is the deadline?", "What is it?", "O que é o prazo?", "What is that?"):
        assert is_follow_up(leaning), leaning
    assert carry_terms("and the deadline?", "how do refunds work?") == ("and the deadline (refunds work)?",
                                                                        ["refunds", "work"])
    searcher, conv = Searcher(store, Settings(), CountingEmbedder()), Conversation()
    first = searcher.ask("how does the refund work", Scope(folders=["Casa"]), threshold=-1,
                         pipeline=conversation_pipeline(conv, None))
    assert first.rewrite is not None and first.rewrite.method == RewriteMethod.NONE
    conv.add(first)
    follow = searcher.ask("and the deadline for cancelling?", threshold=-1, pipeline=conversation_pipeline(conv, None))
    assert follow.rewrite is not None and follow.rewrite.method == RewriteMethod.TERMS
    assert follow.rewrite.original == "and the deadline for cancelling?" and "refund" in follow.rewrite.carried
    assert follow.question == follow.rewrite.question and "refund" in follow.question
    assert follow.scope["folders"] == ["Casa"], "the previous question's scope carries over"
    assert follow.prompt.rstrip().endswith(follow.question)
    conv.reset()
    fresh = searcher.ask("and the deadline for cancelling?", threshold=-1, pipeline=conversation_pipeline(conv, None))
    assert fresh.rewrite is not None and fresh.rewrite.method == RewriteMethod.NONE


def test_a_refused_question_does_not_seed_the_next_rewrite(store: IndexStore):
    searcher, conv = Searcher(store, Settings(), CountingEmbedder()), Conversation()
    refused = searcher.ask("how does the refund work", threshold=2.0, pipeline=conversation_pipeline(conv, None))
    assert not refused.decision.answered
    conv.add(refused)
    follow = searcher.ask("and the deadline for cancelling?", threshold=-1, pipeline=conversation_pipeline(conv, None))
    assert follow.rewrite is not None and follow.rewrite.method == RewriteMethod.NONE
    assert follow.question == "and the deadline for cancelling?" and "refund" not in follow.question
    answered = searcher.ask("how does the refund work", threshold=-1, pipeline=conversation_pipeline(conv, None))
    conv.add(answered)
    again = searcher.ask("and the deadline for cancelling?", threshold=-1, pipeline=conversation_pipeline(conv, None))
    assert again.rewrite is not None and again.rewrite.method == RewriteMethod.TERMS, "an answered one still does"



def test_a_follow_up_the_carried_terms_leave_unanswered_is_asked_on_its_own(store: IndexStore):
    """"And the flight to Lisbon?" after a refund question: the carried "refund work" pulls it to the refund note;
    asked as written, the flight note answers it (a fresh-eyes user's "e para cancelar a academia?")."""
    searcher, conv = Searcher(store, Settings(), CountingEmbedder()), Conversation()
    conv.add(searcher.ask("how does the refund work", threshold=-1, pipeline=conversation_pipeline(conv, None)))
    follow = "and the flight to Lisbon?"
    carried, _ = carry_terms(follow, "how does the refund work")
    with_terms = searcher.ask(carried).decision.confidence
    alone = searcher.ask(follow).decision.confidence
    assert with_terms is not None and alone is not None and alone > with_terms, "the case this test is about"
    between = (with_terms + alone) / 2
    trace = start_in_conversation(searcher, follow, conv, threshold=between).finish()
    assert trace.decision.answered and trace.answer.note == "Travel/flight.md"
    assert trace.rewrite is not None and trace.rewrite.method == RewriteMethod.ALONE
    assert trace.question == follow and trace.rewrite.tried == carried and "refund" in trace.rewrite.carried
    # answered with the carried terms: kept as rewritten (the search as asked is not tried)
    kept = start_in_conversation(searcher, follow, conv, threshold=with_terms - 0.01).finish()
    assert kept.rewrite is not None and kept.rewrite.method == RewriteMethod.TERMS and kept.question == carried
    # refused both ways: the rewritten search is the one shown
    none = start_in_conversation(searcher, follow, conv, threshold=alone + 0.01).finish()
    assert not none.decision.answered and none.rewrite is not None and none.rewrite.method == RewriteMethod.TERMS

def test_the_model_rewrites_a_follow_up_when_one_is_set(store: IndexStore, server: ScriptedServer):
    searcher, conv = Searcher(store, Settings(), CountingEmbedder()), Conversation()
    conv.add(searcher.ask("how does the refund work", threshold=-1, pipeline=conversation_pipeline(conv, None)))
    server.reply = "What is the deadline for cancelling a refund?"
    trace = searcher.ask("and the deadline?", threshold=-1, pipeline=conversation_pipeline(conv, config(server)))
    assert trace.rewrite is not None and trace.rewrite.method == RewriteMethod.MODEL
    assert trace.question == "What is the deadline for cancelling a refund?"
    assert "how does the refund work" in server.requests[0]["messages"][0]["content"]
    server.mode = "error500"  # the model fails: the terms are carried instead, with a warning
    trace = searcher.ask("and the deadline?", threshold=-1, pipeline=conversation_pipeline(conv, config(server)))
    assert trace.rewrite is not None and trace.rewrite.method == RewriteMethod.TERMS
    assert trace.warnings[0].code == WarningCode.REWRITE_FAILED and trace.warnings[0].failure is not None


def test_an_answer_cut_at_the_cap_says_the_cap(store: IndexStore, server: ScriptedServer):
    server.mode = "endless"  # a server that ignores max_tokens
    capped = OpenAICompatible(LLMConfig(server.base_url, "tiny-model", max_tokens=12, timeout=5.0))
    trace = Searcher(store, Settings(), CountingEmbedder()).ask(
        "refund deadline", threshold=-1, pipeline=conversation_pipeline(None, capped))
    assert trace.generation is not None and trace.generation.status == GenerationStatus.CAPPED
    assert [w.limit for w in trace.warnings if w.code == WarningCode.LLM_CAPPED] == [12]
    assert trace.answer.kind == AnswerKind.GENERATED and len(trace.answer.text.split()) == 12


def test_generate_and_rewrite_take_any_generator(store: IndexStore):
    """Both stages speak the Generator protocol: a scripted model (no server) rewrites the follow-up and answers."""
    searcher, conv = Searcher(store, Settings(), CountingEmbedder()), Conversation()
    conv.add(searcher.ask("how does the refund work", threshold=-1, pipeline=conversation_pipeline(conv, None)))
    model = ScriptedGenerator("What is the deadline for cancelling a refund?",
                              "The refund deadline is seven business days after cancelling [1].")
    pieces: list[str] = []
    trace = searcher.ask("and the deadline?", threshold=-1,
                         pipeline=conversation_pipeline(conv, model, pieces.append))
    assert trace.rewrite is not None and trace.rewrite.method == RewriteMethod.MODEL
    assert trace.question == "What is the deadline for cancelling a refund?"
    (rewrite, t0, cap0), (answer, t1, cap1) = model.requests
    assert "how does the refund work" in rewrite[0].content and (t0, cap0) == (0.0, 96)
    assert [m.content for m in answer] == [trace.prompt] and answer[0].role == "user" and (t1, cap1) == (None, None)
    assert trace.answer.kind == AnswerKind.GENERATED and trace.answer.model == "scripted-model"
    assert "".join(pieces) == trace.answer.text and [s.verdict for s in trace.answer.sentences] == [
        SupportVerdict.SUPPORTED]
    failing = ScriptedGenerator(fail=LLMFailure.TIMEOUT)
    trace = searcher.ask("and the deadline?", threshold=-1, pipeline=conversation_pipeline(conv, failing))
    assert trace.rewrite is not None and trace.rewrite.method == RewriteMethod.TERMS
    assert trace.answer.kind == AnswerKind.EXTRACTIVE and trace.generation is not None
    assert trace.generation.failure == LLMFailure.TIMEOUT
    codes = [(w.code, w.failure, w.detail) for w in trace.warnings]
    assert codes == [(WarningCode.REWRITE_FAILED, LLMFailure.TIMEOUT, "the scripted model failed (timeout)"),
                     (WarningCode.LLM_FAILED, LLMFailure.TIMEOUT, "the scripted model failed (timeout)")]


def test_the_model_writes_after_the_read_snapshot_and_the_trace_exists_before(store: IndexStore):
    """A generation may take a minute: no read transaction is held meanwhile; the extractive trace comes first."""
    seen: list[bool] = []
    model = ScriptedGenerator(during=lambda: seen.append(store.db.in_transaction))
    searcher = Searcher(store, Settings(), CountingEmbedder())
    asked = searcher.start("refund deadline", threshold=-1, pipeline=conversation_pipeline(None, model))
    assert not store.db.in_transaction and model.requests == [], "only the units that read the index ran"
    early = asked.trace()
    assert early.answer.kind == AnswerKind.EXTRACTIVE and early.generation is None and early.prompt
    assert [u.name for u in asked.rest] == ["generate"]
    done = asked.finish()
    assert seen == [False], "the model was asked outside any read transaction"
    assert done.answer.kind == AnswerKind.GENERATED and done.generation is not None and "generate" in done.timings_ms
    assert early.answer.kind == AnswerKind.EXTRACTIVE and "generate" not in early.timings_ms, "the early trace stays"
    assert done.flagged == early.flagged and done.stages is early.stages
    trace = searcher.ask("refund deadline", threshold=-1, pipeline=conversation_pipeline(None, model))
    assert seen == [False, False] and trace.answer.kind == AnswerKind.GENERATED


def test_a_new_backend_is_one_module_and_one_registry_line(store: IndexStore, request: pytest.FixtureRequest,
                                                           capsys: pytest.CaptureFixture[str]):
    """A test-only backend (tests/engine_scripted.py) registered by one line: validation, the factory, the
    `ask --generate` path and the rewrite use it with no other change."""
    import argparse

    from tests import engine_scripted
    from vaultrag.cli import llm as cli_llm
    from vaultrag.core.llm import registry
    from vaultrag.engines import GENERATORS, GeneratorEngine

    engine_scripted.MADE.clear()
    made = engine_scripted.MADE
    GENERATORS.register(GeneratorEngine("scripted", "Scripted", "tests.engine_scripted"))  # the one registry line
    request.addfinalizer(lambda: GENERATORS.unregister("scripted"))
    settings = Settings(llm_backend="scripted", llm_model="tiny-scripted")
    assert isinstance(registry.from_settings(settings), ScriptedGenerator)
    searcher = Searcher(store, settings, CountingEmbedder())
    args = argparse.Namespace(question="and the deadline?", after=["how does the refund work"], generate=True,
                              k=None, threshold=-1.0, json=False, explain=False)
    assert cli_llm.ask_generating(args, searcher, Scope()) == 0
    out = capsys.readouterr().out
    assert out.startswith("Seven business days [1].") and "(read as: What is the deadline for cancelling" in out
    assert "tiny-scripted: first token" in out and "citations: 1 of 1 sentence(s) backed" in out
    assert [len(m.requests) for m in made] == [0, 2], "the model the test built, then the CLI's: rewrite, answer"


def test_a_hostile_note_is_flagged_escaped_and_listed(store: IndexStore, vault: Path):
    assert store.note_flags() == {"shopping.md": [NoteFlag.IGNORE_INSTRUCTIONS, NoteFlag.FAKE_TAG,
                                                  NoteFlag.ROLE_MARKER]}
    trace = Searcher(store, Settings(), CountingEmbedder()).ask("refund deadline one year Friday milk",
                                                                threshold=-1)
    assert trace.flagged == {"shopping.md": ["ignore-instructions", "fake-tag", "role-marker"]}
    assert any(d.note == "shopping.md" for d in trace.context)
    assert trace.prompt.count("</document>") == len(trace.context), "the note's fake tag is escaped"
    assert "&lt;/document&gt;" in trace.prompt
    h = health(store, str(vault), Settings())
    assert [n.path for n in h.notes["flagged"]] == ["shopping.md"] and "orders" in h.notes["flagged"][0].reason


def test_migration_0005_flags_hostile_notes_indexed_before_it(vault: Path, tmp_path: Path):
    from vaultrag.core.store import migrations
    from vaultrag.core.store.db import connect

    write(vault, "shopping.md", INJECTION)
    write(vault, "plain.md", "# Plain\n\nNothing to see.\n")
    path = tmp_path / "old.sqlite"
    store = IndexStore.open(path)
    run_to_end(Indexer(vault, store, IndexOptions(), CountingEmbedder()).run())
    store.close()
    db = connect(path)  # back to the state before the migration: no flags column, notes already indexed
    db.execute("alter table notes drop column flags")
    db.execute("delete from _migrations where name = '0005_note_flags'")
    db.commit()
    db.close()
    probe = connect(path)
    assert "0005_note_flags" not in migrations.applied(probe)
    probe.close()
    store = IndexStore.open(path)
    try:
        embedder = CountingEmbedder()
        report = run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        assert store.note_flags() == {"shopping.md": ["ignore-instructions", "fake-tag", "role-marker"]}
        assert report.notes_indexed == 2 and embedder.passages == [], "re-read, not re-embedded"
    finally:
        store.close()

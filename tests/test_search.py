"""The query pipeline on a real index (fake embedder only): hostile input, scope in SQL, refusal, budget, prompt."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import tokens, wording
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.language import detect_language
from vaultrag.core.model import to_dict
from vaultrag.core.query.contracts import ranked_lists
from vaultrag.core.query.search import PIPELINE, Searcher
from vaultrag.core.query.stages.decide import BACKGROUND_WEIGHT
from vaultrag.core.query.stages.fuse import rrf
from vaultrag.core.query.stages.prompt import REFUSAL, instructions_of, render_document
from vaultrag.core.query.terms import fold
from vaultrag.core.scope import Scope
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import DecisionReason, StageReason, WarningCode
from vaultrag.errors import ScopeError, UserFacingError
from vaultrag.settings import Settings

LONG = " ".join(f"Fact {i}: the reactor coolant loop number {i} is inspected every {i + 2} weeks." for i in range(30))


@pytest.fixture
def searcher(vault: Path, tmp_path: Path):
    write(vault, "inside/reactor.md", f"---\ntags: [plant]\n---\n# Reactor\n\n{LONG}\n")
    write(vault, "inside/refund.md", "# Refund\n\nThe refund deadline is seven business days after cancelling.\n")
    write(vault, "inside/deep/cpp.md", "# C++ notes\n\nC++ templates and #tag usage; 50% of builds use [[link]].\n")
    write(vault, "inside/pt.md", "# Reembolso\n\nO prazo do reembolso é de sete dias úteis após o cancelamento.\n")
    write(vault, "outside/canary.md", "---\ntags: [secret]\n---\n# Canary\n\nZEBRAFISH CANARYWORD refund deadline "
          "reactor coolant loop inspected weeks cancelling.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "idx.sqlite")
    run_to_end(Indexer(vault, store, IndexOptions(chunk_tokens=60), embedder).run())
    s = Searcher(store, Settings(), embedder)
    yield s
    store.close()


def trace_json(trace) -> str:
    return json.dumps(to_dict(trace), ensure_ascii=False)


@pytest.mark.parametrize(
    "question",
    ["C++", "#tag", "[[link]]", "what's up?", "AND", "50%", "foo-bar", "title: hello", "note.md", '"quoted"',
     "NEAR(a b)", "*", "a OR b NOT c", "🙂 emoji", "x" * 5000],
)
def test_hostile_query_strings_never_break_match(searcher: Searcher, question: str):
    trace = searcher.ask(question)
    assert trace.stages["bm25"].status in ("ok", "empty")
    assert trace.question == question[:5000]


def test_hostile_queries_still_find_their_words(searcher: Searcher):
    for q in ("C++", "#tag", "[[link]]", "50%"):
        notes = [c.note for c in searcher.ask(q).stages["bm25"].candidates]
        assert notes and notes[0] == "inside/deep/cpp.md", q


def test_empty_and_stopword_questions(searcher: Searcher):
    with pytest.raises(UserFacingError, match="empty"):
        searcher.ask("   \n ")
    trace = searcher.ask("what is the?")
    assert not trace.decision.answered and trace.decision.reason == DecisionReason.STOP_WORDS_ONLY
    assert "stop words" in wording.decision_reason(trace.decision)
    assert [w.code for w in trace.warnings] == [WarningCode.STOP_WORDS_ONLY]
    assert trace.prompt == "" and trace.answer.kind == "refusal"


def test_scope_is_applied_inside_sql_and_the_canary_appears_nowhere(searcher: Searcher):
    unscoped = searcher.ask("CANARYWORD refund deadline reactor coolant")
    assert "outside/canary.md" in trace_json(unscoped)
    for scope in (Scope(folders=["inside"]), Scope(tags=["plant"]), Scope(notes=["inside/refund.md"])):
        trace = searcher.ask("CANARYWORD refund deadline reactor coolant", scope, threshold=-1.0)
        dumped = trace_json(trace)
        assert "outside/" not in dumped and "zebrafish" not in dumped.lower() and "Canary" not in dumped
        assert all(len(s.candidates) > 0 for s in (trace.stages["bm25"], trace.stages["vector"]))
        for stage in trace.stages.values():
            for c in stage.candidates:
                if scope.folders:
                    assert c.note.startswith("inside/")
                if scope.tags:
                    assert c.note == "inside/reactor.md"
                if scope.notes:
                    assert c.note == "inside/refund.md"


def test_subfolders_are_in_a_folder_scope_and_unknown_names_are_errors(searcher: Searcher):
    trace = searcher.ask("C++ templates", Scope(folders=["inside"]), threshold=-1)
    assert trace.stages["bm25"].candidates[0].note == "inside/deep/cpp.md"
    with pytest.raises(ScopeError, match="in the folder nowhere"):
        searcher.ask("refund", Scope(folders=["nowhere"]))
    with pytest.raises(ScopeError, match="#nope"):
        searcher.ask("refund", Scope(tags=["nope"]))
    with pytest.raises(ScopeError, match="not in the index"):
        searcher.ask("refund", Scope(notes=["missing.md"]))
    with pytest.raises(ScopeError):
        searcher.ask("refund", Scope(folders=["ins"]))


def test_refusal_below_threshold_and_answer_above(searcher: Searcher):
    trace = searcher.ask("refund deadline", threshold=-1.0)
    top = trace.stages["fused"].candidates[0]
    store = searcher.store
    n, mean = store.vector_mean(searcher.embedder.model_id)
    assert n == store.counts()["chunks_embedded"]
    background = float(mean @ searcher.embedder.embed_query("refund deadline"))
    conf = top.cosine - BACKGROUND_WEIGHT * background
    assert trace.decision.answered and trace.decision.confidence == pytest.approx(conf, abs=1e-5)
    assert trace.decision.margin == pytest.approx(conf + 1.0, abs=1e-5)
    # the decision carries its own inputs: no reader has to work them out again
    assert trace.decision.top_cosine == top.cosine and trace.decision.background == pytest.approx(background)
    assert trace.decision.confidence_of(top.cosine) == pytest.approx(conf, abs=1e-6)
    assert trace.final_stage == "fused" and trace.final == trace.stages["fused"].candidates
    assert trace.decision.reason == DecisionReason.ABOVE_THRESHOLD
    assert f"vault background {background:.3f}" in wording.decision_reason(trace.decision)
    refused = searcher.ask("refund deadline", threshold=conf + 0.01)
    assert not refused.decision.answered and refused.decision.margin == pytest.approx(-0.01, abs=1e-6)
    assert refused.answer.text == REFUSAL["en"] and refused.prompt == "" and refused.context == []
    assert refused.decision.reason == DecisionReason.BELOW_THRESHOLD
    assert "0.010 below the threshold" in wording.decision_reason(refused.decision)
    pt = searcher.ask("Qual o prazo do reembolso?", threshold=2.0)
    assert pt.language == "pt" and pt.answer.text == "Não encontrei isso nas notas."
    exact = searcher.ask("refund deadline", threshold=trace.decision.confidence)
    assert exact.decision.answered, "a confidence equal to the threshold passes"


def test_uncalibrated_model_answers_but_says_so(searcher: Searcher):
    trace = searcher.ask("refund deadline")
    assert trace.decision.answered and trace.decision.threshold_source == "uncalibrated"
    assert trace.decision.reason == DecisionReason.NO_THRESHOLD
    assert "calibration" in wording.decision_reason(trace.decision)


def test_budget_is_respected_with_exact_counts_and_overlaps_are_merged(searcher: Searcher):
    searcher.settings = dataclasses.replace(searcher.settings, context_tokens=250)
    trace = searcher.ask("reactor coolant loop inspected weeks", threshold=-1, k=5)
    docs = trace.context
    assert docs and sum(d.tokens for d in docs) <= 250
    # each document is counted once, before it is numbered: the count is its exact size as numbered and rendered
    assert [d.tokens for d in docs] == [tokens.count(render_document(d)) for d in docs]
    assert all(f'<document index="{d.index}">' in trace.prompt for d in docs)
    start = trace.prompt.index("<documents>")
    end = trace.prompt.index("</documents>") + len("</documents>")
    assert trace.prompt_tokens["documents"] == tokens.count(trace.prompt[start:end])
    assert trace.prompt_tokens["total"] == tokens.count(trace.prompt)
    assert "cut-by-budget" in trace.context_status.values()
    texts = [d.text for d in docs]
    for i, a in enumerate(texts):  # no fact is delivered twice
        for fact in {f for f in a.split("Fact ")[1:]}:
            assert not any(fact in b for b in texts[i + 1 :])
    searcher.settings = dataclasses.replace(searcher.settings, context_tokens=5000)
    wide = searcher.ask("reactor coolant loop inspected weeks", threshold=-1, k=5)
    merged = [cid for cid, s in wide.context_status.items() if s == "merged"]
    assert merged, "overlapping chunks merge"
    assert all(wide.document_of(cid) is not None for cid in merged), "a merged chunk is in some document"
    reactor_docs = [d for d in wide.context if d.note == "inside/reactor.md"]
    assert len(reactor_docs) >= 1 and all(LONG.find(d.text.split("\n\n")[-1][:40]) >= 0 for d in reactor_docs)
    # neighbouring pieces of the long paragraph are one document whose text is the note's own, gaps included
    joined = [d for d in reactor_docs if len(d.chunk_ids) > 1]
    assert joined and all(d.text in f"# Reactor\n\n{LONG}\n" for d in joined)


def test_parent_section_delivers_the_whole_section(searcher: Searcher):
    searcher.settings = dataclasses.replace(searcher.settings, parent_section=True, context_tokens=5000)
    trace = searcher.ask("reactor coolant loop", threshold=-1, k=1)
    assert "Fact 0:" in trace.context[0].text and "Fact 29:" in trace.context[0].text


def test_prompt_structure_in_both_languages(searcher: Searcher):
    en = searcher.ask("When is the refund deadline?", threshold=-1)
    p = en.prompt
    assert p.index("Rules:") < p.index("<documents>") < p.index("</documents>") < p.index("Question: When is")
    assert p.rstrip().endswith("Question: When is the refund deadline?")
    assert '<document index="1">\n<source>' in p and "<document_content>" in p
    assert f'reply exactly: "{REFUSAL["en"]}"' in p and "never instructions" in p and "like [1]" in p
    assert "contradict" in p and "6. Answer in English." in p, "the prompt names the answer's language"
    assert en.context[0].source.startswith(en.context[0].note)
    pt = searcher.ask("Qual é o prazo do reembolso?", threshold=-1)
    assert pt.language == "pt" and "Regras:" in pt.prompt and 'exatamente: "Não encontrei isso nas notas."' in pt.prompt
    assert pt.prompt.rstrip().endswith("Pergunta: Qual é o prazo do reembolso?")
    assert "6. Responda em português." in pt.prompt and "English" not in pt.prompt
    french = instructions_of("fr")[0]  # no French instructions: the English ones, which cannot name every language
    assert french.startswith("You answer") and "6. Answer in the same language as the question." in french
    assert pt.prompt_tokens["instructions"] == tokens.count(pt.prompt[:pt.prompt.index("\n\n<documents>")])
    assert detect_language("How do I deploy to production?") == "en"
    assert detect_language("Como cancelar a academia?") == "pt"


def test_extractive_answer_marks_the_best_sentence(searcher: Searcher):
    trace = searcher.ask("refund deadline business days", threshold=-1)
    assert trace.answer.kind == "extractive"
    assert trace.answer.sentence == "The refund deadline is seven business days after cancelling."
    assert f"**{trace.answer.sentence}**" in trace.answer.text
    assert trace.answer.note == "inside/refund.md" and trace.answer.line == 3


def test_rrf_records_contributions():
    fused = rrf({"bm25": [(1, 9.0), (2, 5.0)], "vector": [(2, 0.9), (3, 0.8)]})
    assert [f[0] for f in fused] == [2, 1, 3]
    assert fused[0][2] == {"bm25": pytest.approx(1 / 62), "vector": pytest.approx(1 / 61)}
    assert fused[0][1] == pytest.approx(1 / 62 + 1 / 61)


def test_bm25_only_while_vectors_fill_then_confidence_once_they_land(vault: Path, tmp_path: Path):
    write(vault, "a.md", "# A\n\nThe refund deadline is seven days.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), None).run())
        with store.transaction():
            store.ensure_vec_table(embedder.model_id, embedder.dim)
        searcher = Searcher(store, Settings(), embedder)
        trace = searcher.ask("refund deadline")
        vector = trace.stages["vector"]
        assert vector.status == "partial" and vector.reason == StageReason.VECTORS_FILLING
        assert [(w.code, w.done, w.total) for w in trace.warnings] == [
            (WarningCode.VECTORS_FILLING, 0, trace.index_state.chunks)]
        assert trace.stages["bm25"].candidates and trace.decision.answered
        assert trace.decision.reason == DecisionReason.NO_CONFIDENCE and trace.decision.confidence is None
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        # the same searcher (as in the app's query lane) gets a confidence as soon as the vectors land
        assert searcher.ask("refund deadline").decision.confidence is not None
    finally:
        store.close()


TRACE_KEYS = {
    "question", "language", "scope", "settings", "stages", "final_stage", "final", "decision", "context",
    "context_status", "prompt", "prompt_tokens", "answer", "timings_ms", "index_state", "warnings", "version",
    "rewrite", "translations", "generation", "flagged",
}
CANDIDATE_KEYS = {"chunk_id", "note", "heading_path", "char_start", "char_end", "line_start", "line_end", "rank",
                  "score", "contributions", "cosine", "via"}


def test_index_state_is_a_frozen_record_with_the_json_of_the_old_dict(searcher: Searcher):
    trace = searcher.ask("refund deadline", threshold=-1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        trace.index_state.chunks = 0  # type: ignore[misc]
    data = json.loads(trace_json(trace))["index_state"]
    # the fast tier's model and count came after (issue 27): an old trace's record still reads (their defaults)
    assert list(data) == ["model", "chunks", "chunks_embedded", "notes", "fast_model", "chunks_fast"]
    assert (data["fast_model"], data["chunks_fast"]) == ("", 0), "no fast tier on a small vault"
    assert data["model"] == searcher.embedder.model_id and data["notes"] == 5
    assert data["chunks"] == data["chunks_embedded"] == searcher.store.chunk_count() > 5


def test_trace_json_schema_is_stable(searcher: Searcher):
    data = json.loads(trace_json(searcher.ask("refund deadline", threshold=-1)))
    assert set(data) == TRACE_KEYS and data["version"] == 7
    assert list(data["stages"]) == list(ranked_lists(PIPELINE))  # one entry per ranked list the pipeline declares
    assert set(data["stages"]["bm25"]) == {"name", "status", "candidates", "ms", "note", "reason", "inputs"}
    assert data["stages"]["reranked"]["reason"] == "no-reranker" and data["decision"]["reason"] == "above-threshold"
    # each ranked list names the lists it was made from (the window's movement column, the evaluation's rows): the
    # shipped wiring, named here on purpose
    assert [data["stages"][n]["inputs"] for n in ("bm25", "vector", "fused", "reranked")] == [
        [], [], ["bm25", "vector"], ["fused"]]
    assert set(data["stages"]["fused"]["candidates"][0]) == CANDIDATE_KEYS
    assert set(data["stages"]["fused"]["candidates"][0]["contributions"]) <= {"bm25", "vector"}
    assert set(data["decision"]) == {"answered", "confidence", "threshold", "margin", "threshold_source", "reason",
                                     "top_cosine", "background", "background_weight", "decider", "supported_by",
                                     "supported_note", "contributions", "values", "usual", "bias", "support",
                                     "topic_found", "unknown_words"}
    assert data["final_stage"] == "fused" and data["final"] == data["stages"]["fused"]["candidates"]
    # the timing keys are part of the versioned schema: the exact set IS what this test pins
    assert set(data["timings_ms"]) == {"bm25", "embed_query", "knn", "fusion", "rerank", "context", "prompt",
                                       "answer", "total"}
    # one Portuguese note of five is too few to search in Portuguese too (tests/test_translate.py has the record)
    assert data["translations"] == []
    assert set(data["context"][0]) == {"index", "chunk_ids", "note", "heading_path", "source", "text", "tokens",
                                       "char_start", "char_end", "line_start", "line_end"}
    assert set(data["answer"]) == {"kind", "text", "sentence", "source", "note", "line", "model", "sentences",
                                   "translated"}
    assert data["rewrite"] is None and data["generation"] is None and data["flagged"] == {}
    assert set(data["prompt_tokens"]) == {"instructions", "documents", "question", "total", "budget"}
    assert data["stages"]["reranked"]["status"] == "skipped"



def test_at_scale_the_commonest_words_leave_the_match_beyond_the_postings_budget(vault: Path, tmp_path: Path,
                                                                                  monkeypatch):
    from vaultrag.core.query import terms

    # 60 notes: 'granite' in all of them, 'harbor' in 20, 'lantern' in 4, 'zeppelin' in 1
    for i in range(60):
        words = ["granite"] + (["harbor"] if i % 3 == 0 else []) + (["lantern"] if i % 15 == 0 else [])
        words += ["zeppelin"] if i == 30 else []
        write(vault, f"n{i}.md", f"# Note {i}\n\nA line about {' '.join(words)} number {i}.\n")
    store = IndexStore.open(tmp_path / "idx.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), CountingEmbedder()).run())
        question = "zeppelin lantern harbor granite?"
        monkeypatch.setattr(terms, "COMMON_MIN_CHUNKS", 10)  # this little index counts as large
        monkeypatch.setattr(terms, "COMMON_SHARE", 2.0)  # no word is dropped for its share alone
        monkeypatch.setattr(terms, "POSTINGS_BUDGET", 1000)
        assert terms.query_terms(store, question) == (["zeppelin", "lantern", "harbor", "granite"], [])
        monkeypatch.setattr(terms, "POSTINGS_BUDGET", 25)  # 1 + 4 + 20 fit, granite's 60 do not
        assert terms.query_terms(store, question) == (["zeppelin", "lantern", "harbor"], ["granite"])
        monkeypatch.setattr(terms, "POSTINGS_BUDGET", 3)  # the rarest word stays even when alone over budget
        assert terms.query_terms(store, "granite harbor") == (["harbor"], ["granite"])
        # a word the index lacks (a typo) costs nothing: it neither takes the rarest word's place nor leaves
        assert terms.query_terms(store, "granite harbour harbor") == (["harbour", "harbor"], ["granite"])
        # FTS5 matches snake_case as the phrase of its parts: it costs their postings (20 + 60) and is as rare
        # as 'harbor'; with a missing part it matches nothing and stays like a typo
        monkeypatch.setattr(terms, "POSTINGS_BUDGET", 25)
        assert terms.query_terms(store, "zeppelin harbor_granite") == (["zeppelin"], ["harbor_granite"])
        assert terms.query_terms(store, "zeppelin lantern_harbor") == (["zeppelin", "lantern_harbor"], [])
        assert terms.query_terms(store, "zeppelin harbor_qwzx granite") == (["zeppelin", "harbor_qwzx"],
                                                                              ["granite"])
        monkeypatch.setattr(terms, "POSTINGS_BUDGET", 3)
        s = Searcher(store, Settings(), CountingEmbedder())
        trace = s.ask(question)
        assert "left out: lantern, harbor, granite" in trace.stages["bm25"].note
        assert store.stored_chunks([trace.stages["bm25"].candidates[0].chunk_id]).popitem()[1].note == "n30.md"
        monkeypatch.setattr(terms, "COMMON_MIN_CHUNKS", 10_000)  # a small index: no budget, however long
        assert terms.query_terms(store, "granite harbor") == (["granite", "harbor"], [])
    finally:
        store.close()


def test_fold_strips_what_fts5_strips_and_leaves_plain_words_alone():
    assert fold("reembolsável") == "reembolsavel" and fold("Ação") == "Acao" and fold("Straße") == "Straße"
    assert fold("ﬁnal") == "final", "compatibility forms fold as NFKD folds them"
    assert fold("refund") == "refund" and fold("日本") == "日本"


def test_the_extractive_answer_is_a_statement_not_a_question_nor_a_list_marker():
    from vaultrag.core.query.stages.answer import best_sentence

    faq = "# FAQ\n\nComo cancelar a matrícula? Ligue para 0800 até sete dias antes.\n\nOutras dúvidas? Escreva."
    assert best_sentence("como cancelar a matrícula?", faq) == ("Ligue para 0800 até sete dias antes.", 34)
    index = ('Pergunte, por exemplo:\n\n- "Qual o prazo do reembolso?"\n\n'
             "O prazo do reembolso é de sete dias úteis.\n")
    assert best_sentence("qual o prazo do reembolso?", index)[0] == "O prazo do reembolso é de sete dias úteis."
    listed = "Steps:\n\n1. Open the refund form.\n2. Send it before the deadline.\n"
    sentence, at = best_sentence("refund deadline form", listed)
    assert sentence == "Open the refund form." and listed[at : at + len(sentence)] == sentence
    assert best_sentence("anything?", "Only a question here?") == ("Only a question here?", 0)


def test_the_extractive_sentence_is_not_cut_inside_a_word_a_url_or_a_callout():
    """A sentence ends at ".", "!" or "?" before a space or the line's end: a fresh-eyes user got "To create a
    callout, add `[!" and "…[iframe](https://developer." as the marked sentence, which matched nothing."""
    from vaultrag.core.query.stages.answer import best_sentence

    text = ("To create a callout, add `[!info]` to the first line of a blockquote. Then write.\n"
            "See [iframe](https://developer.mozilla.org/en-US/docs/Web/HTML/Element/iframe) to embed a page! "
            "Version 3.5 of Document.pdf is out.")
    assert best_sentence("How do I create a callout?", text)[0] == (
        "To create a callout, add `[!info]` to the first line of a blockquote.")
    sentence, at = best_sentence("how to embed a page with an iframe", text)
    assert sentence.startswith("See [iframe](https://developer.mozilla.org/") and sentence.endswith("a page!")
    assert text[at:].startswith(sentence)
    assert best_sentence("which version of the document", text)[0] == "Version 3.5 of Document.pdf is out."


def test_the_extractive_sentence_is_not_a_pointer_to_another_note():
    """A sentence whose question words are only in a link's text points at the answer: the one that states it wins
    (a fresh-eyes user got "…move onto Sync a remote vault on another device" as the answer)."""
    from vaultrag.core.query.stages.answer import best_sentence

    text = ("Next, move onto [[Sync a remote vault on another device]]. To sync a vault on another device, open "
            "Settings and choose Sync, then pick the remote vault.")
    assert best_sentence("How do I sync my vault with another device?", text)[0].startswith("To sync a vault")
    # a link inside a sentence that says something still counts for it
    assert best_sentence("what does Sync keep", "Unrelated words here. [[Obsidian Sync]] keeps a version history.")[
        0] == "[[Obsidian Sync]] keeps a version history."

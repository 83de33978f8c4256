"""Reasons as codes (issue 22): the core's codes are identifiers, worded in one place (core/wording.py) for the CLI
and the window alike; why-not verdicts come only from the core; damage is told by SQLite's code, not its words."""

from __future__ import annotations

import re
import string
from enum import StrEnum
from pathlib import Path

import pytest
import sqlean

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.cli.main import main as cli_main
from vaultrag.core import embed, vocab, wording
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.model import Decision, IndexState, QueryTrace, QueryWarning, Stage
from vaultrag.core.quality.diagnose import Diagnosis, Evidence, Hit, ListHit, RankChange
from vaultrag.core.store.db import is_corruption
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import (
    DecisionReason,
    LLMFailure,
    StageName,
    StageReason,
    StageStatus,
    ThresholdSource,
    Verdict,
    WarningCode,
)
from vaultrag.core.workspace import Workspace

IDENTIFIER = re.compile(r"[a-z0-9]+(-[a-z0-9]+)*")
QUESTION = "When is the garden watering schedule?"
UNRELATED_NOTE = "cooking.md"


def codes() -> list[type[StrEnum]]:
    return [e for e in vars(vocab).values() if isinstance(e, type) and issubclass(e, StrEnum) and e is not StrEnum]


def test_every_code_of_the_core_is_a_stable_identifier_not_prose():
    assert {DecisionReason, WarningCode, StageReason, Verdict, ThresholdSource, vocab.ContextStatus} <= set(codes())
    # Timing's values are the trace's `timings_ms` keys, kept as they were (snake_case: `embed_query`)
    prose = [f"{e.__name__}.{m.name} = {m.value!r}" for e in codes() for m in e
             if m.value and not (IDENTIFIER.fullmatch(m.value.replace("_", "-") if e is vocab.Timing else m.value))]
    assert prose == []


def test_every_code_has_its_words_and_every_word_its_fields():
    d = Decision(False, 0.1, 0.3, -0.2, ThresholdSource.SHIPPED, DecisionReason.BELOW_THRESHOLD, 0.4, 0.4, 0.75)
    said = [wording.decision_reason(Decision(True, 0.1, 0.3, -0.2, ThresholdSource.SHIPPED, r, 0.4, 0.4, 0.75))
            for r in DecisionReason]
    said += [wording.threshold_source(s) for s in ThresholdSource]
    said += [wording.warning(QueryWarning(c, limit=9, done=1, total=2, model="m", failure=LLMFailure.TIMEOUT,
                                          detail="slow", answer_language="pt", question_language="xx"))
             for c in WarningCode]
    trace = QueryTrace("q", "en", {}, {}, {}, StageName.FUSED, [], d, [], {}, "", {}, None, {},
                       IndexState("m", chunks=2, chunks_embedded=1, notes=1))
    said += [wording.stage_reason(trace, Stage(StageName.VECTOR, StageStatus.PARTIAL, reason=r)) for r in StageReason]
    for v in Verdict:
        words = wording.diagnosis(Diagnosis("n.md", v, 1, "x", Evidence(
            rank=3, k=2, final_stage=StageName.FUSED, document=1, budget=10, documents_tokens=9, bm25_n=3, vector_n=3,
            rank_change=RankChange(1, 4, 2, (("cosine", 0.1),)))))
        said += [words.title, words.message, words.advice]
    assert all(said) and not [s for s in said if "{" in s or "}" in s or "None" in s]
    assert "0.200 below the threshold 0.300" in wording.decision_reason(d)
    language = wording.warning(QueryWarning(WarningCode.LLM_LANGUAGE, answer_language="pt", question_language="xx"))
    assert "the answer is in Portuguese but the question is in xx" in language


def test_a_language_model_failure_is_worded_from_its_code_and_details():
    """The backend's failures are worded in core/wording.py (one template per LLMFailure); a warning that carries the
    failure's details is worded from them in the reader's language, the English `detail` stays for old traces."""
    details = {"where": "http://h/v1", "model": "m", "timeout": "5", "status": "401", "detail": "E"}
    said = {f: wording.llm_failure(f, details) for f in LLMFailure}
    assert set(wording.LLM_FAILURE) == set(LLMFailure)
    assert not [s for s in said.values() if "{" in s or "}" in s or "None" in s]
    assert said[LLMFailure.AUTH].startswith("The server at http://h/v1 refused the API key (HTTP 401)")
    assert "sent nothing for 5 s" in said[LLMFailure.TIMEOUT] and "'m'" in said[LLMFailure.BAD_MODEL]
    listed = wording.llm_failure(LLMFailure.BAD_URL, details | {"detail": wording.LLM_HTTP_MODEL_LIST})
    assert "(HTTP 401 for its model list)" in listed

    def mark(text: str) -> str:  # a "translation" that keeps the fields
        return "»" + text
    warned = QueryWarning(WarningCode.LLM_FAILED, failure=LLMFailure.AUTH, detail="English words", details=details)
    assert wording.warning(warned, mark) == "»language model: " + wording.llm_failure(LLMFailure.AUTH, details, mark)
    assert wording.warning(QueryWarning(WarningCode.LLM_FAILED, failure=LLMFailure.AUTH, detail="old")).endswith("old")


def test_every_template_has_portuguese_with_the_same_fields(qtbot):
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.main import _install_translator

    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    try:
        def fields(text: str) -> set[str]:
            return {f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text) if name is not None}

        same = {"{n} bytes", "language model: {detail}", "{what} {sign}{amount}"}  # nothing to translate but the fields
        untranslated = [t for t in wording.TEMPLATES if t not in same
                        and QCoreApplication.translate(wording.CONTEXT, t) == t]
        assert untranslated == []
        changed = [t for t in wording.TEMPLATES if fields(QCoreApplication.translate(wording.CONTEXT, t)) != fields(t)]
        assert changed == []
    finally:
        app.removeTranslator(translator)


# -- a vault with no shipped threshold (the counting fake embedder), a question of stop words, an unrelated note ---
@pytest.fixture
def fake_models(monkeypatch):
    """The counting fake in place of the configured embedder (only ML models may be faked): it has no shipped
    threshold, like the `use` and `st` embedders."""
    monkeypatch.setattr(embed, "from_settings", lambda settings, one_question=False: CountingEmbedder())
    monkeypatch.setattr(embed, "preload", lambda settings: None)


@pytest.fixture
def garden(vault: Path) -> Path:
    for i in range(25):
        write(vault, f"garden/g{i}.md", f"# Garden {i}\n\nThe garden watering schedule {i} is on day {i} of the "
              "week, in the morning.\n")
    write(vault, UNRELATED_NOTE, "# Risotto\n\nStir arborio rice with hot broth, parmesan and butter.\n")
    return vault


def cli(capsys, *args: str) -> str:
    capsys.readouterr()
    assert cli_main(list(args)) == 0
    return capsys.readouterr().out


def test_why_prints_the_verdict_in_words_without_records(fake_models, garden: Path, home: Path, capsys):
    cli(capsys, "--home", str(home), "index", str(garden))
    out = cli(capsys, "--home", str(home), "why", str(garden), QUESTION, "--note", UNRELATED_NOTE)
    assert out.startswith(f"{UNRELATED_NOTE}: Not related to this question (layer 1, stage bm25+vector)\n")
    assert "What to do: Nothing to tune" in out and "Question words the note never uses: garden, watering" in out
    assert not re.search(r"[{}\[\]]|\w+=|'\w+':", out), out  # no dict, list or record noise
    assert "Verdict." not in out and "unrelated" not in out  # the words, not the code


@pytest.mark.usefixtures("fake_models")
def test_the_window_shows_the_same_verdict_and_advice_as_why(qtbot, garden: Path, home: Path, capsys):
    from tests.test_app import open_and_wait
    from vaultrag.app.controller import AppController
    from vaultrag.app.widgets.main_window import MainWindow

    w = MainWindow(AppController(home))
    qtbot.addWidget(w)
    w.show()
    try:
        open_and_wait(qtbot, w, garden)
        w.question.setText(QUESTION)
        w.show_why()
        w.why_dialog.picker.setEditText(UNRELATED_NOTE)
        with qtbot.waitSignal(w.c.diagnosis_finished, timeout=30_000) as blocker:
            w.why_dialog.run.click()
        shown = " ".join(w.why_dialog.result_view.toPlainText().split())
    finally:
        w.close()
    assert blocker.args[0].verdict == Verdict.UNRELATED
    out = cli(capsys, "--home", str(home), "why", str(garden), QUESTION, "--note", UNRELATED_NOTE)
    title, message, advice = (" ".join(line.split()) for line in (
        out.splitlines()[0].split(": ", 1)[1].split(" (layer")[0],
        out.split("\n", 1)[1].split("What to do: ")[0], out.split("What to do: ")[1].split("\n  ")[0]))
    assert title == "Not related to this question"
    assert title in shown and message in shown and advice in shown


@pytest.mark.usefixtures("fake_models")
def test_a_stop_word_question_without_a_threshold_reads_refused_and_says_why(qtbot, garden: Path, home: Path):
    """The defect: with no threshold the window said REFUSED beside 'answered unchecked'."""
    from tests.test_app import ask, open_and_wait
    from vaultrag.app.controller import AppController
    from vaultrag.app.widgets.main_window import MainWindow

    w = MainWindow(AppController(home))
    qtbot.addWidget(w)
    w.show()
    try:
        open_and_wait(qtbot, w, garden)
        trace = ask(qtbot, w, "what is the?")
        shown = w.inspector.panes["decision"].toPlainText()
        answer = w.answer.toPlainText()
    finally:
        w.close()
    d = trace.decision
    assert d.threshold is None and not d.answered and d.reason == DecisionReason.STOP_WORDS_ONLY
    assert "REFUSED" in shown and "unchecked" not in shown and "unchecked" not in answer
    assert "only stop words or symbols: rephrase it" in shown
    assert "nothing to search for" in shown  # the warning, worded from its code


# -- damage told by SQLite's result code -------------------------------------------------------------------------
def test_a_corrupt_index_is_told_by_sqlites_code_not_its_message(vault: Path, home: Path):
    for i in range(40):
        write(vault, f"n{i}.md", f"# Note {i}\n\n" + f"Lighthouse {i} keeps watch over the tides. " * 30)
    path = Workspace.load(vault, home).index_path
    store = IndexStore.open(path)
    run_to_end(Indexer(vault, store, IndexOptions(), CountingEmbedder()).run())
    store.close()
    pages = path.stat().st_size // 4096
    with open(path, "r+b") as f:  # garbage over every page but the header: a real index file, damaged
        for page in range(1, pages):
            f.seek(page * 4096)
            f.write(bytes(range(256)) * 16)
    db = sqlean.connect(str(path))  # SQLite itself, not the app's wrapper: its own error
    try:
        with pytest.raises(sqlean.DatabaseError) as caught:
            db.execute("select count(*) from sqlite_master").fetchone()
            db.execute("select count(*), sum(length(body)) from chunks").fetchone()
    finally:
        db.close()
    assert is_corruption(caught.value)
    assert caught.value.sqlite_errorcode & 0xFF in (sqlean.SQLITE_CORRUPT, sqlean.SQLITE_NOTADB)
    # the code decides, the words never do
    worded = sqlean.DatabaseError(str(caught.value))  # the same message, raised by no SQLite call: no code
    assert not is_corruption(worded)
    coded = sqlean.DatabaseError("vtable constructor failed")
    coded.sqlite_errorcode = sqlean.SQLITE_CORRUPT | (1 << 8)  # SQLITE_CORRUPT_VTAB
    assert is_corruption(coded)


def test_evidence_is_frozen_typed_data():
    ev = Evidence(bm25=Hit(1, 2, 3.0), in_lists=(ListHit(1, 2, 3.0, StageName.BM25),))
    with pytest.raises(AttributeError):
        ev.rank = 3
    assert ev.listed("bm25") == ListHit(1, 2, 3.0, StageName.BM25) and ev.listed(StageName.VECTOR) is None

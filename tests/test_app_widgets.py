"""Window parts driven alone with pytest-qt and hand-built traces: the answer area, the chart, settings."""

from __future__ import annotations

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt, QUrl
from PySide6.QtGui import QFont, QFontMetrics, QTextDocument
from PySide6.QtWidgets import QGroupBox

from vaultrag.app.widgets.answer_view import AnswerView
from vaultrag.app.widgets.rerank_chart import RerankChart
from vaultrag.app.widgets.settings_dialog import SettingsDialog
from vaultrag.app.widgets.stages_view import LINE_GAP, StagesView, movement, row_label, two_lines
from vaultrag.core.model import (
    Answer,
    Candidate,
    ContextDoc,
    Decision,
    IndexState,
    QueryTrace,
    SentenceCheck,
    Stage,
)
from vaultrag.core.vocab import (
    AnswerKind,
    DecisionReason,
    StageName,
    StageReason,
    StageStatus,
    SupportVerdict,
    ThresholdSource,
)
from vaultrag.settings import Group, Settings

NOTE_MD = """## Prazo

> [!tip] Dica
> Guarde o recibo.

![[recibo.png]]

O reembolso sai em <u>até 7 dias</u>, ver [[Casa/Regras|as regras]] [1].
"""


def cand(cid: int, rank: int, note: str = "Casa/Reembolso.md", heading: str = "Prazo",
         cosine: float | None = 0.8, contributions: dict[str, float] | None = None) -> Candidate:
    title = note.rpartition("/")[2].removesuffix(".md")  # its H1 names the note, as in most notes
    return Candidate(note, [title, heading], 0, 10, 0, 2, chunk_id=cid, rank=rank, score=1.0 / rank,
                     contributions=contributions, cosine=cosine)


def trace(answer: Answer, final: list[Candidate], background: float | None = 0.5,
          answered: bool = True) -> QueryTrace:
    docs = [ContextDoc("Casa/Reembolso.md", ["Reembolso", "Prazo"], 0, 10, 3, 6, index=1, chunk_ids=[final[0].chunk_id],
                       source="Casa/Reembolso.md > Prazo", text="O reembolso sai em até 7 dias.", tokens=9)]
    conf = final[0].cosine - 0.75 * background if final[0].cosine is not None and background is not None else None
    reason = (DecisionReason.NO_CONFIDENCE if conf is None else DecisionReason.ABOVE_THRESHOLD if conf >= 0.26
              else DecisionReason.BELOW_THRESHOLD)
    decision = Decision(answered, conf, 0.26, None if conf is None else conf - 0.26, ThresholdSource.SHIPPED,
                        reason, top_cosine=final[0].cosine, background=background, background_weight=0.75)
    stages = {StageName.BM25: Stage(StageName.BM25, StageStatus.OK, final[::-1]),
              StageName.VECTOR: Stage(StageName.VECTOR, StageStatus.OK, final),
              StageName.FUSED: Stage(StageName.FUSED, StageStatus.OK, final,
                                     inputs=[StageName.BM25, StageName.VECTOR]),
              StageName.RERANKED: Stage(StageName.RERANKED, StageStatus.SKIPPED, [],
                                        reason=StageReason.NO_RERANKER, inputs=[StageName.FUSED])}
    return QueryTrace("prazo?", "pt", {}, {"k": 5}, stages, StageName.FUSED, final, decision, docs, {}, "PROMPT",
                      {"total": 1, "instructions": 1, "documents": 0, "budget": 1, "question": 0}, answer, {},
                      IndexState("m", chunks=10, chunks_embedded=10, notes=1))


def test_answer_renders_note_markdown_not_its_markup(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    a = Answer(AnswerKind.EXTRACTIVE, NOTE_MD, sentence="O reembolso", source="Casa/Reembolso.md > Prazo",
               note="Casa/Reembolso.md", line=8)
    view.show_answer(trace(a, [cand(1, 1)]))
    text = view.browser.toPlainText()
    for raw in ("##", "![[", "[!tip]", "<u>", "[[", "> Guarde"):
        assert raw not in text, raw
    assert "Prazo" in text and "Guarde o recibo" in text and "as regras" in text and "recibo.png" in text
    assert "Extractive" in view.kind.text() and "no language model configured" in view.kind.text()
    with qtbot.waitSignal(view.citation_activated) as blocker:  # [1] is a link to document 1
        view.browser.anchorClicked.emit(QUrl("cite:1"))
    assert blocker.args == [1]
    assert "cite:1" in view.source.text() and view.source.isVisibleTo(view)  # the source, above the passage


def test_the_source_links_to_the_document_the_passage_came_from_not_its_notes_first(qtbot):
    """Two documents of one note in the prompt, the passage from the second: the source says [2] (it said the
    note's first document, [1], and clicking it opened other lines)."""
    view = AnswerView()
    qtbot.addWidget(view)
    a = Answer(AnswerKind.EXTRACTIVE, "O reembolso sai em até 7 dias.", sentence="O reembolso sai em até 7 dias.",
               source="Casa/Reembolso.md > Taxa", note="Casa/Reembolso.md", line=12)
    t = trace(a, [cand(1, 1), cand(2, 2, heading="Taxa")])
    t.context.append(ContextDoc("Casa/Reembolso.md", ["Reembolso", "Taxa"], 20, 30, 11, 13, index=2,
                                chunk_ids=[2], source="Casa/Reembolso.md > Taxa", text=a.text, tokens=9))
    view.show_answer(t)
    assert "cite:2" in view.source.text() and "[2]" in view.source.text() and "cite:1" not in view.source.text()
    assert "passage most likely to answer" in view.kind.text()


def test_the_marked_sentence_far_down_a_long_passage_is_scrolled_into_view(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    view.resize(900, 160)
    view.show()
    long = "\n\n".join(f"Parágrafo {i} sobre outra coisa qualquer." for i in range(40))
    sentence = "O prazo do estorno é de 7 dias úteis, veja [[Contatos]]."
    a = Answer(AnswerKind.EXTRACTIVE, f"{long}\n\n**{sentence}**\n\nFim.", sentence=sentence,
               source="Casa/Reembolso.md", note="Casa/Reembolso.md", line=82)
    view.show_answer(trace(a, [cand(1, 1)]))
    bar = view.browser.verticalScrollBar()
    assert bar.maximum() > 0 and bar.value() > 0, "the view scrolled down to the sentence"
    rect = view.browser.cursorRect()
    assert rect.top() >= 0 and rect.bottom() <= view.browser.viewport().height()
    cursor = view.browser.textCursor()
    assert cursor.block().text() == "O prazo do estorno é de 7 dias úteis, veja Contatos." and not cursor.hasSelection()
    view.show_answer(trace(Answer(AnswerKind.EXTRACTIVE, "Curto.", sentence="Curto.", note="Casa/Reembolso.md"),
                           [cand(1, 1)]))
    assert bar.value() == 0
    flagged = trace(a, [cand(1, 1)])
    flagged.flagged = {"Casa/Reembolso.md": ["ignore-instructions"]}
    view.show_answer(flagged)
    assert bar.value() == 0, "the warning about a note that gives orders stays in view"


def test_refusal_reads_as_a_refusal_with_its_reason(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    a = Answer(AnswerKind.REFUSAL, "Não encontrei isso nas suas notas.")
    view.show_answer(trace(a, [cand(1, 1, cosine=0.4)], answered=False))
    assert "Refused" in view.kind.text()
    assert "Não encontrei" in view.browser.toPlainText() and "below the threshold" in view.browser.toPlainText()
    t = trace(a, [cand(1, 1, cosine=0.4)], answered=False)
    t.decision.unknown_words = ["senha", "wi-fi"]
    view.show_answer(t)
    lines = view.browser.toPlainText().splitlines()
    assert lines[1] == "No note uses the words “senha”, “wi-fi”.", lines
    assert "No note uses the words “senha”, “wi-fi”." in view.answer_with_sources(), "and in what Copy takes"


def test_generated_sentences_are_marked_by_their_check(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    sentences = [SentenceCheck("O prazo é de 7 dias [1].", [1], SupportVerdict.SUPPORTED, 0.9),
                 SentenceCheck("Sai em dinheiro [2].", [2], SupportVerdict.BAD_CITATION),
                 SentenceCheck("É rápido.", [], SupportVerdict.UNCITED)]
    a = Answer(AnswerKind.GENERATED, " ".join(s.text for s in sentences), model="qwen", sentences=sentences)
    view.show_answer(trace(a, [cand(1, 1)]))
    text, html = view.browser.toPlainText(), view.browser.toHtml()
    assert "cites a document that is not in the prompt" in text and "no citation" in text
    assert text.count("not supported") == 0  # the supported sentence carries no mark
    assert "cite:1" in html and "cite:2" in html and "qwen" in view.kind.text()


def attached_answer() -> Answer:
    sentences = [SentenceCheck("O prazo é de 7 dias [1].", [1], SupportVerdict.SUPPORTED, 0.9),
                 SentenceCheck("O reembolso sai em até 7 dias.", [1], SupportVerdict.ATTACHED, 1.0),
                 SentenceCheck("Sai em barras de ouro.", [], SupportVerdict.UNCITED, 0.25)]
    return Answer(AnswerKind.GENERATED, " ".join(s.text for s in sentences), model="qwen", sentences=sentences)


def link_formats(view: AnswerView) -> list[tuple[str, str, str]]:
    """(text, href, tooltip) of each link of the answer as the view holds it (not as the HTML was written)."""
    out = []
    block = view.browser.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            f = it.fragment()
            if f.charFormat().isAnchor():
                out.append((f.text(), f.charFormat().anchorHref(), f.charFormat().toolTip()))
            it += 1
        block = block.next()
    return out


def test_an_attached_citation_is_shown_apart_from_the_models_own(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    view.show_answer(trace(attached_answer(), [cand(1, 1)]))
    text = view.browser.toPlainText()
    assert "O reembolso sai em até 7 dias [1]†." in text, "the attached [n] is marked, before the full stop"
    assert "O prazo é de 7 dias [1]." in text and "[1]†" not in text.split("O reembolso")[0], "the model's own: plain"
    assert "† attached by vaultrag: the model cited nothing there" in text
    assert view.kind.text() == "<b>Written by qwen</b>: 2 of 3 sentences backed by a note they cite"
    assert "Sai em barras de ouro. no citation, and no note backs it" in text
    links = link_formats(view)
    assert [(t, h) for t, h, _ in links] == [("[1]", "cite:1"), ("[1]†", "cite:1")], "both open the document"
    assert links[0][2] == "" and "Attached by vaultrag, not cited by the model: document 1 backs" in links[1][2]
    with qtbot.waitSignal(view.citation_activated) as clicked:
        view._on_link(QUrl(links[1][1]))
    assert clicked.args == [1]


def test_an_attached_citation_speaks_portuguese(qtbot):
    from PySide6.QtWidgets import QApplication

    from tests.test_app_window import english_left
    from vaultrag.app.main import _install_translator

    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    try:
        view = AnswerView()
        qtbot.addWidget(view)
        view.show_answer(trace(attached_answer(), [cand(1, 1)]))
        text, tip = view.browser.toPlainText(), link_formats(view)[1][2]
    finally:
        app.removeTranslator(translator)
    assert "anexada" in tip.lower() and "anexada pelo vaultrag" in text and "nenhuma nota" in text
    assert english_left([("tooltip", tip), ("answer", text)], ["qwen", "vaultrag"]) == []


def test_streaming_is_throttled_keeps_partial_text_on_error_and_has_stop(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    view.show()
    view.begin_stream("qwen")
    assert view.stop.isVisible() and "qwen" in view.kind.text()
    for word in ["## Prazo\n\n", "O reembolso ", "sai em ", "7 dias ", "[1].\n\n"] * 20:
        view.append_stream(word)
    qtbot.waitUntil(lambda: "7 dias" in view.browser.toPlainText(), timeout=2000)
    assert 1 <= view.renders < 10, "each append must not re-render the whole answer"
    assert "##" not in view.browser.toPlainText()
    with qtbot.waitSignal(view.stop_requested):
        view.stop.click()
    view.show_stream_error("the model stopped responding")
    assert "O reembolso sai em 7 dias" in view.browser.toPlainText()
    assert "the model stopped responding" in view.browser.toPlainText() and not view.stop.isVisible()
    with qtbot.waitSignal(view.new_conversation_requested):
        view.new.click()


def test_chart_draws_no_bars_without_confidence_and_has_axes(qtbot):
    chart = RerankChart()
    qtbot.addWidget(chart)
    chart.resize(500, 160)
    filling = trace(Answer(AnswerKind.EXTRACTIVE, "x"), [cand(1, 1, cosine=0.85), cand(2, 2, cosine=None)],
                    background=None)
    chart.set_trace(filling)
    assert chart.values() == [] and chart.threshold == 0.26
    chart.grab()  # paints the "no confidence yet" message, no raw cosines against the threshold
    full = trace(Answer(AnswerKind.EXTRACTIVE, "x"), [cand(1, 1, cosine=0.85), cand(2, 2, cosine=None)])
    chart.set_trace(full)
    assert chart.values() == [pytest.approx(0.85 - 0.75 * 0.5)] and chart.bars[1].value is None
    chart.grab()
    assert chart.bar_at(chart._rects[1].center().x()).cand.chunk_id == 2  # hover finds the bar's candidate


def test_stage_rows_show_title_heading_movement_and_contributions(qtbot):
    view = StagesView()
    qtbot.addWidget(view)
    a = cand(1, 1, heading="Prazo", contributions={"bm25": 0.0164, "vector": 0.0100})
    b = cand(2, 2, heading="Taxa", contributions={"bm25": 0.0100, "vector": 0.0120})
    t = trace(Answer(AnswerKind.EXTRACTIVE, "x"), [a, b])
    t.stages[StageName.BM25] = Stage(StageName.BM25, StageStatus.OK, [cand(2, 1), cand(1, 3)])
    t.stages[StageName.VECTOR] = Stage(StageName.VECTOR, StageStatus.OK, [cand(2, 1), cand(1, 2)])
    view.set_trace(t)
    assert row_label(a) == "Reembolso › Prazo" and view.tables["fused"].item(0, 2).text() == "Reembolso › Prazo"
    assert view.tables["fused"].item(0, 2).toolTip() == "Casa/Reembolso.md › Prazo"
    assert view.tables["fused"].item(0, 0).text() == "1\u2009↑1"  # its best rank before fusion was 2
    assert view.tables["fused"].item(1, 0).text() == "2\u2009↓1"
    assert movement(1, 3) == "↑2" and movement(4, 2) == "↓2" and movement(2, 2) == "=" and movement(1, None) == "new"
    view.select_chunk(a)
    # the fused list's parts by their names in words, as bars (the built-in ranker's features likewise), and
    # what puts the first row above the second
    assert [(bar.name, bar.value) for bar in view.bars.bars] == [("keywords", 0.0164), ("meaning", 0.0100)]
    assert "#1 is above #2 by 0.0044. Compared with #2, in its favour: keywords +0.0064" in view.details.text()
    assert view._stacks["reranked"].currentIndex() == 1  # skipped: its reason instead of an empty table
    view.show()
    view.show_lists(True)  # the lists side by side (View menu), instead of the one table
    view.show_first_stages(False)  # View › Keyword and vector lists, unchecked: the later lists get the width
    assert not view.tables["bm25"].isVisible() and not view.headers["vector"].isVisible()
    assert view.tables["fused"].isVisible() and not view.first_stages_shown()
    view.show_first_stages(True)
    assert view.tables["bm25"].isVisible() and view.first_stages_shown()


def test_a_lists_row_gives_its_heading_a_line_and_its_title_the_room_beside_rank_and_score(qtbot):
    fm = QFontMetrics(QFont())
    text = "Reembolso e cancelamentos › Prazo do reembolso"
    width = fm.horizontalAdvance("Prazo do reembolso") + 6  # the heading's own line: whole at this width
    above, below = two_lines(text, "3\u2009↓2", "0,0311", fm, width)
    assert below == "Prazo do reembolso"
    # the title shares its line with the rank and the score: cut to what is left, never over it
    assert above.startswith("Re") and above.endswith("…") and "Reembolso e cancelamentos".startswith(above[:-1])
    room = width - fm.horizontalAdvance("3\u2009↓2") - fm.horizontalAdvance("0,0311") - 2 * LINE_GAP
    assert fm.horizontalAdvance(above) <= room + 2
    wide = two_lines(text, "1", "9", fm, 2000)
    assert wide == ("Reembolso e cancelamentos", "Prazo do reembolso")
    # a row without a heading: its title below, alone
    assert two_lines("Início", "1", "0,5", fm, 2000) == ("", "Início")
    assert two_lines("Início", "1", "0,5", fm, 2000, where="line 12") == ("line 12", "Início")


def test_side_by_side_rows_draw_more_of_each_name_than_one_line_did(qtbot):
    """The lists' rows are two lines: in a list as narrow as four side by side leave (~190 px), the name shows
    at least twice the letters of the old one-line row (8-17), and the hidden rank and score columns still hold
    their texts."""
    from vaultrag.app.widgets.candidate_table import drawn_text, shown_chars

    view = StagesView()
    qtbot.addWidget(view)
    long = cand(1, 1, heading="Sincronizar seu cofre pelo seletor de cofres")
    long.note = "Obsidian Sync/Configurar o Obsidian Sync.md"
    view.set_trace(trace(Answer(AnswerKind.EXTRACTIVE, "x"), [long]))
    view.show_lists(True)
    view.resize(4 * 190, 400)
    view.show()
    qtbot.waitExposed(view)
    table = view.tables["fused"]
    table.setFixedWidth(190)
    qtbot.wait(10)
    assert table.isColumnHidden(0) and table.isColumnHidden(1) and table.item(0, 1).text()
    full, drawn = drawn_text(table, 0, 2)
    assert full == "Configurar o Obsidian Sync › Sincronizar seu cofre pelo seletor de cofres"
    assert shown_chars(drawn) >= 34, drawn
    assert table.rowHeight(0) >= 2 * table.fontMetrics().height()
    assert table.item(0, 2).data(Qt.ItemDataRole.UserRole + 1) == f"line {long.line_start + 1}"


def test_settings_are_grouped_named_in_words_and_keep_auto_threads(qtbot):
    dialog = SettingsDialog(Settings(embed_threads=0))
    qtbot.addWidget(dialog)
    titles = {box.title() for box in dialog.findChildren(QGroupBox)}
    assert {str(Group.VAULT), str(Group.SEARCH), str(Group.MODELS), str(Group.INTERFACE)} <= titles
    assert dialog.fields["embed_threads"].text() == "automatic"
    dialog._accept()
    assert dialog.result_settings is not None and dialog.result_settings.embed_threads == 0
    bad = SettingsDialog(Settings())
    qtbot.addWidget(bad)
    bad.fields["embedder"].setCurrentIndex(bad.fields["embedder"].findData("st"))  # st without a model
    bad._accept()
    assert bad.result_settings is None and "st_model" in bad.problem.text() and not bad.problem.isHidden()


def test_settings_go_to_a_section_from_the_bar_and_hide_the_fields_of_an_embedder_not_chosen(qtbot):
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    dialog.resize(700, 400)  # shorter than its sections: it scrolls
    dialog.show()
    qtbot.waitExposed(dialog)
    assert [dialog.sections.tabText(i) for i in range(dialog.sections.count())] == \
        [box.title() for box in dialog.boxes]
    st = dialog.fields["st_model"]
    assert not st.isVisibleTo(dialog), "a sentence-transformers field while e5 is chosen"
    embedder = dialog.fields["embedder"]
    embedder.setCurrentIndex(embedder.findData("st"))
    assert st.isVisibleTo(dialog)
    embedder.setCurrentIndex(embedder.findData(Settings().embedder))
    assert not st.isVisibleTo(dialog)
    # jargon in a user's words under the field; the technical term in its tooltip
    from PySide6.QtWidgets import QLabel
    for name, term in (("bm25_n", "FTS5"), ("vector_n", "KNN"), ("chunk_tokens", "o200k"), ("context_tokens", "o200k")):
        shown = dialog.findChild(QLabel, f"setting-help-{name}").text()
        assert term not in shown and term in dialog.fields[name].toolTip(), name
    bar = dialog._scroll.verticalScrollBar()
    second = dialog.boxes[1]
    dialog.sections.setCurrentIndex(1)  # a click on the second section's name
    assert bar.value() == min(second.y(), bar.maximum()) > 0
    bar.setValue(0)  # scrolled back by hand: the bar follows
    assert dialog.sections.currentIndex() == 0


def test_why_not_shows_code_spans_as_code_not_backticks(qtbot):
    from vaultrag.app.widgets.why_dialog import WhyDialog
    from vaultrag.core.quality.diagnose import Diagnosis, Evidence
    from vaultrag.core.vocab import Reason, Verdict
    from vaultrag.core.wording import EXCLUSION_FIX

    dialog = WhyDialog()
    qtbot.addWidget(dialog)
    assert "`vaultrag: exclude`" in EXCLUSION_FIX[Reason.FRONTMATTER_EXCLUDE]
    rule = "`vaultrag: exclude` in its <b>frontmatter</b>"
    dialog.show_diagnosis(Diagnosis("Diário.md", Verdict.EXCLUDED, 0, "vault",
                                    Evidence(Reason.FRONTMATTER_EXCLUDE, rule)))
    text = dialog.result_view.toPlainText()
    assert "`" not in text and "Remove vaultrag: exclude from the note's frontmatter" in text
    assert "its frontmatter says vaultrag: exclude" in text, "the rule worded by its code, in the window's language"
    assert "monospace" in dialog.result_view.toHtml(), "the code span is set in a code font"
    # a rule with no words of its own is shown as the core said it: its code spans as code, the rest escaped
    dialog.show_diagnosis(Diagnosis("Diário.md", Verdict.EXCLUDED, 0, "vault", Evidence(Reason.NONE, rule)))
    text = dialog.result_view.toPlainText()
    assert "`" not in text and "in its <b>frontmatter</b>." in text, "note text is never markup"
    assert "monospace" in dialog.result_view.toHtml(), "its code span is set in a code font"


def test_a_failed_check_says_what_to_do_before_sqlites_details(qtbot):
    from vaultrag.app.widgets.health_panel import HealthPanel
    from vaultrag.core.health import Health

    panel = HealthPanel()
    qtbot.addWidget(panel)
    counts = dict.fromkeys(("notes_indexed", "notes_excluded", "notes_failed", "notes_stale", "chunks",
                            "chunks_embedded", "chunks_truncated"), 1)
    h = Health("v", "i.sqlite", counts, "m", "m", [], problems=["13 chunks but 12 FTS rows <x>"])
    panel.set_health(h)
    text = panel.summary.text()
    assert "Re-index checks it whole and repairs or rebuilds it" in text
    assert text.index("Re-index") < text.index("13 chunks but 12 FTS rows &lt;x&gt;"), "the remedy first, escaped"
    panel.set_health(Health("v", "i.sqlite", counts, "m", "m", [], problems=[]))
    assert "check: ok" in panel.summary.text() and "Re-index" not in panel.summary.text()


def test_the_decision_view_shows_exactly_the_core_warnings(qtbot):
    """The window words the core's warnings and invents none: with an index still filling but no embedder (the
    vector stage unavailable) it says 'keyword search only', not 'vectors filling'; with the core's filling warning
    it says that warning's own numbers, not the index state's."""
    from vaultrag.app.widgets.decision_view import DecisionView
    from vaultrag.core import wording
    from vaultrag.core.model import QueryWarning
    from vaultrag.core.vocab import WarningCode

    view = DecisionView()
    qtbot.addWidget(view)
    t = trace(Answer(AnswerKind.EXTRACTIVE, "x"), [cand(1, 1)])
    t.index_state = IndexState("m", chunks=40, chunks_embedded=10, notes=1)
    t.warnings = [QueryWarning(WarningCode.NO_EMBEDDER)]
    view.set_trace(t)
    shown = view.toPlainText()
    assert wording.warning(t.warnings[0]) in shown
    assert "filling" not in shown and "10 of 40" not in shown, "a warning the core did not give"
    t.warnings = [QueryWarning(WarningCode.VECTORS_FILLING, done=12, total=40)]
    view.set_trace(t)
    shown = view.toPlainText()
    assert "12 of 40" in shown and "10 of 40" not in shown and shown.count("filling") == 1
    t.warnings = []
    view.set_trace(t)
    assert "filling" not in view.toPlainText()


def test_a_checked_answer_keeps_its_list_and_paragraphs(qtbot):
    """The check marks sentences in place: a numbered list stays a list, paragraphs stay apart (they used to run
    together into one paragraph once the answer was checked)."""
    text = ("Os passos são:\n\n1. Abra o app do banco [1].\n2. Peça o estorno pelo chat.\n\n"
            "Depois disso, guarde o número do protocolo [1].")
    sentences = [SentenceCheck("Abra o app do banco [1].", [1], SupportVerdict.SUPPORTED, 0.9),
                 SentenceCheck("Peça o estorno pelo chat.", [], SupportVerdict.UNCITED, 0.3),
                 SentenceCheck("Depois disso, guarde o número do protocolo [1].", [1], SupportVerdict.SUPPORTED, 0.8)]
    view = AnswerView()
    qtbot.addWidget(view)
    view.show_answer(trace(Answer(AnswerKind.GENERATED, text, model="qwen", sentences=sentences), [cand(1, 1)]))
    lists = []
    block = view.browser.document().begin()
    while block.isValid():
        if block.textList() is not None:
            lists.append(block.text())
        block = block.next()
    assert lists[:2] == ["Abra o app do banco [1].", "Peça o estorno pelo chat. no citation, and no note backs it"]
    plain = view.browser.toPlainText()
    assert plain.index("Os passos são:") < plain.index("Abra") < plain.index("Depois disso")
    assert "Depois disso, guarde o número do protocolo [1]." in [line.strip() for line in plain.split("\n")]


def test_copying_a_checked_answer_keeps_its_checks(qtbot):
    view = AnswerView()
    qtbot.addWidget(view)
    view.show_answer(trace(attached_answer(), [cand(1, 1)]))
    copied = view.answer_with_sources()
    checks = copied.split("Checks:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert checks == ["[1]† attached by vaultrag: O reembolso sai em até 7 dias.",
                      "(no citation, and no note backs it) Sai em barras de ouro."]
    assert "\nSources:\n[1] " in copied


def test_code_in_a_passage_is_shown_exactly_as_written(qtbot):
    """A note's examples of Obsidian syntax are what a reader copies: in a code block or a code span an embed, a
    wikilink or a callout stays as written (the embed came out "*[Document.pdf]*", its "#page=3" gone); outside
    code they are still folded."""
    from vaultrag.app.widgets.answer_view import note_markdown_to_html

    text = ("Embed a page:\n\n```md\n![[Document.pdf#page=3]]\n> [!info] Title\n```\n\n"
            "Or inline: `![[Photo.png|100]]` and `[[Note]]`.\n\nSee ![[Diagram.png]] and [[Other note|there]].\n")
    doc = QTextDocument()
    doc.setHtml(note_markdown_to_html(text))
    shown = doc.toPlainText()
    for verbatim in ("![[Document.pdf#page=3]]", "> [!info] Title", "![[Photo.png|100]]", "[[Note]]"):
        assert verbatim in shown, verbatim
    assert "[Diagram.png]" in shown and "![[Diagram.png]]" not in shown and "there" in shown
    assert "[[Other note" not in shown
    # a callout shows its title (its type when it has none), a block's link target is not text
    doc.setHtml(note_markdown_to_html("> [!note] Note\n> Body.\n\n> [!done]\n> Finished.\n\nA fact. ^fact-1\n"))
    shown = doc.toPlainText()
    assert "Note: Note" not in shown and "Note" in shown and "Done" in shown and "^fact-1" not in shown
    assert "A fact." in shown


def test_a_calibration_without_a_threshold_says_how_many_questions_it_needs_and_has(qtbot):
    """A set of 2 answerable and 1 unanswerable questions: the message said it "needs unanswerable questions"
    beside a set that has one; it says the minimum and the counts."""
    from vaultrag.app.widgets.eval_view import EvalView
    from vaultrag.core.quality.calibration import Calibration, CalibrationOutcome

    view = EvalView()
    qtbot.addWidget(view)
    said = view._calibration_text(Calibration(CalibrationOutcome.TOO_FEW_QUESTIONS, 0.1, 2, 1))
    assert "at least 15 answerable and 15 unanswerable" in said and "has 2 and 1" in said


def test_the_evaluation_shares_its_width_between_the_question_and_what_went_wrong_and_says_the_format(qtbot):
    """At 1920 wide "What went wrong" was cut while "Question" took all the room; the golden format was nowhere."""
    from vaultrag.app.widgets.eval_view import EvalView

    view = EvalView()
    qtbot.addWidget(view)
    for width in (1024, 1920):
        view.resize(width, 700)
        view.show()
        qtbot.waitExposed(view)
        head = view.questions.horizontalHeader()
        # the four columns fill the table (at 1024 each keeps a readable width, the table may scroll sideways)
        qtbot.waitUntil(lambda h=head: sum(h.sectionSize(i) for i in range(4))
                        >= view.questions.viewport().width() - 2)
        assert head.sectionSize(3) >= head.sectionSize(0) >= 120, width
    assert head.sectionSize(3) > head.sectionSize(0) > 300, "at 1920 the question and what went wrong share the room"
    hint = view.format_hint.text()
    assert '"answerable": false' in hint and '"note": "Folder/Note.md"' in hint and "Golden sets" in hint


def test_a_path_leaves_out_the_first_heading_only_when_it_is_the_notes_title():
    """"Set up Obsidian Sync" as the H1 of "Configurar o Obsidian Sync.md" is a heading of its own: the decision pane
    and the tooltips dropped every chunk's first heading, and a chunk under the H1 alone showed no heading at all."""
    from vaultrag.app.widgets.candidate_table import full_path, headings_of

    note = "Obsidian Sync/Configurar o Obsidian Sync.md"
    assert headings_of(note, ["Set up Obsidian Sync", "Begin syncing"]) == ["Set up Obsidian Sync", "Begin syncing"]
    assert headings_of(note, ["Configurar o Obsidian Sync", "Begin syncing"]) == ["Begin syncing"]
    c = Candidate(note, ["Set up Obsidian Sync"], 0, 1, 0, 1, chunk_id=1, rank=1, score=1.0)
    assert full_path(c) == f"{note} › Set up Obsidian Sync"

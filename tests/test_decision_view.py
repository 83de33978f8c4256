"""The decision pane and the confidence chart show what the answerability model's decision used (real widgets)."""

from __future__ import annotations

import dataclasses

import pytest

from tests.test_app_widgets import cand, trace
from vaultrag.app.widgets.decision_view import DecisionView
from vaultrag.app.widgets.rerank_chart import RerankChart
from vaultrag.core.model import Answer, QueryTrace
from vaultrag.core.vocab import AnswerKind, DecisionReason

PARTS = {"cosine_rule": 0.9, "names_missing": -1.4, "sentence_cov": 0.35, "cosine_vs_prompt": -0.2, "hub": 0.0}
VALUES = {"cosine_rule": 0.312, "names_missing": 1.0, "sentence_cov": 0.6, "cosine_vs_prompt": -0.021, "hub": 0.0}


def by_model(answered: bool, topic: bool = False) -> QueryTrace:
    """A trace whose decision the answerability model made on candidate 2 (ranked second, below a hub note)."""
    final = [cand(1, 1, note="Início.md", heading="Início"), cand(2, 2, note="Trabalho/Deploy.md", heading="Rollback"),
             cand(3, 3), cand(4, 4, cosine=0.7)]
    t = trace(Answer(AnswerKind.EXTRACTIVE if answered else AnswerKind.REFUSAL, "x"), final)
    p = 0.81 if answered else 0.22
    t.decision = dataclasses.replace(
        t.decision, answered=answered, confidence=p, threshold=0.31, margin=p - 0.31,
        reason=DecisionReason.ABOVE_THRESHOLD if answered else DecisionReason.BELOW_THRESHOLD, decider="answer-lr1",
        supported_by=2, supported_note="Trabalho/Deploy.md", contributions=dict(PARTS), values=dict(VALUES),
        bias=-0.5, support={1: 0.4, 2: p, 3: 0.1}, topic_found=topic)
    return t


def test_the_decision_pane_shows_the_probability_the_passage_and_each_part(qtbot):
    view = DecisionView()
    qtbot.addWidget(view)
    view.set_trace(by_model(answered=True))
    shown = view.toPlainText()
    assert "probability 0.810" in shown and "threshold 0.310" in shown
    assert "#2 Trabalho/Deploy.md › Rollback" in shown, "the passage the decision used, not the hub ranked first"
    # each part by its value and its direction, not by its name and its signed part alone
    assert "all of the question's names are missing there: against answering" in shown
    assert "one sentence holds 60% of the question's words: for answering" in shown
    assert "less the question's closeness to every note, is 0.312: for answering" in shown
    assert "beside the other passages is −0.021: against answering" in shown  # a real minus, not a dash
    assert "links" not in shown, "a part of 0 is left out"
    assert "cosine" not in shown and "_" not in shown, "no raw feature names"
    total = sum(PARTS.values())
    summed = f"Together these parts give {total:+.2f}; the model starts every question at −0.50, so the total is " \
        f"{total - 0.5:+.2f}: a probability of 0.810".replace("-", "−")
    assert summed in shown, "the parts and the base add up, in a reader's words"
    assert "starting point" not in shown
    assert "logit" not in shown, "no statistician's word"


def test_a_refusal_on_a_found_topic_says_the_notes_do_not_say(qtbot):
    view = DecisionView()
    qtbot.addWidget(view)
    view.set_trace(by_model(answered=False, topic=True))
    shown = view.toPlainText()
    assert "REFUSED" in shown and "the notes on this topic do not say" in shown
    assert "all of the question's names are missing there" in shown.split("against it:")[1]
    assert "lower" not in shown
    view.set_trace(by_model(answered=False, topic=False))
    assert "no note seems to answer this" in view.toPlainText()


def test_a_part_for_answering_reads_as_help_by_its_value(qtbot):
    """The reviewer's case: no name of the question is missing, which the model counts for answering (its part is
    measured from the training mean, where some are missing). Worded by the value, it reads as what it is."""
    view = DecisionView()
    qtbot.addWidget(view)
    t = by_model(answered=True)
    t.decision.contributions = {**PARTS, "names_missing": 0.33}
    t.decision.values = {**VALUES, "names_missing": 0.0}
    view.set_trace(t)
    shown = view.toPlainText()
    assert "none of the question's names is missing there: for answering" in shown
    assert "names missing there" not in shown


def test_the_chart_draws_the_models_probabilities_and_says_why_a_bar_is_blue(qtbot):
    chart = RerankChart()
    qtbot.addWidget(chart)
    chart.resize(500, 160)
    t = by_model(answered=True)
    chart.set_trace(t)
    assert [b.value for b in chart.bars] == [0.4, 0.81, 0.1, None], "the model's probabilities; #4 not judged"
    assert [b.decided for b in chart.bars] == [False, True, False, False]
    assert chart.threshold == 0.31 and "Probability" in chart.title
    assert "blue: in the prompt" in chart.legend() and "outlined" in chart.legend()
    used, judged_out, unjudged = chart.bars[0], chart.bars[1], chart.bars[3]
    assert "in the prompt" in chart.explain(used) and "not in the prompt" in chart.explain(judged_out)
    assert "the passage the decision used" in chart.explain(judged_out)
    assert "not judged" in chart.explain(unjudged)
    chart.grab()
    # the cosine rule: the old scale, its top-1 outlined
    rule = trace(Answer(AnswerKind.EXTRACTIVE, "x"), [cand(1, 1, cosine=0.85), cand(2, 2, cosine=0.8)])
    chart.set_trace(rule)
    assert chart.values() == [pytest.approx(0.85 - 0.375), pytest.approx(0.8 - 0.375)]
    assert [b.decided for b in chart.bars] == [True, False] and "confidence" in chart.explain(chart.bars[0])


def test_a_probability_axis_ends_at_one(qtbot):
    """The review's case: a passage at 0.94 padded the axis to 1.04, a probability above 1; a later review: the
    axis rescaled per question, a 0.41 bar looked like a 0.97 one. One scale, 0 to 1, for every question."""
    chart = RerankChart()
    qtbot.addWidget(chart)
    chart.resize(500, 160)
    t = by_model(answered=True)
    t.decision.support = {1: 0.94, 2: 0.12, 3: 0.05}
    chart.set_trace(t)
    assert chart.value_range() == (0.0, 1.0) and chart.ticks() == [0.0, 1.0]
    chart.grab()
    t.decision.support = {1: 0.4, 2: 0.2, 3: 0.05}  # far from 1: the same scale, the bar reaches 0.4 of it
    chart.set_trace(t)
    assert chart.value_range() == (0.0, 1.0)
    rule = trace(Answer(AnswerKind.EXTRACTIVE, "x"), [cand(1, 1, cosine=0.85), cand(2, 2, cosine=0.8)])
    chart.set_trace(rule)
    assert chart.value_range() == (0.0, 1.0)
    chart.threshold = -0.2  # a value below 0 widens the scale downwards only
    lo, hi = chart.value_range()
    assert lo < -0.2 and hi == 1.0


def test_the_decision_pane_and_the_chart_write_decimals_as_portuguese_does(qtbot):
    import re

    from PySide6.QtWidgets import QApplication

    from vaultrag.app.main import _install_translator

    app = QApplication.instance()
    translator = _install_translator(app, "pt")
    try:
        view = DecisionView()
        qtbot.addWidget(view)
        t = by_model(answered=True)
        view.set_trace(t)
        shown = view.toPlainText()
        assert "0,810" in shown and "0,310" in shown
        assert not re.findall(r"\d\.\d", shown), "a decimal point in the Portuguese decision pane"
        chart = RerankChart()
        qtbot.addWidget(chart)
        chart.set_trace(t)
        labels = [chart.legend(), *(chart.explain(b) for b in chart.bars)]
        assert any(re.search(r"\d,\d", x) for x in labels)
        assert not [x for x in labels if re.search(r"\d\.\d", x)], "a decimal point in the Portuguese chart"
    finally:
        app.removeTranslator(translator)


def test_negative_numbers_are_written_with_a_real_minus_in_the_cli_and_the_window(qtbot):
    """The parts' words already had "−" (wording.amount) while the values beside them had "-": one sign now."""
    from vaultrag.app.words import local
    from vaultrag.core import wording

    assert wording.english("lead {v:+.1f}, usually {u:+.1f}").format(v=-0.8, u=1.7) == "lead −0.8, usually +1.7"
    assert local("{v:+.2f}").format(v=-0.25) == "−0.25"
    assert wording.english("{n} notes").format(n=-3) == "-3 notes", "integers are counts: left alone"

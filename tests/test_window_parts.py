"""Small window parts a fresh-eyes review changed (real widgets): the threshold box, the follow-up's rewrite line,
the decision's words, the evaluation curve's ceiling, the health lists' filter."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt

from tests.test_decision_view import by_model
from vaultrag.app.widgets.threshold_box import ThresholdBox
from vaultrag.core import wording


def test_auto_until_stepped_then_from_the_threshold_in_force(qtbot):
    box = ThresholdBox()
    qtbot.addWidget(box)
    assert box.override() is None and box.text() == "threshold: auto"
    box.in_force = 0.328
    qtbot.keyClick(box, Qt.Key.Key_Up)  # one step: a little stricter than the last question's threshold
    assert box.override() == pytest.approx(0.338), "not −0.99: the box once started at −1"
    assert box.text() == "threshold 0.338", "the box still says what it is"
    box.stepBy(-1)
    assert box.override() == pytest.approx(0.328)


def test_a_step_below_zero_returns_to_auto_and_nothing_goes_past_one(qtbot):
    box = ThresholdBox()
    qtbot.addWidget(box)
    box.in_force = 0.0
    box.stepBy(1)
    assert box.override() == pytest.approx(0.01)
    box.stepBy(-2)
    assert box.override() is None and box.text() == "threshold: auto"
    box.stepBy(-1)
    assert box.override() is None, "below auto there is nothing"
    box.in_force = 0.995
    box.stepBy(3)
    assert box.override() == 1.0


def test_without_a_question_yet_the_arrows_start_at_even_odds(qtbot):
    box = ThresholdBox()
    qtbot.addWidget(box)
    box.stepBy(1)
    assert box.override() == pytest.approx(0.51)


def test_an_answer_below_even_odds_is_not_called_likely():
    likely = by_model(answered=True).decision
    assert wording.model_reason(likely).startswith("the notes likely answer this: probability 0.810")
    doubtful = dataclasses.replace(likely, confidence=0.02, threshold=0.0, margin=0.02)
    said = wording.model_reason(doubtful)
    assert "likely" not in said and said.startswith("answered: probability 0.020 from Trabalho/Deploy.md that the "
                                                    "notes answer this")


def test_a_follow_up_asked_on_its_own_says_so_and_what_was_tried():
    from tests.test_app_widgets import cand, trace
    from vaultrag.app.widgets.rewrite_bar import rewrite_html
    from vaultrag.core.model import Answer, Rewrite
    from vaultrag.core.vocab import AnswerKind, RewriteMethod

    t = trace(Answer(AnswerKind.EXTRACTIVE, "x"), [cand(1, 1)])
    t.rewrite = Rewrite("e para cancelar a academia?", "e para cancelar a academia?", RewriteMethod.ALONE,
                        ["prazo", "reembolso"], tried="e para cancelar a academia (prazo reembolso)?")
    html = rewrite_html(t)
    assert "asked on its own" in html and "(prazo, reembolso) no note answered it" in html
    assert "«e para cancelar a academia (prazo reembolso)?»" in html


def test_a_refusal_says_in_plain_words_what_no_note_uses_or_which_note_is_silent():
    refused = by_model(answered=False).decision
    assert wording.refusal_plain(refused) == ""
    unknown = dataclasses.replace(refused, unknown_words=["capital", "France"])
    assert wording.refusal_plain(unknown) == "No note uses the words “capital”, “France”."
    silent = by_model(answered=False, topic=True).decision
    assert wording.refusal_plain(silent) == "Trabalho/Deploy.md is about this, but none of its passages says it."
    assert wording.refusal_plain(by_model(answered=True).decision) == ""


def test_the_evaluation_curve_says_why_it_stops_below_the_top(qtbot):
    """A curve flat at 60% beside "AUROC 0.975" read as a contradiction: its ceiling is the right note first."""
    from vaultrag.app.widgets.eval_view import TradeoffCurve

    curve = TradeoffCurve()
    qtbot.addWidget(curve)
    curve.resize(400, 200)
    curve.points = [(0.0, 0.5), (0.25, 0.6), (1.0, 0.6)]
    assert curve.ceiling() == 0.6
    assert curve.caption() == "60% have the right note first: the ceiling"
    image = curve.grab().toImage()
    assert not image.isNull() and image.width() == 400


def test_the_health_lists_filter_as_one_types_and_keep_it_across_a_refresh(qtbot):
    from vaultrag.app.widgets.health_panel import HealthPanel
    from vaultrag.core.health import Health, NoteState

    panel = HealthPanel()
    qtbot.addWidget(panel)
    counts = dict.fromkeys(("notes_indexed", "notes_excluded", "notes_failed", "notes_stale", "chunks",
                            "chunks_embedded", "chunks_truncated"), 1)
    notes = {"indexed": [NoteState("Editing and formatting/Callouts.md", "indexed"),
                         NoteState("Obsidian Sync/Introdução à sincronização.md", "indexed"),
                         NoteState("Plugins/Canvas.md", "indexed")]}
    h = Health("v", "i.sqlite", counts, "m", "m", [], notes=notes)
    panel.set_health(h)
    indexed = panel.lists["indexed"]

    def shown() -> list[str]:
        return [indexed.item(i).text() for i in range(indexed.count()) if not indexed.item(i).isHidden()]

    qtbot.keyClicks(panel.filter, "INTRODUCAO")  # case and accents aside
    assert shown() == ["Obsidian Sync/Introdução à sincronização.md"]
    panel.set_health(h)  # the 5-second refresh while vectors fill
    assert shown() == ["Obsidian Sync/Introdução à sincronização.md"], "a refresh keeps the filter"
    panel.filter.clear()
    assert len(shown()) == 3

"""Metric functions against hand-computed values, and golden-file parsing with bad lines."""

from __future__ import annotations

import math
from pathlib import Path

import pytest

from vaultrag.core.quality import metrics
from vaultrag.core.quality.calibration import MIN_CALIBRATION_QUESTIONS, CalibrationOutcome, calibrate, pick
from vaultrag.core.quality.evaluate import QuestionResult, Refusal, RefusalGap, refusal_section, split
from vaultrag.core.quality.golden import GoldenItem, load


def test_hit_mrr_recall_by_hand():
    ranks = [1, 3, None, 2, 25]
    assert metrics.hit_at(ranks, 1) == pytest.approx(1 / 5)
    assert metrics.hit_at(ranks, 3) == pytest.approx(3 / 5)
    assert metrics.mrr_at(ranks, 20) == pytest.approx((1 + 1 / 3 + 1 / 2) / 5)
    assert metrics.recall(ranks) == pytest.approx(4 / 5)
    assert metrics.first_hit([False, False, True, True]) == 3 and metrics.first_hit([False]) is None


def test_sign_test_by_hand():
    # 3 wins, 1 loss, 1 tie: p = 2 * (C(4,0) + C(4,1)) / 2^4 = 10/16
    a = [False, False, False, True, True]
    b = [True, True, True, False, True]
    assert metrics.sign_test(a, b) == {"wins": 3, "losses": 1, "p": pytest.approx(0.625)}
    assert metrics.sign_test([True], [True]) == {"wins": 0, "losses": 0, "p": 1.0}
    big = metrics.sign_test([False] * 600, [True] * 600)
    assert big["wins"] == 600 and big["p"] < 1e-150


def test_auroc_by_hand():
    assert metrics.auroc([0.9, 0.8], [0.1, 0.2]) == 1.0
    assert metrics.auroc([0.1], [0.9]) == 0.0
    # pairs: (0.5 vs 0.5) tie = 0.5, (0.9 vs 0.5) = 1 → (1 + 0.5) / 2
    assert metrics.auroc([0.9, 0.5], [0.5]) == pytest.approx(0.75)
    assert math.isnan(metrics.auroc([], [0.1]))


def test_threshold_row_and_pick():
    ans = [(0.9, True), (0.8, False), (0.7, True)]
    una = [0.85, 0.6, 0.5, 0.4]
    row = metrics.threshold_row(0.75, ans, una)
    assert (row.threshold, row.unanswerable_passed) == (0.75, 0.25)
    assert row.answerable_kept_correct == pytest.approx(1 / 3) and row.answerable_kept_wrong == pytest.approx(1 / 3)
    t = metrics.pick_threshold(una, 0.25)  # one of four may pass: the threshold sits just above 0.6
    assert 0.6 < t < 0.6 + 1e-9
    assert metrics.pick_threshold(una, 0.0) > 0.85
    assert metrics.threshold_row(t, ans, una).unanswerable_passed == 0.25


def _results(n_a: int, n_u: int, low: float = 0.7) -> list[QuestionResult]:
    """Answerable questions at 0.80–0.89 (a third of them wrong at top-1), unanswerable ones from `low` up 0.19."""
    out = [QuestionResult(i, f"q{i}", True, {}, 0.8 + (i % 10) / 100, i % 3 != 0) for i in range(n_a)]
    out += [QuestionResult(n_a + i, f"u{i}", False, {}, low + (i % 20) / 100, False) for i in range(n_u)]
    return out


def test_split_is_stratified_and_reproducible_and_calibration_holds_on_tune():
    results = _results(100, 40)
    tune, _ = split(results)
    assert len(tune) == 70 and sum(not r.answerable for r in tune) == 20
    assert [r.line for r in split(results)[0]] == [r.line for r in tune]
    cal = pick(results, max_pass=0.10)
    assert cal.tune is not None and cal.validate is not None
    assert cal.tune.unanswerable_passed <= 0.10 and cal.validate.n_unanswerable == 20
    # these confidences do not generalize: 6 of the validate half's 20 pass (30 %), beyond chance for a 10 % goal
    assert cal.validate.unanswerable_passed == pytest.approx(0.30) and cal.outcome == CalibrationOutcome.MISSES_TARGET
    none = pick(_results(10, 0), 0.1)
    assert none.outcome == CalibrationOutcome.NO_UNANSWERABLE and none.threshold is None
    assert refusal_section(_results(10, 0)) == Refusal(False, RefusalGap.NO_UNANSWERABLE)


def test_calibration_stores_through_the_writer_only_from_enough_questions():
    """The minimum-sample rule lives in the core use case: 15 answerable and 15 unanswerable questions at least;
    below that the threshold is reported (with the rates' uncertainty) and the writer is never called."""
    writes: list[str] = []

    def writer(fn):  # type: ignore[no-untyped-def]  # the index's writer, recorded: fn(store) is not run here
        writes.append("write")
        return "threshold:m|r"

    n = MIN_CALIBRATION_QUESTIONS
    few = calibrate(_results(100, n - 1), 0.10, "r", writer)
    assert few.outcome == CalibrationOutcome.TOO_FEW_QUESTIONS and not few.stored and writes == []
    assert few.threshold is not None and few.stored_as == "" and (few.n_answerable, few.n_unanswerable) == (100, n - 1)
    v = few.validate
    assert v is not None and 0 < v.kept_correct_margin < 1
    lo, hi = metrics.wilson95(v.unanswerable_passed, v.n_unanswerable)
    assert v.passed_margin == pytest.approx(max(v.unanswerable_passed - lo, hi - v.unanswerable_passed))
    assert calibrate(_results(n - 1, 100), 0.10, "r", writer).outcome == CalibrationOutcome.TOO_FEW_QUESTIONS
    assert writes == []
    # enough questions, but the unanswerable ones score as high as the answerable: the threshold would refuse more
    # than half of the right answers (a 31-question file once stored such a one), so it is not stored
    greedy = calibrate(_results(n, n), 0.10, "r", writer)
    assert greedy.outcome == CalibrationOutcome.REFUSES_ANSWERS and not greedy.stored and writes == []
    assert greedy.validate is not None and greedy.validate.answerable_kept_correct < (
        0.5 * greedy.validate.top1_without_threshold)
    enough = calibrate(_results(n, n, low=0.6), 0.10, "r", writer)
    assert enough.stored and enough.stored_as == "threshold:m|r" and writes == ["write"]
    assert enough.threshold == pick(_results(n, n, low=0.6), 0.10).threshold
    assert calibrate(_results(n, 0), 0.10, "r", writer).outcome == CalibrationOutcome.NO_UNANSWERABLE
    assert writes == ["write"]


def test_golden_hits_by_offsets_answers_and_note_level():
    item = GoldenItem(1, "q", True, "a.md", ["b.md"], ["Campo Grande"], (100, 200), 150)
    assert item.is_hit("a.md", 180, 300, "x")  # overlaps the passage
    assert not item.is_hit("a.md", 200, 300, "x")  # touches but does not overlap
    assert item.is_hit("a.md", 0, 50, "in campo grande too")  # holds an accepted answer
    assert item.is_hit("b.md", 0, 10, "sediada em Campo Grande")  # alt note with the answer
    assert not item.is_hit("b.md", 0, 10, "nothing")
    assert not item.is_hit("c.md", 100, 200, "Campo Grande")
    assert GoldenItem(2, "q", True, "a.md").is_hit("a.md", 0, 1, "")  # note level
    assert not GoldenItem(3, "q", False).is_hit("a.md", 0, 1, "")


def test_golden_file_bad_lines_are_reported_and_the_rest_loaded(tmp_path: Path):
    p = tmp_path / "g.jsonl"
    p.write_text(
        '{"question": "Onde?", "gold_note": "UFMS.md", "answerable": true, "answers": ["Campo Grande"]}\n'
        "{not json\n"
        '{"gold_note": "x.md"}\n'
        "\n"
        '{"question": "minimal form", "note": "a.md"}\n'
        '{"question": "unanswerable", "answerable": false, "gold_note": null}\n'
        '{"question": "bad flag", "answerable": "yes"}\n'
        "[1, 2]\n",
        encoding="utf-8",
    )
    items, errors = load(p)
    assert [i.line for i in items] == [1, 5, 6]
    assert items[1].gold_note == "a.md" and items[1].answerable
    assert not items[2].answerable and items[2].gold_note is None
    assert [e.split(":")[0] for e in errors] == ["line 2", "line 3", "line 7", "line 8"]
    assert "missing field 'question'" in errors[1]


def test_margins_are_honest_at_zero_and_on_few_questions():
    # the normal approximation said "± 0 %" for 0 of 3; Wilson's interval says how little 3 questions show
    assert metrics.margin95(0.0, 3) == pytest.approx(0.5615, abs=1e-3)
    assert metrics.margin95(1.0, 3) == pytest.approx(0.5615, abs=1e-3)
    lo, hi = metrics.wilson95(0.5, 100)
    assert (lo, hi) == (pytest.approx(0.4038, abs=1e-3), pytest.approx(0.5962, abs=1e-3))
    # an exact one-sided binomial test: 4 of 10 passing against a 10 % goal is beyond chance, 2 of 10 is not
    assert metrics.above(0.4, 10, 0.10) and not metrics.above(0.2, 10, 0.10) and not metrics.above(0.0, 10, 0.10)


def test_a_threshold_that_misses_its_goal_on_the_validate_half_is_not_stored():
    writes: list[str] = []

    def writer(fn):  # type: ignore[no-untyped-def]  # the index's writer, recorded: fn(store) is not run here
        writes.append("write")
        return "threshold:m|r"

    base = _results(30, 30, low=0.6)
    _, validate = split(base)
    checked = {r.line for r in validate}
    # the unanswerable questions of the validate half all look confident: the tune half's threshold lets them pass
    skewed = [QuestionResult(r.line, r.question, r.answerable, {}, 0.99 if not r.answerable and r.line in checked
                             else r.confidence, r.top1_correct) for r in base]
    cal = calibrate(skewed, 0.10, "r", writer)
    assert cal.outcome == CalibrationOutcome.MISSES_TARGET and not cal.stored and writes == []
    assert cal.validate is not None and cal.validate.unanswerable_passed == 1.0 and cal.threshold is not None
    assert calibrate(base, 0.10, "r", writer).stored and writes == ["write"], "an even split still stores"


def test_a_stored_threshold_can_be_undone_and_reset_to_the_shipped_one(tmp_path):
    from vaultrag.core.quality.calibration import calibrated, reset_threshold, store_threshold, undo_threshold
    from vaultrag.core.store.index_store import IndexStore

    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        assert calibrated(store, "r", "m") == (None, False)
        store_threshold(store, "r", 0.4, "m")
        store_threshold(store, "r", 0.9, "m")  # a bad calibration on top of a good one
        assert calibrated(store, "r", "m") == (0.9, True)
        assert undo_threshold(store, "r", "m") == 0.4  # the one it replaced
        assert undo_threshold(store, "r", "m") == 0.4  # nothing more to take back: nothing changes
        reset_threshold(store, "r", "m")
        assert calibrated(store, "r", "m") == (None, True)  # the shipped one, and Undo can bring 0.4 back
        assert undo_threshold(store, "r", "m") == 0.4
        store_threshold(store, "r", 0.5, "m")
        undo_threshold(store, "r", "m")
        undo_threshold(store, "r", "m")
        assert calibrated(store, "r", "m")[0] == 0.4
        assert calibrated(store, "r", "cosine") == (None, False)  # per decider
    finally:
        store.close()

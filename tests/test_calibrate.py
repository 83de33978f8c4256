"""`vaultrag calibrate`'s inputs: the golden lines it cannot use said in its text output, a repeated question counted
once (and so in one half only), and a --max-pass no threshold can be picked for refused before anything runs."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write
from vaultrag.core.quality.calibration import (
    MIN_CALIBRATION_QUESTIONS,
    CalibrationOutcome,
    calibrate,
    check_max_pass,
    distinct,
    pick,
    question_key,
)
from vaultrag.core.quality.evaluate import QuestionResult, split
from vaultrag.errors import UserFacingError


def _results(n_a: int, n_u: int, low: float = 0.6) -> list[QuestionResult]:
    """Answerable questions at 0.80–0.89 (a third wrong at top-1), unanswerable ones from `low` up 0.19."""
    out = [QuestionResult(i, f"Question {i}?", True, {}, 0.8 + (i % 10) / 100, i % 3 != 0) for i in range(n_a)]
    out += [QuestionResult(n_a + i, f"Pergunta sem resposta número {i}?", False, {}, low + (i % 20) / 100, False)
            for i in range(n_u)]
    return out


def _never_called(fn):  # type: ignore[no-untyped-def]
    raise AssertionError("nothing may be stored")


def test_a_repeated_question_counts_once_and_lands_in_one_half():
    """15 unanswerable lines of which 5 repeat others but for case, accents and spacing: 10 questions, too few to
    store; before, all 15 counted and a repeat could validate the threshold on the question it was picked on."""
    n = MIN_CALIBRATION_QUESTIONS
    base = _results(n, n - 5)
    repeats = [QuestionResult(100 + i, f"  PERGUNTA sem   resposta numero {i}? ", False, {}, r.confidence, False)
               for i, r in enumerate(base[n:n + 5])]
    results = base + repeats
    cal = calibrate(results, 0.10, "r", _never_called)
    assert cal.outcome == CalibrationOutcome.TOO_FEW_QUESTIONS and not cal.stored
    assert (cal.n_answerable, cal.n_unanswerable) == (n, n - 5) and cal.duplicates == (100, 101, 102, 103, 104)
    assert cal.tune is not None and cal.validate is not None
    assert cal.tune.n_unanswerable + cal.validate.n_unanswerable == n - 5
    kept, dropped = distinct(results)
    tune, validate = split(kept)
    assert not {question_key(r.question) for r in tune} & {question_key(r.question) for r in validate}
    assert dropped == cal.duplicates and pick(results, 0.10).duplicates == cal.duplicates
    assert question_key("Onde  fica a\tAcadêmia?") == question_key("onde fica a academia?")
    assert distinct(base) == (sorted(base, key=lambda r: r.line), ()), "distinct questions all stay"


@pytest.mark.parametrize("bad", [1.0, 0.0, -0.1, 1.5, float("nan")])
def test_a_max_pass_no_threshold_can_aim_at_is_refused_by_the_core(bad: float):
    """1 picked the lowest unanswerable confidence and passed every check: a threshold that lets every unanswerable
    question through was stored (the window calls the same `pick`)."""
    with pytest.raises(UserFacingError, match="share from 0 to 1, both excluded"):
        calibrate(_results(40, 40), bad, "r", _never_called)
    assert check_max_pass(0.10) == 0.10 and check_max_pass(0.99) == 0.99


def test_calibrate_says_the_lines_it_did_not_use_and_the_repeats_it_dropped(cli, home: Path, vault: Path,
                                                                           tmp_path: Path):
    write(vault, "Plants.md", "# Plants\n\nThe fern is watered every Tuesday with rain water.\n")
    write(vault, "Bikes.md", "# Bikes\n\nThe bike tyres are pumped to four bar.\n")
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    golden = tmp_path / "g.jsonl"
    golden.write_text("".join(line + "\n" for line in [
        '{"question": "When is the fern watered?", "note": "Plants.md"}',
        "{oops",
        '{"question": "How hard are the bike tyres pumped?", "note": "Bikes.md"}',
        '{"question": "  when is the FERN   wátered? ", "note": "Plants.md"}',
        '{"question": "Who won the 1930 world cup?", "note": null}',
        '{"question": "x", "note": "Missing.md"}',
    ]), encoding="utf-8")
    r = cli(home, "calibrate", str(vault), "--golden", str(golden))
    assert r.returncode == 1, r.stderr
    assert "Lines not used:\n- line 2: not valid JSON" in r.stdout
    assert "- line 6: note 'Missing.md' is not indexed in this vault" in r.stdout
    assert "Duplicate questions dropped: 1 (line(s) 4)" in r.stdout and "## Calibration" in r.stdout
    data = json.loads(cli(home, "calibrate", str(vault), "--golden", str(golden), "--json").stdout)
    assert data["calibration"]["duplicates"] == [4] and len(data["skipped_lines"]) == 2
    assert data["calibration"]["n_answerable"] == 2


@pytest.mark.parametrize("bad", ["1", "0", "1.0", "-1", "7", "nan"])
def test_calibrate_refuses_a_max_pass_that_makes_no_sense(cli, home: Path, vault: Path, tmp_path: Path, bad: str):
    golden = tmp_path / "g.jsonl"
    golden.write_text('{"question": "When is the fern watered?", "note": "Plants.md"}\n', encoding="utf-8")
    r = cli(home, "calibrate", str(vault), "--golden", str(golden), "--max-pass", bad)
    assert r.returncode == 2 and "share from 0 to 1, both excluded" in r.stderr and "Traceback" not in r.stderr
    assert not (home / "indexes").exists(), "refused before anything ran"

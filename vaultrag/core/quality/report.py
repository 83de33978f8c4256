"""Evaluation output: JSON, a Markdown report, and PNG plots (matplotlib, when installed)."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from vaultrag.core.quality.calibration import Calibration, CalibrationOutcome
from vaultrag.core.quality.evaluate import EvalResult, RefusalGap
from vaultrag.core.quality.metrics import KS, RANK_METRICS

REFUSAL_GAP_TEXT = {RefusalGap.NO_UNANSWERABLE: "the golden set has no unanswerable questions",
                    RefusalGap.NO_CONFIDENCE: "no answerable question has a confidence (no vectors?)"}


def markdown(ev: EvalResult, calibration: Calibration | None = None) -> str:
    """The report a person reads: per-stage table, sign tests, failures, refusal."""
    lines = [f"# Evaluation of `{Path(ev.golden).name}` on `{ev.vault}`", "",
             f"{ev.n_answerable} answerable and {ev.n_unanswerable} unanswerable questions; "
             f"{ev.questions_per_s:.1f} questions/s. Settings: " +
             ", ".join(f"{k}={v}" for k, v in ev.settings.items()), ""]
    if ev.skipped_lines:
        lines += ["Lines not evaluated:", *[f"- {s}" for s in ev.skipped_lines], ""]
    lines += ["## Retrieval per stage (answerable questions)", "", *stage_table(ev)]
    lines += ["", "## Sign test on hit@1 (wins / losses of the later stage)", "",
              "| comparison | wins | losses | p |", "|---|---|---|---|"]
    for name, s in ev.sign_tests.items():
        lines.append(f"| {name} | {s['wins']} | {s['losses']} | {s['p']:.3g} |")
    lines += ["", "## Where the gold was lost (answerable questions not in the final context)", ""]
    # the why-not verdict codes (`vaultrag why` words each one; core/wording.py imports quality, not the reverse)
    lines += [f"- `{k}`: {v}" for k, v in sorted(ev.failures.items(), key=lambda x: -x[1])] or ["- none"]
    lines += ["", "## Refusal", ""]
    r = ev.refusal
    if not r.available or r.auroc is None:
        lines.append(f"Not available: {REFUSAL_GAP_TEXT[r.reason or RefusalGap.NO_CONFIDENCE]}.")
    else:
        lines += [f"AUROC of the confidence (answerable vs unanswerable): {r.auroc:.3f} "
                  f"({r.n_answerable} vs {r.n_unanswerable})", "",
                  "| threshold | answerable kept, correct top-1 | answerable kept, wrong top-1 | unanswerable passed |",
                  "|---|---|---|---|"]
        for t in r.table:
            lines.append(f"| {t.threshold:.3f} | {t.answerable_kept_correct:.3f} | "
                         f"{t.answerable_kept_wrong:.3f} | {t.unanswerable_passed:.3f} |")
    if calibration:
        lines += ["", *calibration_lines(calibration)]
    return "\n".join(lines) + "\n"


def stage_table(ev: EvalResult) -> list[str]:
    """The per-stage Markdown table: one row per stage, one column per registered metric."""
    lines = ["| stage | " + " | ".join(m.header for m in RANK_METRICS) + " |", "|---|" + "---|" * len(RANK_METRICS)]
    for name, row in ev.stages.items():
        lines.append(f"| {name} | " + " | ".join(f"{row[m.name]:.3f}" for m in RANK_METRICS) + " |")
    return lines


def calibration_lines(calibration: Calibration) -> list[str]:
    """The calibration section: the threshold picked on the tune half, both halves' trade-offs, and whether it was
    stored."""
    c = calibration
    lines = ["## Calibration", ""]
    if c.threshold is None or c.tune is None or c.validate is None:
        return [*lines, "Not available: calibration needs unanswerable questions in the golden set."]
    lines += [f"Threshold {c.threshold:.4f}, picked on the tune half to pass at most "
              f"{c.max_pass:.0%} of unanswerable questions (seed {c.seed}).", "",
              "| half | answerable | unanswerable | kept, correct top-1 | top-1 without threshold | "
              "kept, wrong top-1 | unanswerable passed |", "|---|---|---|---|---|---|---|"]
    for name, h in (("tune", c.tune), ("validate", c.validate)):
        lines.append(f"| {name} | {h.n_answerable} | {h.n_unanswerable} | "
                     f"{h.answerable_kept_correct:.3f} ± {h.kept_correct_margin:.3f} | "
                     f"{h.top1_without_threshold:.3f} | "
                     f"{h.answerable_kept_wrong:.3f} | {h.unanswerable_passed:.3f} ± {h.passed_margin:.3f} |")
    if c.outcome == CalibrationOutcome.TOO_FEW_QUESTIONS:
        lines += ["", f"Not stored: {c.n_answerable} answerable and {c.n_unanswerable} unanswerable questions are "
                      f"too few to move the threshold (at least {c.min_questions} of each are needed)."]
    elif c.outcome == CalibrationOutcome.MISSES_TARGET:
        v = c.validate
        lines += ["", f"Not stored: on the validate half {v.unanswerable_passed:.0%} ± {v.passed_margin:.0%} of the "
                      f"unanswerable questions pass, more than the {c.max_pass:.0%} goal beyond chance; the threshold "
                      "in force stays. Add unanswerable questions like the ones that pass, or accept a higher share "
                      "(--max-pass)."]
    elif c.outcome == CalibrationOutcome.REFUSES_ANSWERS:
        v = c.validate
        lines += ["", f"Not stored: on the validate half it keeps {v.answerable_kept_correct:.0%} ± "
                      f"{v.kept_correct_margin:.0%} of the questions, of {v.top1_without_threshold:.0%} answered right "
                      "without it: it would refuse more than half of the right answers. Add answerable questions, or "
                      "accept a higher share of unanswerable ones passing (--max-pass)."]
    elif c.stored:
        lines += ["", f"Stored in the index as {c.stored_as} (the validate half is the honest number; "
                      "`vaultrag calibrate VAULT --undo` puts back the one it replaced, `--shipped` the shipped one)."]
    return lines


def to_json(ev: EvalResult, calibration: Calibration | None = None) -> str:
    data = asdict(ev)
    if calibration is not None:
        data["calibration"] = asdict(calibration)
    return json.dumps(data, ensure_ascii=False, indent=2)


def plots(ev: EvalResult, out: Path) -> list[Path]:
    """hit@k per stage and the threshold trade-off curve as PNGs; [] when matplotlib is not installed."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return []
    out.mkdir(parents=True, exist_ok=True)
    written = []
    fig, ax = plt.subplots(figsize=(7, 4))
    for name, row in ev.stages.items():
        ax.plot(KS, [row[f"hit@{k}"] for k in KS], marker="o", label=name)
    ax.set_xscale("log")
    ax.set_xticks(KS, [str(k) for k in KS])
    ax.set_xlabel("k")
    ax.set_ylabel("hit@k")
    ax.set_title("Retrieval per stage")
    ax.grid(alpha=0.3)
    ax.legend()
    fig.tight_layout()
    path = out / "hit_at_k.png"
    fig.savefig(path, dpi=110)
    plt.close(fig)
    written.append(path)
    if ev.refusal.available and ev.refusal.auroc is not None:
        table = ev.refusal.table
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.plot([t.unanswerable_passed for t in table], [t.answerable_kept_correct for t in table], marker=".")
        ax.set_xlabel("share of unanswerable questions passed")
        ax.set_ylabel("share of answerable kept with a correct top-1")
        ax.set_title(f"Refusal trade-off (AUROC {ev.refusal.auroc:.3f})")
        ax.grid(alpha=0.3)
        fig.tight_layout()
        path = out / "threshold_tradeoff.png"
        fig.savefig(path, dpi=110)
        plt.close(fig)
        written.append(path)
    return written

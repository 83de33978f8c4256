"""Evaluation: a golden file run on the query lane; calibration through the core use case and the index lane."""

from __future__ import annotations

from PySide6.QtCore import QObject, Signal

from vaultrag.app.session import VaultSession
from vaultrag.app.tasks import MainThreadBridge, QueryLane
from vaultrag.core.quality.calibration import Calibration
from vaultrag.core.quality.evaluate import EvalResult


class Evaluation(QObject):
    """Signals: eval_progress (a Progress), eval_finished ((EvalResult, Calibration or None, {golden line: the
    note expected, "" for an unanswerable question})): the view's per-question list opens a failure on its note."""

    eval_finished = Signal(object)
    eval_progress = Signal(object)
    failed = Signal(str)

    def __init__(self, session: VaultSession, bridge: MainThreadBridge, queries: QueryLane) -> None:
        super().__init__()
        self.session = session
        self.bridge = bridge
        self.queries = queries

    def run_eval(self, golden: str, limit: int | None, calibrate_max_pass: float | None) -> None:
        """Evaluate a golden file (the same seeded sample as `vaultrag eval --limit`); calibrate when
        `calibrate_max_pass` is given (`vaultrag calibrate`'s rule: stored through the index lane only from enough
        questions)."""
        from vaultrag.core.quality import calibration, evaluate
        from vaultrag.core.query.stages.decide import threshold_in_force

        session = self.session

        def work() -> tuple[EvalResult, Calibration | None, dict[int, str], float | None]:
            s = session.searcher()
            vault = str(session.ws.vault) if session.ws is not None else ""
            progress = lambda p: self.bridge.run_on_main(lambda: self.eval_progress.emit(p))  # noqa: E731
            run = evaluate.run_golden(s, golden, limit, progress)
            ev = evaluate.summarize(run.results, vault, golden, {}, run.seconds, run.skipped_lines, run.inputs)
            cal = None
            if calibrate_max_pass is not None:
                cal = calibration.calibrate(run.results, calibrate_max_pass, s.reranker_id, session.write)
            items, _ = evaluate.load_for(s.store, golden, limit)  # the same seeded sample: each line's note
            # the threshold in force now (a calibration just stored counts): which questions it refuses or passes
            threshold = threshold_in_force(s.store, s.settings, s.reranker_id, calibration.decider_of(run.results))
            return ev, cal, {item.line: item.gold_note or "" for item in items}, threshold

        self.queries.submit("eval", work, self.eval_finished.emit, self.failed.emit)

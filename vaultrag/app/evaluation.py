"""Evaluation: a golden file run on the query lane; calibration through the core use case and the index lane."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from vaultrag.app.session import VaultSession
from vaultrag.app.tasks import MainThreadBridge, QueryLane
from vaultrag.core.quality.calibration import Calibration
from vaultrag.core.quality.evaluate import EvalResult
from vaultrag.core.store.index_store import IndexStore
from vaultrag.errors import UserFacingError


class Evaluation(QObject):
    """Signals: eval_progress (a Progress), eval_finished ((EvalResult, Calibration or None, {golden line: the
    note expected, "" for an unanswerable question}, the threshold in force, the calibration's decider)): the view's
    per-question list opens a failure on its note; threshold_state (a ThresholdState): the index's calibrated
    threshold, after it was read, stored, undone or reset."""

    eval_finished = Signal(object)
    eval_progress = Signal(object)
    threshold_state = Signal(object)
    failed = Signal(str)

    def __init__(self, session: VaultSession, bridge: MainThreadBridge, queries: QueryLane) -> None:
        super().__init__()
        self.session = session
        self.bridge = bridge
        self.queries = queries

    def run_eval(self, golden: str, limit: int | None, calibrate_max_pass: float | None) -> None:
        """Evaluate a golden file (the same seeded sample as `vaultrag eval --limit`); with `calibrate_max_pass`,
        pick a threshold by `vaultrag calibrate`'s rule and show what it would do — nothing is stored until the user
        says so (`store_threshold`)."""
        from vaultrag.core.quality import calibration, evaluate
        from vaultrag.core.query.stages.decide import threshold_in_force

        session = self.session

        def work() -> tuple[EvalResult, Calibration | None, dict[int, str], float | None, str]:
            s = session.searcher()
            vault = str(session.ws.vault) if session.ws is not None else ""
            progress = lambda p: self.bridge.run_on_main(lambda: self.eval_progress.emit(p))  # noqa: E731
            run = evaluate.run_golden(s, golden, limit, progress)
            ev = evaluate.summarize(run.results, vault, golden, {}, run.seconds, run.skipped_lines, run.inputs)
            cal, decider = None, calibration.decider_of(run.results)
            if calibrate_max_pass is not None:
                cal, decider = calibration.preview(run.results, calibrate_max_pass)
            items, _ = evaluate.load_for(s.store, golden, limit)  # the same seeded sample: each line's note
            # the threshold in force now: which questions it refuses or passes
            threshold = threshold_in_force(s.store, s.settings, s.reranker_id, decider)
            return ev, cal, {item.line: item.gold_note or "" for item in items}, threshold, decider

        self.queries.submit("eval", work, self.eval_finished.emit, self.failed.emit)

    def _threshold(self, change: Callable[[IndexStore, str, str], object] | None, decider: str = "") -> None:
        """Apply `change(store, reranker id, decider)` on the index lane (None: only read), then tell the
        ThresholdState; on the query lane, which may wait for the index lane (the GUI thread never does)."""
        from vaultrag.core.quality import calibration
        from vaultrag.core.query import answerability
        from vaultrag.core.query.stages.decide import COSINE, threshold_in_force

        session = self.session

        def work() -> ThresholdState:
            s = session.searcher()
            if session.ws is None:
                raise UserFacingError(self.tr("Open a vault first."))
            model = answerability.shipped()
            # the decider the vault's questions meet: the model where it can judge them (its ranker, its embedder's
            # cosines), the cosine rule otherwise
            judges = model is not None and model.ranker == s.reranker_id and (
                s.store.meta("embed_model") or "").startswith(model.embedder_prefix)
            which = decider or (model.model_id if judges and model is not None else COSINE)
            if change is not None:
                session.write(lambda store: change(store, s.reranker_id, which))
            store, _ = session.ws.open_store(readonly=True)
            try:
                value, undoable = calibration.calibrated(store, s.reranker_id, which)
                in_force = threshold_in_force(store, s.settings, s.reranker_id, which)
            finally:
                store.close()
            return ThresholdState(which, value, in_force, undoable, change is not None)

        self.queries.submit("threshold", work, self.threshold_state.emit, self.failed.emit)

    def store_threshold(self, threshold: float, decider: str) -> None:
        """Store a previewed calibration's threshold (the one it replaces is kept for Undo)."""
        from vaultrag.core.quality import calibration

        self._threshold(lambda store, r, d: calibration.store_threshold(store, r, threshold, d), decider)

    def undo_threshold(self) -> None:
        from vaultrag.core.quality import calibration

        self._threshold(calibration.undo_threshold)

    def reset_threshold(self) -> None:
        from vaultrag.core.quality import calibration

        self._threshold(calibration.reset_threshold)

    def read_threshold(self) -> None:
        self._threshold(None)


@dataclass(frozen=True)
class ThresholdState:
    """The index's refusal threshold for a decider: the calibrated one (None: the shipped one is in force), the one
    in force, whether Undo has something to take back, and whether this follows a change."""

    decider: str
    calibrated: float | None
    in_force: float | None
    undoable: bool
    changed: bool

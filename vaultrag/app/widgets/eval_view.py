"""Run a golden file: the per-stage table, each question's outcome (a failure opens in the inspector), the refusal
trade-off curve, and calibration."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDoubleSpinBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app.words import failures_text, local, locale, number, stage_title, verdict_title
from vaultrag.core.quality.calibration import Calibration, CalibrationOutcome, HalfRates
from vaultrag.core.quality.evaluate import CONTEXT, QuestionResult, RefusalGap
from vaultrag.core.quality.metrics import RANK_METRICS
from vaultrag.core.query.contracts import ranked_lists
from vaultrag.core.query.search import PIPELINE
from vaultrag.core.vocab import StageName


class TradeoffCurve(QWidget):
    """Share of answerable kept with a correct top-1 against the share of unanswerable passed."""

    def __init__(self) -> None:
        super().__init__()
        self.setMinimumHeight(160)
        self.points: list[tuple[float, float]] = []

    def ceiling(self) -> float:
        """The highest share of answerable questions the curve reaches: those with the right note first."""
        return max((y for _, y in self.points), default=0.0)

    def caption(self) -> str:
        """The words on the ceiling's dashed line."""
        return local(self.tr("{x:.0%} have the right note first: the ceiling")).format(
            x=self.ceiling())

    def paintEvent(self, event: object) -> None:
        p = QPainter(self)
        fm = self.fontMetrics()
        lh = fm.height()
        left = lh + fm.horizontalAdvance("100%") + 8  # room for the rotated y title and the tick labels
        w, h = self.width() - left - 30, self.height() - 2 * lh - 10
        p.drawRect(left, 5, w, h)
        for frac in (0.0, 0.5, 1.0):
            p.drawText(QRectF(lh, 5 + (1 - frac) * h - lh / 2, left - lh - 4, lh),
                       Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, f"{frac:.0%}")
            p.drawText(QRectF(left + frac * w - 30, 7 + h, 60, lh), Qt.AlignmentFlag.AlignCenter, f"{frac:.0%}")
        p.drawText(QRectF(left, self.height() - lh - 2, w, lh), Qt.AlignmentFlag.AlignCenter,
                   self.tr("unanswerable questions let through →"))
        p.save()
        p.translate(lh - 2, 5 + h)
        p.rotate(-90)
        p.drawText(QRectF(0, -lh + 2, h, lh), Qt.AlignmentFlag.AlignCenter,
                   self.tr("right note →"))
        p.restore()
        if not self.points:
            return
        # the curve cannot rise above the answerable questions whose first passage is the right one: said, so a
        # plateau at 60% beside "AUROC 0.975" (which ranks confidences, right note first or not) reads as what it is
        ceiling = self.ceiling()
        y = 5 + (1 - ceiling) * h
        p.setPen(QPen(QColor(150, 150, 150), 1, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(left, y), QPointF(left + w, y))
        p.drawText(QRectF(left + 4, y + 1 if ceiling > 0.8 else y - lh - 1, w - 8, lh),
                   Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
                   fm.elidedText(self.caption(), Qt.TextElideMode.ElideRight, w - 8))
        p.setPen(QPen(QColor(70, 130, 180), 2))
        pts = [QPointF(left + x * w, 5 + (1 - y) * h) for x, y in self.points]
        for a, b in itertools.pairwise(pts):
            p.drawLine(a, b)


QUESTION_ROLE = Qt.ItemDataRole.UserRole  # on a row's question cell: (question, the note expected or "")
FAILURE_COLOUR = QColor("#ffd6d6")
NOTE_COLUMN = 160  # the "Expected note" column's width (pixels)
MIN_COLUMN = 120  # pixels: a column narrower shows a word or two
QUESTION_SHARE, NOTE_SHARE = 0.36, 0.2  # of the questions table's width, the question's and the expected note's


class EvalView(QWidget):
    """Signals: run_requested(golden path, limit or 0, max_pass or -1 for no calibration); question_opened(question,
    the note it expected or "" for an unanswerable one): a row of the per-question list was activated."""

    run_requested = Signal(str, int, float)
    question_opened = Signal(str, str)
    store_requested = Signal(float, str)  # a previewed calibration's threshold and its decider: store it

    def __init__(self) -> None:
        super().__init__()
        self.path = QLineEdit()
        self.path.setPlaceholderText(self.tr("golden .jsonl file"))
        self.browse = browse = QPushButton(self.tr("Browse…"))
        self.limit = QSpinBox()
        self.limit.setRange(0, 100000)
        self.limit.setSpecialValueText(self.tr("all"))
        self.max_pass = QDoubleSpinBox()
        self.max_pass.setLocale(locale())
        self.max_pass.setRange(0.01, 0.99)  # 0 or 1 make no goal (core/quality/calibration.check_max_pass)
        self.max_pass.setSingleStep(0.05)
        self.max_pass.setValue(0.10)
        self.run = QPushButton(self.tr("Evaluate"))
        self.calibrate = QPushButton(self.tr("Calibrate"))
        self.calibrate.setToolTip(self.tr("Pick a refusal threshold from this golden set and show what it would do; "
                                          "nothing is stored until you press Store"))
        # a calibration is previewed first: stored only by this button, which says the threshold it stores
        self.store = QPushButton()
        self.store.setObjectName("eval-store-threshold")
        self.store.hide()
        self._pending: tuple[float, str] | None = None
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.table = QTableWidget(0, len(RANK_METRICS))
        self.table.setObjectName("eval-table")
        self.table.setHorizontalHeaderLabels([m.header for m in RANK_METRICS])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self._rows((*ranked_lists(PIPELINE), CONTEXT))  # an evaluation brings its own lists
        self.questions = self._question_table()
        self.questions.activated.connect(self._open_row)
        self.questions.viewport().installEventFilter(self)
        # the golden file's format said where it is picked, with the README's section for the rest
        self.format_hint = QLabel(self.tr(
            "A golden file holds one question per line: <code>{\"question\": \"How do I share a note?\", "
            "\"note\": \"Folder/Note.md\"}</code>, and for a question no note answers <code>{\"question\": "
            "\"…\", \"answerable\": false}</code> (the README's Golden sets section has the full format)."))
        self.format_hint.setObjectName("eval-format-hint")
        self.format_hint.setWordWrap(True)
        self.format_hint.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.curve = TradeoffCurve()
        top = QHBoxLayout()
        for wdg in (self.path, browse, QLabel(self.tr("limit")), self.limit, self.run, QLabel(self.tr("max pass")),
                    self.max_pass, self.calibrate, self.store):
            top.addWidget(wdg)
        col = QVBoxLayout(self)
        col.addLayout(top)
        col.addWidget(self.format_hint)
        col.addWidget(self.status)
        # the numbers (the per-stage table over the trade-off curve) on the left, the questions on the right
        numbers = QWidget()
        left = QVBoxLayout(numbers)
        left.setContentsMargins(0, 0, 0, 0)
        left.addWidget(self.table, 1)
        left.addWidget(self.curve)
        self._sides = sides = QSplitter()
        sides.addWidget(numbers)
        sides.addWidget(self.questions)
        sides.setStretchFactor(1, 1)
        sides.setSizes([560, 680])
        col.addWidget(sides, 1)
        browse.clicked.connect(self._browse)
        self.run.clicked.connect(lambda: self.run_requested.emit(self.path.text(), self.limit.value(), -1.0))
        self.calibrate.clicked.connect(lambda: self.run_requested.emit(self.path.text(), self.limit.value(),
                                                                       self.max_pass.value()))
        self.store.clicked.connect(self._store)

    def _question_table(self) -> QTableWidget:
        """The per-question list: one line a question, its columns sharing the room."""
        questions = QTableWidget(0, 4)
        questions.setObjectName("eval-questions")
        questions.setHorizontalHeaderLabels([self.tr("Question"), self.tr("Expected note"),
                                             self.tr("In the prompt at"), self.tr("What went wrong")])
        questions.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        questions.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        questions.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        questions.verticalHeader().hide()
        questions.setWordWrap(False)  # one line per question: its whole text on hover
        questions.setTextElideMode(Qt.TextElideMode.ElideRight)  # a question reads from its start
        head = questions.horizontalHeader()
        # the columns share the room (`_share_widths`: the question had it all, and "What went wrong" was cut even at
        # 1920 wide); a cut text ends in "…" and is whole on hover
        for column, width in ((0, 200), (1, NOTE_COLUMN), (2, 110), (3, 170)):
            head.setSectionResizeMode(column, QHeaderView.ResizeMode.Interactive)
            # never narrower than its header ("Posição no prompt" was cut to "osição no prompt")
            label = questions.horizontalHeaderItem(column)
            wide = head.fontMetrics().horizontalAdvance(label.text()) + 24 if label is not None else 0
            head.resizeSection(column, max(width, wide))
        questions.setToolTip(self.tr("Each question of the golden set, failures first: double-click (or Enter) "
                                     "asks it again in the inspector and says why its note was lost"))
        return questions

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self.questions.viewport() and event.type() == QEvent.Type.Resize:
            self._share_widths()
        return super().eventFilter(watched, event)

    def _share_widths(self) -> None:
        """The columns share the table's width (QUESTION_SHARE and NOTE_SHARE of what "In the prompt at" leaves,
        "What went wrong" the rest), so none is cut while another has room to spare."""
        head = self.questions.horizontalHeader()
        rest = self.questions.viewport().width() - head.sectionSize(2)
        if rest > 0:  # below a readable minimum each (a narrow window) the table scrolls sideways instead
            head.resizeSection(0, max(MIN_COLUMN, int(rest * QUESTION_SHARE)))
            head.resizeSection(1, max(MIN_COLUMN, int(rest * NOTE_SHARE)))
            head.resizeSection(3, max(MIN_COLUMN, rest - head.sectionSize(0) - head.sectionSize(1)))
            self._elide_notes()

    def _store(self) -> None:
        if self._pending is not None:
            self.store_requested.emit(*self._pending)
        self._pending = None
        self.store.hide()

    def threshold_stored(self, state: Any) -> None:
        """A ThresholdState after a change: the status says what is in force now and where Undo is."""
        if not state.changed:
            return
        if state.calibrated is not None:
            said = local(self.tr("Calibrated threshold {t:.3f} stored and in force; Settings › Refusal threshold "
                                 "has Undo and Back to shipped.")).format(t=state.calibrated)
        else:
            said = self.tr("The shipped threshold is in force again.")
        self.status.setText(self.status.text() + "<br><b>" + said + "</b>")

    def clear(self) -> None:
        """Forget the last run's results (another vault was opened: its numbers and questions are not this one's)."""
        self.table.clearContents()
        self.questions.setRowCount(0)
        self.status.setText("")
        self.curve.points = []
        self.curve.update()

    def set_vault_open(self, on: bool) -> None:
        """Evaluate and Calibrate ask the open vault's index: without one they are disabled."""
        self.run.setEnabled(on)
        self.calibrate.setEnabled(on)

    def _rows(self, names: Sequence[StageName]) -> None:
        """One row per ranked list, then the prompt's documents."""
        self.table.setRowCount(len(names))
        self.table.setVerticalHeaderLabels([stage_title(n) for n in names])

    def _browse(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Golden set"), "", "JSONL (*.jsonl);;*")
        if path:
            self.path.setText(path)

    def set_progress(self, p: Any) -> None:
        eta = self.tr(", ETA {s:.0f}s").format(s=p.eta_s) if p.eta_s else ""
        self.status.setText(self.tr("evaluating: {d}/{t} questions{eta}").format(d=p.done, t=p.total, eta=eta))

    def set_result(self, result: tuple[Any, ...]) -> None:
        """(EvalResult, Calibration or None[, {golden line: the note expected}[, the threshold in force]])."""
        ev, cal = result[0], result[1]
        gold: dict[int, str] = result[2] if len(result) > 2 else {}
        threshold: float | None = result[3] if len(result) > 3 else None
        decider: str = result[4] if len(result) > 4 else ""
        self._pending = None
        self.store.hide()
        if cal is not None and cal.outcome == CalibrationOutcome.PICKED and cal.threshold is not None:
            self._pending = (cal.threshold, decider)
            self.store.setText(local(self.tr("Store threshold {t:.3f}")).format(t=cal.threshold))
            self.store.show()
        self._rows(list(ev.stages))
        self._questions(ev.results, gold, threshold)
        for r, row in enumerate(ev.stages.values()):
            for c, v in enumerate(row[m.name] for m in RANK_METRICS):
                item = QTableWidgetItem(number(v, 3))
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight)
                self.table.setItem(r, c, item)
        text = local(self.tr("{a} answerable, {u} unanswerable, {q:.1f} questions/s")).format(
            a=ev.n_answerable, u=ev.n_unanswerable, q=ev.questions_per_s)
        refusal = ev.refusal
        if refusal.available and refusal.auroc is not None:
            text += local(self.tr("; AUROC {x:.3f} (how well the confidence tells answerable from unanswerable)")
                          ).format(x=refusal.auroc)
            self.curve.points = [(t.unanswerable_passed, t.answerable_kept_correct) for t in refusal.table]
        else:
            text += "; " + (self.tr("the golden set has no unanswerable questions")
                            if refusal.reason == RefusalGap.NO_UNANSWERABLE else
                            self.tr("no answerable question has a confidence (no vectors?)"))
            self.curve.points = []
        text += "<br>" + failures_text(ev.failures)
        if cal is not None:
            text += "<br>" + self._calibration_text(cal)
        if ev.skipped_lines:
            text += "<br>" + "; ".join(ev.skipped_lines[:5])
        self.status.setText(text)
        self.curve.update()
        self._give_questions_the_room()

    def _give_questions_the_room(self) -> None:
        """The numbers keep their table's width, the question list takes the rest (it cuts what it shows)."""
        total = sum(self._sides.sizes())
        if total <= 0:
            return
        table = self.table.horizontalHeader().length() + self.table.verticalHeader().width() \
            + 2 * self.table.frameWidth() + self.table.verticalScrollBar().sizeHint().width()
        left = min(max(table, 300), total // 2)
        self._sides.setSizes([left, total - left])

    def _went_wrong(self, r: QuestionResult, threshold: float | None) -> str:
        """What went wrong with one question, in words ("" when nothing did): its note lost or not first, a refusal
        of an answerable question, an answer to an unanswerable one (the threshold in force decides both)."""
        refused = (r.confidence < threshold if threshold is not None and r.confidence is not None else
                   r.answered is False)  # the run's own decision when there is no threshold to compare with
        if not r.answerable:
            return "" if refused else self.tr("answered though no note holds the answer")
        if r.failure is not None:
            return verdict_title(r.failure)
        if not r.top1_correct:
            return self.tr("not first in the final list")
        if refused:
            return local(self.tr("refused (confidence {c:.3f} below {t:.3f})")).format(c=r.confidence, t=threshold)
        return ""

    def _questions(self, results: list[QuestionResult], gold: dict[int, str], threshold: float | None) -> None:
        """One row per question, the failures first: where its note was lost, or where it reached the prompt."""
        self.questions.setRowCount(0)
        lost = {id(r): self._went_wrong(r, threshold) for r in results}
        rows = sorted(results, key=lambda r: not lost[id(r)])  # stable: the failures first, each in file order
        self.questions.setRowCount(len(rows))
        for n, r in enumerate(rows):
            note = gold.get(r.line, "")
            at = r.ranks.get(CONTEXT)
            rank = (self.tr("unanswerable") if not r.answerable else
                    self.tr("document {n}").format(n=at) if at is not None else "—")
            cells = [QTableWidgetItem(r.question), QTableWidgetItem(note), QTableWidgetItem(rank),
                     QTableWidgetItem(lost[id(r)])]
            cells[0].setData(QUESTION_ROLE, (r.question, note if r.answerable else ""))
            for c, cell in enumerate(cells):
                cell.setToolTip(cell.text())
                if lost[id(r)]:
                    cell.setBackground(FAILURE_COLOUR)
                self.questions.setItem(n, c, cell)
        self._elide_notes()

    def _elide_notes(self) -> None:
        """Each expected note by its title (its file name: folder and ".md" cut a long path to "Editing
        an…allouts.md" at 1280 px), cut at its end to the column as wide as it is now; the whole path on hover."""
        names, width = self.fontMetrics(), self.questions.horizontalHeader().sectionSize(1) - 12
        for row in range(self.questions.rowCount()):
            cell = self.questions.item(row, 1)
            if cell is not None:
                title = cell.toolTip().rpartition("/")[2].removesuffix(".md")
                cell.setText(names.elidedText(title, Qt.TextElideMode.ElideRight, width))

    def _open_row(self, index: Any) -> None:
        item = self.questions.item(index.row(), 0)
        if item is not None:
            question, note = item.data(QUESTION_ROLE)
            self.question_opened.emit(question, note)

    def _calibration_text(self, cal: Calibration) -> str:
        """The calibration in words: the threshold, stored or why not, and the validate half's rates."""
        v = cal.validate
        if cal.threshold is None or v is None:
            # (the one unanswerable question of a tiny set went to the tune half: "needs unanswerable questions"
            # read as a contradiction of the set that has one)
            return self.tr("Not calibrated: it needs at least {n} answerable and {n} unanswerable questions in the "
                           "golden set; this one has {a} and {u}.").format(n=cal.min_questions, a=cal.n_answerable,
                                                                          u=cal.n_unanswerable)
        rates = self._rates(v)
        if cal.outcome == CalibrationOutcome.TOO_FEW_QUESTIONS:
            return "<b style='color:#b71c1c'>" + local(self.tr(
                "Not stored: {a} answerable and {u} unanswerable questions are too few to move the "
                "threshold (at least {n} of each are needed). It would have been {t:.3f}; {r}.")).format(
                a=cal.n_answerable, u=cal.n_unanswerable, n=cal.min_questions, t=cal.threshold, r=rates) + "</b>"
        if cal.outcome == CalibrationOutcome.REFUSES_ANSWERS:
            return "<b style='color:#b71c1c'>" + local(self.tr(
                "Not stored: the threshold {t:.3f} would refuse more than half of the answers the ranker gets right "
                "(on the validate half it keeps {k:.0%} of the questions, of {c:.0%} answered right without it); the "
                "threshold in force stays. Add answerable questions, or accept a higher share passing; {r}.")).format(
                t=cal.threshold, k=v.answerable_kept_correct, c=v.top1_without_threshold, r=rates) + "</b>"
        if cal.outcome == CalibrationOutcome.PICKED:
            return local(self.tr("Threshold {t:.3f} picked, not stored yet; {r}. Press Store to use it (Undo is in "
                                 "Settings).")).format(t=cal.threshold, r=rates)
        if cal.outcome == CalibrationOutcome.MISSES_TARGET:
            return "<b style='color:#b71c1c'>" + local(self.tr(
                "Not stored: the threshold {t:.3f} misses its goal on the validate half (at most {g:.0%} of the "
                "unanswerable questions should pass); the threshold in force stays. Add unanswerable questions like "
                "the ones that pass, or accept a higher share; {r}.")).format(t=cal.threshold, g=cal.max_pass,
                                                                            r=rates) + "</b>"
        return local(self.tr("Calibrated threshold {t:.3f} stored; {r}.")).format(t=cal.threshold, r=rates)

    def _rates(self, v: HalfRates) -> str:
        # 95 % half-widths: how far these rates could move with another sample
        return local(self.tr("validate half: {k:.0%} ± {dk:.0%} answerable kept correct, {p:.0%} ± {dp:.0%} "
                       "unanswerable passed")).format(k=v.answerable_kept_correct, dk=v.kept_correct_margin,
                                                     p=v.unanswerable_passed, dp=v.passed_margin)

"""The candidates of every stage in parallel columns; selecting a chunk highlights it everywhere and explains it."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetrics
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSizePolicy,
    QStackedWidget,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app.widgets.flags import WARNING_COLOUR, WARNING_SIGN, flag_warning
from vaultrag.app.widgets.rewrite_bar import RewriteBar
from vaultrag.app.widgets.words import stage_note, stage_title, status_word
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.vocab import ContextStatus, StageName, StageStatus

HIGHLIGHT = QColor(255, 214, 102)
STAGES = tuple(StageName)
# the list a stage's order comes from, for the ↑/↓ movement column
FED_BY = {StageName.FUSED: (StageName.BM25, StageName.VECTOR), StageName.RERANKED: (StageName.FUSED,)}


def row_label(c: Candidate) -> str:
    """'Note title › last heading' (the heading tells apart the chunks of one note)."""
    title = c.note.rpartition("/")[2].removesuffix(".md")
    heads = [h for h in c.heading_path if h and h != title]
    return f"{title} › {heads[-1]}" if heads else title


def fit_label(text: str, fm: QFontMetrics, width: int) -> str:
    """'title › heading' in `width` px: each part elided on its own, the title keeping at least 40 % of the room,
    so the heading (which tells the chunks of one note apart) stays visible."""
    if fm.horizontalAdvance(text) <= width:
        return text
    title, sep, head = text.partition(" › ")
    if not sep:
        return fm.elidedText(text, Qt.TextElideMode.ElideMiddle, width)
    room = width - fm.horizontalAdvance(sep)
    title_w = min(fm.horizontalAdvance(title), max(room - fm.horizontalAdvance(head), int(room * 0.4)))
    return (fm.elidedText(title, Qt.TextElideMode.ElideRight, title_w) + sep
            + fm.elidedText(head, Qt.TextElideMode.ElideRight, room - title_w))


class RowLabelDelegate(QStyledItemDelegate):
    """Draws the 'note › heading' column with fit_label (the full path is the item's tooltip)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Any) -> None:
        super().initStyleOption(option, index)
        option.text = fit_label(option.text, option.fontMetrics, option.rect.width() - 8)


def movement(rank: int, before: int | None) -> str:
    if before is None:
        return "new"
    if before == rank:
        return "="
    return f"↑{before - rank}" if before > rank else f"↓{rank - before}"


def score_text(v: float) -> str:
    return f"{v:.3f}" if abs(v) >= 0.1 else f"{v:.4f}"


class StagesView(QWidget):
    """One table per stage (rank with its movement, score, note › heading) and the selected chunk's details.

    Signals:
        chunk_selected: the Candidate picked in any column.
    """

    chunk_selected = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, QTableWidget] = {}
        self.headers: dict[str, QLabel] = {}
        self.skipped: dict[str, QLabel] = {}
        self._stacks: dict[str, QStackedWidget] = {}
        self._cands: dict[str, list[Candidate]] = {}
        self._trace: QueryTrace | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.rewrite = RewriteBar()  # the `rewrite` stage: shown above the others when a follow-up was rewritten
        outer.addWidget(self.rewrite)
        row = QHBoxLayout()
        row.setSpacing(4)
        self._row = row
        outer.addLayout(row, 1)
        for name in STAGES:
            col = QVBoxLayout()
            col.setSpacing(1)
            label = QLabel(stage_title(name))
            label.setObjectName(f"stage-header-{name}")
            label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            label.setWordWrap(True)  # title, then status and time: two short lines that never get cut
            table = self._make_table(name)
            note = QLabel()
            note.setObjectName(f"stage-skipped-{name}")
            note.setWordWrap(True)
            note.setAlignment(Qt.AlignmentFlag.AlignTop)
            note.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
            stack = QStackedWidget()
            stack.addWidget(table)
            stack.addWidget(note)
            col.addWidget(label)
            col.addWidget(stack, 1)
            row.addLayout(col, 1)
            self.tables[name], self.headers[name], self.skipped[name], self._stacks[name] = table, label, note, stack
        self.details = QLabel(self.tr("Select a row: its scores and why it moved appear here."))
        self.details.setObjectName("candidate-details")
        self.details.setWordWrap(True)
        self.details.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.details)

    def _make_table(self, name: str) -> QTableWidget:
        table = QTableWidget(0, 3)
        table.setObjectName(f"stage-{name}")
        table.setHorizontalHeaderLabels([self.tr("#"), self.tr("score"), self.tr("note › heading")])
        table.verticalHeader().hide()
        table.verticalHeader().setDefaultSectionSize(table.fontMetrics().height() + 4)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # rank and score never scroll away
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.setItemDelegateForColumn(2, RowLabelDelegate(table))
        table.setAutoScroll(False)
        table.setWordWrap(False)
        table.setMinimumWidth(120)
        head = table.horizontalHeader()
        head.setMinimumSectionSize(20)
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        table.itemSelectionChanged.connect(lambda n=name: self._on_selected(n))
        return table

    def set_trace(self, trace: QueryTrace) -> None:
        self._trace = trace
        self.rewrite.set_trace(trace)
        in_prompt = {cid for cid, st in trace.context_status.items()
                     if st in (ContextStatus.INCLUDED, ContextStatus.MERGED)}
        for name in STAGES:
            stage = trace.stages[StageName(name)]
            table = self.tables[name]
            self._cands[name] = stage.candidates
            timing = f"{stage.ms:.0f} ms" if stage.ms else ""
            line2 = " · ".join(x for x in (status_word(stage.status), timing) if x)
            self.headers[name].setText(f"<b>{stage_title(StageName(name))}</b><br><small>{line2}</small>")
            self.headers[name].setToolTip(stage_note(trace, stage))
            skipped = stage.status == StageStatus.SKIPPED
            self._stacks[name].setCurrentIndex(1 if skipped else 0)
            # a skipped stage gives its width to the tables that have rows (it keeps a narrow column for its reason)
            self._row.setStretch(STAGES.index(StageName(name)), 1 if skipped else 3)
            self.skipped[name].setText(f"<i>{escape(stage_note(trace, stage))}</i>" if skipped else "")
            before = self._ranks_before(trace, StageName(name))
            table.blockSignals(True)
            table.clearSelection()
            table.setRowCount(len(stage.candidates))
            for r, c in enumerate(stage.candidates):
                rank = str(c.rank)
                if before is not None:
                    rank += " " + movement(c.rank, before.get(c.chunk_id)).replace("new", self.tr("new"))
                tip = " › ".join([c.note, *c.heading_path[1:]]) if c.heading_path else c.note
                flags = trace.flagged.get(c.note)
                label = f"{WARNING_SIGN} {row_label(c)}" if flags else row_label(c)
                if flags:
                    tip += "\n" + flag_warning(c.note, flags)
                for col, text in enumerate((rank, score_text(c.score), label)):
                    item = QTableWidgetItem(text)
                    item.setData(Qt.ItemDataRole.UserRole, c.chunk_id)
                    item.setToolTip(tip)
                    if flags:
                        item.setForeground(QBrush(QColor(WARNING_COLOUR)))
                    if col < 2:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    if c.chunk_id in in_prompt and StageName(name) == trace.final_stage:
                        font = QFont(item.font())
                        font.setBold(True)  # in the prompt
                        item.setFont(font)
                    table.setItem(r, col, item)
            table.horizontalScrollBar().setValue(0)
            table.blockSignals(False)

    @staticmethod
    def _ranks_before(trace: QueryTrace, name: StageName) -> dict[int, int] | None:
        """Each chunk's best rank in the lists that fed this stage (None for the first lists)."""
        if name not in FED_BY:
            return None
        best: dict[int, int] = {}
        for source in FED_BY[name]:
            for c in trace.stages[source].candidates:
                best[c.chunk_id] = min(best.get(c.chunk_id, c.rank), c.rank)
        return best

    def clear(self) -> None:
        self._trace = None
        self.rewrite.clear()
        for name, table in self.tables.items():
            table.setRowCount(0)
            self._cands[name] = []
            self._stacks[name].setCurrentIndex(0)
            self.headers[name].setText(f"<b>{stage_title(StageName(name))}</b><br><small> </small>")
        self.details.setText(self.tr("Select a row: its scores and why it moved appear here."))

    def select_chunk(self, cand: Candidate) -> None:
        self.highlight(cand.chunk_id)
        self.details.setText(self.explain(cand.chunk_id))

    def explain(self, chunk_id: int) -> str:
        """The chunk's rank and score in every stage, its confidence, and the per-part contributions."""
        t = self._trace
        if t is None:
            return ""
        parts: list[str] = []
        label = note = ""
        for name in STAGES:
            c = next((c for c in t.stages[StageName(name)].candidates if c.chunk_id == chunk_id), None)
            if c is None:
                continue
            label = label or escape(" › ".join([c.note, *c.heading_path[1:]]))
            note = c.note
            bit = f"{stage_title(StageName(name))} #{c.rank} ({score_text(c.score)})"
            if c.contributions:
                terms = ", ".join(f"{escape(k)} {v:+.4f}" for k, v in
                                  sorted(c.contributions.items(), key=lambda kv: -abs(kv[1])))
                bit += f" = {terms}"
            parts.append(bit)
        final = next((c for c in t.final if c.chunk_id == chunk_id), None)
        if final is not None and final.cosine is not None:
            conf = t.decision.confidence_of(final.cosine)
            extra = self.tr("cosine {c:.3f}").format(c=final.cosine)
            if conf is not None:
                extra += " · " + self.tr("confidence {c:.3f}").format(c=conf)
            parts.append(extra)
        if not label:
            return ""
        flags = t.flagged.get(note)
        warning = (f"<br><span style='color:{WARNING_COLOUR}'>{WARNING_SIGN} {escape(flag_warning(note, flags))}"
                   "</span>") if flags else ""
        return f"<b>{label}</b><br>" + " · ".join(parts) + warning

    def highlight(self, chunk_id: int) -> list[str]:
        """Colour the rows of `chunk_id` in every column; returns the stages where it appears."""
        found = []
        for name, table in self.tables.items():
            for r in range(table.rowCount()):
                first = table.item(r, 0)
                hit = first is not None and first.data(Qt.ItemDataRole.UserRole) == chunk_id
                for col in range(table.columnCount()):
                    item = table.item(r, col)
                    if item is not None:
                        item.setBackground(QBrush(HIGHLIGHT) if hit else QBrush())
                if hit and first is not None:
                    found.append(name)
                    table.scrollToItem(first, QAbstractItemView.ScrollHint.EnsureVisible)
                    table.horizontalScrollBar().setValue(0)  # rank and score stay in view
        return found

    def _on_selected(self, name: str) -> None:
        rows = self.tables[name].selectionModel().selectedRows()
        if not rows:
            return
        self.chunk_selected.emit(self._cands[name][rows[0].row()])

"""The candidates of every stage in parallel columns; selecting a chunk highlights it everywhere."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.vocab import StageName, StageStatus

HIGHLIGHT = QColor(255, 214, 102)
STAGES = tuple(StageName)


class StagesView(QWidget):
    """One table per stage (rank, score, note > heading).

    Signals:
        chunk_selected: the Candidate picked in any column.
    """

    chunk_selected = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, QTableWidget] = {}
        self.headers: dict[str, QLabel] = {}
        self._cands: dict[str, list[Candidate]] = {}
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        for name in STAGES:
            col = QVBoxLayout()
            label = QLabel(name.upper())
            label.setObjectName(f"stage-header-{name}")
            table = QTableWidget(0, 3)
            table.setObjectName(f"stage-{name}")
            table.setHorizontalHeaderLabels([self.tr("rank"), self.tr("score"), self.tr("note > heading")])
            table.verticalHeader().hide()
            table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
            table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.horizontalHeader().setStretchLastSection(True)
            table.itemSelectionChanged.connect(lambda n=name: self._on_selected(n))
            col.addWidget(label)
            col.addWidget(table)
            row.addLayout(col)
            self.tables[name], self.headers[name] = table, label

    def set_trace(self, trace: QueryTrace) -> None:
        for name in STAGES:
            stage = trace.stages[StageName(name)]
            table = self.tables[name]
            self._cands[name] = stage.candidates
            timing = f" ({stage.ms:.0f} ms)" if stage.ms else ""
            self.headers[name].setText(f"{name.upper()} — {stage.status}{timing}")
            self.headers[name].setToolTip(stage.note)
            table.setVisible(stage.status != StageStatus.SKIPPED)
            if stage.status == StageStatus.SKIPPED:
                self.headers[name].setText(f"{name.upper()} — {self.tr('skipped')}: {stage.note}")
                self.headers[name].setWordWrap(True)
            table.blockSignals(True)
            table.setRowCount(len(stage.candidates))
            for r, c in enumerate(stage.candidates):
                where = " > ".join([c.note, *c.heading_path[-1:]])
                for col, text in enumerate((str(c.rank), f"{c.score:.3f}", where)):
                    item = QTableWidgetItem(text)
                    item.setData(Qt.ItemDataRole.UserRole, c.chunk_id)
                    if c.contributions:
                        item.setToolTip(", ".join(f"{k} {v:.4f}" for k, v in c.contributions.items()))
                    table.setItem(r, col, item)
            table.resizeColumnsToContents()
            table.blockSignals(False)

    def clear(self) -> None:
        for name, table in self.tables.items():
            table.setRowCount(0)
            self._cands[name] = []
            self.headers[name].setText(name.upper())

    def select_chunk(self, cand: Candidate) -> None:
        self.highlight(cand.chunk_id)

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
                if hit:
                    found.append(name)
        return found

    def _on_selected(self, name: str) -> None:
        rows = self.tables[name].selectionModel().selectedRows()
        if not rows:
            return
        self.chunk_selected.emit(self._cands[name][rows[0].row()])

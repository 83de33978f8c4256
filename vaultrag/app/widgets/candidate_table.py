"""One table of every candidate: a row per chunk, its 'note › heading' at full width, a column per ranked list."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, Qt, Signal
from PySide6.QtGui import QBrush, QColor, QFontMetrics, QKeyEvent, QPainter, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from vaultrag.app import access
from vaultrag.app.widgets.flags import WARNING_COLOUR, WARNING_SIGN, flag_warning
from vaultrag.app.words import locale, stage_note, stage_title, status_word, wording_tr
from vaultrag.core import wording
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.vocab import ContextStatus, StageName, StageStatus
from vaultrag.core.wording import score_text, shown_score

SEP = " › "
CELL_MARGINS = 6  # px the style keeps left and right of a cell's text
NUMBER_GAP = 10  # px between a list's rank (with its move) and its score in one cell
NUMBER_PADDING = 12  # px around a list's cell (the cell's margins)
IN_PROMPT_TEXT = QColor(25, 85, 150)  # a darker shade of the chart's in-the-prompt blue, readable as text
NAME_COLUMN = 0
MISSING = 1 << 30  # a list's rank for a chunk it does not have: last in that list's order
MARKS = ("boilerplate", "hub")  # the index's marks of a chunk, when the candidate carries them (0..1)
MARKED = 0.5  # a mark at least this strong is shown


def row_label(c: Candidate) -> str:
    """'Note title › last heading' (the heading tells apart the chunks of one note)."""
    title = c.note.rpartition("/")[2].removesuffix(".md")
    heads = [h for h in c.heading_path if h and h != title]
    return f"{title}{SEP}{heads[-1]}" if heads else title


def headings_of(note: str, heading_path: list[str]) -> list[str]:
    """A chunk's headings as a path shows them: the first left out only when it is the note's title (its file name)
    — a note whose H1 says something else, or that has none, keeps it (it was always left out)."""
    stem = note.rpartition("/")[2].removesuffix(".md")
    return [h for i, h in enumerate(heading_path) if h and not (i == 0 and h == stem)]


def full_path(c: Candidate) -> str:
    """The note's path › every heading: a row's tooltip."""
    return SEP.join([c.note, *headings_of(c.note, c.heading_path)])


def elide_label(text: str, fm: QFontMetrics, width: int) -> str:
    """'title › heading' in `width` px, each part elided in its middle (its start and its end stay readable): a
    part that fits in half the room is kept whole and the other gets the rest."""
    if fm.horizontalAdvance(text) <= width:
        return text
    title, sep, head = text.partition(SEP)
    mid = Qt.TextElideMode.ElideMiddle
    if not sep:
        return fm.elidedText(text, mid, width)
    room = width - fm.horizontalAdvance(sep)
    # +2: elidedText cuts a text given exactly its own advance (it measures with sub-pixel positions)
    head_w, title_w = fm.horizontalAdvance(head) + 2, fm.horizontalAdvance(title) + 2
    if head_w <= room // 2:
        title_w = room - head_w
    elif title_w <= room // 2:
        head_w = room - title_w
    else:
        title_w = head_w = room // 2
    return fm.elidedText(title, mid, title_w) + sep + fm.elidedText(head, mid, head_w)


def chunk_marks(c: Candidate) -> list[str]:
    """What the index marked in the chunk (boilerplate: text repeated across many notes; hub: mostly links), in
    words; none when the candidate carries no marks."""
    return [wording.feature(mark, wording_tr) for mark in MARKS if float(getattr(c, mark, 0.0) or 0.0) >= MARKED]


def local_score(v: float) -> str:
    """A list's score as its column shows it, with the window's decimal separator (0,303 in Portuguese) and a real
    minus (the rest of the window writes −0.42, not -0.42)."""
    return score_text(v).replace(".", locale().decimalPoint()).replace("-", "−")


def shown_chars(drawn: str) -> int:
    """How many characters of the text a drawn label shows (the ellipsis is none of them)."""
    return len(drawn.replace("…", ""))


def movement(rank: int, before: int | None) -> str:
    if before is None:
        return "new"
    if before == rank:
        return "="
    return f"↑{before - rank}" if before > rank else f"↓{rank - before}"


def ranks_before(trace: QueryTrace, name: StageName) -> dict[int, int] | None:
    """Each chunk's best rank in the lists that fed this stage (None for the first lists)."""
    inputs = [n for n in trace.stages[name].inputs if n in trace.stages]
    if not inputs:
        return None
    best: dict[int, int] = {}
    for source in inputs:
        for c in trace.stages[source].candidates:
            best[c.chunk_id] = min(best.get(c.chunk_id, c.rank), c.rank)
    return best


@dataclass
class Row:
    """A chunk across the lists: its candidate in each list that has it."""

    chunk_id: int
    by_stage: dict[StageName, Candidate] = field(default_factory=dict)
    final: bool = False  # in the final list (else only in earlier ones: greyed)

    @property
    def candidate(self) -> Candidate:
        """The chunk as the final list has it, else as the first list that has it."""
        return next(iter(self.by_stage.values()))


def rows_of(trace: QueryTrace) -> list[Row]:
    """A row per chunk: the final list's in its order, then the chunks only earlier lists had (by their best
    rank there)."""
    rows: dict[int, Row] = {}
    for c in trace.final:
        rows.setdefault(c.chunk_id, Row(c.chunk_id, final=True)).by_stage[trace.final_stage] = c
    for name, stage in trace.stages.items():
        for c in stage.candidates:
            rows.setdefault(c.chunk_id, Row(c.chunk_id)).by_stage.setdefault(name, c)
    final = [r for r in rows.values() if r.final]
    rest = sorted((r for r in rows.values() if not r.final), key=lambda r: min(c.rank for c in r.by_stage.values()))
    return final + rest


class NameDelegate(QStyledItemDelegate):
    """Draws 'note › heading' elided in the middle of each part, in the width its column has."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> None:
        super().initStyleOption(option, index)
        option.text = elide_label(option.text, option.fontMetrics, option.rect.width() - CELL_MARGINS)


class StageCellDelegate(QStyledItemDelegate):
    """A list's cell, 'rank move<TAB>score': the rank and its move on the left, the score right-aligned in a
    quieter colour."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex
              ) -> None:
        opt = QStyleOptionViewItem(option)
        self.initStyleOption(opt, index)
        left, _, right = opt.text.partition("\t")
        opt.text = ""
        widget = opt.widget
        style = widget.style() if widget is not None else None
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect: QRect = opt.rect.adjusted(CELL_MARGINS // 2, 0, -CELL_MARGINS // 2, 0)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        fg = index.data(Qt.ItemDataRole.ForegroundRole)
        colour = fg.color() if isinstance(fg, QBrush) and not selected else opt.palette.color(role)
        painter.save()
        painter.setPen(colour)
        align = Qt.AlignmentFlag.AlignVCenter
        painter.drawText(rect, align | Qt.AlignmentFlag.AlignLeft, left)
        if right:
            quiet = QColor(colour)
            quiet.setAlphaF(0.7)
            painter.setPen(quiet)
            painter.drawText(rect, align | Qt.AlignmentFlag.AlignRight, right)
        painter.restore()


class CandidateTable(QTableWidget):
    """Every candidate once: 'note › heading' (elided in the middle, the full path on hover), then a column per
    ranked list of the trace with the chunk's rank there, its move from the lists that fed it, and its score.
    In the final list's order; a click on a list's header sorts by that list (again: the other way round).
    Chunks only earlier lists had come last, greyed; the final list's chunks in the prompt are blue.

    Signals:
        chunk_selected: the Candidate of the row the user picked.
    """

    chunk_selected = Signal(object)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(0, 1, parent)
        self.setObjectName("candidate-table")
        self.rows: list[Row] = []
        self.names: tuple[StageName, ...] = ()
        self.sort_stage: StageName | None = None  # None: the name column
        self.sort_descending = False
        self._hidden: frozenset[StageName] = frozenset()
        self._trace: QueryTrace | None = None
        self._selected: int | None = None
        self.verticalHeader().hide()
        self.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 4)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAutoScroll(False)  # a picked row never scrolls the table: its top stays in view
        self.setWordWrap(False)
        self.setShowGrid(False)
        self.setAlternatingRowColors(True)
        self.setItemDelegateForColumn(NAME_COLUMN, NameDelegate(self))
        self._cells = StageCellDelegate(self)
        head = self.horizontalHeader()
        head.setMinimumSectionSize(20)
        head.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        head.setSectionsClickable(True)
        head.setSortIndicatorShown(True)
        head.sectionClicked.connect(self._on_header_clicked)
        self.itemSelectionChanged.connect(self._on_selected)
        self._set_columns(())

    # -- the columns ------------------------------------------------------------------------------------------
    def _set_columns(self, names: tuple[StageName, ...]) -> None:
        self.names = names
        self.setColumnCount(1 + len(names))
        head = self.horizontalHeader()
        title = QTableWidgetItem(self.tr("note › heading"))
        title.setToolTip(self.tr("Note title › last heading (hover a row for the full path). Blue: in the answer's "
                                 "prompt; grey: only in an earlier list; italics: mostly repeated text or links."))
        self.setHorizontalHeaderItem(NAME_COLUMN, title)
        head.setSectionResizeMode(NAME_COLUMN, QHeaderView.ResizeMode.Stretch)
        for i, name in enumerate(names, start=1):
            # two short lines ("Keywords" over "(BM25)"): the column is as wide as its numbers, not its title
            item = QTableWidgetItem(stage_title(name).replace(" (", "\n("))
            self.setHorizontalHeaderItem(i, item)
            head.setSectionResizeMode(i, QHeaderView.ResizeMode.Fixed)
            self.setItemDelegateForColumn(i, self._cells)
        self._show_columns()

    def column_of(self, name: StageName) -> int:
        return 1 + self.names.index(name)

    def hide_stages(self, names: frozenset[StageName]) -> None:
        """Hide these lists' columns (the retrieval lists, from the View menu): the name column takes the room."""
        self._hidden = names
        self._show_columns()
        if self.sort_stage is not None and self.sort_stage in names:  # no order by a column one cannot see
            self.sort_by(self._trace.final_stage if self._trace is not None else None)

    def _show_columns(self) -> None:
        for i, name in enumerate(self.names, start=1):
            self.setColumnHidden(i, name in self._hidden)

    # -- the rows -------------------------------------------------------------------------------------------
    def set_trace(self, trace: QueryTrace) -> None:
        self._trace = trace
        names = tuple(trace.stages)
        if names != self.names:
            self._set_columns(names)
        in_prompt = {cid for cid, st in trace.context_status.items()
                     if st in (ContextStatus.INCLUDED, ContextStatus.MERGED)}
        befores = {name: ranks_before(trace, name) for name in names}
        for i, (name, stage) in enumerate(trace.stages.items(), start=1):
            line2 = " · ".join(x for x in (status_word(stage.status), f"{stage.ms:.0f} ms" if stage.ms else "") if x)
            title = stage_title(name).replace(" (", "\n(")
            if stage.status == StageStatus.SKIPPED:
                title += f"\n({status_word(stage.status)})"
            head = QTableWidgetItem(title)
            head.setToolTip("\n".join(x for x in (stage_title(name), line2, stage_note(trace, stage)) if x))
            self.setHorizontalHeaderItem(i, head)
        self.rows = rows_of(trace)
        self.blockSignals(True)
        self.clearSelection()
        self.setRowCount(len(self.rows))
        grey = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        labels = [row_label(row.candidate) for row in self.rows]
        twice = {label for label in labels if labels.count(label) > 1}
        for r, row in enumerate(self.rows):
            c = row.candidate
            flags = trace.flagged.get(c.note)
            tip = full_path(c) + (("\n" + flag_warning(c.note, flags)) if flags else "")
            label = labels[r]
            if label in twice:  # chunks of one note under one heading: told apart by where they start
                label += " · " + self.tr("line {n}").format(n=c.line_start + 1)
            marks = chunk_marks(c)
            if marks:
                tip += "\n" + ", ".join(marks)
            cell = QTableWidgetItem(f"{WARNING_SIGN} {label}" if flags else label)
            cell.setToolTip(tip)
            if marks:  # mostly template or mostly links: in italics (no letter of the name lost to a sign)
                font = cell.font()
                font.setItalic(True)
                cell.setFont(font)
            cells = [cell]
            for stage_name in names:
                sc = row.by_stage.get(stage_name)
                before = befores[stage_name]
                if sc is None:  # its hover says what the dash means (it only showed the note's path)
                    missing = QTableWidgetItem("—")
                    listed = len(trace.stages[stage_name].candidates) if stage_name in trace.stages else 0
                    missing.setToolTip(self.tr("{stage}: not among its {n} candidates").format(
                        stage=stage_title(stage_name), n=listed))
                    cells.append(missing)
                    continue
                rank = str(sc.rank)
                if before is not None:
                    rank += " " + movement(sc.rank, before.get(sc.chunk_id)).replace("new", self.tr("new"))
                value = shown_score(trace.stages[stage_name], sc)
                score = local_score(value) if value is not None else "—"
                item = QTableWidgetItem(f"{rank}\t{score}")
                item.setToolTip(f"{stage_title(stage_name)}: #{sc.rank} · {score}")
                cells.append(item)
            colour = (QColor(WARNING_COLOUR) if flags else grey if not row.final
                      else IN_PROMPT_TEXT if row.chunk_id in in_prompt else None)
            colour = access.legible(colour, self) if colour is not None else None
            for col, item in enumerate(cells):
                item.setData(Qt.ItemDataRole.UserRole, row.chunk_id)
                if colour is not None:
                    item.setForeground(QBrush(colour))
                if col != NAME_COLUMN and not item.toolTip():
                    item.setToolTip(tip)
                self.setItem(r, col, item)
        self.sort_stage, self.sort_descending = trace.final_stage, False
        self._order()
        self._fit_columns()
        self.blockSignals(False)
        self.scrollToTop()

    def _fit_columns(self) -> None:
        """Each list's column just as wide as its widest rank, move and score (and its two-line title): every
        other pixel goes to 'note › heading'."""
        fm = self.fontMetrics()
        head = self.horizontalHeader()
        head_fm = head.fontMetrics()
        for col in range(1, self.columnCount()):
            texts = [item.text() for r in range(self.rowCount()) if (item := self.item(r, col)) is not None]
            lefts = [fm.horizontalAdvance(t.partition("\t")[0]) for t in texts] or [0]
            rights = [fm.horizontalAdvance(t.partition("\t")[2]) for t in texts] or [0]
            head_item = self.horizontalHeaderItem(col)
            title = head_item.text() if head_item is not None else ""
            width = max(max(lefts) + NUMBER_GAP + max(rights),
                        max(head_fm.horizontalAdvance(line) for line in title.split("\n")) + head_fm.height())
            head.resizeSection(col, width + NUMBER_PADDING)

    def clear_rows(self) -> None:
        self._trace = None
        self.rows = []
        self._selected = None
        self.setRowCount(0)

    # -- order ------------------------------------------------------------------------------------------------
    def _on_header_clicked(self, col: int) -> None:
        stage = None if col == NAME_COLUMN else self.names[col - 1]
        if stage == self.sort_stage and self.sort_descending is False and col != NAME_COLUMN:
            self.sort_descending = True
        elif col == NAME_COLUMN and self.sort_stage is None:
            self.sort_descending = not self.sort_descending
        else:
            self.sort_descending = False
        self.sort_stage = stage
        self.sort_by(stage, self.sort_descending)

    def sort_by(self, stage: StageName | None, descending: bool = False) -> None:
        """Rows in that list's order (None: by name); the chunks it lacks stay last either way."""
        self.sort_stage, self.sort_descending = stage, descending
        self.blockSignals(True)
        self._order()
        self.blockSignals(False)
        self.scrollToTop()

    def _order(self) -> None:
        stage, descending = self.sort_stage, self.sort_descending
        if stage is None:
            order = sorted(range(len(self.rows)), key=lambda i: row_label(self.rows[i].candidate).casefold(),
                           reverse=descending)
        else:
            def rank(i: int) -> int:
                c = self.rows[i].by_stage.get(stage)
                return c.rank if c is not None else MISSING
            present = [i for i in range(len(self.rows)) if rank(i) != MISSING]
            order = sorted(present, key=rank, reverse=descending) + [i for i in range(len(self.rows))
                                                                     if rank(i) == MISSING]
        items = [[self.takeItem(i, col) for col in range(self.columnCount())] for i in range(len(self.rows))]
        self.rows = [self.rows[i] for i in order]
        for r, i in enumerate(order):
            for col, item in enumerate(items[i]):
                self.setItem(r, col, item)
        col = NAME_COLUMN if stage is None else self.column_of(stage)
        self.horizontalHeader().setSortIndicator(
            col, Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder)
        if self._selected is not None:
            self.select_chunk(self._selected)

    # -- selection -----------------------------------------------------------------------------------------------
    def row_of(self, chunk_id: int) -> int | None:
        return next((r for r, row in enumerate(self.rows) if row.chunk_id == chunk_id), None)

    def select_chunk(self, chunk_id: int) -> None:
        """Select the chunk's row (picked elsewhere) without scrolling: the table's top stays in view."""
        self._selected = chunk_id
        r = self.row_of(chunk_id)
        self.blockSignals(True)
        self.clearSelection()
        if r is not None:
            bar = self.verticalScrollBar().value()
            self.selectRow(r)
            self.verticalScrollBar().setValue(bar)
        self.blockSignals(False)
        self.viewport().update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        """↑/↓ in the table itself walk its rows and the view follows them (a pick from elsewhere never scrolls)."""
        super().keyPressEvent(event)
        if self.currentIndex().isValid():
            self.scrollTo(self.currentIndex())

    def _on_selected(self) -> None:
        rows = self.selectionModel().selectedRows()
        if not rows:
            return
        row = self.rows[rows[0].row()]
        self._selected = row.chunk_id
        self.chunk_selected.emit(row.candidate)

    def drawn_names(self) -> list[tuple[str, str]]:
        """(full text, text as drawn) of 'note › heading' in each row visible in the viewport."""
        out: list[tuple[str, str]] = []
        top = self.rowAt(0)
        if top < 0:
            return out
        for r in range(top, self.rowCount()):
            rect = self.visualRect(self.model().index(r, NAME_COLUMN))
            if rect.top() >= self.viewport().height():
                break
            out.append(drawn_text(self, r, NAME_COLUMN))
        return out


def drawn_text(view: Any, row: int, col: int) -> tuple[str, str]:
    """(the item's text, the text its delegate draws in the width the cell has)."""
    index = view.model().index(row, col)
    option = QStyleOptionViewItem()
    option.initFrom(view.viewport())
    option.rect = view.visualRect(index)
    view.itemDelegateForColumn(col).initStyleOption(option, index)
    return str(index.data()), option.text

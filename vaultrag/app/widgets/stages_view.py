"""The candidates pane: one table of every candidate (or, from the View menu, one list per stage side by side),
and the selected chunk explained: its parts as bars and why it sits below the row above, in words."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import QRect, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QActionGroup,
    QBrush,
    QColor,
    QFontMetrics,
    QKeySequence,
    QPainter,
    QPalette,
    QResizeEvent,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QScrollArea,
    QSizePolicy,
    QStackedWidget,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app import access
from vaultrag.app.widgets.candidate_table import (
    CandidateTable,
    full_path,
    local_score,
    movement,
    ranks_before,
    row_label,
)
from vaultrag.app.widgets.contribution_bars import LISTS_BARS, MAX_BARS, ContributionBars
from vaultrag.app.widgets.flags import WARNING_COLOUR, WARNING_SIGN, flag_warning
from vaultrag.app.widgets.rewrite_bar import RewriteBar
from vaultrag.app.words import local, stage_note, stage_title, status_word, wording_tr
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.query.contracts import ranked_lists, retrieval_lists
from vaultrag.core.query.search import PIPELINE
from vaultrag.core.vocab import ContextStatus, StageName, StageStatus
from vaultrag.core.wording import language_name, rank_gap, shown_score

__all__ = ["StagesView", "movement", "row_label", "two_lines"]  # row_label, movement: candidate_table's

HIGHLIGHT = QColor(255, 214, 102)
IN_PROMPT_TEXT = QColor(25, 85, 150)  # a darker shade of the chart's in-the-prompt blue, readable as text
# the columns before the first question: the ranked lists of the shipped pipeline; a trace brings its own
SHIPPED_LISTS = ranked_lists(PIPELINE)
# the retrieval lists (the first ones, fed by no other): what a user may hide to give the later ones room
SHIPPED_FIRST = retrieval_lists(PIPELINE)
CELL_MARGINS = 6  # px the style keeps left and right of a cell's text
NUMBER_PADDING = 8  # px around a rank or a score (the cell's margins)
DETAILS_SHARE = 0.4  # of the candidates pane's height, at most, for the words that explain the selected row
TABLE_ROWS = 8  # the candidate table keeps this many rows in view: the explanation's bars give way first
MIN_BARS = 3  # the fewest bars the explanation shows (the words beside them name the rest)


WHERE_ROLE = Qt.ItemDataRole.UserRole + 1  # a list row's "line N" (its place in the note, for heading-less rows)
LINE_GAP = 8  # px between a list row's rank, its note title and its score on their shared line


def two_lines(label: str, rank: str, score: str, fm: QFontMetrics, width: int, where: str = "") -> tuple[str, str]:
    """A side-by-side list's row in `width` px: (the note title left between its rank and score, the last heading
    below on a line of its own). Four lists side by side leave each ~180 px: on one line with the rank and score
    a name kept 8-17 letters; a heading with the whole width keeps ~28, its title ~15 more. A row without a
    heading has its title below instead, and `where` (its line in the note: what tells one note's chunks apart)
    above."""
    title, sep, head = label.partition(" › ")
    below = head if sep else title
    room = width - fm.horizontalAdvance(rank) - fm.horizontalAdvance(score) - 2 * LINE_GAP
    above = fm.elidedText(title if sep else where, Qt.TextElideMode.ElideRight, room + 2).replace(" …", "…") \
        if room > 0 else ""
    # +2: elidedText cuts a text given exactly its own advance (it measures with sub-pixel positions)
    # the heading cut in its middle: sibling sections often share their first words ("Sincronizar seu cofre pelo
    # seletor" / "… pelas configurações"), rarely their last
    return above, fm.elidedText(below, Qt.TextElideMode.ElideMiddle, width + 2)


class ListRowDelegate(QStyledItemDelegate):
    """Draws a side-by-side list's row on two lines: its rank, note title and score, then its last heading, each
    with the column's whole width (the rank and score columns are hidden; their items still hold the texts). The
    full path is the row's tooltip. `initStyleOption` gives the drawn name as the option's text, as the other
    delegates do (what the screenshots measure)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Any) -> None:
        super().initStyleOption(option, index)
        above, below = self._lines(option, index)
        option.text = f"{above} › {below}" if above and " › " in str(index.data() or "") else below

    def _lines(self, option: QStyleOptionViewItem, index: Any) -> tuple[str, str]:
        rank, score = str(index.siblingAtColumn(0).data() or ""), str(index.siblingAtColumn(1).data() or "")
        return two_lines(str(index.data() or ""), rank, score, option.fontMetrics, option.rect.width() - CELL_MARGINS,
                         str(index.data(WHERE_ROLE) or ""))

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Any) -> None:
        opt = QStyleOptionViewItem(option)
        super().initStyleOption(opt, index)
        above, below = self._lines(opt, index)
        opt.text = ""
        widget = opt.widget
        if widget is not None:
            widget.style().drawControl(QStyle.ControlElement.CE_ItemViewItem, opt, painter, widget)
        rect = opt.rect.adjusted(CELL_MARGINS // 2, 1, -CELL_MARGINS // 2, -1)
        line = opt.fontMetrics.height()
        top, bottom = QRect(rect.left(), rect.top(), rect.width(), line), \
            QRect(rect.left(), rect.top() + line, rect.width(), line)
        selected = bool(opt.state & QStyle.StateFlag.State_Selected)
        fg = index.data(Qt.ItemDataRole.ForegroundRole)
        role = QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text
        colour = fg.color() if isinstance(fg, QBrush) and not selected else opt.palette.color(role)
        quiet = QColor(colour)
        quiet.setAlphaF(0.7)
        rank, score = str(index.siblingAtColumn(0).data() or ""), str(index.siblingAtColumn(1).data() or "")
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.save()
        painter.setPen(colour)
        painter.drawText(top, left, rank)
        painter.drawText(bottom, left, below)  # the heading: what tells one note's chunks apart
        painter.setPen(quiet)
        painter.drawText(top, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, score)
        if above:
            painter.drawText(top.adjusted(opt.fontMetrics.horizontalAdvance(rank) + LINE_GAP, 0, 0, 0), left, above)
        painter.restore()


class StagesView(QWidget):
    """The candidates pane. By default one CandidateTable (a row per chunk, a column per ranked list); from the
    View menu the lists side by side instead (one table per ranked list in pipeline order: rank with its move
    from the lists that fed it, score, note › heading). Below, the selected chunk: its rank in every list, its
    score's parts as bars against the row above's, and why it sits below that row, in words.

    Selecting never scrolls a table: the lists show the selection's rank in their headers instead.

    Signals:
        chunk_selected: the Candidate picked in the table or in any list.
    """

    chunk_selected = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[StageName, QTableWidget] = {}
        self.headers: dict[StageName, QLabel] = {}
        self.skipped: dict[StageName, QLabel] = {}
        self._stacks: dict[StageName, QStackedWidget] = {}
        self._columns: dict[StageName, QWidget] = {}
        self._cands: dict[StageName, list[Candidate]] = {}
        self._trace: QueryTrace | None = None
        self._names: tuple[StageName, ...] = ()
        self._first: frozenset[StageName] = SHIPPED_FIRST
        self._first_shown = True
        self._selected: int | None = None
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self.rewrite = RewriteBar()  # the `rewrite` stage: shown above the others when a follow-up was rewritten
        outer.addWidget(self.rewrite)
        self.table = CandidateTable()
        self.table.chunk_selected.connect(self.chunk_selected.emit)
        self.views = QStackedWidget()  # page 0: the one table; page 1: the lists side by side
        self.views.addWidget(self.table)
        self._lists = QWidget()
        self.views.addWidget(self._lists)
        outer.addWidget(self.views, 1)
        self._build(SHIPPED_LISTS)
        explained = QHBoxLayout()
        explained.setContentsMargins(0, 0, 0, 0)
        self.bars = ContributionBars()
        self.bars.hide()
        self.details = QLabel(self.tr("Select a row: its scores and why it moved appear here."))
        self.details.setObjectName("candidate-details")
        self.details.setWordWrap(True)
        self.details.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.details.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # the words scroll past DETAILS_SHARE of the pane's height: at 1024×700 they took the candidate table's rows
        self.details_box = QScrollArea()
        self.details_box.setObjectName("candidate-details-box")
        self.details_box.setWidgetResizable(True)
        self.details_box.setFrameShape(QFrame.Shape.NoFrame)
        self.details_box.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.details_box.setWidget(self.details)
        explained.addWidget(self.details_box, 1)
        explained.addWidget(self.bars, 1)
        outer.addLayout(explained)

    # -- the side-by-side lists ------------------------------------------------------------------------------
    def _build(self, names: tuple[StageName, ...]) -> None:
        """One column per ranked list in `names` (a trace from another pipeline brings other lists)."""
        side_by_side = self.lists_shown()
        old = self._lists
        self._lists = QWidget()
        self.views.removeWidget(old)
        self.views.insertWidget(1, self._lists)
        self.views.setCurrentIndex(1 if side_by_side else 0)
        old.deleteLater()
        for d in (self.tables, self.headers, self.skipped, self._stacks, self._cands, self._columns):
            d.clear()
        self._names = names
        row = QHBoxLayout(self._lists)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        self._row = row
        for name in names:
            column = QWidget()
            col = QVBoxLayout(column)
            col.setContentsMargins(0, 0, 0, 0)
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
            row.addWidget(column, 3)
            self.tables[name], self.headers[name], self.skipped[name], self._stacks[name] = table, label, note, stack
            self._columns[name] = column
            self._cands[name] = []
        self.show_first_stages(self._first_shown)

    def _make_table(self, name: StageName) -> QTableWidget:
        table = QTableWidget(0, 3)
        table.setObjectName(f"stage-{name}")
        access.name(table, self.tr("{stage} list").format(stage=stage_title(name)),
                    self.tr("This stage's candidates with their rank and score; the arrows pick one"))
        access.one_tab_stop(table)
        # short headers: the rank and score columns are as wide as their numbers, the rest is the note › heading's
        table.setHorizontalHeaderLabels([self.tr("#"), self.tr("score", "short column header"),
                                         self.tr("note › heading")])
        for col, tip in enumerate((self.tr("Rank in this list, and its move from the lists before (↑ up, ↓ down)"),
                                   self.tr("This list's score"),
                                   self.tr("Rank and its move, note title and score; below, the last heading "
                                           "(hover a row for the full path)"))):
            table.model().setHeaderData(col, Qt.Orientation.Horizontal, tip, Qt.ItemDataRole.ToolTipRole)
        table.verticalHeader().hide()
        # two lines a row (ListRowDelegate): rank, title and score above, the heading below
        table.verticalHeader().setDefaultSectionSize(2 * table.fontMetrics().height() + 4)
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)  # rank and score never scroll away
        table.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        table.setItemDelegateForColumn(2, ListRowDelegate(table))
        table.setAutoScroll(False)  # a picked row never scrolls its list: the list's top stays in view
        table.setWordWrap(False)
        table.setShowGrid(False)  # the rows alternate colours instead: the grid's pixels go to the text
        table.setAlternatingRowColors(True)
        table.setMinimumWidth(120)
        head = table.horizontalHeader()
        head.setMinimumSectionSize(20)
        head.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)  # cut at the end only
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)  # sized to the numbers in set_trace
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        table.setColumnHidden(0, True)  # drawn in the name column's rows (ListRowDelegate): the name gets the width
        table.setColumnHidden(1, True)
        table.itemSelectionChanged.connect(lambda n=name: self._on_selected(n))
        return table

    def set_trace(self, trace: QueryTrace) -> None:
        self._trace = trace
        self._selected = None
        self.rewrite.set_trace(trace)
        self.table.set_trace(trace)
        in_prompt = {cid for cid, st in trace.context_status.items()
                     if st in (ContextStatus.INCLUDED, ContextStatus.MERGED)}
        names = tuple(trace.stages)
        self._first = frozenset(n for n, s in trace.stages.items() if not s.inputs)
        if names != self._names:
            self._build(names)
        self._fill_sort()  # the lists and which one is final
        for name, stage in trace.stages.items():
            table = self.tables[name]
            self._cands[name] = stage.candidates
            self._set_header(name)
            self.headers[name].setToolTip(stage_note(trace, stage))
            skipped = stage.status == StageStatus.SKIPPED
            self._stacks[name].setCurrentIndex(1 if skipped else 0)
            self.skipped[name].setText(f"<i>{escape(stage_note(trace, stage))}</i>" if skipped else "")
            before = ranks_before(trace, name)
            table.blockSignals(True)
            table.clearSelection()
            table.setRowCount(len(stage.candidates))
            for r, c in enumerate(stage.candidates):
                rank = str(c.rank)
                if before is not None:
                    # a thin space: in four lists side by side each pixel is a letter of the heading
                    rank += "\u2009" + movement(c.rank, before.get(c.chunk_id)).replace("new", self.tr("new"))
                tip = full_path(c)
                flags = trace.flagged.get(c.note)
                label = f"{WARNING_SIGN} {row_label(c)}" if flags else row_label(c)
                if flags:
                    tip += "\n" + flag_warning(c.note, flags)
                if c.via:  # only the question's translation found it in this list
                    label = f"⇄ {label}"
                    tip += "\n" + self.tr("Found only through the question's translation into {language}.").format(
                        language=language_name(c.via, wording_tr))
                value = shown_score(trace.stages[name], c)
                score = local_score(value) if value is not None else "—"
                for col, text in enumerate((rank, score, label)):
                    item = QTableWidgetItem(text)
                    item.setData(Qt.ItemDataRole.UserRole, c.chunk_id)
                    item.setToolTip(tip)
                    if col == 2:
                        item.setData(WHERE_ROLE, self.tr("line {n}").format(n=c.line_start + 1))
                    if col < 2:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    if c.chunk_id in in_prompt and name == trace.final_stage:
                        # in the prompt: blue like the chart's bars (bold would cost the heading its letters)
                        item.setForeground(QBrush(access.legible(IN_PROMPT_TEXT, table)))
                    if flags:  # the warning's colour wins over the prompt's blue: it is what must be seen
                        item.setForeground(QBrush(QColor(WARNING_COLOUR)))
                    table.setItem(r, col, item)
            table.horizontalScrollBar().setValue(0)
            table.scrollToTop()
            table.blockSignals(False)
        self._fit_columns()

    def _set_header(self, name: StageName) -> None:
        """A list's title, then its status and time, and the selected chunk's rank in it (shown in place: the list
        is never scrolled to it)."""
        t = self._trace
        stage = t.stages.get(name) if t is not None else None
        bits = [status_word(stage.status), f"{stage.ms:.0f} ms" if stage.ms else ""] if stage is not None else []
        if self._selected is not None and stage is not None:
            rank = next((c.rank for c in stage.candidates if c.chunk_id == self._selected), None)
            bits.append(self.tr("selected: #{rank}").format(rank=rank) if rank is not None
                        else self.tr("selected: not in this list"))
        line2 = " · ".join(b for b in bits if b) or " "
        self.headers[name].setText(f"<b>{stage_title(name)}</b><br><small>{line2}</small>")

    def _fit_columns(self) -> None:
        """The shown lists share the width; a skipped one keeps a narrow column for its reason and a hidden one
        none (its stretch would otherwise hold its share of the width empty)."""
        t = self._trace
        for i, name in enumerate(self._names):
            skipped = t is not None and name in t.stages and t.stages[name].status == StageStatus.SKIPPED
            shown = self._first_shown or name not in self._first
            self._row.setStretch(i, 0 if not shown else 1 if skipped else 3)

    # -- what the View menu changes ----------------------------------------------------------------------------
    def show_first_stages(self, visible: bool) -> None:
        """Show or hide the retrieval lists (keywords, vectors, …: the lists no other list fed), as columns of the
        table and as lists side by side: hidden, the others get their width (a row's move still says where it
        came from)."""
        self._first_shown = visible
        for name in self._first & set(self._names):
            self._columns[name].setVisible(visible)
        self._fit_columns()
        self.table.hide_stages(frozenset() if visible else self._first)

    def first_stages_shown(self) -> bool:
        return self._first_shown

    def show_lists(self, side_by_side: bool) -> None:
        """The lists side by side (one table per stage) instead of the one candidate table."""
        self.views.setCurrentIndex(1 if side_by_side else 0)
        self.bars.max_bars = LISTS_BARS if side_by_side else MAX_BARS
        if self._selected is not None:
            self._show_parts(self._selected)

    def lists_shown(self) -> bool:
        return self.views.currentIndex() == 1

    def view_actions(self) -> list[QAction]:
        """The View menu's items of this pane: the keyword and vector lists shown or hidden, and the lists side by
        side instead of the one table (the window keeps both in its settings by their object names)."""
        first = QAction(self.tr("&Keyword and vector lists"), self)
        first.setObjectName("view-retrieval-lists")
        first.setShortcut(QKeySequence("Ctrl+Shift+L"))
        first.setCheckable(True)
        first.setChecked(self.first_stages_shown())
        first.toggled.connect(self.show_first_stages)
        side = QAction(self.tr("Candidates as side-by-side lis&ts"), self)
        side.setObjectName("view-side-by-side")
        side.setShortcut(QKeySequence("Ctrl+Shift+T"))
        side.setCheckable(True)
        side.setChecked(self.lists_shown())
        side.toggled.connect(self.show_lists)
        return [first, side, self.sort_menu().menuAction()]

    def sort_menu(self) -> QMenu:
        """View › Sort candidates by: one entry per list, the final order first, each with a key (Ctrl+Alt+0 the
        final order, then Ctrl+Alt+1… in the lists' order): the header clicks' keyboard way."""
        self._sort = QMenu(self.tr("&Sort candidates by"), self)
        self._sort.setObjectName("view-sort-by")
        self._sort.aboutToShow.connect(self._check_sort)
        self._fill_sort()
        return self._sort

    def _fill_sort(self) -> None:
        menu = getattr(self, "_sort", None)
        if menu is None:
            return
        menu.clear()
        group = QActionGroup(menu)
        group.setExclusionPolicy(QActionGroup.ExclusionPolicy.ExclusiveOptional)
        names = list(self._names)
        final = self._trace.final_stage if self._trace is not None and self._trace.final_stage in names \
            else names[-1]
        for n, name in enumerate([final, *(x for x in names if x != final)]):
            text = self.tr("Final order ({list})").format(list=stage_title(name)) if n == 0 else stage_title(name)
            act = QAction(text.replace("\n", " "), menu)
            act.setObjectName(f"sort-by-{name}")
            act.setShortcut(QKeySequence(f"Ctrl+Alt+{n}"))
            act.setCheckable(True)
            act.setActionGroup(group)
            act.triggered.connect(lambda _checked=False, s=name: self.sort_candidates(s))
            menu.addAction(act)
        self._check_sort()

    def _check_sort(self) -> None:
        for act in self._sort.actions():
            act.setChecked(act.objectName() == f"sort-by-{self.table.sort_stage}")

    def sort_candidates(self, name: StageName) -> None:
        """The table in that list's order (the retrieval lists shown if hidden: no order by an unseen column)."""
        if name in self._first and not self.first_stages_shown():
            self.show_first_stages(True)
        self.table.sort_by(name)

    # -- the selected chunk ---------------------------------------------------------------------------------------
    def clear(self) -> None:
        self._trace = None
        self._selected = None
        self.rewrite.clear()
        self.table.clear_rows()
        for name, table in self.tables.items():
            table.setRowCount(0)
            self._cands[name] = []
            self._stacks[name].setCurrentIndex(0)
            self.headers[name].setText(f"<b>{stage_title(name)}</b><br><small> </small>")
        self.bars.set_parts(None, None, None)
        self.details.setText(self.tr("Select a row: its scores and why it moved appear here."))
        self._fit_details()

    def select_chunk(self, cand: Candidate) -> None:
        self.table.select_chunk(cand.chunk_id)
        self.highlight(cand.chunk_id)
        self.details.setText(self.explain(cand.chunk_id))
        self._fit_details()
        self._show_parts(cand.chunk_id)

    def _fit_details(self) -> None:
        """The words as tall as they need, up to what the table's rows leave (then they scroll; they were cut
        mid-line with no scroll bar)."""
        box = self.details_box
        width = max(1, box.viewport().width() - (box.verticalScrollBar().sizeHint().width()
                                                 if box.verticalScrollBar().isVisible() else 0))
        want = self.details.heightForWidth(width)
        lines = self.details.fontMetrics().height()
        # the room the table's TABLE_ROWS rows leave (as the bars get), never under three lines (then it scrolls)
        cap = max(3 * lines, min(self._bars_room(), int(self.height() * DETAILS_SHARE)))
        box.setFixedHeight(max(lines, min(want, cap)) + 2)

    def _compared(self, chunk_id: int) -> tuple[Candidate, Candidate | None] | None:
        """The chunk in the final list and the row it is compared with: the one above it (the first row: the one
        below)."""
        t = self._trace
        if t is None:
            return None
        final = t.final
        i = next((i for i, c in enumerate(final) if c.chunk_id == chunk_id), None)
        if i is None:
            return None
        j = i - 1 if i > 0 else 1
        return final[i], final[j] if 0 <= j < len(final) else None

    def _show_parts(self, chunk_id: int) -> None:
        pair = self._compared(chunk_id)
        if pair is None or not pair[0].contributions:
            self.bars.set_parts(None, None, None)
            return
        mine, other = pair
        self.bars.max_bars = LISTS_BARS if self.lists_shown() else MAX_BARS
        while True:
            self.bars.set_parts(mine.contributions, other.contributions if other is not None else None,
                                other.rank if other is not None else None)
            # fewer bars while they would leave the table less than TABLE_ROWS rows (a follow-up's rewrite above it,
            # a short window): the words beside them still say the whole gap
            if self.bars.max_bars <= MIN_BARS or self.lists_shown() or self.bars.minimumHeight() <= self._bars_room():
                break
            self.bars.max_bars -= 1

    def _bars_room(self) -> int:
        """The height the bars may take so that the candidate table keeps TABLE_ROWS rows in view."""
        table = self.table
        taken = (self.rewrite.sizeHint().height() + 2 if not self.rewrite.isHidden() else 0) \
            + table.horizontalHeader().height() + 2 * table.frameWidth() + 12
        return self.height() - taken - TABLE_ROWS * table.verticalHeader().defaultSectionSize()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_details()
        if self._selected is not None and not self.lists_shown():
            self._show_parts(self._selected)

    def gap_words(self, chunk_id: int) -> str:
        """Why the chunk sits below the row above it in the final list (the first row: above the second), from
        the parts of their scores, in words."""
        pair = self._compared(chunk_id)
        if pair is None:
            return ""
        mine, other = pair
        if other is None or not mine.contributions or not other.contributions:
            return ""
        return rank_gap(mine.rank, other.rank, mine.contributions, other.contributions, wording_tr)

    def explain(self, chunk_id: int) -> str:
        """The chunk's path, its confidence, why it is not one row higher, its flags."""
        t = self._trace
        if t is None:
            return ""
        # its rank and score in each list are on its row (and in each list's header): not said again here
        found = next((c for s in t.stages.values() for c in s.candidates if c.chunk_id == chunk_id), None)
        if found is None:
            return ""
        note = found.note
        parts: list[str] = []
        final = next((c for c in t.final if c.chunk_id == chunk_id), None)
        if final is not None and final.cosine is not None:
            parts.append(local(self.tr("cosine {c:.3f}")).format(c=final.cosine))
            conf = t.decision.confidence_of(final.cosine, final.chunk_id)
            if conf is not None:
                parts.append(local(self.tr("confidence {c:.3f}")).format(c=conf))
        rank = f"#{final.rank} · " if final is not None else ""
        lines = [" · ".join([f"<b>{rank}{escape(full_path(found))}</b>", *parts])]
        gap = self.gap_words(chunk_id)
        if gap:
            pair = self._compared(chunk_id)
            other = pair[1] if pair is not None else None
            key = self.tr("(dashed bars: #{rank})").format(rank=other.rank) if other is not None else ""
            lines.append(f"{escape(gap)} <span style='color:#5a5a5a'>{escape(key)}</span>")
        elif final is None:
            lines.append(escape(self.tr("Only in the earlier lists: the final list left it out.")))
        flags = t.flagged.get(note)
        if flags:
            lines.append(f"<span style='color:{WARNING_COLOUR}'>{WARNING_SIGN} {escape(flag_warning(note, flags))}"
                         "</span>")
        return "<br>".join(lines)

    def highlight(self, chunk_id: int) -> list[StageName]:
        """Colour the rows of `chunk_id` in every list and say its rank in each list's header (no list scrolls:
        its top stays in view); returns the stages where it appears."""
        self._selected = chunk_id
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
            if self._trace is not None and name in self._trace.stages:
                self._set_header(name)
        return found

    def _on_selected(self, name: StageName) -> None:
        rows = self.tables[name].selectionModel().selectedRows()
        if not rows:
            return
        self.chunk_selected.emit(self._cands[name][rows[0].row()])

"""The candidates of every stage in parallel columns; selecting a chunk highlights it everywhere and explains it."""

from __future__ import annotations

from html import escape
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QAction, QBrush, QColor, QFontMetrics, QKeySequence
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
from vaultrag.app.words import feature_name, stage_note, stage_title, status_word
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.query.contracts import ranked_lists, retrieval_lists
from vaultrag.core.query.search import PIPELINE
from vaultrag.core.vocab import ContextStatus, StageName, StageStatus
from vaultrag.core.wording import score_text

HIGHLIGHT = QColor(255, 214, 102)
IN_PROMPT_TEXT = QColor(25, 85, 150)  # a darker shade of the chart's in-the-prompt blue, readable as text
# the columns before the first question: the ranked lists of the shipped pipeline; a trace brings its own
SHIPPED_LISTS = ranked_lists(PIPELINE)
# the retrieval lists (the first ones, fed by no other): what a user may hide to give the later ones room
SHIPPED_FIRST = retrieval_lists(PIPELINE)
CELL_MARGINS = 6  # px the style keeps left and right of a cell's text
NUMBER_PADDING = 8  # px around a rank or a score (the cell's margins)
NARROW_SEP = "\u2009›\u2009"  # thin spaces: a squeezed row gives the heading every pixel it can
MIN_TITLE_CHARS = 2  # a squeezed row keeps at least this much of the note title
HEADING_CHARS = 10  # and this much of its last heading before the title is cut


def row_label(c: Candidate) -> str:
    """'Note title › last heading' (the heading tells apart the chunks of one note)."""
    title = c.note.rpartition("/")[2].removesuffix(".md")
    heads = [h for h in c.heading_path if h and h != title]
    return f"{title} › {heads[-1]}" if heads else title


def fit_label(text: str, fm: QFontMetrics, width: int) -> str:
    """'title › heading' in `width` px: the heading first shrinks to its first HEADING_CHARS letters, then the title
    (down to MIN_TITLE_CHARS), then the heading again; the full path is the row's tooltip."""
    if fm.horizontalAdvance(text) <= width:
        return text
    title, sep, head = text.partition(" › ")
    if not sep:
        return fm.elidedText(text, Qt.TextElideMode.ElideMiddle, width)
    sep = NARROW_SEP
    room = width - fm.horizontalAdvance(sep)
    least = fm.horizontalAdvance(title[:MIN_TITLE_CHARS] + "…") + 1  # the least a title keeps
    # the heading keeps HEADING_CHARS letters before the title gives up any: both name the row, the heading
    # tells one note's chunks apart; beyond that the title has the room (a stub title names no note)
    head_need = fm.horizontalAdvance(head[:HEADING_CHARS] + "…") + 2
    title_w = min(fm.horizontalAdvance(title) + 2, max(least, room - head_need))
    # +2: elidedText cuts a text given exactly its own advance (it measures with sub-pixel positions)
    head_w = min(fm.horizontalAdvance(head) + 2, room - title_w)
    return (fm.elidedText(title, Qt.TextElideMode.ElideRight, room - head_w).replace(" …", "…") + sep
            + fm.elidedText(head, Qt.TextElideMode.ElideRight, head_w).replace(" …", "…"))


class RowLabelDelegate(QStyledItemDelegate):
    """Draws the 'note › heading' column with fit_label (the full path is the item's tooltip)."""

    def initStyleOption(self, option: QStyleOptionViewItem, index: Any) -> None:
        super().initStyleOption(option, index)
        option.text = fit_label(option.text, option.fontMetrics, option.rect.width() - CELL_MARGINS)


def movement(rank: int, before: int | None) -> str:
    if before is None:
        return "new"
    if before == rank:
        return "="
    return f"↑{before - rank}" if before > rank else f"↓{rank - before}"


class StagesView(QWidget):
    """One table per ranked list of the trace, in pipeline order (rank with its movement from the lists that fed
    it, score, note › heading), and the selected chunk's details.

    Signals:
        chunk_selected: the Candidate picked in any column.
    """

    chunk_selected = Signal(object)

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[StageName, QTableWidget] = {}
        self.headers: dict[StageName, QLabel] = {}
        self.skipped: dict[StageName, QLabel] = {}
        self._stacks: dict[StageName, QStackedWidget] = {}
        self._cands: dict[StageName, list[Candidate]] = {}
        self._trace: QueryTrace | None = None
        self._names: tuple[StageName, ...] = ()
        self._first: frozenset[StageName] = SHIPPED_FIRST
        self._first_shown = True
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(2)
        self._outer = outer
        self.rewrite = RewriteBar()  # the `rewrite` stage: shown above the others when a follow-up was rewritten
        outer.addWidget(self.rewrite)
        self._lists = QWidget()
        outer.addWidget(self._lists, 1)
        self._build(SHIPPED_LISTS)
        self.details = QLabel(self.tr("Select a row: its scores and why it moved appear here."))
        self.details.setObjectName("candidate-details")
        self.details.setWordWrap(True)
        self.details.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.details.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        outer.addWidget(self.details)

    def _build(self, names: tuple[StageName, ...]) -> None:
        """One column per ranked list in `names` (a trace from another pipeline brings other lists)."""
        old = self._lists
        self._lists = QWidget()
        self._outer.replaceWidget(old, self._lists)
        old.deleteLater()
        for d in (self.tables, self.headers, self.skipped, self._stacks, self._cands):
            d.clear()
        self._names = names
        row = QHBoxLayout(self._lists)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(4)
        self._row = row
        for name in names:
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
            self._cands[name] = []
        self.show_first_stages(self._first_shown)
        self._lists.show()  # at once: a widget a layout takes in while its window shows would appear a turn later

    def _make_table(self, name: StageName) -> QTableWidget:
        table = QTableWidget(0, 3)
        table.setObjectName(f"stage-{name}")
        # short headers: the rank and score columns are as wide as their numbers, the rest is the note › heading's
        table.setHorizontalHeaderLabels([self.tr("#"), self.tr("score", "short column header"),
                                         self.tr("note › heading")])
        for col, tip in enumerate((self.tr("Rank in this list, and its move from the lists before (↑ up, ↓ down)"),
                                   self.tr("This list's score"),
                                   self.tr("Note title › last heading (hover a row for the full path)"))):
            table.model().setHeaderData(col, Qt.Orientation.Horizontal, tip, Qt.ItemDataRole.ToolTipRole)
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
        table.setShowGrid(False)  # the rows alternate colours instead: the grid's pixels go to the text
        table.setAlternatingRowColors(True)
        table.setMinimumWidth(120)
        head = table.horizontalHeader()
        head.setMinimumSectionSize(20)
        head.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)  # cut at the end only
        head.setSectionResizeMode(0, QHeaderView.ResizeMode.Fixed)  # sized to the numbers in set_trace
        head.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        head.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        table.itemSelectionChanged.connect(lambda n=name: self._on_selected(n))
        return table

    def set_trace(self, trace: QueryTrace) -> None:
        self._trace = trace
        self.rewrite.set_trace(trace)
        in_prompt = {cid for cid, st in trace.context_status.items()
                     if st in (ContextStatus.INCLUDED, ContextStatus.MERGED)}
        names = tuple(trace.stages)
        self._first = frozenset(n for n, s in trace.stages.items() if not s.inputs)
        if names != self._names:
            self._build(names)
        for i, (name, stage) in enumerate(trace.stages.items()):
            table = self.tables[name]
            self._cands[name] = stage.candidates
            timing = f"{stage.ms:.0f} ms" if stage.ms else ""
            line2 = " · ".join(x for x in (status_word(stage.status), timing) if x)
            self.headers[name].setText(f"<b>{stage_title(name)}</b><br><small>{line2}</small>")
            self.headers[name].setToolTip(stage_note(trace, stage))
            skipped = stage.status == StageStatus.SKIPPED
            self._stacks[name].setCurrentIndex(1 if skipped else 0)
            # a skipped stage gives its width to the tables that have rows (it keeps a narrow column for its reason)
            self._row.setStretch(i, 1 if skipped else 3)
            self.skipped[name].setText(f"<i>{escape(stage_note(trace, stage))}</i>" if skipped else "")
            before = self._ranks_before(trace, name)
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
                    if col < 2:
                        item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                    if c.chunk_id in in_prompt and name == trace.final_stage:
                        # in the prompt: blue like the chart's bars (bold would cost the heading its letters)
                        item.setForeground(QBrush(IN_PROMPT_TEXT))
                    if flags:  # the warning's colour wins over the prompt's blue: it is what must be seen
                        item.setForeground(QBrush(QColor(WARNING_COLOUR)))
                    table.setItem(r, col, item)
            self._fit_number_columns(table)
            table.horizontalScrollBar().setValue(0)
            table.blockSignals(False)

    @staticmethod
    def _fit_number_columns(table: QTableWidget) -> None:
        """Rank and score columns just as wide as their widest entry and the header: every other pixel goes to
        the note › heading column."""
        fm = table.fontMetrics()
        head_fm = table.horizontalHeader().fontMetrics()
        for col in (0, 1):
            texts = [table.model().index(r, col).data() for r in range(table.rowCount())]
            header = table.model().headerData(col, Qt.Orientation.Horizontal)
            width = max([fm.horizontalAdvance(t) for t in texts] + [head_fm.horizontalAdvance(header)])
            table.horizontalHeader().resizeSection(col, width + NUMBER_PADDING)

    @staticmethod
    def _ranks_before(trace: QueryTrace, name: StageName) -> dict[int, int] | None:
        """Each chunk's best rank in the lists that fed this stage (None for the first lists)."""
        inputs = [n for n in trace.stages[name].inputs if n in trace.stages]
        if not inputs:
            return None
        best: dict[int, int] = {}
        for source in inputs:
            for c in trace.stages[source].candidates:
                best[c.chunk_id] = min(best.get(c.chunk_id, c.rank), c.rank)
        return best

    def show_first_stages(self, visible: bool) -> None:
        """Show or hide the retrieval lists (keywords, vectors, …: the lists no other list fed): hidden, the fused
        and reranked lists get their width (and a row's movement still says where it came from)."""
        self._first_shown = visible
        for name in self._first & set(self._names):  # a column whose widgets are all hidden takes no room
            self.headers[name].setVisible(visible)
            self._stacks[name].setVisible(visible)

    def view_actions(self) -> list[QAction]:
        """The View menu's item of this pane: the keyword and vector lists, shown or hidden."""
        lists = QAction(self.tr("&Keyword and vector lists"), self)
        lists.setShortcut(QKeySequence("Ctrl+Shift+L"))
        lists.setCheckable(True)
        lists.setChecked(self.first_stages_shown())
        lists.toggled.connect(self.show_first_stages)
        return [lists]

    def first_stages_shown(self) -> bool:
        return self._first_shown

    def clear(self) -> None:
        self._trace = None
        self.rewrite.clear()
        for name, table in self.tables.items():
            table.setRowCount(0)
            self._cands[name] = []
            self._stacks[name].setCurrentIndex(0)
            self.headers[name].setText(f"<b>{stage_title(name)}</b><br><small> </small>")
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
        for name, stage in t.stages.items():
            c = next((c for c in stage.candidates if c.chunk_id == chunk_id), None)
            if c is None:
                continue
            label = label or escape(" › ".join([c.note, *c.heading_path[1:]]))
            note = c.note
            bit = f"{stage_title(name)} #{c.rank} ({score_text(c.score)})"
            if c.contributions:
                # three significant digits, biggest first, parts that did not count left out: a line, not a table
                terms = ", ".join(f"{escape(feature_name(k))} {v:+.3g}" for k, v in
                                  sorted(c.contributions.items(), key=lambda kv: -abs(kv[1])) if abs(v) >= 5e-4)
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

    def highlight(self, chunk_id: int) -> list[StageName]:
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

    def _on_selected(self, name: StageName) -> None:
        rows = self.tables[name].selectionModel().selectedRows()
        if not rows:
            return
        self.chunk_selected.emit(self._cands[name][rows[0].row()])

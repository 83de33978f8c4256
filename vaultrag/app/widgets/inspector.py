"""The side-by-side inspector: the panes declared once, laid out in two columns, each fed every trace.

A pane is its widget file plus one PaneSpec line in PANES: the inspector sizes it from the spec (or its own size
hint), the View menu lists it with Alt+N by its place in PANES and adds its own `view_actions()`, and a pane that
asks for a note's text gets it through the inspector (`note_requested` / `show_note`): nothing else names it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QSplitter, QWidget

from vaultrag.app.widgets.decision_view import DecisionView
from vaultrag.app.widgets.note_preview import NotePreview
from vaultrag.app.widgets.pane import InspectorPane
from vaultrag.app.widgets.prompt_view import PromptView
from vaultrag.app.widgets.rerank_chart import RerankChart
from vaultrag.app.widgets.stages_view import StagesView
from vaultrag.core.model import Candidate, QueryTrace


class Column(Enum):
    LEFT = 0
    RIGHT = 1


@dataclass(frozen=True)
class PaneSpec:
    """A pane of the inspector: its key, its title (for the View menu), how to build it, where it goes, and its
    share of the room: (width, height) in pixels at 1280×800, which the splitters scale to the window (None: the
    widget's sizeHint()). A column is as wide as its widest pane."""

    key: str
    title: str  # source text in the "Inspector" translation context; shown through Inspector.title()
    make: Callable[[], QWidget]
    column: Column
    size: tuple[int, int] | None = None


# The panes, top to bottom in each column. A new pane is one file and one line here. The stage tables get the
# height (≥ 8 rows at 1280×800) and the width (four tables showing note › heading); the chart and the decision
# stay compact.
PANES: tuple[PaneSpec, ...] = (
    PaneSpec("candidates", str(QT_TRANSLATE_NOOP("Inspector", "Candidates")), StagesView, Column.LEFT, (840, 420)),
    PaneSpec("chart", str(QT_TRANSLATE_NOOP("Inspector", "Confidence chart")), RerankChart, Column.LEFT, (840, 130)),
    PaneSpec("decision", str(QT_TRANSLATE_NOOP("Inspector", "Decision")), DecisionView, Column.RIGHT, (440, 120)),
    PaneSpec("prompt", str(QT_TRANSLATE_NOOP("Inspector", "Prompt")), PromptView, Column.RIGHT, (440, 170)),
    PaneSpec("preview", str(QT_TRANSLATE_NOOP("Inspector", "Note preview")), NotePreview, Column.RIGHT, (440, 260)),
)


class Inspector(QSplitter):
    """Two columns of panes; `set_trace` and `clear` go to every pane, a chunk picked in one is shown in all.

    Signals:
        chunk_selected: the Candidate the user picked in any pane.
        note_requested: the Candidate whose note a pane wants to show (answer with `show_note`).
        web_requested: (note, hide linked) whose links and related notes a pane wants (answer with `show_web`).
    """

    chunk_selected = Signal(object)
    note_requested = Signal(object)
    web_requested = Signal(str, bool)

    def __init__(self, specs: tuple[PaneSpec, ...] | None = None) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.setObjectName("inspector")
        self.specs = specs = PANES if specs is None else specs  # PANES read now: a test may add a pane to it
        columns = [QSplitter(Qt.Orientation.Vertical) for _ in Column]
        self.columns = columns
        self._sizes: tuple[list[int], list[list[int]]] | None = None  # the layout before "full size"
        for col in columns:
            self.addWidget(col)
        self.panes: dict[str, QWidget] = {}
        for spec in specs:
            pane = spec.make()
            pane.setObjectName(f"pane-{spec.key}")
            columns[spec.column.value].addWidget(pane)
            self.panes[spec.key] = pane
            for name, slot in (("chunk_selected", self.select), ("note_requested", self.note_requested.emit),
                               ("web_requested", self.web_requested.emit)):
                signal = getattr(pane, name, None)
                if signal is not None:
                    signal.connect(slot)
        sizes = {s.key: s.size or (self.panes[s.key].sizeHint().width(), self.panes[s.key].sizeHint().height())
                 for s in specs}
        widths = []
        for column, col in zip(Column, columns, strict=True):
            col.setChildrenCollapsible(False)  # a dragged splitter never hides a pane entirely
            keys = [s.key for s in specs if s.column == column]
            col.setSizes([sizes[k][1] for k in keys])
            widths.append(max((sizes[k][0] for k in keys), default=0))
        self.setSizes(widths)

    def title(self, key: str) -> str:
        spec = next(s for s in self.specs if s.key == key)
        return QCoreApplication.translate("Inspector", spec.title)

    def view_actions(self, key: str) -> list[QAction]:
        """The pane's own View-menu actions (its `view_actions()`, if it has any)."""
        offer = getattr(self.panes[key], "view_actions", None)
        return list(offer()) if offer is not None else []

    def show_note(self, note: object) -> None:
        """A note's text read for a pane's `note_requested`: to every pane that shows notes."""
        for pane in self.panes.values():
            show = getattr(pane, "show_note", None)
            if show is not None:
                show(note)

    def show_web(self, web: object) -> None:
        """A note's links, backlinks and related notes read for a pane's `web_requested`."""
        for pane in self.panes.values():
            show = getattr(pane, "show_web", None)
            if show is not None:
                show(web)

    def _each(self) -> list[InspectorPane]:
        return list(self.panes.values())  # type: ignore[arg-type]

    def set_trace(self, trace: QueryTrace) -> None:
        for pane in self._each():
            pane.set_trace(trace)
        if trace.final:
            self.select(trace.final[0])

    def set_answer(self, trace: QueryTrace) -> None:
        """The trace again once the language model has answered: to every pane that shows the answer's part
        (the panes keep their selection; the ranked lists did not change)."""
        for pane in self.panes.values():
            show = getattr(pane, "set_answer", None)
            if show is not None:
                show(trace)

    def clear(self) -> None:
        for pane in self._each():
            pane.clear()

    def select(self, cand: Candidate) -> None:
        """Show `cand` in every pane (picked in a pane, or a citation of the answer)."""
        for pane in self._each():
            pane.select_chunk(cand)
        self.chunk_selected.emit(cand)

    def show_only(self, key: str | None) -> None:
        """One pane alone (full size), or every pane again with None (at the sizes they had before).

        A column whose panes are all hidden is hidden too: a splitter otherwise squeezes it to zero and keeps it
        there when its panes come back."""
        if key is not None and self._sizes is None:
            self._sizes = (self.sizes(), [col.sizes() for col in self.columns])
        for name, pane in self.panes.items():
            pane.setVisible(key is None or name == key)
        for spec_column, col in zip(Column, self.columns, strict=True):
            col.setVisible(any(not self.panes[s.key].isHidden() for s in self.specs if s.column == spec_column))
        if key is None and self._sizes is not None:
            outer, inner = self._sizes
            self._sizes = None
            self.setSizes(outer)
            for col, sizes in zip(self.columns, inner, strict=True):
                col.setSizes(sizes)

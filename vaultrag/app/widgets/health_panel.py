"""Index health: counts and lists (indexed, excluded, failed, stale, truncated), versions, re-index and check."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QListWidget, QPushButton, QTabWidget, QVBoxLayout, QWidget

from vaultrag import __version__
from vaultrag.core.health import LISTS, Health


class HealthPanel(QWidget):
    """Signals: reindex_requested; check_requested."""

    reindex_requested = Signal()
    check_requested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.summary = QLabel(self.tr("No vault open"))
        self.summary.setWordWrap(True)
        self.summary.setObjectName("health-summary")
        self.tabs = QTabWidget()
        self.lists: dict[str, QListWidget] = {}
        for name in LISTS:
            lw = QListWidget()
            lw.setObjectName(f"health-{name}")
            self.lists[name] = lw
            self.tabs.addTab(lw, self._list_title(name))
        self.reindex = QPushButton(self.tr("Re-index"))
        self.check = QPushButton(self.tr("Consistency check"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.reindex)
        buttons.addWidget(self.check)
        buttons.addStretch(1)
        col = QVBoxLayout(self)
        col.addWidget(self.summary)
        col.addLayout(buttons)
        col.addWidget(self.tabs)
        self.reindex.clicked.connect(self.reindex_requested.emit)
        self.check.clicked.connect(self.check_requested.emit)

    def _list_title(self, name: str) -> str:
        return {"indexed": self.tr("Indexed"), "excluded": self.tr("Excluded"), "failed": self.tr("Failed"),
                "stale": self.tr("Stale"), "truncated": self.tr("Truncated")}.get(name, name)

    def set_health(self, h: Health) -> None:
        c = h.counts
        text = self.tr("{i} indexed, {e} excluded, {f} failed, {s} stale; {ch} chunks, {em} with vectors, "
                       "{t} truncated").format(i=c["notes_indexed"], e=c["notes_excluded"], f=c["notes_failed"],
                                               s=c["notes_stale"], ch=c["chunks"], em=c["chunks_embedded"],
                                               t=c["chunks_truncated"])
        v = h.versions
        text += "<br>" + self.tr("model: {m} · vaultrag {v} · schema {s} · chunker {c} · {f}").format(
            m=h.model or "—", v=__version__, s=v.get("schema"), c=v.get("chunker"), f=h.index_file)
        for r in h.stale_reasons:
            text += f"<br><i>{r}</i>"
        if h.problems is not None:
            text += "<br><b>" + (self.tr("check: ok") if not h.problems else
                                 self.tr("check FAILED: ") + "; ".join(h.problems)) + "</b>"
        self.summary.setText(text)
        for name, lw in self.lists.items():
            lw.clear()
            for n in h.notes.get(name, []):
                lw.addItem(f"{n.path} — {n.reason}" if n.reason else n.path)
            self.tabs.setTabText(list(LISTS).index(name),
                                 f"{self._list_title(name)} ({len(h.notes.get(name, []))})")

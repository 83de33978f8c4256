"""Index health: counts and lists (indexed, excluded, failed, stale, truncated), versions, re-index and check."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from vaultrag import __version__
from vaultrag.app.words import note_reason, reason_text, tier_shares
from vaultrag.core.health import LISTS, Health
from vaultrag.core.model import Tiers
from vaultrag.core.query.terms import fold
from vaultrag.core.vocab import Reason


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
        # a vault's hundreds of notes: the lists filtered as one types (a path's part, a reason's word)
        self.filter = QLineEdit()
        self.filter.setObjectName("health-filter")
        self.filter.setPlaceholderText(self.tr("Filter the notes…"))
        self.filter.setClearButtonEnabled(True)
        self.filter.textChanged.connect(self._filter)
        buttons = QHBoxLayout()
        buttons.addWidget(self.reindex)
        buttons.addWidget(self.check)
        buttons.addStretch(1)
        buttons.addWidget(self.filter, 1)
        col = QVBoxLayout(self)
        col.addWidget(self.summary)
        col.addLayout(buttons)
        col.addWidget(self.tabs)
        self.reindex.clicked.connect(self.reindex_requested.emit)
        self.check.clicked.connect(self.check_requested.emit)

    def _filter(self, text: str = "") -> None:
        """Hide the notes whose line does not hold `text` (case and accents aside)."""
        want = fold(text.strip().lower())
        for lw in self.lists.values():
            for i in range(lw.count()):
                item = lw.item(i)
                item.setHidden(bool(want) and want not in fold(item.text().lower()))

    def reset(self) -> None:
        """Another vault opens: the last one's counts and lists go until this one's are read."""
        self.summary.setText(self.tr("Reading this vault's index…"))
        for lw in self.lists.values():
            lw.clear()

    def set_vault_open(self, on: bool) -> None:
        """Re-index and the check work on the open vault's index: without one they are disabled."""
        self.reindex.setEnabled(on)
        self.check.setEnabled(on)

    def _list_title(self, name: str) -> str:
        return {"indexed": self.tr("Indexed"), "excluded": self.tr("Excluded"), "failed": self.tr("Failed"),
                "stale": self.tr("Stale"), "truncated": self.tr("Truncated"),
                "flagged": self.tr("Flagged"), "unresolved": self.tr("Broken links")}.get(name, name)

    def set_health(self, h: Health) -> None:
        c = h.counts
        text = self.tr("{i} indexed, {e} excluded, {f} failed, {s} stale; {ch} chunks, {em} with full-quality vectors, "
                       "{t} truncated").format(i=c["notes_indexed"], e=c["notes_excluded"], f=c["notes_failed"],
                                               s=c["notes_stale"], ch=c["chunks"], em=c["chunks_embedded"],
                                               t=c["chunks_truncated"])
        text += "<br>" + escape(tier_shares(Tiers(c["chunks"], c.get("chunks_fast", 0), c["chunks_embedded"])))
        v = h.versions
        # the index's format by its number (the migration's name, "0013_fast_vectors", is a developer's word)
        schema = str(v.get("schema") or "—")
        number = schema.partition("_")[0].lstrip("0") or schema
        text += "<br>" + self.tr("model: {m} · vaultrag {v} · index format {s} · chunking {c} · {f}").format(
            m=h.model or "—", v=__version__, s=number, c=v.get("chunker"), f=h.index_file)
        for code in h.stale_codes:
            models = f" ({escape(h.model)} → {escape(h.model_wanted)})" if code == Reason.MODEL_CHANGED else ""
            text += f"<br><i>{escape(reason_text(code))}{models}</i>"
        if h.problems is not None and not h.problems:
            text += "<br><b>" + self.tr("check: ok") + "</b>"
        elif h.problems:  # what to do first, in words; SQLite's own details after it, as they are
            text += ("<br><b>" + self.tr("check FAILED: the index file is damaged. Re-index checks it whole and "
                                         "repairs or rebuilds it from your notes (the vault is never written).")
                     + "</b><br><small>" + escape("; ".join(h.problems)) + "</small>")
        self.summary.setText(text)
        for name, lw in self.lists.items():
            lw.clear()
            for n in h.notes.get(name, []):
                reason = note_reason(n)  # worded by its code; the core's detail (with its specifics) on hover
                item = QListWidgetItem(f"{n.path} — {reason}" if reason else n.path)
                if n.reason and n.reason != reason:
                    item.setToolTip(n.reason)
                lw.addItem(item)
            self.tabs.setTabText(list(LISTS).index(name),
                                 f"{self._list_title(name)} ({len(h.notes.get(name, []))})")
        self._filter(self.filter.text())  # a refresh keeps what the user filtered by

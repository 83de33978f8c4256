"""The source note with the selected chunk highlighted and scrolled to; open it in an editor or in Obsidian."""

from __future__ import annotations

from html import escape
from pathlib import Path, PurePosixPath
from urllib.parse import quote, unquote

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QTextBrowser,
    QTextEdit,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app.words import number
from vaultrag.core.index.vault import NoteText
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.related import NoteWeb

NOTE_SCHEME = "note:"  # an anchor of the links line: a note to show in the preview
WEB_SHOWN = 6  # notes of each kind the links line names (then "and N more")


class NotePreview(QWidget):
    """Shows the note of the selected chunk. It never reads files itself: it asks (`note_requested`) and the
    controller answers on the query lane with `show_note(NoteText)`, so a slow disk never freezes the window.

    Signals:
        note_requested: the Candidate whose note should be read.
        web_requested: (note, hide linked): its links, backlinks and related notes should be read (`show_web`).
        open_failed: why "Open in editor" opened nothing, in words (also said in the pane).
    """

    note_requested = Signal(object)
    web_requested = Signal(str, bool)
    open_failed = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.note: str = ""
        self._wanted: Candidate | None = None
        self._file: NoteText | None = None
        self.title = QLabel(self.tr("Select a chunk to preview its note"))
        self.title.setObjectName("preview-title")
        self.title.setWordWrap(True)  # long note paths wrap instead of being cut
        self.open_editor = QPushButton(self.tr("Open in editor"))
        self.open_obsidian = QPushButton(self.tr("Open in Obsidian"))
        self.problem = QLabel()  # "Open in editor" opened nothing: said here, where it was pressed
        self.problem.setObjectName("preview-problem")
        self.problem.setWordWrap(True)
        self.problem.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # the path, to copy
        self.problem.setStyleSheet("color: #b71c1c;")
        self.problem.hide()
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        self.text.setPlaceholderText(self.tr("Note preview: the note of the selected chunk, its passage marked."))
        # the note's place among the others: its links, the notes linking to it, the notes close in meaning
        self.web = QTextBrowser()
        self.web.setObjectName("preview-web")
        self.web.setOpenLinks(False)
        self.web.setPlaceholderText(self.tr("Links, backlinks and related notes of the note shown"))
        line = self.fontMetrics().lineSpacing()
        self.web.setMaximumHeight(line * 4 + 8)
        # small minimums: a short pane (1024×700, another pane added below) shrinks both boxes instead of
        # taking the height of the panes beside it
        self.web.setMinimumHeight(line * 2 + 6)
        self.text.setMinimumHeight(line * 2 + 6)
        self.hide_linked = QCheckBox(self.tr("Hide notes already linked"))
        self.hide_linked.setObjectName("preview-hide-linked")
        self.hide_linked.setToolTip(self.tr("Related notes: leave out the ones this note links to or that link to it"))
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.open_editor)
        top.addWidget(self.open_obsidian)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(top)
        col.addWidget(self.problem)
        col.addWidget(self.text, 1)
        col.addWidget(self.hide_linked)
        col.addWidget(self.web)
        self.web.anchorClicked.connect(self._open_linked)
        self.hide_linked.toggled.connect(lambda _on: self._ask_web())
        self.open_editor.clicked.connect(self._open_editor)
        self.open_obsidian.clicked.connect(self._open_obsidian)
        self._buttons(False)

    # -- the pane protocol ------------------------------------------------------------------------
    def set_trace(self, trace: QueryTrace) -> None:
        pass  # the inspector selects the final top-1 after every trace; select_chunk does the work

    def clear(self) -> None:
        self.note, self._wanted, self._file = "", None, None
        self.problem.hide()
        self.title.setText(self.tr("Select a chunk to preview its note"))
        self.text.clear()
        self.web.clear()
        self._buttons(False)

    def select_chunk(self, cand: Candidate) -> None:
        self._wanted = cand
        self.note_requested.emit(cand)

    # -- the answer from the query lane -------------------------------------------------------------
    def show_note(self, f: NoteText) -> None:
        """Load the note's text (read-only), highlight the chunk's characters and scroll to them."""
        cand = self._wanted
        if cand is None or (f.note, f.char_start) != (cand.note, cand.char_start):
            return  # an older request: the user has picked another chunk since
        self.note, self._file = cand.note, f
        self.problem.hide()
        if f.error:
            self.title.setText(self.tr("{note}: cannot read it ({err})").format(note=cand.note, err=f.error))
            self.text.clear()
            self._buttons(False)
            return
        text = f.text
        self.title.setText(self.where(cand))
        self.text.setPlainText(text)
        if cand.char_end > len(text):
            self.title.setText(self.title.text() + self.tr(" (changed since indexing)"))
        end = min(cand.char_end, len(text))
        fmt = QTextCharFormat()
        fmt.setBackground(QColor(255, 236, 153))
        fmt.setForeground(QColor(0, 0, 0))  # dark on the light mark, whatever the theme's text colour
        cursor = QTextCursor(self.text.document())
        cursor.setPosition(min(cand.char_start, len(text)))
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        sel = QTextEdit.ExtraSelection()
        sel.cursor, sel.format = cursor, fmt
        self.text.setExtraSelections([sel])
        view = QTextCursor(self.text.document())
        view.setPosition(min(cand.char_start, len(text)))
        self.text.setTextCursor(view)
        self.text.centerCursor()
        self._buttons(True)
        self._ask_web()

    def _ask_web(self) -> None:
        if self.note:
            self.web_requested.emit(self.note, self.hide_linked.isChecked())

    def show_web(self, web: NoteWeb) -> None:
        """The shown note's links, backlinks and related notes, each a link that shows that note here."""
        if web.note != self.note or web.hide_linked != self.hide_linked.isChecked():
            return  # an older request

        def a(note: str, text: str | None = None) -> str:  # a note by its name; its path in the tooltip
            return (f"<a href='{NOTE_SCHEME}{quote(note)}' title='{escape(note, quote=True)}'>"
                    f"{escape(text or note.removesuffix('.md'))}</a>")

        links, backlinks, near = self.tr("Links"), self.tr("Backlinks"), self.tr("Related")
        related = []
        for r in web.related:
            why = [number(r.cosine, 2)] if r.cosine is not None else []
            if r.linked:
                why.append(self.tr("linked") + (f" ({escape(', '.join(r.aliases))})" if r.aliases else ""))
            why += ["#" + escape(t) for t in r.tags]
            tip = (self.tr("closest passages: {mine} ~ {theirs}").format(mine=r.passage.mine, theirs=r.passage.theirs)
                   if r.passage else "")
            name = a(r.note, PurePosixPath(r.note).stem)
            related.append(f"<span title='{escape(tip, quote=True)}'>{name} <small>({'; '.join(why)})</small>"
                           "</span>")
        # related first (what is new to the reader), then the notes linking here, then this note's own links; a
        # hub note's 40 links would push the others out of the box: the first few, then how many more
        out = [f"<b>{near}</b>: " + (self._some(related) or self.tr("none yet (no vectors)"))]
        back = [a(n, PurePosixPath(n).stem) for n in web.backlinks]
        out.append(f"<b>{backlinks}</b> ← " + (self._some(back) or self.tr("none")))
        resolved = [a(target, PurePosixPath(target).stem) for _name, target in web.outgoing if target]
        broken = [name for name, target in web.outgoing if not target]
        mine = self._some(resolved) + (self.tr(" · {n} broken").format(n=len(broken)) if broken else "")
        out.append(f"<b>{links}</b> → " + (mine or self.tr("none")))
        self.web.setHtml("<br>".join(out))

    def _some(self, items: list[str]) -> str:
        """The first WEB_SHOWN items, and how many more."""
        more = len(items) - WEB_SHOWN
        return ", ".join(items[:WEB_SHOWN]) + (self.tr(" and {n} more").format(n=more) if more > 0 else "")

    def _open_linked(self, url: QUrl) -> None:
        """A note of the links line, shown here from its start."""
        text = url.toString()
        if not text.startswith(NOTE_SCHEME):
            return
        note = unquote(text[len(NOTE_SCHEME):])
        self.select_chunk(Candidate(note=note, heading_path=[], char_start=0, char_end=0, line_start=0, line_end=1,
                                    chunk_id=-1, rank=0, score=0.0))

    def where(self, cand: Candidate) -> str:
        """The note and its lines: "line 25" for one line (not "lines 25–25"), "lines 11–14" for more; a whole note
        (opened from the links line) by its path alone."""
        if cand.chunk_id < 0:
            return cand.note
        first, last = cand.line_start + 1, max(cand.line_end, cand.line_start + 1)
        if first == last:
            return self.tr("{note} — line {n}").format(note=cand.note, n=first)
        return self.tr("{note} — lines {a}–{b}").format(note=cand.note, a=first, b=last)

    def highlighted_text(self) -> str:
        sels = self.text.extraSelections()
        return sels[0].cursor.selectedText().replace("\u2029", "\n") if sels else ""

    def _buttons(self, on: bool) -> None:
        self.open_editor.setEnabled(on)
        self.open_obsidian.setVisible(on and self._file is not None and self._file.in_obsidian_vault)

    def _open_editor(self) -> None:
        if self._file is None:
            return
        if QDesktopServices.openUrl(QUrl.fromLocalFile(self._file.path)):
            self.problem.hide()
            return
        # no program is set to open the file (no desktop launcher, no default app for .md): said in the window,
        # with the path to open by hand (Qt says why only on stderr)
        said = self.tr("Nothing opened {path}: this computer has no default program for Markdown files. Set one "
                       "in the system settings, or open the file yourself.").format(path=self._file.path)
        self.problem.setText(said)
        self.problem.show()
        self.open_failed.emit(said)

    def _open_obsidian(self) -> None:
        if self._file is not None:
            vault = Path(self._file.vault).name
            url = f"obsidian://open?vault={quote(vault)}&file={quote(self.note.removesuffix('.md'))}"
            if not QDesktopServices.openUrl(QUrl(url)):
                said = self.tr("Nothing opened the note in Obsidian: is Obsidian installed on this computer?")
                self.problem.setText(said)
                self.problem.show()
                self.open_failed.emit(said)

"""The source note with the selected chunk highlighted and scrolled to; open it in an editor or in Obsidian."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from PySide6.QtCore import Qt, QUrl, Signal
from PySide6.QtGui import QColor, QDesktopServices, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextEdit, QVBoxLayout, QWidget

from vaultrag.core.index.vault import NoteText
from vaultrag.core.model import Candidate, QueryTrace


class NotePreview(QWidget):
    """Shows the note of the selected chunk. It never reads files itself: it asks (`note_requested`) and the
    controller answers on the query lane with `show_note(NoteText)`, so a slow disk never freezes the window.

    Signals:
        note_requested: the Candidate whose note should be read.
        open_failed: why "Open in editor" opened nothing, in words (also said in the pane).
    """

    note_requested = Signal(object)
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
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.open_editor)
        top.addWidget(self.open_obsidian)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(top)
        col.addWidget(self.problem)
        col.addWidget(self.text)
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

    def where(self, cand: Candidate) -> str:
        """The note and its lines: "line 25" for one line (not "lines 25–25"), "lines 11–14" for more."""
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

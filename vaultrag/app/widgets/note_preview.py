"""The source note with the selected chunk highlighted and scrolled to; open it in an editor or in Obsidian."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote

from PySide6.QtCore import QUrl
from PySide6.QtGui import QColor, QDesktopServices, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPlainTextEdit, QPushButton, QTextEdit, QVBoxLayout, QWidget

from vaultrag.core.model import Candidate


class NotePreview(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.vault: Path | None = None
        self.note: str = ""
        self.title = QLabel(self.tr("Select a chunk to preview its note"))
        self.title.setObjectName("preview-title")
        self.open_editor = QPushButton(self.tr("Open in editor"))
        self.open_obsidian = QPushButton(self.tr("Open in Obsidian"))
        self.text = QPlainTextEdit()
        self.text.setReadOnly(True)
        top = QHBoxLayout()
        top.addWidget(self.title, 1)
        top.addWidget(self.open_editor)
        top.addWidget(self.open_obsidian)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.addLayout(top)
        col.addWidget(self.text)
        self.open_editor.clicked.connect(self._open_editor)
        self.open_obsidian.clicked.connect(self._open_obsidian)
        self._buttons(False)

    def _buttons(self, on: bool) -> None:
        self.open_editor.setEnabled(on)
        obsidian = on and self.vault is not None and (self.vault / ".obsidian").is_dir()
        self.open_obsidian.setVisible(obsidian)

    def show_chunk(self, vault: Path, cand: Candidate) -> None:
        """Load the note (read-only), highlight the chunk's characters and scroll to them."""
        self.vault, self.note = vault, cand.note
        path = vault / cand.note
        try:
            text = path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            self.title.setText(self.tr("{note}: cannot read it ({err})").format(note=cand.note, err=e))
            self.text.clear()
            self._buttons(False)
            return
        self.title.setText(f"{cand.note} — {self.tr('lines')} {cand.line_start + 1}–{cand.line_end}")
        self.text.setPlainText(text)
        fmt = QTextCharFormat()
        fmt.setBackground(QColor(255, 236, 153))
        cursor = QTextCursor(self.text.document())
        end = min(cand.char_end, len(text))
        if text[cand.char_start:end] != text[cand.char_start:cand.char_end] or cand.char_end > len(text):
            self.title.setText(self.title.text() + self.tr(" (changed since indexing)"))
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

    def highlighted_text(self) -> str:
        sels = self.text.extraSelections()
        return sels[0].cursor.selectedText().replace("\u2029", "\n") if sels else ""

    def _open_editor(self) -> None:
        if self.vault is not None:
            QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.vault / self.note)))

    def _open_obsidian(self) -> None:
        if self.vault is not None:
            url = f"obsidian://open?vault={quote(self.vault.name)}&file={quote(self.note.removesuffix('.md'))}"
            QDesktopServices.openUrl(QUrl(url))

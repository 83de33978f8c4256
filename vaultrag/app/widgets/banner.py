"""The red problem banner above every page: the problem in words and a button that dismisses it."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QStyle, QToolButton


class Banner(QFrame):
    """A problem said once; it goes away with its ✕ (or the next action). `text()`/`setText()` are its label's."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("error-banner")
        # the frame's own selector: a bare `background` would repaint the dismiss button red too
        self.setStyleSheet("QFrame#error-banner { background: #b71c1c; } QLabel { color: white; }")
        self.label = QLabel()
        self.label.setObjectName("error-text")
        self.label.setWordWrap(True)
        self.label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)  # a path can be copied
        self.dismiss = QToolButton()
        self.dismiss.setObjectName("error-dismiss")
        self.dismiss.setIcon(self.style().standardIcon(QStyle.StandardPixmap.SP_TitleBarCloseButton))
        self.dismiss.setAutoRaise(True)
        self.dismiss.setToolTip(self.tr("Dismiss"))
        self.dismiss.clicked.connect(self.hide)
        row = QHBoxLayout(self)
        row.setContentsMargins(6, 4, 4, 4)
        row.addWidget(self.label, 1)
        row.addWidget(self.dismiss, 0, Qt.AlignmentFlag.AlignTop)
        self.hide()

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:  # Qt's name: the banner reads like the label it was
        self.label.setText(text)

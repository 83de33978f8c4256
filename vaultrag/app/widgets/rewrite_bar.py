"""The `rewrite` stage in the inspector: a follow-up question as asked → as searched, and how it was rewritten."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from vaultrag.app.words import tr
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.vocab import RewriteMethod


def rewrite_html(trace: QueryTrace) -> str:
    """'Follow-up rewritten: «asked» → «searched» (how)', or '' when the question was searched as asked."""
    r = trace.rewrite
    if r is None or r.method == RewriteMethod.NONE or (r.question == r.original and r.method != RewriteMethod.ALONE):
        return ""
    if r.method == RewriteMethod.ALONE:
        return (tr("<b>Follow-up asked on its own</b>: with the previous question's words ({terms}) no note answered "
                   "it").format(terms=escape(", ".join(r.carried))) + f" («{escape(r.tried)}»)")
    if r.method == RewriteMethod.MODEL:
        how = tr("by the language model")
    else:
        how = tr("carried from the previous question: {terms}").format(terms=", ".join(r.carried))
    return (tr("<b>Follow-up rewritten</b> ({how}):").format(how=escape(how))
            + f" «{escape(r.original)}» → «<b>{escape(r.question)}</b>»")


class RewriteBar(QLabel):
    """A line above the stage tables, shown only when the question was rewritten (an inspector pane part)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("rewrite")
        self.setWordWrap(True)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.setStyleSheet("background: #e8f0fe; border: 1px solid #9bb8e8; padding: 3px;")
        self.hide()

    def set_trace(self, trace: QueryTrace) -> None:
        text = rewrite_html(trace)
        self.setText(text)
        self.setToolTip(tr("Every stage below searched the rewritten question.") if text else "")
        self.setVisible(bool(text))

    def clear(self) -> None:
        self.setText("")
        self.hide()

    def select_chunk(self, cand: Candidate) -> None:
        pass  # the rewrite is about the question, not one chunk

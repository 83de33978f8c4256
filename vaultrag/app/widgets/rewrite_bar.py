"""The question as searched, above the inspector's stages: a follow-up as asked → as rewritten (and how), and the
`translate` stage's translations."""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QSizePolicy

from vaultrag.app.words import tr, wording_tr
from vaultrag.core import wording
from vaultrag.core.model import Candidate, QueryTrace
from vaultrag.core.vocab import RewriteMethod


def translation_html(trace: QueryTrace) -> str:
    """'Also searched in English: «translation»' per translation of the question, or ''."""
    return "<br>".join(
        tr("<b>Also searched in {language}</b> (machine translation):").format(
            language=escape(wording.language_name(t.target, wording_tr))) + f" «{escape(t.text)}»"
        for t in trace.translations if t.text)


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
        # no padding nor border: a wrapped label is given the height of its lines only (its frame would cut them)
        self.setStyleSheet("background: #e8f0fe; color: #1a1a1a;")  # its own text colour on its own light fill
        self.hide()

    def set_trace(self, trace: QueryTrace) -> None:
        rewritten, translated = rewrite_html(trace), translation_html(trace)
        self.setText("<br>".join(filter(None, (rewritten, translated))))
        tips = [tr("Every stage below searched the rewritten question.") if rewritten else "",
                tr("The keyword and meaning searches used the question and its translation; each note was judged "
                   "in its own language. A candidate found only through the translation is marked ⇄.")
                if translated else ""]
        self.setToolTip("\n".join(filter(None, tips)))
        self.setVisible(bool(rewritten or translated))

    def clear(self) -> None:
        self.setText("")
        self.hide()

    def select_chunk(self, cand: Candidate) -> None:
        pass  # the rewrite is about the question, not one chunk

""""Why not this note?": a searchable note picker, the diagnosis with evidence, and one-click re-run."""

from __future__ import annotations

import re
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QCompleter,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
)

from vaultrag.app.widgets.stages_view import score_text
from vaultrag.app.widgets.words import stage_title
from vaultrag.core.quality.diagnose import Diagnosis, Verdict
from vaultrag.core.vocab import StageName

_CODE = re.compile(r"`([^`]+)`")


def rich(text: str) -> str:
    """Escaped text whose `code` spans (settings, frontmatter keys, commands) show as code, not as backticks."""
    return _CODE.sub(r"<code>\1</code>", escape(text))


class WhyDialog(QDialog):
    """Signals: diagnose_requested(note, heading); rerun_requested()."""

    diagnose_requested = Signal(str, str)
    rerun_requested = Signal()

    def __init__(self, parent: object = None) -> None:
        super().__init__(parent)  # type: ignore[arg-type]
        self.setWindowTitle(self.tr("Why not this note?"))
        self.question = QLabel()
        self.picker = QComboBox()
        self.picker.setEditable(True)
        self.picker.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.picker.setObjectName("why-note")
        completer = QCompleter(self.picker.model(), self)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        self.picker.setCompleter(completer)
        self.heading = QLineEdit()
        self.heading.setPlaceholderText(self.tr("optional: one heading of the note"))
        self.run = QPushButton(self.tr("Diagnose"))
        self.rerun = QPushButton(self.tr("Re-run the question"))
        self.result_view = QTextBrowser()
        self.result_view.setObjectName("why-result")
        self.scope_note = QLabel(self.tr("Runs the question again against the current index, with the same "
                                         "scope, k and threshold."))
        self.scope_note.setWordWrap(True)
        form = QFormLayout()
        form.addRow(self.tr("Question:"), self.question)
        form.addRow(self.tr("Expected note:"), self.picker)
        form.addRow(self.tr("Heading:"), self.heading)
        buttons = QHBoxLayout()
        buttons.addWidget(self.run)
        buttons.addWidget(self.rerun)
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addWidget(self.scope_note)
        col.addLayout(buttons)
        col.addWidget(self.result_view)
        self.resize(640, 420)
        self.run.clicked.connect(lambda: self.diagnose_requested.emit(self.picker.currentText().strip(),
                                                                      self.heading.text().strip()))
        self.rerun.clicked.connect(self.rerun_requested.emit)
        self.picker.editTextChanged.connect(lambda _t: self.clear_result())
        self.heading.textChanged.connect(lambda _t: self.clear_result())

    def set_notes(self, notes: list[str]) -> None:
        current = self.picker.currentText()
        self.picker.clear()
        self.picker.addItems(notes)
        self.picker.setEditText(current)

    def clear_result(self) -> None:
        """The note, heading or question changed: an old diagnosis must not stand for the new one."""
        hint = self.tr("Pick a note and press Diagnose.")
        self.result_view.setHtml(f"<p><i>{escape(hint)}</i></p>")

    def show_diagnosis(self, d: Diagnosis) -> None:
        title, message, suggestion = self._words(d)
        rows = "".join(f"<tr><td><b>{escape(k)}</b></td><td>{escape(v)}</td></tr>" for k, v in self._evidence(d))
        todo = self.tr("What to do")
        how = self.tr("Diagnosed by asking the question again against the index as it is now.")
        self.result_view.setHtml(
            f"<h3>{escape(d.note)}</h3><p><b>{escape(title)}</b></p><p>{rich(message)}</p>"
            f"<p><b>{escape(todo)}:</b> {rich(suggestion)}</p><table cellpadding=2>{rows}</table>"
            f"<p><i>{escape(how)}</i></p>")

    def _words(self, d: Diagnosis) -> tuple[str, str, str]:
        """Title, what happened, what to do: in the window's language where the numbers allow it."""
        ev = d.evidence
        titles = {Verdict.EXCLUDED: self.tr("Excluded from the index"),
                  Verdict.NOT_IN_VAULT: self.tr("Not in the vault"),
                  Verdict.NOT_INDEXED: self.tr("Not indexed yet"), Verdict.FAILED: self.tr("Could not be read"),
                  Verdict.STALE: self.tr("Changed since it was indexed"),
                  Verdict.NO_CHUNKS: self.tr("No text to search"),
                  Verdict.NOT_IN_CANDIDATES: self.tr("Not among the candidates"),
                  Verdict.FUSED_OUT: self.tr("Dropped when the lists were fused"),
                  Verdict.BELOW_THRESHOLD: self.tr("Found, but the question was refused"),
                  Verdict.REACHED_PROMPT: self.tr("It reached the prompt"),
                  Verdict.CUT_BY_BUDGET: self.tr("Cut by the token budget"),
                  Verdict.BELOW_K: self.tr("Ranked below k")}
        title = titles.get(d.verdict, str(d.verdict))
        # no chunk shares a content word and it was not close enough by meaning to make the answer: unrelated,
        # so "raise k" or "raise the candidate counts" would be bad advice
        retrieval = (Verdict.NOT_IN_CANDIDATES, Verdict.FUSED_OUT, Verdict.BELOW_K)
        if d.verdict in retrieval and "bm25" not in ev:
            cos = ev.get("vector", {}).get("cosine")
            far = self.tr(" (best cosine {c:.3f}, vector rank {r})").format(c=cos, r=ev["vector"]["rank"]) \
                if cos is not None else ""
            return (self.tr("Not related to this question"),
                    self.tr("It shares none of the question's content words, and its meaning is far from the "
                            "question's{far}.").format(far=far),
                    self.tr("Nothing to tune: it does not seem to be about this question. If it should answer it, "
                            "add the question's words to the note (in the text, a heading or an alias)."))
        if d.verdict == Verdict.BELOW_K:
            rank, k = ev.get("rank"), ev.get("k")
            return (title, self.tr("It ranked {r} in the final list, below the k = {k} documents given to the "
                                   "answer.").format(r=rank, k=k),
                    self.tr("Raise k to {r} to include it.").format(r=rank))
        if d.verdict == Verdict.BELOW_THRESHOLD and ev.get("confidence") is not None \
                and ev.get("threshold") is not None:
            c, t = ev["confidence"], ev["threshold"]
            return (title, self.tr("Confidence {c:.3f} is below the threshold {t:.3f}.").format(c=c, t=t),
                    self.tr("The threshold would need to be at most {c:.3f}: lower it in Settings, or calibrate "
                            "with a golden set.").format(c=c))
        return title, d.message, d.suggestion

    def _evidence(self, d: Diagnosis) -> list[tuple[str, str]]:
        """The evidence as readable lines (no raw dicts, 3 decimals)."""
        ev, out = d.evidence, []
        if "bm25" in ev:
            out.append((self.tr("Best keyword match"), self.tr("rank {r} (score {s:.2f})").format(
                r=ev["bm25"]["rank"], s=ev["bm25"]["score"])))
        if "vector" in ev:
            out.append((self.tr("Best meaning match"), self.tr("rank {r} (cosine {c:.3f})").format(
                r=ev["vector"]["rank"], c=ev["vector"]["cosine"])))
        if ev.get("missing_words"):
            out.append((self.tr("Question words the note never uses"), ", ".join(ev["missing_words"])))
        for name, hit in (ev.get("in_lists") or {}).items():
            title = stage_title(StageName(name)) if name in {s.value for s in StageName} else name
            out.append((title, self.tr("rank {r} (score {s})").format(r=hit["rank"], s=score_text(hit["score"]))))
        return out

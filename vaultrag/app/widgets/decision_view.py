"""Answered or refused: the answerability model's probability (or the cosine rule's confidence) against the
threshold, the margin, the reason in words, and what the decision used: the passage it judged and each feature's
part (wraps, scrolls)."""

from __future__ import annotations

from html import escape

from PySide6.QtWidgets import QTextBrowser

from vaultrag.app import access
from vaultrag.app.widgets.candidate_table import headings_of
from vaultrag.app.words import decision_reason, local, source_word, warning_text, wording_tr
from vaultrag.core import wording
from vaultrag.core.model import Candidate, Decision, QueryTrace, QueryWarning
from vaultrag.core.vocab import WarningCode

BAR_CELLS = 12  # the width of the largest contribution's bar, in block characters
FOR, AGAINST = "#2e7d32", "#c62828"


class DecisionView(QTextBrowser):
    """A read-only text view: long reasons and warnings wrap and scroll instead of being cut."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("decision")
        self.setMinimumHeight(60)
        # before the first question each pane says what it will show (empty boxes without titles told nothing)
        self.setPlaceholderText(self.tr("Decision: answered or refused, and why"))  # a placeholder never wraps
        self._untranslated: dict[tuple[str, str], str] = {}  # a pair without a translation → the question that said it

    def set_trace(self, trace: QueryTrace) -> None:
        d = trace.decision
        verdict = self.tr("ANSWERED") if d.answered else self.tr("REFUSED")
        color = access.css("#2e7d32" if d.answered else "#c62828", self)
        parts = [f"<b style='color:{color}'>{verdict}</b>"]
        if d.confidence is not None and d.by_model:
            parts.append(local(self.tr("probability {p:.3f} that the notes answer this")).format(p=d.confidence))
        elif d.confidence is not None:
            parts.append(local(self.tr("confidence {c:.3f}")).format(c=d.confidence))
        if d.threshold is not None:
            parts.append(local(self.tr("threshold {t:.3f} ({s})")).format(t=d.threshold,
                                                                          s=source_word(d.threshold_source)))
        if d.margin is not None:
            parts.append(local(self.tr("margin {m:+.3f}")).format(m=d.margin))
        # exactly the core's warnings, worded by code (the CLI prints the same ones); a language pair without a
        # translator is said once, with the first question that met it, not with every question after it
        notes = [warning_text(w) for w in trace.warnings if self._say(trace, w)]
        warn = "".join(f"<br><i style='color:#8a5a00'>{escape(w)}</i>" for w in notes)
        self.setHtml(" · ".join(parts) + f"<br>{escape(decision_reason(trace))}{warn}" + self.used(trace, d))
        # said by a screen reader as it comes, wherever the focus is: the verdict first, then its reason
        access.announce(self, f"{verdict}. {decision_reason(trace)}")

    def _say(self, trace: QueryTrace, w: QueryWarning) -> bool:
        """Whether to show `w` with this question (NO_TRANSLATION: only with the first question of its pair)."""
        if w.code != WarningCode.NO_TRANSLATION:
            return True
        first = self._untranslated.setdefault((w.question_language, w.target_language), trace.question)
        return first == trace.question

    def used(self, trace: QueryTrace, d: Decision) -> str:
        """What the decision read: the passage it judged among those in the prompt, and each feature's part of
        the model's logit as a bar (green for answering, red against); the cosine rule's inputs without it."""
        if not d.by_model or not d.contributions:
            if d.top_cosine is None or d.background is None:
                return ""
            return "<br>" + escape(local(self.tr("Decided by the cosine rule on the top passage: cosine {c:.3f} − {w} "
                                                 "× the vault's background {b:.3f}.")).format(
                c=d.top_cosine, w=d.background_weight, b=d.background))
        best = next((c for c in trace.final if c.chunk_id == d.supported_by), None)
        where = " › ".join([best.note, *headings_of(best.note, best.heading_path)]) if best else d.supported_note
        rank = best.rank if best else 0
        head = self.tr("Decided by the answerability model on the best-supported of the {n} passages it read: "
                       "#{r} {where}").format(n=len(d.support or {}), r=rank, where=where)
        parts = wording.answerability_parts(d, wording_tr)  # by value and direction, biggest first
        top = max((abs(v) for _, v in parts), default=0.0) or 1.0
        rows = []
        for what, v in parts:
            cells = max(1, round(BAR_CELLS * abs(v) / top))
            colour = FOR if v > 0 else AGAINST
            rows.append(f"<tr><td>{escape(what)}</td>"
                        f"<td align='right'>{local('{v:+.2f}').format(v=v)}</td>"
                        f"<td style='color:{colour}'>{'█' * cells}</td></tr>")
        # said for a reader without the maths: what the bias is, and that the sum is what became the probability
        bias = local(self.tr("Together these parts give {s:+.2f}; the model starts every question at {b:+.2f}, so "
                             "the total is {l:+.2f}: a probability of {p:.3f}.")).format(
            s=sum(d.contributions.values()), b=d.bias, l=sum(d.contributions.values()) + d.bias,
            p=d.confidence if d.confidence is not None else 0.0)
        other = wording.judged_not_first(d, trace.final, wording_tr)
        if other:
            head += " " + local(other)
        return (f"<br><br>{escape(head)}<table cellspacing='0' cellpadding='1'>{''.join(rows)}</table>"
                f"<i>{escape(bias)}</i>")

    def set_answer(self, trace: QueryTrace) -> None:
        """After the language model's answer: its warnings join the decision's (the answer's language, a cut or
        stopped answer); the CLI prints the same after the streamed answer."""
        self.set_trace(trace)

    def clear(self) -> None:
        self.setHtml("")

    def select_chunk(self, cand: Candidate) -> None:
        pass  # the decision is about the question, not one chunk

"""Keyboard and screen readers: each widget's accessible name and description, one Tab stop per table or list, Tab in
reading order, the focus always visible, and announcements of the decision and the answer.

Names are said in the window's language (Qt's translator, context "Access"); a widget a screen reader meets with no
name is a defect the tests look for (tests/test_access.py walks every widget of the window in both languages).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import QCoreApplication as Q
from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent, QAccessibleEvent, QColor, QPalette
from PySide6.QtWidgets import QAbstractItemView, QFormLayout, QPlainTextEdit, QTextBrowser, QTextEdit, QWidget

# the focused widget framed in the theme's highlight colour (Qt's own focus marks are a dotted line or a faint
# glow in several styles: "barely visible"); item views and text views only: buttons keep their style's own frame,
# which a stylesheet on them would replace by a flat box
FOCUS_CSS = ("QAbstractItemView:focus, QTextEdit:focus, QPlainTextEdit:focus, QTextBrowser:focus "
             "{ border: 2px solid palette(highlight); }")


def name(widget: QWidget, label: str, description: str) -> None:
    """What a screen reader says for `widget`: its name, then what it does."""
    widget.setAccessibleName(label)
    widget.setAccessibleDescription(description)


def one_tab_stop(view: QAbstractItemView) -> None:
    """A table or list is one Tab stop: the arrows move inside it, Tab leaves it (Qt's default walks every cell)."""
    view.setTabKeyNavigation(False)
    view.setFocusPolicy(Qt.FocusPolicy.StrongFocus)


def readable(text: QTextEdit | QPlainTextEdit) -> None:
    """A read-only text view is reached by Tab (its text read, selected and copied by keyboard) and Tab leaves it."""
    text.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    text.setTabChangesFocus(True)
    flags = Qt.TextInteractionFlag.TextSelectableByKeyboard | Qt.TextInteractionFlag.TextSelectableByMouse
    if isinstance(text, QTextBrowser):
        flags |= Qt.TextInteractionFlag.LinksAccessibleByKeyboard | Qt.TextInteractionFlag.LinksAccessibleByMouse
    text.setTextInteractionFlags(flags)


MIN_CONTRAST = 4.5  # WCAG 2's minimum for text


def _luminance(c: QColor) -> float:
    def channel(v: float) -> float:
        return v / 12.92 if v <= 0.03928 else ((v + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(c.redF()) + 0.7152 * channel(c.greenF()) + 0.0722 * channel(c.blueF())


def contrast(a: QColor, b: QColor) -> float:
    """WCAG's contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


def legible(colour: QColor | str, widget: QWidget) -> QColor:
    """`colour` as text on `widget`'s background, lightened or darkened until it reads (a high-contrast theme's
    black background made the prompt's dark blue rows and the red 'Refused' nearly invisible)."""
    c = QColor(colour)
    base = widget.palette().color(QPalette.ColorRole.Base)
    dark = _luminance(base) < 0.5
    for _ in range(12):
        if contrast(c, base) >= MIN_CONTRAST:
            return c
        c = c.lighter(125) if dark else c.darker(125)
    return widget.palette().color(QPalette.ColorRole.Text)


def css(colour: str, widget: QWidget) -> str:
    """`legible` as a CSS colour for rich text."""
    return str(legible(colour, widget).name())


def tab_order(widgets: Sequence[QWidget]) -> None:
    """Tab walks `widgets` in this order (reading order: left to right, top to bottom)."""
    for first, second in itertools.pairwise(widgets):
        QWidget.setTabOrder(first, second)


# what is said is sent through here (a test listens: PySide6 has no update handler to install)
_send: Callable[[QAccessibleEvent], None] = QAccessible.updateAccessibility


def announce(source: QObject, text: str, assertive: bool = False) -> None:
    """Have a screen reader say `text` now (the decision, an answer that finished), without moving the focus."""
    if not text:
        return
    event = QAccessibleAnnouncementEvent(source, text)
    event.setPoliteness(QAccessible.AnnouncementPoliteness.Assertive if assertive
                        else QAccessible.AnnouncementPoliteness.Polite)
    _send(event)


def dialog_names() -> dict[str, tuple[str, str]]:
    """The dialogs' widgets (by object name) that no label or text names well enough: their name and description."""
    return {
        "settings-sections": (Q.translate("Access", "Settings sections"),
                              Q.translate("Access", "Pick a section: vault, search, models, language model")),
        "settings-page": (Q.translate("Access", "Settings page"), Q.translate("Access", "The settings of the section")),
        "settings-ok": (Q.translate("Access", "OK"), Q.translate("Access", "Save the settings and close")),
        "settings-cancel": (Q.translate("Access", "Cancel"), Q.translate("Access", "Close without saving")),
        "reranker-kind": (Q.translate("Access", "Reranker"), Q.translate("Access", "What reorders the candidates")),
        "reranker-download": (Q.translate("Access", "Download the reranker"),
                              Q.translate("Access", "Download the cross-encoder named above")),
        "reranker-cancel": (Q.translate("Access", "Cancel download"), Q.translate("Access", "Stop the download")),
        "llm-mode": (Q.translate("Access", "Language model"),
                     Q.translate("Access", "No model, the built-in model or your own server")),
        "llm-model": (Q.translate("Access", "Model"), Q.translate("Access", "The server's model that writes answers")),
        "llm-catalog": (Q.translate("Access", "Models to download"),
                        Q.translate("Access", "Each model with its download size and the memory it needs")),
        "llm-download": (Q.translate("Access", "Download the model"),
                         Q.translate("Access", "Download the model picked in the list")),
        "llm-cancel": (Q.translate("Access", "Cancel download"), Q.translate("Access", "Stop the download")),
        "llm-use-file": (Q.translate("Access", "Use a GGUF file"),
                         Q.translate("Access", "Pick a GGUF model file already on this computer")),
        "llm-test": (Q.translate("Access", "Test connection"),
                     Q.translate("Access", "Ask the model for one short sentence")),
        "llm-refresh": (Q.translate("Access", "Refresh"),
                        Q.translate("Access", "Ask the server for its models again")),
        "why-note": (Q.translate("Access", "Expected note"),
                     Q.translate("Access", "The note you expected to be found")),
        "why-run": (Q.translate("Access", "Diagnose"),
                    Q.translate("Access", "Name the first stage that dropped the note, and a fix")),
        "why-rerun": (Q.translate("Access", "Re-run the question"),
                      Q.translate("Access", "Ask the question again and diagnose anew")),
        "why-result": (Q.translate("Access", "Diagnosis"),
                       Q.translate("Access", "Why the note was not found, the evidence and what to do")),
    }


def name_children(root: QWidget) -> None:
    """Name a dialog's widgets: those of `dialog_names()` by object name, a form's field by its row's label (its
    tooltip, when it has one, describes it)."""
    names = dialog_names()
    for x in root.findChildren(QWidget):
        if x.objectName() in names:
            name(x, *names[x.objectName()])
    for form in root.findChildren(QFormLayout):
        for row in range(form.rowCount()):
            label = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            field = form.itemAt(row, QFormLayout.ItemRole.FieldRole)
            said = label.widget() if label is not None else None
            cell = field.widget() if field is not None else None
            if said is None or cell is None or not hasattr(said, "text"):
                continue
            text = said.text().replace("&", "").rstrip(":")
            for x in (cell, *cell.findChildren(QWidget)):
                if x.focusPolicy() == Qt.FocusPolicy.NoFocus or x.objectName().startswith("qt_"):
                    continue
                if not x.accessibleName():
                    x.setAccessibleName(text)
                if not x.accessibleDescription():
                    x.setAccessibleDescription(x.toolTip() or text)


def pane_focus(w: Any) -> dict[str, QWidget]:
    """The widget each inspector pane gives the focus to (its View › Go to … shortcut)."""
    panes = w.inspector.panes
    return {"candidates": panes["candidates"].table, "chart": panes["chart"], "decision": panes["decision"],
            "prompt": panes["prompt"].tree, "preview": panes["preview"].text}


Named = list[tuple[Any, str, str]]  # (widget, name, description)


def _ask_names(w: Any) -> Named:
    """The vault buttons, the ask bar and the scope row."""
    return [
        (w.open_button, Q.translate("Access", "Open a vault folder"),
         Q.translate("Access", "Choose the folder of Markdown notes to index and ask")),
        (w.demo_button, Q.translate("Access", "Open the demo vault"),
         Q.translate("Access", "Open the small example vault that comes with the app")),
        (w.recent_box, Q.translate("Access", "Recent vaults"),
         Q.translate("Access", "Open one of the vaults opened before")),
        (w.question, Q.translate("Access", "Question"),
         Q.translate("Access", "Type a question about your notes and press Enter; Up and Down walk the history")),
        (w.ask_button, Q.translate("Access", "Ask"),
         Q.translate("Access", "Search the notes for the question and answer it")),
        (w.k, Q.translate("Access", "Documents per answer"),
         Q.translate("Access", "How many documents go into the answer's prompt")),
        (w.threshold, Q.translate("Access", "Refusal threshold"),
         Q.translate("Access", "Below it the app says no note answers; auto is the calibrated value")),
        (w.folder_box, Q.translate("Access", "Folder scope"),
         Q.translate("Access", "Search only the folders picked here")),
        (w.tag_box, Q.translate("Access", "Tag scope"),
         Q.translate("Access", "Search only the notes with the tags picked here")),
        (w.pause, Q.translate("Access", "Pause indexing"),
         Q.translate("Access", "Pause or resume the indexing of the vault")),
    ]


def _answer_names(answer: Any) -> Named:
    """The answer pane and its buttons."""
    return [
        (answer.browser, Q.translate("Access", "Answer"),
         Q.translate("Access", "The answer and its sources; the marked sentence is the best passage")),
        (answer.copy, Q.translate("Access", "Copy answer with sources"),
         Q.translate("Access", "Copy the answer and its numbered sources")),
        (answer.stop, Q.translate("Access", "Stop the answer"),
         Q.translate("Access", "Stop the language model writing the answer")),
        (answer.new, Q.translate("Access", "New conversation"),
         Q.translate("Access", "Forget the earlier questions: the next one stands alone")),
    ]


def _inspector_names(w: Any) -> Named:
    """The tabs and the inspector's panes."""
    ins = w.inspector
    stages, decision, prompt, preview = (ins.panes[k] for k in ("candidates", "decision", "prompt", "preview"))
    chart = ins.panes["chart"]
    return [
        (w.tabs, Q.translate("Access", "Views"),
         Q.translate("Access", "Inspector, index health, evaluation and history")),
        (stages.table, Q.translate("Access", "Candidates"),
         Q.translate("Access", "Every candidate passage with its rank and score in each stage; the arrows pick one")),
        (stages.details_box, Q.translate("Access", "Why this candidate"),
         Q.translate("Access", "The selected candidate's scores and why it moved")),
        (chart, Q.translate("Access", "Confidence chart"),
         Q.translate("Access", "The probability that each passage the decision read answers the question")),
        (decision, Q.translate("Access", "Decision"),
         Q.translate("Access", "Answered or refused, the probability, the threshold and the margin")),
        (prompt.copy, Q.translate("Access", "Copy prompt"),
         Q.translate("Access", "Copy the exact prompt as it would be sent to a language model")),
        (prompt.tree, Q.translate("Access", "Prompt"),
         Q.translate("Access", "The prompt's documents and the whole prompt as sent")),
        (preview.open_editor, Q.translate("Access", "Open in editor"),
         Q.translate("Access", "Open the note in the system's editor at this line")),
        (preview.open_obsidian, Q.translate("Access", "Open in Obsidian"),
         Q.translate("Access", "Open the note in Obsidian")),
        (preview.text, Q.translate("Access", "Note preview"),
         Q.translate("Access", "The note's text around the selected passage")),
        (preview.web, Q.translate("Access", "Links and related notes"),
         Q.translate("Access", "The note's links, the notes linking to it and the notes close in meaning; Enter on "
                               "one shows it")),
    ]


def _evaluation_names(ev: Any) -> Named:
    """The Evaluation tab."""
    return [
        (ev.path, Q.translate("Access", "Golden file"),
         Q.translate("Access", "The golden set of questions (.jsonl) to evaluate")),
        (ev.browse, Q.translate("Access", "Browse for a golden file"),
         Q.translate("Access", "Pick the golden .jsonl file with the file dialog")),
        (ev.limit, Q.translate("Access", "Questions to ask"),
         Q.translate("Access", "How many of the golden file's questions to ask (0: all)")),
        (ev.max_pass, Q.translate("Access", "Most unanswerable passed"),
         Q.translate("Access", "The share of unanswerable questions calibration may let through")),
        (ev.run, Q.translate("Access", "Evaluate"),
         Q.translate("Access", "Ask the golden questions and measure every stage")),
        (ev.calibrate, Q.translate("Access", "Calibrate"),
         Q.translate("Access", "Pick a refusal threshold from the golden file and preview it")),
        (ev.store, Q.translate("Access", "Store threshold"),
         Q.translate("Access", "Store the previewed threshold for this vault")),
        (ev.table, Q.translate("Access", "Evaluation results"), Q.translate("Access", "hit@k and MRR of every stage")),
        (ev.questions, Q.translate("Access", "Evaluated questions"),
         Q.translate("Access", "Each question of the golden set and what went wrong")),
    ]


def _history_names(w: Any) -> Named:
    """The History tab."""
    return [
        (w.history_view.search, Q.translate("Access", "Search the history"),
         Q.translate("Access", "Show only the conversations whose questions or answers hold this text")),
        (w.history_view.talks, Q.translate("Access", "Conversations"),
         Q.translate("Access", "The conversations kept for this vault, newest first")),
        (w.history_view.items, Q.translate("Access", "Questions of the conversation"),
         Q.translate("Access", "Each question with its answer and sources; Enter reopens it in the inspector")),
        (w.history_view.reopen, Q.translate("Access", "Reopen in the inspector"),
         Q.translate("Access", "Show this exchange's stages, decision and prompt as they were")),
        (w.history_view.export, Q.translate("Access", "Export as Markdown"),
         Q.translate("Access", "Write the conversation and its sources to a Markdown file")),
        (w.history_view.delete, Q.translate("Access", "Delete conversation"),
         Q.translate("Access", "Delete this conversation and everything kept of it")),
        (w.history_view.delete_all, Q.translate("Access", "Delete all"),
         Q.translate("Access", "Delete every conversation kept for this vault")),
    ]


def _health_names(health: Any, offer: Any) -> Named:
    """The Index health tab and the local server's offer."""
    return [
        (health.tabs, Q.translate("Access", "Index health lists"),
         Q.translate("Access", "The notes indexed, excluded, failed, stale, truncated, flagged and the broken links")),
        (health.reindex, Q.translate("Access", "Re-index"),
         Q.translate("Access", "Read the vault again and index what changed")),
        (health.check, Q.translate("Access", "Consistency check"),
         Q.translate("Access", "Check the index file for damage")),
        (health.filter, Q.translate("Access", "Filter the notes"),
         Q.translate("Access", "Show only the notes whose path holds this text")),
        (offer.choice, Q.translate("Access", "Server found"),
         Q.translate("Access", "The language model server found on this machine")),
        (offer.use, Q.translate("Access", "Use it"), Q.translate("Access", "Answer with this server's model")),
        (offer.later, Q.translate("Access", "Not now"), Q.translate("Access", "Ask again at the next start")),
        (offer.never, Q.translate("Access", "Never"), Q.translate("Access", "Do not look for a local server again")),
    ]


def prepare(w: Any) -> None:
    """Names, descriptions, Tab stops, Tab order and the visible focus of the main window's parts (`w`: the
    MainWindow; typed loosely so that this module needs none of the widgets' modules)."""
    ins = w.inspector
    stages, decision, prompt, preview = (ins.panes[k] for k in ("candidates", "decision", "prompt", "preview"))
    chart = ins.panes["chart"]
    answer, health = w.answer_view, w.health
    named = (_ask_names(w) + _answer_names(answer) + _inspector_names(w) + _evaluation_names(w.evaluation)
             + _history_names(w) + _health_names(health, w.llm_offer))
    for widget, label, description in named:
        name(widget, label, description)
    for i, lw in enumerate(health.lists.values()):
        name(lw, Q.translate("Access", "Notes: {kind}").format(kind=health.tabs.tabText(i)),
             Q.translate("Access", "Notes of this kind; Enter opens one"))
    name(w.error.dismiss, Q.translate("Access", "Dismiss"), Q.translate("Access", "Hide this message"))
    for view in w.findChildren(QAbstractItemView):
        one_tab_stop(view)
    for text in (answer.browser, decision, preview.text, preview.web):
        readable(text)
    # a tab widget hands its focus to its tab bar, which is a stop of its own: as a stop too it sent Tab back to
    # the tab bar after the last pane, a loop that never reached the question again
    for tabs in (w.tabs, health.tabs):
        tabs.setFocusPolicy(Qt.FocusPolicy.NoFocus)
    chart.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # reached by its shortcut and by Tab, its numbers read out
    tab_order([w.question, w.ask_button, w.k, w.threshold, w.folder_box, w.tag_box, answer.browser, answer.copy,
               answer.new, answer.stop, w.tabs.tabBar(), stages.table, stages.details_box, chart, decision, prompt.copy,
               prompt.tree, preview.open_editor, preview.open_obsidian, preview.text, preview.hide_linked, preview.web])
    w.setStyleSheet(w.styleSheet() + FOCUS_CSS)

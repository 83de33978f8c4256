"""The answer area: Markdown rendered, [n] citations as links, the refusal as a refusal, a streamed answer live
(growing, its latest line kept in view), Copy answer with sources, and why no language model wrote it. An
extractive answer names its source above the passage (never below the fold) and highlights the one sentence it
used, over the note's own formatting (its bold stays bold, nothing else is highlighted)."""

from __future__ import annotations

import re
from collections.abc import Callable
from html import escape

from markdown_it import MarkdownIt
from PySide6.QtCore import Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QColor, QGuiApplication, QTextCharFormat, QTextCursor, QTextDocument
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QTextBrowser, QVBoxLayout, QWidget

from vaultrag.app import access
from vaultrag.app.widgets.flags import WARNING_COLOUR, WARNING_SIGN, flag_warning, flagged_documents
from vaultrag.app.words import decision_reason, refusal_plain
from vaultrag.core.model import Answer, ContextDoc, QueryTrace, SentenceCheck
from vaultrag.core.vocab import AnswerKind, ModelState, SupportVerdict

STREAM_RENDER_MS = 80  # re-render a streamed answer at most this often (Markdown of the whole text each time)
COPY_SHORTCUT = "Ctrl+Shift+C"
_MD = MarkdownIt("commonmark", {"html": False}).enable("table").enable("strikethrough")
_EMBED = re.compile(r"!\[\[([^\]|#]+)(?:[#|][^\]]*)?\]\]")  # ![[image.png]] / ![[note#heading]]
_WIKILINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")  # [[note]] / [[note|shown]]
# > [!tip] Title (within its line: a callout without a title does not take the next line for one)
_CALLOUT = re.compile(r"^([ \t]*>[ \t]*)\[!(\w+)\][+-]?[ \t]*(.*)$", re.MULTILINE)
_INLINE_HTML = re.compile(r"</?(?:u|b|i|em|strong|mark|span|sup|sub|small|font|br)\b[^>]*>", re.IGNORECASE)
_CITATION = re.compile(r"\[(\d{1,3})\]")
VERDICT_COLOURS = {SupportVerdict.SUPPORTED: "", SupportVerdict.ATTACHED: "", SupportVerdict.UNSUPPORTED: "#ffd6d6",
                   SupportVerdict.UNCITED: "#fff0c2", SupportVerdict.BAD_CITATION: "#ffd6d6",
                   SupportVerdict.REFUSAL: "#e3e3e3"}
ATTACHED_MARK, ATTACHED_COLOUR = "†", "#5f6b7a"  # an attached citation: "[2]†", greyed, in italics
SENTENCE_COLOUR = "#ffe28a"  # the extractive answer's sentence: a background over the note's own formatting
_CORE_MARK = "**"  # how the core's extractive text marks its sentence (for the terminal); the window marks it itself


# fenced code blocks and code spans: shown exactly as written (a note's example of `![[file.pdf#page=3]]` or of
# a callout's syntax is what a reader copies)
_CODE = re.compile(r"(?ms)^[ \t]*(?P<fence>`{3,}|~{3,})[^\n]*\n.*?^[ \t]*(?P=fence)[^\n]*$|``[^`\n]+``|`[^`\n]+`")


def _outside_code(text: str, fold: Callable[[str], str]) -> str:
    """`fold` applied to the text between the code blocks and code spans of `text`, which are kept as they are."""
    out, at = [], 0
    for m in _CODE.finditer(text):
        out += [fold(text[at:m.start()]), m.group(0)]
        at = m.end()
    return "".join([*out, fold(text[at:])])


_BLOCK_ID = re.compile(r"[ \t]+\^[A-Za-z0-9-]+[ \t]*$", re.MULTILINE)  # "… text ^block-id": a link target, not text


def _fold_plain(text: str) -> str:
    text = _BLOCK_ID.sub("", _INLINE_HTML.sub("", text))
    text = _EMBED.sub(lambda m: f"*[{m.group(1).strip()}]*", text)
    return _WIKILINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)


def _fold_obsidian(text: str) -> str:
    """Obsidian's own markup as plain Markdown: inline HTML dropped, embeds and wikilinks as their names (not in
    code)."""
    return _outside_code(text, _fold_plain)


def _callouts(text: str) -> str:
    """A callout's first line as its title in bold, as Obsidian shows it (its type's name when it has none: a
    title after the type read "Note: Note", "Tip: Tip")."""
    return _CALLOUT.sub(lambda m: f"{m.group(1)}**{m.group(3).strip() or m.group(2).capitalize()}**", text)


def inline_markdown_to_html(text: str) -> str:
    """One sentence's Markdown (its **bold**, `code`, links) as inline HTML: no `**` shows."""
    return str(_MD.renderInline(_fold_obsidian(text)))


def note_markdown_to_html(text: str) -> str:
    """Obsidian-flavoured Markdown as the HTML subset QTextBrowser shows (embeds, callouts, wikilinks folded)."""
    text = _outside_code(text, lambda part: _callouts(_fold_plain(part)))
    return str(_MD.render(text))  # the note's bold is bold: only the answer's own sentence gets a highlight


def unmarked(text: str, sentence: str) -> tuple[str, int]:
    """The extractive answer's text without the core's `**sentence**` mark, and where the sentence starts (-1
    when it is not marked): the window highlights it in the rendered text, so no `**` of the mark meets the
    note's own (which left raw asterisks, or split an embed's `!` from its `[[…]]`)."""
    if not sentence:
        return text, -1
    at = text.find(_CORE_MARK + sentence + _CORE_MARK)
    if at < 0:
        return text, -1
    end = at + len(sentence) + 2 * len(_CORE_MARK)
    return text[:at] + sentence + text[end:], at


def _shown(markdown: str) -> str:
    """Markdown as the view shows it, as plain text (links, embeds and emphasis rendered)."""
    doc = QTextDocument()
    doc.setHtml(note_markdown_to_html(markdown))
    return doc.toPlainText()


def link_citations(html: str) -> str:
    """[n] → a link the view turns into citation_activated(n)."""
    return _CITATION.sub(lambda m: f"<a href='cite:{m.group(1)}'>[{m.group(1)}]</a>", html)


def passage_doc(trace: QueryTrace, a: Answer) -> ContextDoc | None:
    """The prompt document an extractive answer's passage came from: its note may have several in the prompt, and
    the first is not always it."""
    return next((d for d in trace.context if d.note == a.note and d.source == a.source), None) or \
        next((d for d in trace.context if d.note == a.note), None)


class AnswerView(QWidget):
    """Shows one question's answer; `begin_stream` / `append_stream` / `show_answer` drive a generated one.

    Signals:
        citation_activated(int): the user clicked [n] (n = the prompt document's index).
        stop_requested: the Stop button (while streaming).
        new_conversation_requested: the "New conversation" button.
        copied(str): the answer with its sources went to the clipboard (the text copied).
    """

    citation_activated = Signal(int)
    stop_requested = Signal()
    new_conversation_requested = Signal()
    copied = Signal(str)

    def __init__(self) -> None:
        super().__init__()
        self.kind = QLabel()
        self.kind.setObjectName("answer-kind")
        self.kind.setWordWrap(True)
        self.copy = QPushButton(self.tr("Copy answer with sources"))
        self.copy.setObjectName("answer-copy")
        self.copy.setToolTip(self.tr("Copy the answer and its numbered sources to the clipboard ({key})")
                             .format(key=COPY_SHORTCUT))
        self.notice = QLabel()  # why no language model wrote the answer: said with every answer until fixed
        self.notice.setObjectName("answer-notice")
        self.notice.setWordWrap(True)
        self.notice.setStyleSheet("color: #b71c1c;")
        self.notice.hide()
        self.source = QLabel()  # an extractive answer's source: above the passage, so a long one never hides it
        self.source.setWordWrap(True)  # with a translated sentence it takes a second line
        self.source.setObjectName("answer-source")
        self.source.setTextFormat(Qt.TextFormat.RichText)
        self.source.linkActivated.connect(lambda href: self._on_link(QUrl(href)))
        self.source.hide()
        self.stop = QPushButton(self.tr("Stop"))
        self.stop.setObjectName("answer-stop")
        self.stop.setToolTip(self.tr("Stop writing the answer (Ctrl+.)"))
        self.new = QPushButton(self.tr("New conversation"))
        self.new.setObjectName("answer-new-conversation")
        self.browser = QTextBrowser()
        self.browser.setObjectName("answer")
        self.browser.setPlaceholderText(self.tr("The answer: ask a question above; its passage, its best sentence "
                                                "marked and its source show here."))
        self.browser.setOpenLinks(False)
        self.browser.anchorClicked.connect(self._on_link)
        # the checked answer replaces the streamed one, then the pane grows at the next layout: while the reader
        # followed the end, each change of the scroll range (that growth, a re-wrap) keeps the end in view
        self._follow_end = False
        self.browser.verticalScrollBar().rangeChanged.connect(self._keep_end)
        self.browser.verticalScrollBar().actionTriggered.connect(self._left_end)  # the reader's own scrolling
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(self.kind, 1)
        top.addWidget(self.stop)
        top.addWidget(self.copy)
        top.addWidget(self.new)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        col.addLayout(top)
        col.addWidget(self.notice)
        col.addWidget(self.source)
        col.addWidget(self.browser, 1)
        self.stop.clicked.connect(self.stop_requested.emit)
        self.new.clicked.connect(self.new_conversation_requested.emit)
        self.copy.clicked.connect(self.copy_answer)
        self._stream = ""
        self._stream_model = ""
        self._trace: QueryTrace | None = None  # the answer shown (the extractive one while a model writes)
        self._streaming = False
        self._llm_problem = ""
        self.base_height, self.most_height = 150, 150  # `set_heights`: it grows from the first up to the second
        self.passage_height = 150  # how far an extractive answer's passage grows it
        self._render_timer = QTimer(self)
        self._render_timer.setSingleShot(True)
        self._render_timer.setInterval(STREAM_RENDER_MS)
        self._render_timer.timeout.connect(self._render_stream)
        self.renders = 0  # how many times the streamed text was re-rendered (the throttle's effect)
        self.stop.hide()
        self.copy.setEnabled(False)

    def set_heights(self, base: int, most: int, passage: int | None = None) -> None:
        """Its height: `base` for a short answer; a streamed answer grows it up to `most`, an extractive answer's
        passage up to `passage` (default `base`), then they scroll."""
        self.base_height, self.most_height = base, max(base, most)
        self.passage_height = max(base, passage or base)
        self._fit(0)

    def _fit(self, wanted: int, most: int | None = None) -> None:
        """Grow to show `wanted` pixels of answer (within base…most); 0 goes back to the base height."""
        h = min(max(wanted, self.base_height), most or self.most_height)
        self.setMaximumHeight(h)
        self.setMinimumHeight(h if wanted else 0)

    def _grow_to_content(self, most: int | None = None) -> None:
        browser = self.browser
        doc_h = browser.document().size().height()
        chrome = self.height() - browser.viewport().height()  # the title row, the notice, frames and spacing
        self._fit(int(doc_h) + chrome + 2, most)

    # -- a finished answer --------------------------------------------------------------------------
    def show_answer(self, trace: QueryTrace) -> None:
        """The final answer of `trace`: extractive, refused, or generated (sentences marked by their check)."""
        self._render_timer.stop()
        self.stop.hide()
        self._streaming = False
        self._follow_end = False
        self._trace = trace
        self.copy.setEnabled(True)
        self.source.hide()
        a = trace.answer
        # the answer as a screen reader says it once it is whole (not each streamed piece: a stutter)
        access.announce(self.browser, self.spoken(trace))
        if a.kind == AnswerKind.REFUSAL:
            self.kind.setText(self.tr("<b style='color:{red}'>Refused</b>: no note seems to answer this").format(
                red=access.css("#c62828", self)))
            plain = refusal_plain(trace)
            lead = f"<p>{escape(plain)}</p>" if plain else ""
            self.browser.setHtml(f"<p><b>{escape(a.text)}</b></p>{lead}<p><i>{escape(decision_reason(trace))}</i></p>")
            return
        if a.kind == AnswerKind.GENERATED:
            backed = sum(s.verdict in (SupportVerdict.SUPPORTED, SupportVerdict.ATTACHED) for s in a.sentences)
            claims = sum(s.verdict != SupportVerdict.REFUSAL for s in a.sentences)
            self.kind.setText(self.tr("<b>Written by {model}</b>: {k} of {n} sentences backed by a note they cite")
                              .format(model=escape(a.model or self._stream_model), k=backed, n=claims))
            body = self._sentences_html(a.text, a.sentences) if a.sentences else \
                link_citations(note_markdown_to_html(a.text))
            cited = {n for s in a.sentences for n in s.citations} if a.sentences else \
                {int(n) for n in _CITATION.findall(a.text)}
            bar = self.browser.verticalScrollBar()
            # the stream's end was in view, or nothing could be scrolled yet (its growth not laid out): follow the end
            followed = bar.value() >= bar.maximum() - 4
            self._follow_end = followed
            self.browser.setHtml(self._flag_warnings(trace, cited) + body)
            self._grow_to_content()
            if followed:  # the checked answer replaces the streamed one: its last line and citations stay in view
                bar.setValue(bar.maximum())
            return
        if self._llm_problem:
            self.kind.setText(self.tr("<b>Extractive</b>: the passage most likely to answer, its best sentence "
                                      "marked — no language model wrote this answer (why: below)"))
        else:
            self.kind.setText(self.tr("<b>Extractive</b>: no language model configured — the passage most likely "
                                      "to answer, its best sentence marked"))
        doc = passage_doc(trace, a)
        where = escape(a.source or a.note)
        if doc is not None:
            where = f"<a href='cite:{doc.index}'>[{doc.index}] {where}</a>"
        line = self.tr("line {n}").format(n=a.line) if a.line else ""
        said = self.tr("Source: {where}").format(where=where) + (", " + line if line else "")
        if a.translated:  # a note in another language: its sentence in the question's, the note's own text below
            said += "<br>" + self.tr("<i>Its best sentence, translated:</i> {sentence}").format(
                sentence=escape(a.translated))
        self.source.setText(said)
        self.source.setToolTip(self.tr("Machine translation of the marked sentence; the note's own words are the "
                                       "answer and what is cited.") if a.translated else "")
        self.source.show()
        warnings = self._flag_warnings(trace, {doc.index} if doc is not None else set())
        text, at = unmarked(a.text, a.sentence)
        self.browser.setHtml(warnings + note_markdown_to_html(text))
        self._grow_to_content(self.passage_height)  # a long passage takes some more room, then scrolls
        marked = self._mark_sentence(text, at, a.sentence)
        if marked is not None and not warnings:  # a hostile note's warning stays in view above its text
            self._show_marked(marked)

    def _keep_end(self, _low: int, high: int) -> None:
        if self._follow_end:
            self.browser.verticalScrollBar().setValue(high)

    def _left_end(self, _action: int) -> None:
        bar = self.browser.verticalScrollBar()
        if bar.sliderPosition() < bar.maximum() - 4:  # the reader scrolled up: leave them there
            self._follow_end = False

    def _mark_sentence(self, text: str, at: int, sentence: str) -> QTextCursor | None:
        """Highlight the answer's sentence where the answer took it (the same words earlier in the note, a heading
        say, stay plain), over the note's own formatting; the cursor on it, or None when it is not shown."""
        needle = _shown(sentence).strip() if sentence else ""
        if not needle:
            return None
        document = self.browser.document()
        before = _shown(text[:at]).count(needle) if at > 0 else 0  # the same words shown before the answer's
        # "see ![[photo]]" ends a sentence at its "!": shown, the embed is "[photo]", so the words without the end
        for words in dict.fromkeys((needle, needle.rstrip(".!?…:; "))):
            found, skipped = document.find(words), 0
            while not found.isNull() and skipped < before:
                nxt = document.find(words, found)
                if nxt.isNull():
                    break
                found, skipped = nxt, skipped + 1
            if not found.isNull():
                mark = QTextCharFormat()
                mark.setBackground(QColor(SENTENCE_COLOUR))
                mark.setForeground(QColor("#000000"))  # dark on the light mark, whatever the theme's text colour
                found.mergeCharFormat(mark)  # a background only: bold, links and italics stay as the note has them
                return found
        return None

    def _show_marked(self, found: QTextCursor) -> None:
        """Scroll the marked sentence into view: far down a long passage it would otherwise sit below the fold."""
        at = QTextCursor(self.browser.document())
        at.setPosition(found.selectionEnd())  # its end first, then its start: the whole sentence comes into view
        self.browser.setTextCursor(at)
        self.browser.ensureCursorVisible()
        at.setPosition(found.selectionStart())
        self.browser.setTextCursor(at)
        self.browser.ensureCursorVisible()

    @staticmethod
    def _flag_warnings(trace: QueryTrace, cited: set[int]) -> str:
        """A warning above the answer (always in view) for each cited document whose note tries to give orders."""
        flagged = flagged_documents(trace)
        docs = {d.index: d for d in trace.context}
        lines = [f"{WARNING_SIGN} [{n}] {escape(flag_warning(docs[n].note, flagged[n]))}"
                 for n in sorted(cited) if n in flagged]
        return "".join(f"<p style='color:{WARNING_COLOUR}'>{line}</p>" for line in lines)

    def _sentences_html(self, text: str, sentences: list[SentenceCheck]) -> str:
        """The answer's own Markdown (its lists, paragraphs and line breaks), each checked sentence marked in place:
        the sentences are found in the text in order, stood in for by a word Markdown leaves alone, and the
        rendered HTML gets each one back, marked."""
        marked = self._marked_sentences(sentences)
        out, at = [], 0
        tokens: dict[str, str] = {}
        for n, (sentence, html) in enumerate(marked):
            found = text.find(sentence.text, at)
            if found < 0:  # not where the check saw it (should not happen): the sentences alone, as a paragraph
                return "<p>" + " ".join(h for _, h in marked) + "</p>" + self._legend(sentences)
            token = f"vaultragsentence{n}x"
            tokens[token] = html
            out.append(text[at:found] + token)
            at = found + len(sentence.text)
        out.append(text[at:])
        rendered = link_citations(note_markdown_to_html("".join(out)))
        for token, html in tokens.items():
            rendered = rendered.replace(token, html, 1)
        return rendered + self._legend(sentences)

    def _legend(self, sentences: list[SentenceCheck]) -> str:
        if not any(s.verdict == SupportVerdict.ATTACHED for s in sentences):
            return ""
        legend = self.tr("{mark} attached by vaultrag: the model cited nothing there, and that note backs the "
                         "sentence").format(mark=ATTACHED_MARK)
        return f"<p style='color:{ATTACHED_COLOUR}'><i>{escape(legend)}</i></p>"

    def _marked_sentences(self, sentences: list[SentenceCheck]) -> list[tuple[SentenceCheck, str]]:
        """Each sentence as HTML with its check's mark (colour and words), or its attached citation."""
        words = {SupportVerdict.UNSUPPORTED: self.tr("not supported by its source"),
                 SupportVerdict.UNCITED: self.tr("no citation, and no note backs it"),
                 SupportVerdict.BAD_CITATION: self.tr("cites a document that is not in the prompt"),
                 SupportVerdict.REFUSAL: self.tr("refusal"), SupportVerdict.SUPPORTED: "",
                 SupportVerdict.ATTACHED: ""}
        parts = []
        for s in sentences:
            body = self._attached_html(s) if s.verdict == SupportVerdict.ATTACHED else \
                link_citations(inline_markdown_to_html(s.text))
            colour = VERDICT_COLOURS[s.verdict]
            if colour:
                body = (f"<span style='background:{colour}; color:#000000'>{body}</span>"
                        f"<sup style='color:#8a1c1c'> {escape(words[s.verdict])}</sup>")
            parts.append((s, body))
        return parts

    def _attached_html(self, s: SentenceCheck) -> str:
        """A sentence the model left uncited, with the citation the check attached: "[2]†", greyed and in italics
        (the model's own [n] is a plain link), a tooltip saying whose it is; before the full stop, as the model's."""
        tip = self.tr("Attached by vaultrag, not cited by the model: document {n} backs this sentence (support "
                      "{support:.0%}).")
        marks = "".join(f"<a href='cite:{n}' title='{escape(tip.format(n=n, support=s.support or 0.0))}' "
                        f"style='color:{ATTACHED_COLOUR}'><i>[{n}]{ATTACHED_MARK}</i></a>" for n in s.citations)
        text = s.text.rstrip()
        end = len(text) - len(text.rstrip(".!?"))  # the closing punctuation stays after the mark
        return f"{inline_markdown_to_html(text[:len(text) - end])} {marks}{escape(text[len(text) - end:])}"

    def show_message(self, text: str) -> None:
        """A plain message in the answer area (nothing asked yet, a search running)."""
        self._render_timer.stop()
        self._trace, self._stream, self._streaming = None, "", False
        self.copy.setEnabled(False)
        self._fit(0)
        self.kind.setText("")
        self.source.hide()
        self.browser.setHtml(f"<p><i>{escape(text)}</i></p>")

    def clear(self) -> None:
        self._follow_end = False
        self._render_timer.stop()
        self._trace, self._stream, self._streaming = None, "", False
        self.copy.setEnabled(False)
        self._fit(0)
        self.kind.setText("")
        self.source.hide()
        self.stop.hide()
        self.browser.clear()

    def set_llm_problem(self, text: str) -> None:
        """Why no language model writes the answers ("" when one does, or none is set): shown above every
        extractive answer until it is fixed (a banner would go away with the next search)."""
        self._llm_problem = text
        self.notice.setText(text)
        self.notice.setVisible(bool(text))

    # -- Copy answer with sources -------------------------------------------------------------------
    def answer_with_sources(self) -> str:
        """The answer shown (or written so far) as plain text, then its numbered sources: "[1] note › heading
        (path:line)" — the prompt documents it cites (the extractive answer's own passage)."""
        trace = self._trace
        if trace is None:
            return ""
        a = trace.answer
        docs = {d.index: d for d in trace.context}
        if self._streaming and not self._stream.strip():
            return ""  # the model is starting or has not written yet: nothing to copy
        if self._streaming:
            text, cited = self._stream, {int(n) for n in _CITATION.findall(self._stream)}  # still being written
        elif a.kind == AnswerKind.GENERATED:
            text = a.text + self._checks_text(a.sentences)
            cited = {n for s in a.sentences for n in s.citations} | {int(n) for n in _CITATION.findall(a.text)}
        elif a.kind == AnswerKind.REFUSAL:
            plain = refusal_plain(trace)
            text, cited = "\n\n".join(x for x in (a.text, plain, decision_reason(trace)) if x), set()
        else:
            doc = passage_doc(trace, a)
            text, cited = unmarked(a.text, a.sentence)[0], {doc.index} if doc is not None else set()
        lines = [self._source_line(docs[n]) for n in sorted(cited) if n in docs]
        return text.strip() + ("\n\n" + self.tr("Sources:") + "\n" + "\n".join(lines) if lines else "") + "\n"

    def _checks_text(self, sentences: list[SentenceCheck]) -> str:
        """What the check found, for the copied text: the citations vaultrag attached, the sentences no note backs."""
        said = {SupportVerdict.UNSUPPORTED: self.tr("not supported by its source"),
                SupportVerdict.UNCITED: self.tr("no citation, and no note backs it"),
                SupportVerdict.BAD_CITATION: self.tr("cites a document that is not in the prompt")}
        attached = self.tr("attached by vaultrag")
        lines = []
        for s in sentences:
            if s.verdict == SupportVerdict.ATTACHED:
                marks = "".join(f"[{n}]{ATTACHED_MARK}" for n in s.citations)
                lines.append(f"{marks} {attached}: {s.text}")
            elif s.verdict in said:
                lines.append(f"({said[s.verdict]}) {s.text}")
        return ("\n\n" + self.tr("Checks:") + "\n" + "\n".join(lines)) if lines else ""

    @staticmethod
    def _source_line(d: ContextDoc) -> str:
        title = d.note.rsplit("/", 1)[-1].removesuffix(".md")
        path = [title, *d.heading_path]
        if len(path) > 1 and path[1] == title:  # a note whose first heading is its title: named once
            del path[1]
        return f"[{d.index}] " + " › ".join(path) + f" ({d.note}:{d.line_start + 1})"

    def copy_answer(self) -> None:
        """Put the answer with its sources on the clipboard (the button and Ask › Copy answer with sources)."""
        text = self.answer_with_sources()
        if not text:
            return
        QGuiApplication.clipboard().setText(text)
        self.copied.emit(text)

    # -- a streamed answer --------------------------------------------------------------------------
    def spoken(self, trace: QueryTrace) -> str:
        """The answer in a sentence or two for a screen reader: what it is, then its text and its first source."""
        a = trace.answer
        if a.kind == AnswerKind.REFUSAL:
            return self.tr("Refused: {text}").format(text=a.text)
        where = self.tr(" Source: {source}.").format(source=a.source) if a.source else ""
        return self.tr("Answer: {text}").format(text=a.sentence or a.text) + where

    def begin_stream(self, model: str) -> None:
        self._follow_end = False
        self._stream, self._stream_model, self._streaming = "", model, True
        self.kind.setText(self.tr("<b>{model}</b> is writing…").format(model=escape(model)))
        self.source.hide()
        self.browser.clear()
        self.stop.show()
        access.announce(self.browser, self.tr("{model} is writing the answer").format(model=model))

    def show_model_state(self, state: ModelState) -> None:
        """The model is being made ready before it writes: loading its file (the first question), or restarting
        after it stopped; ready: it writes."""
        model = escape(self._stream_model)
        if state == ModelState.LOADING:
            self.kind.setText(self.tr("<b>Loading {model}…</b> the model starts with the first question (a few "
                                      "seconds; later answers start at once)").format(model=model))
            self.browser.setHtml("<p><i>" + self.tr("loading model…") + "</i></p>")
        elif state == ModelState.RESTARTING:
            self.kind.setText(self.tr("<b style='color:#c62828'>{model} stopped</b>: restarting it…")
                              .format(model=model))
            self.browser.setHtml("<p><i>" + self.tr("restarting the model…") + "</i></p>")
        elif not self._stream:  # ready, but it reads the whole prompt before its first word (seconds on a laptop)
            self.kind.setText(self.tr("<b>{model}</b> is reading the question and the notes…").format(model=model))
            self.browser.setHtml("<p><i>" + self.tr("reading the notes…") + "</i></p>")

    def append_stream(self, text: str) -> None:
        """Add streamed text; the Markdown is re-rendered at most every STREAM_RENDER_MS."""
        if not self._stream and text:  # its first word: it writes now
            self.kind.setText(self.tr("<b>{model}</b> is writing…").format(model=escape(self._stream_model)))
        self._stream += text
        if not self._render_timer.isActive():
            self._render_timer.start()

    def stream_text(self) -> str:
        return self._stream

    def _render_stream(self) -> None:
        self.renders += 1
        bar = self.browser.verticalScrollBar()
        at_end = bar.value() >= bar.maximum() - 4  # a reader who scrolled up is left where they are
        self.browser.setHtml(link_citations(note_markdown_to_html(self._stream)))
        self._grow_to_content()
        if at_end:  # the latest line and its citations in view
            bar.setValue(bar.maximum())

    def show_stream_error(self, message: str) -> None:
        """The stream broke: keep what was written, say what went wrong under it. Nothing written (the model
        could not start or be reached): the extractive answer stays, the failure said above it."""
        self._render_timer.stop()
        self.stop.hide()
        self._streaming = False
        if not self._stream and self._trace is not None:
            self.notice.setText(message)
            self.notice.show()
            trace, self._llm_problem = self._trace, self._llm_problem or message
            self.show_answer(trace)
            return
        self.kind.setText(self.tr("<b style='color:#c62828'>The answer stopped</b>: {m}").format(m=escape(message)))
        self.browser.setHtml(link_citations(note_markdown_to_html(self._stream))
                             + f"<p style='color:#c62828'><i>{escape(message)}</i></p>")

    def _on_link(self, url: QUrl) -> None:
        if url.scheme() == "cite" and url.path().isdigit():
            self.citation_activated.emit(int(url.path()))

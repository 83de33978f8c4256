"""The main window: ask bar with scope chips, answer, the side-by-side inspector, health and evaluation tabs."""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtGui import QAction, QKeySequence, QResizeEvent
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QMainWindow,
    QMenu,
    QMessageBox,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QStyle,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app import access
from vaultrag.app.controller import AppController
from vaultrag.app.widgets.answer_view import COPY_SHORTCUT, AnswerView
from vaultrag.app.widgets.banner import Banner
from vaultrag.app.widgets.eval_view import EvalView
from vaultrag.app.widgets.health_panel import HealthPanel
from vaultrag.app.widgets.history_view import HistoryView
from vaultrag.app.widgets.inspector import Inspector
from vaultrag.app.widgets.llm_offer import LlmOfferBar
from vaultrag.app.widgets.settings_dialog import SettingsDialog
from vaultrag.app.widgets.threshold_box import ThresholdBox
from vaultrag.app.widgets.why_dialog import WhyDialog
from vaultrag.app.words import tier_shares
from vaultrag.core.model import Candidate, Progress, QueryTrace
from vaultrag.core.scope import Scope
from vaultrag.core.vocab import LaneEventKind, Phase, Timing

DEMO_VAULT = Path(__file__).resolve().parents[3] / "resources" / "demo-vault"
MAX_RECENT = 8
STATUS_MS = 8000  # a passing status message (copied, nothing opened…) goes after this long
SCOPE_BOXES = ("folder-scope", "tag-scope")
LIST_KEYS = (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown, Qt.Key.Key_Home, Qt.Key.Key_End)
# the answer pane's one height (px at 1280×800; `answer_height` scales it with the window): it grew from 150 to 185
# with a long answer and its height jumped between questions; at this height the table keeps 8 rows
ANSWER_HEIGHT = 185
ANSWER_SHARE, ANSWER_MIN, ANSWER_MAX = ANSWER_HEIGHT / 800, 120, 300
HEALTH_REFRESH_S = 5.0  # while vectors fill, an open Index health tab is read again this often (its tier shares)


def answer_height(window_height: int) -> int:
    """The answer pane's height in a window this tall: the same for every answer (a long one scrolls)."""
    return max(ANSWER_MIN, min(ANSWER_MAX, round(window_height * ANSWER_SHARE)))


def _str_list(value: object) -> list[str]:
    """A list setting read back from QSettings' ini file (a one-item list comes back as a plain string)."""
    if not value:
        return []
    if isinstance(value, str):
        return [value]
    return [str(v) for v in value] if isinstance(value, list | tuple) else []


class MainWindow(QMainWindow):
    def __init__(self, controller: AppController) -> None:
        super().__init__()
        self.c = controller
        self.state = QSettings(str(controller.paths.home / "ui.ini"), QSettings.Format.IniFormat)
        self.state.remove("history")  # once shared by every vault in this file: each vault keeps its own now
        self.trace: QueryTrace | None = None
        self._indexed = False  # the open vault's index has reported once (its notes can be counted)
        self.vault_state: QSettings | None = None  # the open vault's own (its question history)
        self.history: list[str] = []
        self._history_pos = 0
        self._asking: str | None = None  # the question being searched (its failure is said in the answer pane)
        self._expected: str | None = None  # an evaluation question's note, selected when its answer comes
        self.scope = Scope()
        self.setWindowTitle("vaultrag")
        self.resize(1280, 800)
        self._build()
        self._menus()
        access.prepare(self)  # names for screen readers, one Tab stop per table, Tab in reading order
        self._connect()
        self._vault_tools(False)
        geometry = self.state.value("geometry")
        if geometry is not None:
            self.restoreGeometry(geometry)

    # -- construction: one small builder per part of the window --------------------------------------
    def _build(self) -> None:
        self.pages = QStackedWidget()
        central = QWidget()
        outer = QVBoxLayout(central)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(self._build_error_banner())  # above every page: problems show on the welcome page too
        self.llm_offer = LlmOfferBar()
        outer.addWidget(self.llm_offer)
        outer.addWidget(self.pages, 1)
        self.setCentralWidget(central)
        self.pages.addWidget(self._build_welcome())
        main = QWidget()
        col = QVBoxLayout(main)
        col.addLayout(self._build_ask_bar())
        col.addLayout(self._build_scope_row())
        col.addWidget(self._build_answer())
        col.addWidget(self._build_tabs(), 1)
        self.pages.addWidget(main)
        self._build_status_bar()
        self.why_dialog = WhyDialog(self)
        self._refresh_recent()

    def _build_error_banner(self) -> Banner:
        self.error = Banner()
        return self.error

    def _build_welcome(self) -> QWidget:
        welcome = QWidget()
        wl = QVBoxLayout(welcome)
        wl.addStretch(1)
        title = QLabel(self.tr("<h2>Ask your notes</h2><p>Open a folder of Markdown notes (an Obsidian vault "
                               "works as it is). Nothing leaves this machine and your notes are never written."))
        title.setWordWrap(True)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title.setObjectName("welcome-text")
        # a wrapped label added with an alignment gets its one-line width and loses the rest: a stretched row
        # with a bounded width lets it wrap to its full height
        title.setMaximumWidth(620)
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addWidget(title, 4)
        centred.addStretch(1)
        wl.addLayout(centred)
        self.open_button = QPushButton(self.tr("Open a vault folder…"))
        self.demo_button = QPushButton(self.tr("Open the demo vault"))
        self.recent_box = QComboBox()
        self.recent_box.setObjectName("recent-vaults")
        for wdg in (self.open_button, self.demo_button, self.recent_box):
            wl.addWidget(wdg, 0, Qt.AlignmentFlag.AlignHCenter)
        wl.addStretch(2)
        return welcome

    def _build_ask_bar(self) -> QHBoxLayout:
        ask = QHBoxLayout()
        self.question = QLineEdit()
        self.question.setObjectName("question")
        self.question.setPlaceholderText(self.tr("Ask your notes… (Enter; ↑/↓ for history)"))
        self.question.installEventFilter(self)
        self.ask_button = QPushButton(self.tr("Ask"))
        self.k = QSpinBox()
        self.k.setRange(1, 50)
        self.k.setValue(self.c.settings.k)
        self.k.setPrefix("k = ")
        self.k.setToolTip(self.tr("How many documents go into the answer's prompt"))
        self.threshold = ThresholdBox()
        self.k.valueChanged.connect(lambda _v: self._asked_otherwise())
        self.threshold.valueChanged.connect(lambda _v: self._asked_otherwise())
        for wdg, stretch in ((self.question, 1), (self.ask_button, 0), (self.k, 0), (self.threshold, 0)):
            ask.addWidget(wdg, stretch)
        return ask

    def _build_scope_row(self) -> QHBoxLayout:
        scope = QHBoxLayout()
        self.folder_box = QComboBox()
        self.folder_box.setObjectName("folder-scope")
        self.tag_box = QComboBox()
        self.tag_box.setObjectName("tag-scope")
        for box, hint in ((self.folder_box, self.tr("add a folder…")), (self.tag_box, self.tr("add a tag…"))):
            box.addItem(hint, "")  # nothing is preselected: the scope is empty until a chip is added
            box.setMinimumContentsLength(14)
            box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.folder_box.setToolTip(self.tr("Search only this folder: pick one and it applies at once"))
        self.tag_box.setToolTip(self.tr("Search only notes with this tag: pick one and it applies at once"))
        self.scope_hint = QLabel(self.tr("whole vault"))
        self.scope_hint.setObjectName("scope-hint")
        self.chips = QHBoxLayout()
        for wdg in (QLabel(self.tr("Scope:")), self.folder_box, self.tag_box):
            scope.addWidget(wdg)
        scope.addWidget(self.scope_hint)
        scope.addLayout(self.chips)
        scope.addStretch(1)
        # a folder picked is in the scope at once (an "+ folder" press after the pick was easy to miss); the arrow
        # keys open the list (on a closed box each step would be a pick), Enter picks
        for box, kind in ((self.folder_box, "folders"), (self.tag_box, "tags")):
            box.activated.connect(lambda _i, k=kind, b=box: self._add_chip(k, b))
            box.installEventFilter(self)
        return scope

    def _build_answer(self) -> AnswerView:
        self.answer_view = AnswerView()
        self.answer_view.set_heights(ANSWER_HEIGHT, ANSWER_HEIGHT, ANSWER_HEIGHT)
        self.answer = self.answer_view.browser
        return self.answer_view

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        h = answer_height(self.height())
        if h != self.answer_view.base_height:
            self.answer_view.set_heights(h, h, h)

    def _build_tabs(self) -> QTabWidget:
        self.inspector = Inspector()
        self.tabs = QTabWidget()
        self.health = HealthPanel()
        self.evaluation = EvalView()
        self.tabs.addTab(self.inspector, self.tr("Inspector"))
        self.tabs.addTab(self.health, self.tr("Index health"))
        self.tabs.addTab(self.evaluation, self.tr("Evaluation"))
        self.history_view = HistoryView(self.c.history, self._vault_path)
        self.tabs.addTab(self.history_view, self.tr("History"))
        return self.tabs

    def _vault_path(self) -> str | None:
        ws = self.c.session.ws
        return str(ws.vault) if ws is not None else None

    def forget_questions(self, questions: list[str] | None) -> None:
        """Deleted from the History: gone from the question box's recall too (None: every question)."""
        gone = None if questions is None else set(questions)
        self.history = [] if gone is None else [q for q in self.history if q not in gone]
        self._history_pos = len(self.history)
        if self.vault_state is not None:
            self.vault_state.setValue("history", self.history[-100:])
            self.vault_state.sync()

    def show_kept(self, trace: QueryTrace) -> None:
        """An exchange of the History tab in every pane, as it was answered (not asked again)."""
        self._on_search_finished(trace)
        self._tab(0)

    def _build_status_bar(self) -> None:
        self.status = QLabel(self.tr("No vault open"))
        self.status.setObjectName("status")
        self.phase = QLabel()
        self.phase.setObjectName("index-phase")
        self.progress = QProgressBar()
        self.progress.setFixedWidth(170)
        self.progress.setFormat("%v/%m")  # the phase is the label beside it: the bar's text stays one short line
        self.progress.hide()
        self.eta = QLabel()
        self._health_stale = True  # the Index health tab's lists may be older than the index (read when shown)
        self._health_at = 0.0  # when the filling vectors last refreshed the Index health tab (time.monotonic)
        self.pause = QPushButton(self.tr("Pause"))
        self.pause.setCheckable(True)
        self.pause.hide()
        bar = self.statusBar()
        bar.addWidget(self.status, 1)
        bar.addPermanentWidget(self.phase)
        bar.addPermanentWidget(self.eta)
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.pause)

    def _menus(self) -> None:
        self.menu_actions: list[QAction] = []
        m = self.menuBar().addMenu(self.tr("&File"))
        self._action(m, self.tr("&Open vault…"), QKeySequence.StandardKey.Open, self.choose_vault)
        self._action(m, self.tr("Open the &demo vault"), "Ctrl+Shift+D", lambda: self.open_vault(DEMO_VAULT))
        self.recent_menu = m.addMenu(self.tr("&Recent vaults"))
        m.addSeparator()
        self._action(m, self.tr("&Quit"), QKeySequence.StandardKey.Quit, self.close)
        a = self.menuBar().addMenu(self.tr("&Ask"))
        # what asks, diagnoses or evaluates needs an open vault: disabled until one is (`_vault_tools`)
        self.vault_actions = [
            self._action(a, self.tr("&Focus the question"), "Ctrl+L", self._focus_question),
            self._action(a, self.tr("&Ask"), "Ctrl+Return", self.ask),
            self._action(a, self.tr("&Stop the answer"), "Ctrl+.", self.answer_view.stop_requested.emit),
            self._action(a, self.tr("&Copy answer with sources"), COPY_SHORTCUT, self.answer_view.copy_answer),
            self._action(a, self.tr("&New conversation"), "Ctrl+Shift+N",
                         self.answer_view.new_conversation_requested.emit),
            self._action(a, self.tr("&Clear the scope"), "Ctrl+Shift+K", self.clear_scope)]
        t = self.menuBar().addMenu(self.tr("&Tools"))
        self.vault_actions += [
            self._action(t, self.tr("&Why not this note?"), "Ctrl+Shift+W", self.show_why),
            self._action(t, self.tr("Index &health"), "Ctrl+Shift+H", lambda: self._tab(1, refresh=True)),
            self._action(t, self.tr("&Evaluation"), "Ctrl+Shift+E", lambda: self._tab(2)),
            self._action(t, self.tr("Histor&y"), "Ctrl+Shift+J", lambda: self._tab(3))]
        # Linux has no standard Preferences key: Ctrl+, there, as on macOS and in most editors
        prefs = QKeySequence.keyBindings(QKeySequence.StandardKey.Preferences)
        self._action(t, self.tr("&Settings…"), prefs[0] if prefs else "Ctrl+,", self.show_settings)
        v = self.menuBar().addMenu(self.tr("&View"))
        self._action(v, self.tr("&Inspector"), "Ctrl+1", lambda: self._tab(0))
        for n, key in enumerate(self.inspector.panes, start=1):
            # QAction.triggered passes `checked` first: it must not land in the pane's key
            self._action(v, self.tr("{pane}: full size").format(pane=self.inspector.title(key)), f"Alt+{n}",
                         lambda _checked=False, k=key: self.maximize_pane(k))
        for key in self.inspector.panes:  # a pane's own View items (the candidates' Keyword and vector lists)
            for act in self.inspector.view_actions(key):
                v.addAction(act)
                self.menu_actions.append(act)
                self._keep_checked(act)
        self._action(v, self.tr("Show all panes"), "Alt+0", lambda _checked=False: self.maximize_pane(None))
        for n, key in enumerate(self.inspector.panes, start=2):  # Ctrl+1 is the Inspector tab itself
            self._action(v, self.tr("Go to {pane}").format(pane=self.inspector.title(key)), f"Ctrl+{n}",
                         lambda _checked=False, k=key: self.go_to_pane(k))
        h = self.menuBar().addMenu(self.tr("&Help"))
        self._action(h, self.tr("&Keyboard shortcuts"), QKeySequence.StandardKey.HelpContents, self.show_shortcuts)
        self._action(h, self.tr("&About vaultrag"), None, self.show_about)
        self._refresh_recent()

    def go_to_pane(self, key: str) -> None:
        """Show the Inspector with every pane and put the focus in pane `key` (keyboard users jump, never Tab 20
        times)."""
        self._tab(0)
        self.maximize_pane(None)
        access.pane_focus(self)[key].setFocus(Qt.FocusReason.ShortcutFocusReason)

    def _keep_checked(self, act: QAction) -> None:
        """A pane's checkable View item (named by its object name) as it was left: read from the window's settings
        now, written back on each toggle."""
        if not act.isCheckable() or not act.objectName():
            return
        key = f"view/{act.objectName()}"
        act.setChecked(bool(self.state.value(key, act.isChecked(), type=bool)))
        act.toggled.connect(lambda on: self.state.setValue(key, on))

    def _action(self, menu: Any, text: str, shortcut: Any, slot: Any) -> QAction:
        act = QAction(text, self)
        if shortcut is not None:
            act.setShortcut(QKeySequence(shortcut))
        act.triggered.connect(slot)
        menu.addAction(act)
        if menu is not getattr(self, "recent_menu", None):
            self.menu_actions.append(act)
        return act

    def shortcuts(self) -> list[tuple[str, str]]:
        """(action, key) for every menu action that has a key (a submenu's too), as the Help list shows them."""
        acts: list[QAction] = []
        for a in self.menu_actions:
            sub = a.menu()
            acts += [a, *(sub.actions() if isinstance(sub, QMenu) else [])]
        return [(a.text().replace("&", ""), a.shortcut().toString(QKeySequence.SequenceFormat.NativeText))
                for a in acts if not a.shortcut().isEmpty()]

    def show_shortcuts(self) -> None:
        rows = "".join(f"<tr><td><b>{key}</b></td><td>{name}</td></tr>" for name, key in self.shortcuts())
        extra = self.tr("In the question box: ↑/↓ walk the history. In a table: ↑/↓ pick a candidate.")
        self._message(self.tr("Keyboard shortcuts"), f"<table cellpadding=3>{rows}</table><p>{extra}")

    def show_about(self) -> None:
        from vaultrag import __version__

        self._message(self.tr("About vaultrag"), self.tr(
            "<b>vaultrag {v}</b><p>Answers questions about your Markdown notes on this machine and shows why each "
            "note was or wasn't found.").format(v=__version__))

    def _message(self, title: str, html: str) -> None:
        """A window-modal message that does not block the event loop (open(), not exec())."""
        box = QMessageBox(QMessageBox.Icon.Information, title, html, QMessageBox.StandardButton.Close, self)
        box.setObjectName("message-box")
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        box.open()
        self.message_box = box

    def _connect(self) -> None:
        c = self.c
        c.status_changed.connect(self.status.setText)
        c.index_progress.connect(self._on_index_progress)
        c.index_changed.connect(self._on_index_changed)
        c.search_finished.connect(self._on_search_finished)
        c.diagnosis_finished.connect(self.why_dialog.show_diagnosis)
        c.health_ready.connect(self.health.set_health)
        c.eval_finished.connect(self.evaluation.set_result)
        c.eval_progress.connect(self.evaluation.set_progress)
        c.notes_listed.connect(self._on_notes_listed)
        c.failed.connect(self.show_error)
        c.local_llm_found.connect(self.llm_offer.show_found)
        self.llm_offer.use_requested.connect(self._use_local_llm)
        self.llm_offer.never_requested.connect(c.never_offer_local_llm)
        c.failed.connect(self._search_done)
        c.failed.connect(self._on_failed)
        self.tabs.currentChanged.connect(lambda _i: self.error.hide())
        # Index health read when it is shown (a click on its tab, not only the menu): never an old vault's lists
        self.tabs.currentChanged.connect(self._on_tab_changed)
        self.evaluation.question_opened.connect(self.open_eval_question)
        for pane in self.inspector.panes.values():  # a pane that opens files elsewhere says when nothing opened
            failed = getattr(pane, "open_failed", None)
            if failed is not None:
                failed.connect(self._on_open_failed)
        self.answer_view.citation_activated.connect(self.open_citation)
        self.connect_answer_stream(self.answer_view)
        c.answer_finished.connect(self.inspector.set_answer)  # the model's warnings reach the decision pane
        c.model_state_changed.connect(self.answer_view.show_model_state)
        c.llm_unavailable.connect(self.answer_view.set_llm_problem)
        self.answer_view.copied.connect(lambda _text: self.say(self.tr("Answer and sources copied")))
        self.open_button.clicked.connect(self.choose_vault)
        self.demo_button.clicked.connect(lambda: self.open_vault(DEMO_VAULT))
        self.recent_box.activated.connect(lambda i: self.open_vault(self.recent_box.itemText(i)))
        self.question.returnPressed.connect(self.ask)
        self.ask_button.clicked.connect(self.ask)
        self.inspector.note_requested.connect(c.read_note)
        c.note_read.connect(self.inspector.show_note)
        self.inspector.web_requested.connect(c.read_web)
        self.history_view.reopen_requested.connect(self.show_kept)
        self.history_view.forgotten.connect(self.forget_questions)
        c.web_read.connect(self.inspector.show_web)
        self.pause.toggled.connect(self._on_pause)
        self.health.reindex_requested.connect(c.reindex)
        self.health.check_requested.connect(lambda: c.refresh_health(check=True))
        self.evaluation.run_requested.connect(
            lambda path, limit, mp: c.run_eval(path, limit or None, mp if mp >= 0 else None))
        # the calibration's Store, Undo and Back to shipped talk to the evaluation part itself (no relay)
        self.evaluation.store_requested.connect(c.evaluation.store_threshold)
        c.evaluation.threshold_state.connect(self.evaluation.threshold_stored)
        c.evaluation.threshold_state.connect(self._on_threshold_state)
        self.why_dialog.diagnose_requested.connect(self._diagnose)
        self.why_dialog.rerun_requested.connect(self.ask)

    # -- vaults ---------------------------------------------------------------------------------
    def choose_vault(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Open a vault folder"))
        if folder:
            self.open_vault(folder)

    def open_vault(self, folder: str | Path) -> None:
        self.error.hide()
        self.inspector.clear()
        self.answer_view.clear()
        self.evaluation.clear()
        self.trace = None
        self._indexed = False  # no "no notes here" before this vault's first count
        # the last vault's folders, tags and question mean nothing here (a folder kept failed every question)
        self.clear_scope()
        self.question.clear()
        # nor do the last vault's health lists and why-not question and note
        self.health.reset()
        self._health_stale = True
        self.why_dialog.reset()
        self.c.open_vault(folder)
        if self.c.ws is None:
            return
        path = str(self.c.ws.vault)
        recent = [path] + [r for r in self.recent() if r != path]
        self.state.setValue("recent", recent[:MAX_RECENT])
        self._refresh_recent()
        self._load_history(self.c.ws.vault)
        self._vault_tools(True)
        self.setWindowTitle(f"vaultrag — {Path(path).name}")
        self.pages.setCurrentIndex(1)
        self.phase.setText(self.tr("scanning"))
        self.progress.setRange(0, 0)  # busy until the first count arrives
        self.progress.show()
        self.pause.show()
        self.question.setFocus()

    def _load_history(self, vault: Path) -> None:
        """The questions asked of this vault (↑/↓ in the question box), kept in its own folder under the home."""
        folder = self.c.paths.vault_dir(vault)
        folder.mkdir(parents=True, exist_ok=True)
        folder.chmod(0o700)  # questions can be as private as the notes: only this user reads them
        if self.vault_state is not None:
            self.vault_state.sync()
        ini = folder / "ui.ini"
        ini.touch(mode=0o600, exist_ok=True)
        ini.chmod(0o600)  # and the file itself: a folder made 0700 later does not hide a file a wider umask made
        self.vault_state = QSettings(str(ini), QSettings.Format.IniFormat)
        self.history = _str_list(self.vault_state.value("history", []))
        self._history_pos = len(self.history)

    def _vault_tools(self, on: bool) -> None:
        """Asking, why-not, health and evaluation work on an open vault only: without one they are disabled (the
        welcome page says what to do), so none of them opens empty or leaves a problem behind."""
        for act in self.vault_actions:
            act.setEnabled(on)
        self.why_dialog.set_vault_open(on)
        self.evaluation.set_vault_open(on)
        self.health.set_vault_open(on)

    def recent(self) -> list[str]:
        return _str_list(self.state.value("recent", []))

    def _refresh_recent(self) -> None:
        items = self.recent()
        self.recent_box.clear()
        self.recent_box.addItems(items)
        self.recent_box.setVisible(bool(items))
        if hasattr(self, "recent_menu"):
            self.recent_menu.clear()
            for r in items:
                self._action(self.recent_menu, r, None, lambda _=False, p=r: self.open_vault(p))

    # -- asking ---------------------------------------------------------------------------------
    def ask(self) -> None:
        q = self.question.text().strip()
        if not q:  # a hint where the eye is, not the red banner that pushed the whole window down
            self.say(self.tr("Type a question first."))
            self.question.setFocus()
            return
        if not self.history or self.history[-1] != q:
            self.history.append(q)
            if self.vault_state is not None:
                self.vault_state.setValue("history", self.history[-100:])
        self._history_pos = len(self.history)
        threshold = self.threshold.override()
        self.status.setText(self.tr("searching…"))
        # the old result must not pass for the new one while the search runs (seconds while vectors fill)
        self.answer_view.show_message(self.tr("Searching: {q}").format(q=q))
        self.inspector.setEnabled(False)
        self._asking = q
        self.c.ask(q, self.scope, self.k.value(), threshold)

    def _search_done(self, *_: object) -> None:
        self.inspector.setEnabled(True)

    def _on_failed(self, message: str) -> None:
        """A problem while a question was being searched: the answer pane says the question failed (its
        "Searching: …" would otherwise stay for good)."""
        if self._asking is not None:
            self.answer_view.show_message(self.tr("The question failed: {why}").format(why=message))
            self._asking = None
            self._expected = None

    def _on_threshold_state(self, state: Any) -> None:
        """A calibration stored, undone or reset: the ask bar's "auto" shows the threshold now in force."""
        self.threshold.set_in_force(state.in_force)

    def _on_search_finished(self, trace: QueryTrace) -> None:
        self.trace = trace
        self._asking = None
        self.error.hide()
        self._search_done()
        if trace.decision.threshold is not None:
            self.threshold.set_in_force(trace.decision.threshold)
        self.answer_view.show_answer(trace)
        self.inspector.set_trace(trace)
        if self._expected is not None:
            self._select_expected(trace)
        self.statusBar().clearMessage()  # a passing message of an earlier action would hide the new state
        self.statusBar().setToolTip("")
        self.status.setText(self.tr("answered in {ms:.0f} ms").format(ms=trace.timings_ms.get(Timing.TOTAL, 0)))

    def open_citation(self, index: int) -> None:
        """[n] in the answer: show prompt document n's note at its lines in the preview (and every pane)."""
        doc = next((d for d in self.trace.context if d.index == index), None) if self.trace else None
        if doc is None:
            self.show_error(self.tr("The answer cites document [{n}], which is not in the prompt.").format(n=index))
            return
        self.inspector.select(Candidate(doc.note, doc.heading_path, doc.char_start, doc.char_end, doc.line_start,
                                        doc.line_end, chunk_id=doc.chunk_ids[0], rank=0, score=0.0))
        self._tab(0)

    def open_eval_question(self, question: str, gold_note: str) -> None:
        """A question of the evaluation's list in the inspector: asked again (the trace in every pane) and, when it
        lost its note, why-not on that note says where and why."""
        self.question.setText(question)
        self._expected = gold_note or None  # its answer selects this note's chunk, not the top candidate
        self.c.new_conversation()  # asked as the evaluation asked it: alone, not as a follow-up of the last question
        self.ask()
        self._tab(0)
        if gold_note:
            self.show_why()
            self._beside_answer(self.why_dialog)
            self.why_dialog.picker.setEditText(gold_note)
            self._diagnose(gold_note, "")

    def _select_expected(self, trace: QueryTrace) -> None:
        """The expected note's best-ranked chunk (final list first, then every stage's) selected and previewed."""
        note, self._expected = self._expected, None
        lists = [trace.final, *(stage.candidates for stage in trace.stages.values())]
        found = next((c for cands in lists for c in cands if c.note == note), None)
        if found is not None:
            self.inspector.select(found)

    def _beside_answer(self, dialog: QWidget) -> None:
        """Put a tool window where it hides neither the answer nor the question: beside the main window when the
        screen has room, else over the lower part of the window (the inspector's tabs)."""
        screen = self.screen().availableGeometry()
        frame, size = self.frameGeometry(), dialog.frameGeometry().size()
        if frame.right() + size.width() < screen.right():
            dialog.move(frame.right() + 1, frame.top())
        elif frame.left() - size.width() > screen.left():
            dialog.move(frame.left() - size.width(), frame.top())
        else:
            view = self.answer_view  # below the tallest the answer grows to (it grows when the answer comes)
            tallest = max(view.height(), view.most_height, view.passage_height)
            top = view.mapToGlobal(view.rect().topLeft()).y() + tallest + 1
            dialog.resize(dialog.width(), max(dialog.minimumSizeHint().height(), screen.bottom() - top -
                                              (size.height() - dialog.height())))
            dialog.move(max(screen.left(), frame.right() - size.width()), top)

    def _on_open_failed(self, message: str) -> None:
        self.say(message)

    def say(self, message: str) -> None:
        """A passing message in the status bar: it goes after a while (the state underneath comes back), cut with
        "…" to the bar's width (the whole of it in the bar's tooltip)."""
        bar = self.statusBar()
        room = max(bar.width() - 40, 100)
        bar.showMessage(bar.fontMetrics().elidedText(message, Qt.TextElideMode.ElideRight, room), STATUS_MS)
        bar.setToolTip(message)

    def _focus_question(self) -> None:
        self.question.setFocus()
        self.question.selectAll()

    def clear_scope(self) -> None:
        for kind in ("folders", "tags"):
            getattr(self.scope, kind).clear()
        while self.chips.count():
            item = self.chips.takeAt(0)
            chip = item.widget() if item is not None else None
            if chip is not None:
                chip.deleteLater()
        self.scope_hint.show()
        self._asked_otherwise()

    def _add_chip(self, kind: str, box: QComboBox) -> None:
        value = box.currentText().strip() if box.currentData() != "" else ""
        box.setCurrentIndex(0)  # back to the hint: a chosen value lives in its chip, not in the combo
        values = getattr(self.scope, kind)
        if not value or value in values:
            return
        values.append(value)
        icon = QStyle.StandardPixmap.SP_DirIcon if kind == "folders" else QStyle.StandardPixmap.SP_FileDialogInfoView
        chip = QPushButton(self.style().standardIcon(icon), f"{value if kind == 'folders' else '#' + value}  ✕")
        chip.setObjectName(f"chip-{kind}-{value}")
        chip.setToolTip(self.tr("Remove from the scope"))
        self.scope_hint.hide()

        def remove() -> None:
            values.remove(value)
            chip.deleteLater()
            self.scope_hint.setVisible(not (self.scope.folders or self.scope.tags))
            self._asked_otherwise()

        chip.clicked.connect(remove)
        self.chips.addWidget(chip)
        self._asked_otherwise()

    def _asked_otherwise(self) -> None:
        """The scope, k or the threshold changed under a shown answer: it was found with the old ones (a Casa
        answer stayed under a Travel scope with nothing to say so)."""
        if self.trace is not None and self._asking is None:
            self.say(self.tr("The answer shown was found with the earlier scope, k or threshold: press Enter to ask "
                             "again"))

    def _on_notes_listed(self, info: dict[str, list[str]]) -> None:
        if not info["notes"] and self._indexed:
            # an indexed folder without a note: "ready" and a question's "no candidate" said nothing of why
            text = self.tr("This folder holds no Markdown notes (.md files) to search: open your vault's folder "
                           "(File › Open vault…)")
            self.status.setText(text)
            if self.trace is None:
                self.answer_view.show_message(text)
        for box, key in ((self.folder_box, "folders"), (self.tag_box, "tags")):
            while box.count() > 1:  # item 0 is the hint
                box.removeItem(1)
            box.addItems(info[key])
        self.why_dialog.set_notes(info["notes"])

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if isinstance(obj, QComboBox) and obj.objectName() in SCOPE_BOXES and event.type() == QEvent.Type.KeyPress \
                and event.key() in LIST_KEYS:  # type: ignore[attr-defined]
            obj.showPopup()
            return True
        if obj is self.question and event.type() == QEvent.Type.KeyPress and self.history:
            key = event.key()  # type: ignore[attr-defined]
            if key in (Qt.Key.Key_Up, Qt.Key.Key_Down):
                step = -1 if key == Qt.Key.Key_Up else 1
                self._history_pos = max(0, min(len(self.history), self._history_pos + step))
                text = self.history[self._history_pos] if self._history_pos < len(self.history) else ""
                self.question.setText(text)
                return True
        return super().eventFilter(obj, event)

    # -- indexing -----------------------------------------------------------------------------
    def _on_index_progress(self, p: Progress) -> None:
        if p.phase == Phase.DONE:
            self._index_idle()
            return
        label = {Phase.SCAN: self.tr("scanning"), Phase.TEXT: self.tr("indexing text"),
                 Phase.FAST: self.tr("fast vectors"), Phase.EMBED: self.tr("embedding")}.get(p.phase, str(p.phase))
        if self.pause.isChecked():
            label = self.tr("paused")
        self.phase.setText(label)
        self.progress.show()
        self.pause.show()
        self.progress.setRange(0, max(p.total, 1))
        self.progress.setValue(min(p.done, max(p.total, 1)))
        self.eta.setText(self.tr("{s:.0f} s left").format(s=p.eta_s) if p.eta_s and p.done < p.total else "")
        if p.phase in (Phase.FAST, Phase.EMBED) and p.done < p.total and not self.pause.isChecked():
            # the progress bar has this run's counts; the status line each vector tier's share of the vault
            tiers = tier_shares(p.tiers) if p.tiers is not None else ""
            # the vector stage lists by the fast tier as soon as it covers more chunks than the model's vectors
            if p.tiers is not None and p.tiers.fast > p.tiers.full:
                text = self.tr("vectors filling ({tiers}): fast vectors search meanwhile")
            else:
                text = self.tr("vectors filling ({tiers}): keyword (BM25) answers work meanwhile")
            self.status.setText(text.format(tiers=tiers))
            # an open Index health tab follows the filling (its shares, counts and tiers): read again now and
            # then, on the query lane, not at every batch
            if self.tabs.currentWidget() is self.health and time.monotonic() - self._health_at >= HEALTH_REFRESH_S:
                self._health_at = time.monotonic()
                self.c.refresh_health()

    def _index_idle(self) -> None:
        """Nothing left to do: the bar, the time left and Pause go away (they come back with the next work)."""
        self.phase.setText("")
        self.eta.setText("")
        self.progress.hide()
        if not self.pause.isChecked():
            self.pause.hide()

    def _on_index_changed(self, e: Any) -> None:
        if e.kind in (LaneEventKind.APPLIED, LaneEventKind.EMBEDDED):
            self._indexed = True
            self.c.list_notes()
            if self.tabs.currentWidget() is self.health:
                self.c.refresh_health()
            else:
                self._health_stale = True  # read when its tab is shown next
        if e.kind == LaneEventKind.EMBEDDED:
            self._index_idle()
            self.status.setText(self.tr("ready: every chunk has its vector"))

    def _on_pause(self, paused: bool) -> None:
        self.c.pause_indexing(paused)
        self.pause.setText(self.tr("Resume") if paused else self.tr("Pause"))
        self.phase.setText(self.tr("paused") if paused else self.tr("resuming"))
        self.eta.setText("")
        self.status.setText(self.tr("indexing paused") if paused else self.tr("indexing…"))

    # -- tools --------------------------------------------------------------------------------
    def show_why(self) -> None:
        if self.c.ws is None:
            self.show_error(self.tr("Open a vault first: why-not looks for a note in the open vault."))
            return
        if self.why_dialog.question.text() != self.question.text():
            self.why_dialog.clear_result()
        self.why_dialog.question.setText(self.question.text())
        self.c.list_notes()
        self.why_dialog.show()
        self.why_dialog.raise_()

    def _diagnose(self, note: str, heading: str) -> None:
        q = self.question.text().strip()
        if not q or not note:
            self.show_error(self.tr("Type a question and pick the note you expected."))
            return
        threshold = self.threshold.override()
        self.c.why(q, note, heading or None, self.scope, self.k.value(), threshold)

    def show_settings(self) -> None:
        """The settings dialog, window-modal without blocking the event loop (indexing keeps reporting)."""
        self.settings_dialog = dialog = SettingsDialog(self.c.settings, self, self.c, self.c.paths.models_dir)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.accepted.connect(lambda: self._settings_accepted(dialog))
        dialog.open()

    def _settings_accepted(self, dialog: SettingsDialog) -> None:
        new = dialog.result_settings
        if new is None:
            return
        language_changed = new.ui_language != self.c.settings.ui_language
        self.c.save_settings(new)
        self.k.setValue(new.k)
        if language_changed:
            self._offer_restart()

    def _offer_restart(self) -> None:
        """The window's words are set when it is built: a new language needs a restart, offered here (window-modal,
        the event loop runs on)."""
        box = QMessageBox(QMessageBox.Icon.Question, self.tr("Language"),
                          self.tr("Settings saved. The new language shows once vaultrag starts again: restart "
                                  "now?"), QMessageBox.StandardButton.NoButton, self)
        box.setObjectName("restart-box")
        restart = box.addButton(self.tr("Restart now"), QMessageBox.ButtonRole.AcceptRole)
        box.addButton(self.tr("Later"), QMessageBox.ButtonRole.RejectRole)
        box.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        restart.clicked.connect(self.restart)
        box.open()
        self.message_box = box

    def restart(self) -> None:
        """Start vaultrag again with the same arguments, then close this window (its vault and lanes shut down)."""
        from PySide6.QtCore import QProcess

        args = sys.argv[1:] if getattr(sys, "frozen", False) else sys.argv  # the packaged app is its own program
        if QProcess.startDetached(sys.executable, args)[0]:
            self.close()
        else:
            self.say(self.tr("vaultrag could not start again: start it yourself to see the new language."))

    def maximize_pane(self, name: str | None) -> None:
        """Show one inspector pane alone (full size), or all of them again."""
        self.inspector.show_only(name)
        self._tab(0)

    def _on_tab_changed(self, _index: int) -> None:
        if self.tabs.currentWidget() is self.health and self.c.ws is not None and self._health_stale:
            self._health_stale = False
            self.c.refresh_health()

    def _tab(self, index: int, refresh: bool = False) -> None:
        self.tabs.setCurrentIndex(index)
        if refresh:
            self.c.refresh_health()

    def show_error(self, message: str) -> None:
        """Show a problem once, in words, without blocking the window."""
        if self.error.isVisible() and self.error.text() == message:
            return
        self.error.setText(message)
        self.error.show()
        self.status.setText(message.split(":")[0])

    # -- issue 12: the language model's answer (streamed), Stop, new conversation ------------------------
    def connect_answer_stream(self, view: Any) -> None:
        """Wire a view with the AnswerView API (begin_stream, append_stream, show_stream_error, show_answer;
        stop_requested, new_conversation_requested) to the controller's answer_* signals and actions."""
        c = self.c
        c.answer_started.connect(view.begin_stream)
        c.answer_delta.connect(view.append_stream)
        c.answer_finished.connect(view.show_answer)
        c.answer_failed.connect(view.show_stream_error)
        view.stop_requested.connect(c.stop_answer)
        view.new_conversation_requested.connect(c.new_conversation)

    def offer_local_llm(self) -> None:
        """At start: no language model set (and not declined)? Look for a local server and offer it in a bar."""
        self.c.look_for_local_llm()

    def _use_local_llm(self, base_url: str, model: str) -> None:
        self.c.use_local_llm(base_url, model)
        self.say(self.tr("Answers will be written by {model} ({url}).").format(model=model, url=base_url))

    def closeEvent(self, event: Any) -> None:
        self.state.setValue("geometry", self.saveGeometry())
        self.state.sync()
        if self.vault_state is not None:
            self.vault_state.sync()
        self.c.shutdown()
        super().closeEvent(event)

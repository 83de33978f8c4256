"""The Settings editor of the language model: no model, the built-in model (a GGUF file vaultrag runs: the catalog,
its download, or a file of one's own) or one's own server (its model list, Test connection)."""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from PySide6.QtCore import QCoreApplication, QModelIndex, Qt
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSizePolicy,
    QStackedWidget,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app.widgets.download_bar import DownloadBar, size_words
from vaultrag.app.words import backend_missing, llm_failure_text, number, user_message
from vaultrag.core.llm.catalog import CATALOG, CatalogModel
from vaultrag.engines import GENERATORS
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

if TYPE_CHECKING:
    from vaultrag.app.llm_setup import ModelsListed, Tested

LOCAL, SERVER = "local", "openai"  # the backends behind "Built-in model" and "My server" (vaultrag/engines.py)
OK_COLOUR, BAD_COLOUR = "#1b5e20", "#b71c1c"


class Mode(StrEnum):
    """What writes the answers."""

    NONE = "none"  # no model: the extractive answer
    LOCAL = "local"  # a GGUF file run by vaultrag
    SERVER = "server"  # an OpenAI-compatible server the user runs
    OTHER = "other"  # another generation backend of the registry (a plugin's): the combo's data is its name


class LlmEditor(QWidget):
    """Edits `llm_backend` with `llm_base_url`, `llm_model` and `llm_gguf` (EDITS: the dialog shows no rows of its
    own for them). `controller` is the AppController (the model list and the test answer on workers, the GGUF
    download with its signals); without one the editor only edits. `current` gives the dialog's settings as
    edited (the key variable, the timeout) for Test connection."""

    EDITS = ("llm_backend", "llm_base_url", "llm_model", "llm_gguf")
    # the other language model settings, by the choices that use them (the dialog shows only those in use)
    DEPENDS: ClassVar[dict[str, tuple[Mode, ...]]] = {
        "llm_api_key_env": (Mode.SERVER,), "llm_temperature": (Mode.SERVER, Mode.LOCAL, Mode.OTHER),
        "llm_max_tokens": (Mode.SERVER, Mode.LOCAL, Mode.OTHER), "llm_timeout": (Mode.SERVER, Mode.LOCAL, Mode.OTHER),
        "llm_idle_minutes": (Mode.LOCAL,), "llm_context": (Mode.LOCAL,), "llm_threads": (Mode.LOCAL,)}

    def __init__(self, settings: Settings, controller: Any = None, models_dir: Path | None = None,
                 current: Callable[[], Settings] | None = None) -> None:
        super().__init__()
        self.original, self.controller, self.models_dir = settings, controller, models_dir
        self._current = current  # the dialog hands a weak method (app/cycles.py): no cycle through it
        self.endpoint: str | None = None  # a hub mirror for the download (tests serve a model locally)
        self.downloading: CatalogModel | None = None
        self.gguf = str(getattr(settings, "llm_gguf", "") or "")
        self.listed_for = ""  # the address whose models the list holds
        self.mode = QComboBox()
        self.mode.setObjectName("llm-mode")
        self.mode.addItem(self.tr("No model (the best passage)"), Mode.NONE)
        if GENERATORS.get(LOCAL) is not None:
            self.mode.addItem(self.tr("Built-in model (a file vaultrag runs)"), Mode.LOCAL)
        self.mode.addItem(self.tr("My server (Ollama, LM Studio, llama.cpp…)"), Mode.SERVER)
        for engine in GENERATORS:  # any other backend (a plugin's) by its words: it has no page of its own
            if engine.name not in (LOCAL, SERVER) and engine.available():
                self.mode.addItem(QCoreApplication.translate("Settings", engine.words), engine.name)
        self.about = QLabel()
        self.about.setObjectName("llm-about")
        self.about.setWordWrap(True)
        self.pages = QStackedWidget()
        self.pages.addWidget(QWidget())  # no model: nothing to edit
        self.pages.addWidget(self._local_page())
        self.pages.addWidget(self._server_page())
        self.test = QPushButton(self.tr("Test connection"))
        self.test.setObjectName("llm-test")
        self.test.setToolTip(self.tr("Ask the model for one short sentence: its latency and what it said, or why "
                                     "it could not answer"))
        self.tested = QLabel()
        self.tested.setObjectName("llm-test-result")
        self.tested.setWordWrap(True)
        self.test_row = QWidget()
        row = QHBoxLayout(self.test_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.test)
        row.addWidget(self.tested, 1)
        col = QVBoxLayout(self)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(3)
        col.addWidget(self.mode)
        col.addWidget(self.about)
        col.addWidget(self.pages)
        col.addWidget(self.test_row)

        backend = settings.llm_backend
        start = Mode.LOCAL if backend == LOCAL and self.mode.findData(Mode.LOCAL) >= 0 else \
            backend if backend not in (LOCAL, SERVER) and self.mode.findData(backend) >= 0 else \
            Mode.SERVER if settings.llm_base_url.strip() else Mode.NONE
        self.mode.setCurrentIndex(self.mode.findData(start))
        self.mode.currentIndexChanged.connect(self._on_mode)
        self.test.clicked.connect(self.start_test)
        if controller is not None:
            controller.llm_models_listed.connect(self._on_listed)
            controller.llm_tested.connect(self._on_tested)
        self._on_mode()

    # -- the pages -----------------------------------------------------------------------------------
    def _server_page(self) -> QWidget:
        page = QWidget()
        self._list_failed = False  # the model list shows the server's failure (a failed test then replaces it)
        self.address = QLineEdit(self.original.llm_base_url)
        self.address.setObjectName("llm-address")
        self.address.setPlaceholderText("http://localhost:11434/v1")
        self.address.setToolTip(self.tr("The server's OpenAI-compatible address (Ollama: http://localhost:11434/v1; "
                                        "LM Studio: http://localhost:1234/v1; llama.cpp: http://localhost:8080/v1)"))
        self.model = QComboBox()
        self.model.setObjectName("llm-model")
        self.model.setEditable(True)
        self.model.setMinimumContentsLength(18)
        line = self.model.lineEdit()
        assert line is not None  # editable
        line.setPlaceholderText(self.tr("the server's model"))
        if self.original.llm_model:
            self.model.addItem(self.original.llm_model)
        self.model.setCurrentText(self.original.llm_model)
        self.refresh = QPushButton(self.tr("Refresh"))
        self.refresh.setObjectName("llm-refresh")
        self.refresh.setToolTip(self.tr("Ask the server again for its models"))
        self.models_state = QLabel()
        self.models_state.setObjectName("llm-models-state")
        self.models_state.setWordWrap(True)
        # its lines are kept free: a model list's error that appeared pushed Test connection down under the cursor
        self.models_state.setMinimumHeight(3 * self.models_state.fontMetrics().height())
        self.client_state = QLabel()
        self.client_state.setObjectName("llm-client-state")
        self.client_state.setWordWrap(True)
        self.client_state.setStyleSheet(f"color: {BAD_COLOUR};")
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        top.addWidget(QLabel(self.tr("Address")))
        top.addWidget(self.address, 1)
        pick = QHBoxLayout()
        pick.setContentsMargins(0, 0, 0, 0)
        pick.addWidget(QLabel(self.tr("Model")))
        pick.addWidget(self.model, 1)
        pick.addWidget(self.refresh)
        col = QVBoxLayout(page)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        col.addLayout(top)
        col.addLayout(pick)
        col.addWidget(self.models_state)
        col.addWidget(self.client_state)
        self.refresh.clicked.connect(self.list_models)
        self.address.editingFinished.connect(self._address_changed)
        return page

    def _local_page(self) -> QWidget:
        page = QWidget()
        self.catalog = QTreeWidget()
        self.catalog.setObjectName("llm-catalog")
        self.catalog.setRootIsDecorated(False)
        self.catalog.setHeaderLabels([self.tr("Model"), self.tr("Download"), self.tr("RAM needed"),
                                      self.tr("On this computer")])
        header = self.catalog.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)  # the title takes what the figures leave
        for i in range(1, 4):
            header.setSectionResizeMode(i, QHeaderView.ResizeMode.ResizeToContents)
        self.catalog.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.models = list(CATALOG)
        for m in self.models:
            ram = f"≈ {number(m.ram_gb, 0 if float(m.ram_gb).is_integer() else 1)} GB"
            item = QTreeWidgetItem([m.title, size_words(m.size_bytes), ram, ""])
            item.setToolTip(0, self._details(m))
            self.catalog.addTopLevelItem(item)
        # as wide as the whole titles and figures need ("Qwen2.5 1.5B" and "3B" told apart without a hover): the
        # Settings dialog takes the width its widest section asks for
        header_hint = self.catalog.header().sectionSizeHint
        wanted = sum(max(self.catalog.sizeHintForColumn(i), header_hint(i)) for i in range(4))
        self.catalog.setMinimumWidth(wanted + 2 * self.catalog.frameWidth() + 16)
        rows = self.catalog.sizeHintForRow(0) * max(1, len(self.models))
        self.catalog.setFixedHeight(rows + self.catalog.header().sizeHint().height() + 2 * self.catalog.frameWidth())
        self.details = QLabel()  # the picked model's languages, licence and note
        self.details.setObjectName("llm-model-details")
        self.details.setWordWrap(True)
        self.details.setStyleSheet("color: palette(placeholder-text);")
        self.download = QPushButton(self.tr("Download"))
        self.download.setObjectName("llm-download")
        self.cancel = QPushButton(self.tr("Cancel download"))
        self.cancel.setObjectName("llm-cancel")
        self.use_own = QPushButton(self.tr("Use a GGUF file I already have…"))
        self.use_own.setObjectName("llm-use-file")
        self.bar = DownloadBar(self.controller)
        self.bar.setObjectName("llm-progress")
        self.file = QLabel()
        self.file.setObjectName("llm-file")
        self.file.setTextFormat(Qt.TextFormat.PlainText)  # a path, as it is
        self.file.setWordWrap(True)
        self.local_state = QLabel()
        self.local_state.setObjectName("llm-local-state")
        self.local_state.setWordWrap(True)
        buttons = QHBoxLayout()
        buttons.setContentsMargins(0, 0, 0, 0)
        buttons.addWidget(self.download)
        buttons.addWidget(self.cancel)
        buttons.addStretch(1)
        buttons.addWidget(self.use_own)
        col = QVBoxLayout(page)
        col.setContentsMargins(0, 0, 0, 0)
        col.setSpacing(2)
        col.addWidget(self.catalog)
        col.addWidget(self.details)
        col.addLayout(buttons)
        col.addWidget(self.bar)
        col.addWidget(self.file)
        col.addWidget(self.local_state)
        self.catalog.currentItemChanged.connect(lambda *_: self._on_pick())
        self.download.clicked.connect(self.start_download)
        self.cancel.clicked.connect(self.cancel_download)
        self.use_own.clicked.connect(self.choose_file)
        self.bar.finished.connect(self._on_downloaded)
        self.bar.failed.connect(self._on_download_failed)
        for i, m in enumerate(self.models):  # the chosen file's catalog row, selected
            row = self.catalog.topLevelItem(i)
            if row is not None and self.gguf and self._downloaded(m) == Path(self.gguf):
                self.catalog.setCurrentItem(row)
        return page

    # -- what is chosen ------------------------------------------------------------------------------
    def chosen(self) -> Mode:
        data = str(self.mode.currentData())
        return Mode(data) if data in {m.value for m in Mode} else Mode.OTHER

    def used_fields(self) -> set[str]:
        """The settings of DEPENDS the current choice uses."""
        return {name for name, modes in self.DEPENDS.items() if self.chosen() in modes}

    def values(self) -> dict[str, Any]:
        """The settings this editor holds, as field → value (only the fields the choice sets)."""
        mode = self.chosen()
        if mode == Mode.LOCAL:
            return {"llm_backend": LOCAL, "llm_gguf": self.gguf}
        if mode == Mode.OTHER:
            return {"llm_backend": str(self.mode.currentData())}
        # no model, or my server: the OpenAI-compatible backend (an address left empty writes no answer)
        backend = self.original.llm_backend if self.mode.findData(self.original.llm_backend) < 0 else SERVER
        backend = SERVER if backend == LOCAL else backend
        if mode == Mode.NONE:
            return {"llm_backend": backend, "llm_base_url": ""}
        return {"llm_backend": backend, "llm_base_url": self.address.text().strip(),
                "llm_model": self.model.currentText().strip()}

    def problem(self) -> str:
        """Why the dialog cannot be accepted with this choice ("" when it can)."""
        mode = self.chosen()
        if self.downloading is not None:
            return self.tr("A model is still downloading: wait for it, or cancel the download.")
        if mode == Mode.LOCAL and not self.gguf:
            return self.tr("Download a model of the list or choose a GGUF file you have, or pick another choice "
                           "for the language model.")
        if mode == Mode.SERVER and not self.address.text().strip():
            return self.tr("Give the address of your server (for example http://localhost:11434/v1 for Ollama).")
        if mode == Mode.SERVER and not self.model.currentText().strip():
            return self.tr("Choose the server's model (Refresh lists the ones it has).")
        return ""

    def _on_mode(self) -> None:
        mode = self.chosen()
        shown = {Mode.NONE: 0, Mode.LOCAL: 1, Mode.SERVER: 2, Mode.OTHER: 0}[mode]
        self.pages.setCurrentIndex(shown)
        for i in range(self.pages.count()):  # the stack is as tall and wide as the page shown, not its largest
            page = self.pages.widget(i)
            if page is not None:
                ignored = QSizePolicy.Policy.Ignored if i != shown else QSizePolicy.Policy.Preferred
                page.setSizePolicy(ignored, ignored)
        self.pages.adjustSize()
        self.pages.setVisible(mode not in (Mode.NONE, Mode.OTHER))
        self.test_row.setVisible(mode != Mode.NONE and self.controller is not None)
        self.tested.clear()
        self.about.setText({
            Mode.NONE: self.tr("Answers are the best passage of the best note, its best sentence marked: nothing "
                               "is written by a model."),
            Mode.LOCAL: self.tr("vaultrag runs a model file on this computer: no server to install, nothing leaves "
                                "the computer. It starts with the first question and stops when unused."),
            Mode.SERVER: self.tr("A server you run (Ollama, LM Studio, llama.cpp's server, vLLM) or a hosted "
                                 "OpenAI-compatible API writes the answers."),
            Mode.OTHER: self.tr("{engine} writes the answers (an engine added to vaultrag; its own settings are "
                                "its package's).").format(engine=self.mode.currentText()),
        }[mode])
        if mode == Mode.SERVER:
            missing = backend_missing(SERVER, in_settings=True)
            self.client_state.setText(missing)
            self.client_state.setVisible(bool(missing))
            if self.address.text().strip() and self.listed_for != self.address.text().strip():
                self.list_models()
        if mode == Mode.LOCAL:
            self._refresh_local()

    # -- my server: its models and the test ----------------------------------------------------------
    def _address_changed(self) -> None:
        if self.address.text().strip() != self.listed_for:
            self.list_models()

    def list_models(self) -> None:
        """Ask the server for its models on a worker (`_on_listed` fills the list)."""
        address = self.address.text().strip()
        if self.controller is None or not address:
            return
        self.listed_for = address
        self.models_state.setStyleSheet("")
        self.models_state.setText(self.tr("asking {address} for its models…").format(address=address))
        self.controller.list_llm_models(self._settings())

    def _on_listed(self, listed: ModelsListed) -> None:
        if listed.address.rstrip("/") != self.address.text().strip().rstrip("/"):
            return  # the address changed meanwhile
        self._list_failed = bool(listed.error)
        if listed.error:
            self.models_state.setStyleSheet(f"color: {BAD_COLOUR};")
            self.models_state.setText(listed.error)
            return
        typed = self.model.currentText().strip()
        self.model.clear()
        self.model.addItems(listed.models)
        if typed:
            self.model.setCurrentText(typed)
        elif listed.models:
            self.model.setCurrentIndex(0)
        self.models_state.setStyleSheet("")
        known = typed in listed.models or f"{typed}:latest" in listed.models
        self.models_state.setText(
            self.tr("The server has no model: load or pull one there, then Refresh.") if not listed.models else
            self.tr("{n} model(s) on this server.").format(n=len(listed.models)) if not typed or known else
            self.tr("{n} model(s) on this server; {model} is not one of them.").format(n=len(listed.models),
                                                                                    model=typed))

    def _settings(self) -> Settings:
        """The dialog's settings with this editor's choice (what Test connection and the model list use)."""
        try:
            base = self._current() if self._current is not None else self.original
        except UserFacingError:
            base = self.original
        return base.replace(**self.values())

    def start_test(self) -> None:
        if self.controller is None:
            return
        self.tested.setStyleSheet("")
        if self.chosen() == Mode.LOCAL:
            self.tested.setText(self.tr("starting the model and asking it for one sentence…"))
        else:
            self.tested.setText(self.tr("asking the model for one sentence…"))
        try:
            settings = self._settings()
        except UserFacingError as e:
            self._show_test(False, user_message(e))
            return
        self.controller.test_llm(settings)

    def _on_tested(self, tested: Tested) -> None:
        t = tested.test
        if tested.error:
            self._show_test(False, tested.error)
        elif t is None:
            self._show_test(False, self.tr("No language model is set."))
        elif t.ok:
            said = self.tr("{model} answered in {ms} ms: «{sample}»").format(
                model=t.model, ms=f"{t.latency_ms or 0:,.0f}", sample=t.sample)
            ok = True
            if t.context:
                said += " " + self.tr("Its context: {n} tokens ({server}).").format(
                    n=f"{t.context:,}", server=t.server or self.tr("its server says"))
                s = self._settings()
                # the notes' budget, the prompt's frame (~300 tokens) and the answer: what one question may need
                need = s.context_tokens + 300 + s.llm_max_tokens
                if t.context < need:
                    ok = False
                    said += " " + self.tr("That is less than a question needs (about {need}: the context budget, "
                                          "the prompt and the answer): the server would cut the prompt. Give the "
                                          "model a larger context in its server, or lower the budget.").format(
                        need=f"{need:,}")
            self._show_test(ok, said)
        else:
            assert t.failure is not None
            self._show_test(False, llm_failure_text(t.failure, t.details, in_settings=True))

    def _show_test(self, ok: bool, text: str) -> None:
        if not ok and self._list_failed:
            # the test's words stand for the model list's failure too: the same problem was said twice
            self._list_failed = False
            self.models_state.clear()
        self.tested.setStyleSheet(f"color: {OK_COLOUR if ok else BAD_COLOUR};")
        self.tested.setText(("✓ " if ok else "✗ ") + text)

    # -- the built-in model: the catalog, its download, a file of one's own ---------------------------
    def _downloaded(self, m: CatalogModel) -> Path | None:
        if self.models_dir is None:
            return None
        from vaultrag.core.llm import gguf

        return gguf.downloaded(self.models_dir, m)

    @staticmethod
    def _details(m: CatalogModel) -> str:
        """A catalog model's languages, licence and note (the catalog's words are window words: context Catalog)."""
        parts = [QCoreApplication.translate("Catalog", m.languages), m.licence]
        if m.note:
            parts.append(QCoreApplication.translate("Catalog", m.note))
        return " · ".join(parts)

    def _picked(self) -> CatalogModel | None:
        item = self.catalog.currentItem()
        return self.models[self.catalog.indexOfTopLevelItem(item)] if item is not None else None

    def _on_pick(self) -> None:
        m = self._picked()
        found = self._downloaded(m) if m is not None else None
        if found is not None:
            self.gguf = str(found)
        self._refresh_local()

    def choose_file(self) -> None:
        """A GGUF file of one's own (a file dialog that does not block the event loop)."""
        dialog = QFileDialog(self, self.tr("Choose a GGUF model file"), str(Path(self.gguf).parent) if self.gguf
                             else str(Path.home()), self.tr("GGUF models (*.gguf);;All files (*)"))
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.fileSelected.connect(self.use_file)
        dialog.open()
        self.file_dialog = dialog

    def use_file(self, path: str) -> bool:
        """Take `path` as the model file when it is a readable GGUF; else say why, in words."""
        from vaultrag.core.llm import gguf

        try:
            checked = gguf.check_gguf(Path(path))
        except UserFacingError as e:
            self._refresh_local()
            self._say(user_message(e), bad=True)
            return False
        self.gguf = str(checked)
        self.catalog.setCurrentIndex(QModelIndex())  # no catalog row: a file of one's own
        self._refresh_local()
        return True

    def start_download(self) -> None:
        m = self._picked()
        if self.controller is None or m is None or self.downloading is not None:
            return
        self.downloading = m
        self.bar.begin()
        self._refresh_local()
        self._say(self.tr("Downloading {model} into the app's models folder…").format(model=m.title))
        self.controller.download_llm(m, endpoint=self.endpoint)

    def cancel_download(self) -> None:
        if self.controller is not None and self.downloading is not None:
            self.controller.cancel_model_download()

    def _on_downloaded(self, path: str) -> None:
        self.downloading = None
        self.gguf = path
        self._refresh_local()

    def _on_download_failed(self, message: str) -> None:
        self.downloading = None
        self._refresh_local()
        self._say(message, bad=True)

    def _refresh_local(self) -> None:
        busy = self.downloading is not None
        picked = self._picked()
        for i, m in enumerate(self.models):
            item = self.catalog.topLevelItem(i)
            found = self._downloaded(m)
            if item is None:
                continue
            item.setText(3, self.tr("in use") if found is not None and str(found) == self.gguf else
                         self.tr("downloaded") if found is not None else
                         self.tr("downloading…") if busy and m is self.downloading else "—")
        self.details.setText(self._details(picked) if picked is not None else "")
        self.details.setVisible(picked is not None)
        can_download = self.controller is not None and picked is not None and self._downloaded(picked) is None
        # a model file is of no use without the runtime that runs it: Download waits for it, and says why
        no_runtime = backend_missing(LOCAL, in_settings=True)
        self.download.setVisible(not busy)
        self.download.setEnabled(can_download and not no_runtime)
        self.download.setToolTip(no_runtime or self.tr("Download the model picked in the list (once; it then "
                                                       "runs offline)"))
        self.cancel.setVisible(busy)
        self.use_own.setEnabled(not busy)
        self.catalog.setEnabled(not busy)
        self.mode.setEnabled(not busy)
        self.bar.setVisible(self.bar.shown())
        self.file.setText(self.tr("Model file: {path}").format(path=self.gguf) if self.gguf else
                          self.tr("No model file yet: pick one of the list and Download it (once; it then runs "
                                  "offline), or use a GGUF file you have."))
        if busy:
            return
        self._say(backend_missing(LOCAL, in_settings=True), bad=True)

    def _say(self, text: str, bad: bool = False) -> None:
        """The built-in page's state line (hidden when there is nothing to say)."""
        self.local_state.setStyleSheet(f"color: {BAD_COLOUR};" if bad else "")
        self.local_state.setText(text)
        self.local_state.setVisible(bool(text))

    def cleanup(self) -> None:
        """The dialog closes: a download started here stops (what arrived is kept, the next one resumes)."""
        self.cancel_download()

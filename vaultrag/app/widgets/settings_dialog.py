"""Settings: one section per group of core Settings, each field named in words with its help under it; validated."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QAbstractSpinBox,
    QApplication,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QLabel,
    QLineEdit,
    QScrollArea,
    QSpinBox,
    QTabBar,
    QVBoxLayout,
    QWidget,
)

from vaultrag.app import access
from vaultrag.app.cycles import weak_method
from vaultrag.app.widgets.calibration_row import CalibrationRow
from vaultrag.app.widgets.llm_editor import LlmEditor
from vaultrag.app.widgets.reranker_editor import RerankerEditor
from vaultrag.app.words import locale
from vaultrag.engines import EMBEDDERS
from vaultrag.errors import UserFacingError
from vaultrag.settings import Editor, Group, Settings, editor_of, rule_of

SPIN_MAX = 1_000_000_000
# the sentence-transformers backend's own fields: shown only while it is the embedder chosen (noise under e5)
SCREEN_SHARE = 0.85  # of the screen's height, at most, the dialog takes (a 1920×1080 screen shows most sections)


def tr(text: str) -> str:
    """Settings' own words (group names, labels, descriptions) live in the "Settings" translation context."""
    return QCoreApplication.translate("Settings", text)


class PlainNumberBox(QDoubleSpinBox):
    """A number as a person writes it: 60, not 60.00 (0.25 keeps its decimals), in the window's locale."""

    def textFromValue(self, value: float) -> str:
        text = super().textFromValue(value)
        point = self.locale().decimalPoint()
        return text.rstrip("0").rstrip(point) if point in text else text


class SettingsDialog(QDialog):
    """`downloader` (the AppController) and `models_dir` let the reranker field download a hub cross-encoder and the
    language model's editor list a server's models, test a model and download a model file."""

    def __init__(self, settings: Settings, parent: QWidget | None = None, downloader: Any = None,
                 models_dir: Path | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.original = settings
        self.downloader, self.models_dir = downloader, models_dir
        self.fields: dict[str, QWidget] = {}
        self.rows: dict[str, tuple[QFormLayout, QWidget]] = {}  # a field's form and its editor (to show or hide)
        self.llm: LlmEditor | None = None
        self._following = False  # the section list is being set from the scrolling (not a click to go there)
        body = QWidget()
        sections = QVBoxLayout(body)
        groups = type(settings).groups()  # a Settings subclass (a test's) brings its own fields
        # the language model's editor edits its companion fields with the choice: they get no rows of their own
        owned = set(LlmEditor.EDITS) if any(editor_of(f, type(settings)) == Editor.LLM
                                            for fs in groups.values() for f in fs) else set()
        self.boxes: list[QGroupBox] = []  # the sections, in order (the list on the left goes to each)
        for group in (g for g in Group if g in groups):  # the enum's order: Vault, Search, Models, …
            fields = groups[group]
            box = QGroupBox(tr(str(group)))
            box.setObjectName(f"settings-group-{group.name.lower()}")
            self.boxes.append(box)
            form = QFormLayout(box)
            form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
            for f in fields:
                if f.name not in owned or editor_of(f, type(settings)) == Editor.LLM:
                    self._add_row(form, f, getattr(settings, f.name))
            sections.addWidget(box)
        self.calibration = self._calibration_row(downloader)
        scroll = QScrollArea()
        scroll.setObjectName("settings-page")
        scroll.setWidgetResizable(True)
        scroll.setWidget(body)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.problem = QLabel()
        self.problem.setObjectName("settings-problem")
        self.problem.setWordWrap(True)
        self.problem.setStyleSheet("color: #b71c1c;")
        self.problem.hide()
        buttons = self._buttons()
        self.sections = self._section_bar()
        scroll.verticalScrollBar().valueChanged.connect(self._follow_section)
        col = QVBoxLayout(self)
        col.addWidget(self.sections)
        col.addWidget(scroll, 1)
        col.addWidget(self.problem)
        col.addWidget(buttons)
        self._body, self._scroll, self._col = body, scroll, col
        # a help text that wraps to one more line was cut at its bottom once a row of its section changed (the
        # reranker's download row): the form kept the height it had worked out for it before
        self._rows_check = QTimer(self)
        self._rows_check.setSingleShot(True)
        self._rows_check.timeout.connect(self._fit_rows)
        body.installEventFilter(self)
        self.resize(640, 620)
        self._wheel_to_the_page()
        self._fit_width()
        self.result_settings: Settings | None = None
        if self.llm is not None:
            self.llm.mode.currentIndexChanged.connect(self._show_llm_rows)
            self._show_llm_rows()
        embedder = self.fields.get("embedder")
        if isinstance(embedder, QComboBox):
            embedder.currentIndexChanged.connect(self._show_embedder_rows)
            self._show_embedder_rows()
        access.name_children(self)  # every field named by its row's label for screen readers

    def _add_row(self, form: QFormLayout, f: dataclasses.Field[Any], value: Any) -> None:
        """A field's row: its editor, its help below it, its technical term in the tooltip."""
        w = self._editor(f, value)
        w.setObjectName(f"setting-{f.name}")
        help_text = tr(f.metadata["desc"])
        if f.name == "ui_language":
            help_text += " " + self.tr("Takes effect at the next start.")
        term = f.metadata.get("term", "")
        w.setToolTip(help_text + (f"\n({term})" if term else ""))  # the technical term, for who knows it
        helper = QLabel(help_text)
        helper.setObjectName(f"setting-help-{f.name}")
        helper.setWordWrap(True)
        helper.setStyleSheet("color: palette(placeholder-text); font-size: small;")
        cell = QWidget()
        stack = QVBoxLayout(cell)
        stack.setContentsMargins(0, 0, 0, 4)
        stack.setSpacing(1)
        stack.addWidget(w)
        stack.addWidget(helper)
        form.addRow(tr(f.metadata["label"]) or f.name, cell)
        self.fields[f.name] = w
        self.rows[f.name] = (form, cell)

    def _calibration_row(self, downloader: Any) -> CalibrationRow | None:
        """The vault's calibrated threshold under the override (Undo and Back to shipped), with an open vault."""
        if "threshold" not in self.rows or getattr(downloader, "evaluation", None) is None:
            return None
        form, cell = self.rows["threshold"]
        row = CalibrationRow(downloader.evaluation)
        position: Any = form.getWidgetPosition(cell)  # (row, role)
        form.insertRow(int(position[0]) + 1, self.tr("Calibrated"), row)
        return row

    def _buttons(self) -> QDialogButtonBox:
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Ok).setObjectName("settings-ok")
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setObjectName("settings-cancel")
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        return buttons

    def _section_bar(self) -> QTabBar:
        """The sections by name above the page (a bar of tabs, no width taken from the fields): a click shows a
        section, the bar follows the scrolling."""
        bar = QTabBar()
        bar.setObjectName("settings-sections")
        bar.setExpanding(False)
        bar.setDrawBase(False)
        for box in self.boxes:
            bar.addTab(box.title())
        bar.currentChanged.connect(self._go_to_section)
        return bar

    def _show_embedder_rows(self) -> None:
        """An embedder's own options (the engine's `options`: sentence-transformers' model and prefixes) only
        while it is the embedder chosen; a hidden row keeps its value."""
        embedder = self.fields.get("embedder")
        chosen = embedder.currentData() if isinstance(embedder, QComboBox) else None
        wanted = {name for engine in EMBEDDERS if engine.name == chosen for name in engine.options}
        for name in {name for engine in EMBEDDERS for name in engine.options}:
            form, cell = self.rows.get(name, (None, None))
            if form is not None and cell is not None:
                form.setRowVisible(cell, name in wanted)

    def _go_to_section(self, row: int) -> None:
        if 0 <= row < len(self.boxes) and not self._following:
            self._scroll.verticalScrollBar().setValue(self.boxes[row].y())

    def _follow_section(self, value: int) -> None:
        """The list marks the section at the top of the page (scrolled by hand or by the wheel)."""
        at = max((i for i, box in enumerate(self.boxes) if box.y() <= value + 8), default=0)
        bar = self._scroll.verticalScrollBar()
        if value >= bar.maximum() > 0:
            at = max(at, self.sections.currentIndex())  # the last sections never reach the top: keep the one chosen
        self._following = True
        try:
            self.sections.setCurrentIndex(at)
        finally:
            self._following = False

    def _fit_height(self) -> None:
        """As tall as the sections need, up to SCREEN_SHARE of the screen (it was 620 px even at 1920×1080)."""
        screen = self.screen().availableGeometry().height() if self.screen() is not None else 0
        need = self._body.sizeHint().height() + 120  # the buttons, the problem line, margins
        if screen:
            self.resize(self.width(), max(self.height(), min(need, int(screen * SCREEN_SHARE))))

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self._wheel_to_the_page()  # fields an editor made since (a page of the language model's)
        self._fit_width()  # the size hints are real once shown (hidden pages are laid out by then)
        self._fit_height()

    def _wheel_to_the_page(self) -> None:
        """The scroll wheel over a number or a choice the user has not clicked scrolls the page, never the value
        (scrolling past "Vector candidates" took it from 20 to 1): only a focused field takes the wheel, and the
        wheel alone never focuses one."""
        for w in self.findChildren(QAbstractSpinBox) + self.findChildren(QComboBox):
            if w.property("wheel_to_page"):
                continue
            w.setProperty("wheel_to_page", True)
            w.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            w.installEventFilter(self)

    def _fit_rows(self) -> None:
        """A row shorter than its wrapped text needs at the width it has: its form works its heights out again."""
        for form, cell in self.rows.values():
            if cell.isVisible() and cell.height() < cell.heightForWidth(cell.width()):
                form.invalidate()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:
        if obj is self._body and event.type() == QEvent.Type.LayoutRequest:
            self._rows_check.start(0)  # once the page is laid out
        if event.type() == QEvent.Type.Wheel and isinstance(obj, QWidget) and obj.property("wheel_to_page") \
                and not obj.hasFocus():
            QApplication.sendEvent(self._scroll.verticalScrollBar(), event)  # the page scrolls instead
            return True
        return super().eventFilter(obj, event)

    def _fit_width(self) -> None:
        """As wide as its widest section needs (a long choice in Portuguese, the built-in model's catalog once it
        is shown), so nothing is cut at the right edge; never narrower than it is, never wider than the screen."""
        margins = self._col.contentsMargins()
        layout = self._body.layout()
        if layout is not None:
            layout.activate()  # a page just shown counts in the size hint only once its layout is redone
        need = (self._body.minimumSizeHint().width() + self._scroll.verticalScrollBar().sizeHint().width()
                + 2 * self._scroll.frameWidth() + margins.left() + margins.right())
        screen = self.screen().availableGeometry().width() if self.screen() is not None else need
        self.resize(max(self.width(), min(need, screen)), self.height())

    def _show_llm_rows(self) -> None:
        """Only the language model settings the choice uses are shown (the built-in model's context under My
        server would be noise); a hidden row keeps its value."""
        assert self.llm is not None
        used = self.llm.used_fields()
        for name in self.llm.DEPENDS:
            form, cell = self.rows.get(name, (None, None))
            if form is not None and cell is not None:
                form.setRowVisible(cell, name in used)
        self._fit_width()  # the choice's page (the catalog) may need more room than the one shown before

    def _editor(self, f: dataclasses.Field[Any], value: Any) -> QWidget:
        """The field's editor, of the kind its type and rule call for (`editor_of`), within the rule's bounds."""
        kind, rule = editor_of(f, type(self.original)), rule_of(f)
        w: QWidget
        if kind == Editor.RERANKER:
            w = self.reranker = RerankerEditor(value, self.downloader, self.models_dir)
        elif kind == Editor.LLM:
            w = self.llm = LlmEditor(self.original, self.downloader, self.models_dir,
                                          weak_method(self._edited))
        elif kind == Editor.CHOICE:
            assert rule.choices is not None
            w = QComboBox()
            every, offered = rule.choices.options() or {}, rule.choices.offered() or {}
            for key, words in every.items():  # the ones offered here, and the one set (whatever it is)
                if key in offered or key == value:
                    w.addItem(tr(words), key)
            w.setCurrentIndex(max(0, w.findData(value)))
        elif kind == Editor.CHECK:
            w = QCheckBox()
            w.setChecked(value)
        elif kind == Editor.WHOLE:
            w = QSpinBox()
            w.setRange(int(rule.minimum if rule.minimum is not None else 1),
                       int(rule.maximum if rule.maximum is not None else SPIN_MAX))
            if rule.auto:
                w.setSpecialValueText(self.tr("automatic"))
            w.setValue(value)
        elif kind == Editor.OPTIONAL_NUMBER:
            w = QDoubleSpinBox()
            w.setLocale(locale())  # 0,2500 in Portuguese
            w.setRange(-1.0, 1.0)  # -1, the lowest, means "not set"
            w.setDecimals(4)
            w.setSingleStep(0.01)
            w.setSpecialValueText(self.tr("calibrated / shipped"))
            w.setValue(value if value is not None else -1.0)
        elif kind == Editor.NUMBER:
            w = PlainNumberBox()
            w.setLocale(locale())
            w.setRange(rule.minimum if rule.minimum is not None else 0.0,
                       rule.maximum if rule.maximum is not None else 1_000_000.0)
            w.setDecimals(2)
            w.setSingleStep(0.1)
            w.setValue(value)
        elif kind == Editor.LIST:
            w = QLineEdit(", ".join(str(v) for v in value))
            w.setPlaceholderText(self.tr("comma-separated"))
        else:
            w = QLineEdit(str(value))
        return w

    def values(self) -> dict[str, Any]:
        """What the editors hold, as the settings' types (a list's text is split at commas; the check reads it)."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self.original):
            w = self.fields.get(f.name)
            if w is None:
                continue
            kind = editor_of(f, type(self.original))
            if isinstance(w, RerankerEditor):
                out[f.name] = w.value()
            elif isinstance(w, LlmEditor):
                out.update(w.values())
            elif isinstance(w, QComboBox):
                out[f.name] = w.currentData()
            elif isinstance(w, QCheckBox):
                out[f.name] = w.isChecked()
            elif isinstance(w, QDoubleSpinBox) and kind == Editor.OPTIONAL_NUMBER:
                out[f.name] = None if w.value() <= w.minimum() else round(w.value(), 4)
            elif isinstance(w, QDoubleSpinBox):
                out[f.name] = round(w.value(), 4)
            elif isinstance(w, QSpinBox):
                out[f.name] = w.value()
            elif isinstance(w, QLineEdit) and kind == Editor.LIST:
                out[f.name] = [x.strip() for x in w.text().split(",") if x.strip()]
            elif isinstance(w, QLineEdit):
                out[f.name] = w.text().strip()
        return out

    def _edited(self) -> Settings:
        """The settings as edited so far (raises UserFacingError while a value does not pass its check)."""
        return self.original.replace(**self.values())

    def _accept(self) -> None:
        """Validate through core Settings; a problem is shown in the dialog, which stays open with the values."""
        for editor in (self.reranker, self.llm):
            said = editor.problem() if editor is not None else ""
            if said:
                self.problem.setText(said)
                self.problem.show()
                return
        try:
            self.result_settings = self.original.replace(**self.values())
        except UserFacingError as e:
            self.problem.setText(str(e))
            self.problem.show()
            return
        self.accept()

    def reject(self) -> None:
        """Cancel also stops a model download started here (what arrived is kept for the next attempt)."""
        self.reranker.cancel_download()
        if self.llm is not None:
            self.llm.cleanup()
        super().reject()

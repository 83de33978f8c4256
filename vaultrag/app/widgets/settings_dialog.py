"""Settings: one row per field of core Settings (with its description as tooltip), plus the UI language."""

from __future__ import annotations

import dataclasses
from typing import Any

from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QLineEdit,
    QMessageBox,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Settings"))
        self.original = settings
        self.fields: dict[str, QWidget] = {}
        form = QFormLayout()
        descriptions = Settings.describe()
        for f in dataclasses.fields(Settings):
            if f.name == "schema_version":
                continue
            value = getattr(settings, f.name)
            w: QWidget
            if f.name == "embedder":
                w = QComboBox()
                w.addItems(["e5", "use", "st"])
                w.setCurrentText(value)
            elif f.name == "ui_language":
                w = QComboBox()
                w.addItem(self.tr("System"), "")
                w.addItem("English", "en")
                w.addItem("Português", "pt")
                w.setCurrentIndex(max(0, w.findData(value)))
            elif isinstance(value, bool):
                w = QCheckBox()
                w.setChecked(value)
            elif isinstance(value, int):
                w = QSpinBox()
                w.setRange(1, 1_000_000_000)
                w.setValue(value)
            elif f.name == "threshold":
                w = QDoubleSpinBox()
                w.setRange(-1.0, 1.0)
                w.setDecimals(4)
                w.setSingleStep(0.01)
                w.setSpecialValueText(self.tr("calibrated / shipped"))
                w.setMinimum(-1.0)
                w.setValue(value if value is not None else -1.0)
            elif isinstance(value, list):
                w = QLineEdit(", ".join(value))
            else:
                w = QLineEdit(str(value))
            w.setObjectName(f"setting-{f.name}")
            w.setToolTip(descriptions[f.name])
            form.addRow(f.name.replace("_", " "), w)
            self.fields[f.name] = w
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self._accept)
        buttons.rejected.connect(self.reject)
        col = QVBoxLayout(self)
        col.addLayout(form)
        col.addWidget(buttons)
        self.result_settings: Settings | None = None

    def values(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, w in self.fields.items():
            if isinstance(w, QComboBox):
                out[name] = w.currentData() if name == "ui_language" else w.currentText()
            elif isinstance(w, QCheckBox):
                out[name] = w.isChecked()
            elif isinstance(w, QDoubleSpinBox):
                out[name] = None if w.value() <= -1.0 else round(w.value(), 4)
            elif isinstance(w, QSpinBox):
                out[name] = w.value()
            elif isinstance(getattr(self.original, name), list):
                out[name] = [x.strip() for x in w.text().split(",") if x.strip()]  # type: ignore[attr-defined]
            else:
                out[name] = w.text()  # type: ignore[attr-defined]
        return out

    def _accept(self) -> None:
        try:
            self.result_settings = self.original.replace(**self.values())
        except UserFacingError as e:
            QMessageBox.warning(self, self.tr("Settings"), str(e))
            return
        self.accept()

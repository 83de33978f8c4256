"""The ask bar's refusal threshold for one question: "auto" (the calibrated or shipped one) or a value in 0..1."""

from __future__ import annotations

from PySide6.QtWidgets import QDoubleSpinBox

from vaultrag.app.words import local, locale

AUTO = -0.01  # the box's minimum, shown as "threshold: auto": one step below 0 (no threshold in force is below 0)


class ThresholdBox(QDoubleSpinBox):
    """A threshold override that starts from the threshold in force: from "auto" one step up is a little stricter
    than the last question's threshold, not −0.99 (the box once started at −1 and one click refused nothing)."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("threshold")
        self.setLocale(locale())  # 0,261 in Portuguese
        # the answerability model's threshold is a probability and the cosine rule's (its fallback) is ~0.26:
        # both in 0..1
        self.setRange(AUTO, 1.0)
        self.setDecimals(3)
        self.setSingleStep(0.01)
        self.setPrefix(self.tr("threshold "))
        self.setSpecialValueText(self.tr("threshold: auto"))
        self.setValue(AUTO)
        self.in_force: float | None = None  # the threshold the last decision used (set by the window)
        self.setToolTip(self.tr("Refusal threshold for this question: auto uses the calibrated or shipped one; the "
                                "arrows start from the one in force, and a step below 0 returns to auto"))

    def set_in_force(self, threshold: float | None) -> None:
        """The threshold the last decision used: the arrows start from it, and "auto" shows it."""
        self.in_force = threshold
        if threshold is None:
            self.setSpecialValueText(self.tr("threshold: auto"))
        else:
            self.setSpecialValueText(local(self.tr("threshold: auto ({t:.3f})")).format(t=threshold))
        # wide enough for the words ("threshold: auto (0.337)" was cut to "hold: auto (0.337)")
        self.setMinimumWidth(self.fontMetrics().horizontalAdvance(self.specialValueText()) + 36)

    def override(self) -> float | None:
        """The value to ask with: None for auto."""
        return None if self.value() < 0 else round(self.value(), 3)

    def stepBy(self, steps: int) -> None:
        if self.value() < 0 and steps > 0:
            start = min(max(self.in_force if self.in_force is not None else 0.5, 0.0), 1.0)
            self.setValue(start + steps * self.singleStep())
            return
        super().stepBy(steps)

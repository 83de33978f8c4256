"""The selected candidate's score in parts: a horizontal bar per part, the compared row's part over it as an outline."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen
from PySide6.QtWidgets import QSizePolicy, QWidget

from vaultrag.app.words import feature_name, locale
from vaultrag.core.wording import signed

POSITIVE = QColor(70, 130, 180)
NEGATIVE = QColor(205, 92, 72)
OTHER_ROW = QColor(90, 90, 90)
MAX_BARS = 4  # the parts that tell the rows apart most; the rest are summed in one bar (the pane stays short)
MIN_PART = 5e-4  # a part below this did not count


@dataclass(frozen=True)
class Bar:
    name: str  # the part in words
    value: float
    other: float | None  # the same part of the row it is compared with (None: no such row)


def bars_of(mine: dict[str, float], other: dict[str, float] | None, others_word: str,
            n: int = MAX_BARS) -> list[Bar]:
    """The parts that tell this row from the compared one first (the biggest differences: a part as big in both
    rows, a capped one, separates nothing), else the biggest parts; the rest summed in one bar."""
    names = list(dict.fromkeys([*mine, *(other or {})]))
    size = {f: max(abs(mine.get(f, 0.0)), abs((other or {}).get(f, 0.0))) for f in names}
    gap = {f: abs(mine.get(f, 0.0) - (other or {}).get(f, 0.0)) for f in names}
    key = gap if other is not None else size
    ranked = [f for f in sorted(names, key=lambda f: (-key[f], -size[f])) if size[f] >= MIN_PART]
    bars = [Bar(feature_name(f), mine.get(f, 0.0), None if other is None else other.get(f, 0.0))
            for f in ranked[:n]]
    rest = ranked[n:]
    if rest:
        bars.append(Bar(others_word.format(n=len(rest)), sum(mine.get(f, 0.0) for f in rest),
                        None if other is None else sum(other.get(f, 0.0) for f in rest)))
    return bars


class ContributionBars(QWidget):
    """What each part adds to the selected row's score, as a bar from zero (blue: up, red: down), its value at
    its end, and the compared row's part (the row above) as a dashed outline: where the two differ is seen at a
    glance, the parts that differ most on top."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("contribution-bars")
        self.bars: list[Bar] = []
        self.other_rank: int | None = None
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        font = self.font()  # a size smaller: the bars take no more height than the lines of words beside them
        font.setPointSizeF(font.pointSizeF() * 0.9)
        self.setFont(font)

    def set_parts(self, mine: dict[str, float] | None, other: dict[str, float] | None, other_rank: int | None
                  ) -> None:
        self.bars = bars_of(mine, other, self.tr("{n} other parts")) if mine else []
        self.other_rank = other_rank if other is not None else None
        self.setToolTip(self.tr("What each part adds to this row's score (blue: up, red: down); dashed: the same "
                                "part of #{rank}").format(rank=other_rank) if self.other_rank is not None else "")
        self.setVisible(bool(self.bars))
        self.updateGeometry()
        self.update()

    def line(self) -> int:
        return self.fontMetrics().height() + 1

    def sizeHint(self) -> QSize:
        return QSize(360, (MAX_BARS + 1) * self.line())

    def minimumSizeHint(self) -> QSize:
        return QSize(200, (MAX_BARS + 1) * self.line())

    def label_width(self) -> int:
        fm = self.fontMetrics()
        widest = max((fm.horizontalAdvance(b.name) for b in self.bars), default=0)
        return min(widest + 8, int(self.width() * 0.42))

    def paintEvent(self, event: object) -> None:
        if not self.bars:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        fm = self.fontMetrics()
        lh = self.line()
        text = self.palette().text().color()
        label_w = self.label_width()
        value_w = fm.horizontalAdvance("−0.00") + 6
        left, right = label_w, self.width() - value_w
        values = [v for b in self.bars for v in (b.value, b.other) if v is not None]
        lo, hi = min(0.0, *values), max(0.0, *values)
        span = (hi - lo) or 1.0
        scale = (right - left - value_w) / span if lo < 0 else (right - left) / span

        def x_of(v: float) -> float:
            return left + (v - lo) * scale + (value_w if lo < 0 else 0)

        zero = x_of(0.0)
        for i, b in enumerate(self.bars):
            top = i * lh
            p.setPen(text)
            name = fm.elidedText(b.name, Qt.TextElideMode.ElideRight, label_w - 6)
            p.drawText(QRectF(0, top, label_w - 6, lh), Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
                       name)
            x1 = x_of(b.value)
            bar = QRectF(min(zero, x1), top + 3, max(abs(x1 - zero), 1.0), lh - 6)
            p.fillRect(bar, POSITIVE if b.value >= 0 else NEGATIVE)
            if b.other is not None:  # the compared row's part: an outline over the same axis
                xo = x_of(b.other)
                p.setPen(QPen(OTHER_ROW, 1, Qt.PenStyle.DashLine))
                p.drawRect(QRectF(min(zero, xo), top + 1, max(abs(xo - zero), 1.0), lh - 2))
            p.setPen(text)
            value = signed(b.value).replace(".", locale().decimalPoint())
            vx = max(x1, zero) + 3 if b.value >= 0 else min(x1, zero) - fm.horizontalAdvance(value) - 3
            if vx < label_w:  # no room left of the bar: the value goes right of the axis, clear of the names
                vx = zero + 3
            p.drawText(QRectF(vx, top, fm.horizontalAdvance(value) + 2, lh), Qt.AlignmentFlag.AlignVCenter, value)
        p.setPen(QPen(text, 1))
        bottom = len(self.bars) * lh
        p.drawLine(QPointF(zero, 0), QPointF(zero, bottom))

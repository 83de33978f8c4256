"""The selected candidate's score in parts: a horizontal bar per part, the compared row's part over it as an outline."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPen, QResizeEvent
from PySide6.QtWidgets import QSizePolicy, QWidget

from vaultrag.app.words import feature_name, locale
from vaultrag.core.wording import signed

POSITIVE = QColor(70, 130, 180)
NEGATIVE = QColor(205, 92, 72)
OTHER_ROW = QColor(90, 90, 90)
LISTS_BARS = 0  # under the four lists side by side none: bars took the height the rows need (scroll bars, then width)
MAX_BARS = 8  # the biggest parts, each named; the rest (small) summed in one bar (9 lines: 8 table rows stay in
# view at 1280×800)
MIN_PART = 5e-4  # a part below this did not count
LABEL_SHARE = 0.5  # of the widget's width, at most, for the names (a longer one wraps onto two lines)
WRAP = Qt.TextFlag.TextWordWrap


@dataclass(frozen=True)
class Bar:
    name: str  # the part in words
    value: float
    other: float | None  # the same part of the row it is compared with (None: no such row)


def bars_of(mine: dict[str, float], other: dict[str, float] | None, others_word: str,
            n: int = MAX_BARS) -> list[Bar]:
    """The `n` biggest parts (in either row: what "other parts" sums stays small), those that tell this row
    from the compared one first (a part as big in both rows, a capped one, separates nothing); the rest summed in
    one bar."""
    names = list(dict.fromkeys([*mine, *(other or {})]))
    size = {f: max(abs(mine.get(f, 0.0)), abs((other or {}).get(f, 0.0))) for f in names}
    gap = {f: abs(mine.get(f, 0.0) - (other or {}).get(f, 0.0)) for f in names}
    ranked = [f for f in sorted(names, key=lambda f: -size[f]) if size[f] >= MIN_PART]
    shown = sorted(ranked[:n], key=lambda f: (-gap[f], -size[f])) if other is not None else ranked[:n]
    bars = [Bar(feature_name(f), mine.get(f, 0.0), None if other is None else other.get(f, 0.0)) for f in shown]
    rest = ranked[n:]
    if rest:
        bars.append(Bar(others_word.format(n=len(rest)), sum(mine.get(f, 0.0) for f in rest),
                        None if other is None else sum(other.get(f, 0.0) for f in rest)))
    return bars


@dataclass(frozen=True)
class Shape:
    """A bar as drawn: its name's box, the bar, the compared row's outline, its value and where."""

    bar: Bar
    name_box: QRectF
    bar_box: QRectF
    outline: QRectF | None
    value_box: QRectF
    value: str
    zero: float


class ContributionBars(QWidget):
    """What each part adds to the selected row's score, as a bar from zero (blue: up, red: down), its value at
    its end, and the compared row's part (the row above) as a dashed outline: where the two differ is seen at a
    glance, the parts that differ most on top."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("contribution-bars")
        self.bars: list[Bar] = []
        self.other_rank: int | None = None
        self.max_bars = MAX_BARS  # fewer under the side-by-side lists, whose rows need the height
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        font = self.font()  # a size smaller: the bars take no more height than the lines of words beside them
        font.setPointSizeF(font.pointSizeF() * 0.9)
        self.setFont(font)

    def set_parts(self, mine: dict[str, float] | None, other: dict[str, float] | None, other_rank: int | None
                  ) -> None:
        self.bars = bars_of(mine, other, self.tr("{n} other parts"), self.max_bars) if mine and self.max_bars else []
        self.other_rank = other_rank if other is not None else None
        self.setToolTip(self.tr("What each part adds to this row's score (blue: up, red: down); dashed: the same "
                                "part of #{rank}").format(rank=other_rank) if self.other_rank is not None else "")
        self.setVisible(bool(self.bars))
        self._fit_height()
        self.updateGeometry()
        self.update()

    def line(self) -> int:
        return self.fontMetrics().height() + 1

    def label_width(self) -> int:
        """The names' column: as wide as the widest name, up to half the widget (a longer name wraps)."""
        fm = self.fontMetrics()
        widest = max((fm.horizontalAdvance(b.name) for b in self.bars), default=0)
        return min(widest + 8, int(self.width() * LABEL_SHARE))

    def rows(self) -> list[tuple[Bar, int, int]]:
        """Each bar with its top and its height: a name that does not fit its column wraps onto a second line."""
        fm, lh, w = self.fontMetrics(), self.line(), max(self.label_width() - 6, 1)
        out, top = [], 0
        for b in self.bars:
            need = fm.boundingRect(QRect(0, 0, w, 10 * lh), WRAP, b.name).height()
            h = max(lh, min(need, 2 * fm.height()) + 1)
            out.append((b, top, h))
            top += h
        return out

    def _fit_height(self) -> None:
        rows = self.rows()
        self.setFixedHeight(max(rows[-1][1] + rows[-1][2] if rows else 0, self.line()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit_height()

    def sizeHint(self) -> QSize:
        return QSize(360, self.height())

    def minimumSizeHint(self) -> QSize:
        return QSize(200, self.height())

    def shapes(self) -> list[Shape]:
        """Where each bar's name, bar, compared outline and value go in the widget's current width."""
        if not self.bars:
            return []
        fm = self.fontMetrics()
        lh = self.line()
        label_w = self.label_width()
        value_w = fm.horizontalAdvance("−00.00") + 6
        left, right = label_w, self.width() - value_w
        values = [v for b in self.bars for v in (b.value, b.other) if v is not None]
        lo, hi = min(0.0, *values), max(0.0, *values)
        span = (hi - lo) or 1.0
        scale = (right - left - value_w) / span if lo < 0 else (right - left) / span

        def x_of(v: float) -> float:
            return left + (v - lo) * scale + (value_w if lo < 0 else 0)

        zero = x_of(0.0)
        out = []
        for b, top, h in self.rows():
            mid = top + (h - lh) / 2  # the bar's line, in the middle of a wrapped name
            x1 = x_of(b.value)
            bar = QRectF(min(zero, x1), mid + 3, max(abs(x1 - zero), 1.0), lh - 6)
            ends = [x1]
            outline = None
            if b.other is not None:  # the compared row's part: an outline over the same axis
                xo = x_of(b.other)
                ends.append(xo)
                outline = QRectF(min(zero, xo), mid + 1, max(abs(xo - zero), 1.0), lh - 2)
            value = signed(b.value).replace(".", locale().decimalPoint())
            vw = fm.horizontalAdvance(value) + 2
            # beyond the bar and the outline both: no dashed line runs through the number
            vx = max(*ends, zero) + 3 if b.value >= 0 else min(*ends, zero) - vw - 3
            if vx < label_w:  # no room left of the bar: the value goes right of the axis, clear of the names
                vx = max(*ends, zero) + 3
            out.append(Shape(b, QRectF(0, top, label_w - 6, h), bar, outline, QRectF(vx, mid, vw, lh), value, zero))
        return out

    def paintEvent(self, event: object) -> None:
        shapes = self.shapes()
        if not shapes:
            return
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        text = self.palette().text().color()
        for sh in shapes:
            p.setPen(text)
            p.drawText(sh.name_box, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter | WRAP, sh.bar.name)
            p.fillRect(sh.bar_box, POSITIVE if sh.bar.value >= 0 else NEGATIVE)
            if sh.outline is not None:
                p.setPen(QPen(OTHER_ROW, 1, Qt.PenStyle.DashLine))
                p.drawRect(sh.outline)
            p.setPen(text)
            p.drawText(sh.value_box, Qt.AlignmentFlag.AlignVCenter, sh.value)
        p.setPen(QPen(text, 1))
        zero = shapes[0].zero
        p.drawLine(QPointF(zero, 0), QPointF(zero, shapes[-1].name_box.bottom()))

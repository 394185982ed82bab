"""Screens that fit a 1366×768 laptop and 150 % scaling: nothing asks for more width than it needs.

:func:`fit_combos` makes combo boxes size to a short minimum instead of their longest item (a long event or
member name otherwise widens the whole screen); the list they open still shows whole items.
:func:`elided` shortens a button's or label's text to a width, with the whole text as its tooltip.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QComboBox,
    QLabel,
    QScrollArea,
    QStyle,
    QTableView,
    QVBoxLayout,
    QWidget,
)

COMBO_CHARS = 14  # what a combo box shows at least, in characters


class _WidePopup(QObject):
    """The list a fitted combo box opens is as wide as its longest item (within the screen)."""

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Show and isinstance(watched, QWidget):
            combo = watched.parent()
            while combo is not None and not isinstance(combo, QComboBox):
                combo = combo.parent()
            if isinstance(combo, QComboBox):
                view = combo.view()
                wanted = view.sizeHintForColumn(0) + 2 * view.frameWidth() + 24
                screen = combo.screen().availableGeometry().width() if combo.screen() else wanted
                view.setMinimumWidth(min(max(wanted, combo.width()), screen - 20))
        return False


_POPUP = _WidePopup()


def fit_combo(combo: QComboBox, chars: int = COMBO_CHARS) -> None:
    combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
    combo.setMinimumContentsLength(max(chars, combo.minimumContentsLength()))
    popup = combo.view().window()
    popup.removeEventFilter(_POPUP)
    popup.installEventFilter(_POPUP)


def fit_combos(root: QWidget, chars: int = COMBO_CHARS) -> None:
    """Every combo box under ``root`` (and root itself) sized to ``chars`` characters at least; one a screen
    has fitted already keeps its own length."""
    combos = root.findChildren(QComboBox)
    if isinstance(root, QComboBox):
        combos.append(root)
    fitted = QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
    for combo in combos:
        if combo.sizeAdjustPolicy() != fitted:
            fit_combo(combo, chars)


def elided(widget: QAbstractButton | QLabel, text: str, width: int) -> None:
    """``text`` shortened with … to ``width`` pixels; the whole text is the tooltip when shortened."""
    short = widget.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, width)
    widget.setText(short)
    widget.setToolTip(text if short != text else "")


class FitHeightLayout(QVBoxLayout):
    """A screen's layout that fits the window's height: the section's scroll area gives it the room there is
    and its lists shrink, instead of asking for every wrapped label's preferred height (a layout with height
    for width makes the scroll area use the preferred heights, so the approvals went below the fold). The
    wrapped labels inside still get the height their width needs."""

    def hasHeightForWidth(self) -> bool:  # noqa: N802 - Qt API
        return False


def fit_scroll(scroll: QScrollArea) -> None:
    """A scroll area that scrolls only up and down: at least as wide as its contents' narrowest layout plus
    the vertical scroll bar, so a splitter or a small window never squeezes it into a sideways scroll bar."""
    inner = scroll.widget()
    if inner is None:
        return
    bar = scroll.style().pixelMetric(QStyle.PixelMetric.PM_ScrollBarExtent)
    scroll.setMinimumWidth(inner.minimumSizeHint().width() + bar + 2 * scroll.frameWidth() + 2)


class DropColumns(QObject):
    """A table on a narrow screen hides its least needed columns (``droppable``, first dropped first) so the
    others, and the stretching column at ``min_stretch`` pixels at least, fit without a sideways scroll bar;
    they come back when there is room. Hidden columns are what the screen shows elsewhere too."""

    def __init__(self, view: QTableView, stretch: int, droppable: list[int], min_stretch: int = 160) -> None:
        super().__init__(view)
        self.view = view
        self.stretch = stretch
        self.droppable = droppable
        self.min_stretch = min_stretch
        self.off: set[int] = set()  # columns the screen does not show now, whatever the room
        view.viewport().installEventFilter(self)
        model = view.model()
        model.modelReset.connect(self.apply)
        model.layoutChanged.connect(self.apply)

    def _width(self, col: int) -> int:
        header = self.view.horizontalHeader()
        if col == self.stretch:
            return self.min_stretch
        hint = max(header.sectionSizeHint(col), self.view.sizeHintForColumn(col))
        return min(hint, header.maximumSectionSize())

    def apply(self) -> None:
        header = self.view.horizontalHeader()
        room = self.view.viewport().width()
        cols = range(header.count())
        hidden: set[int] = set(self.off)
        for col in [None, *self.droppable]:
            if col is not None:
                hidden.add(col)
            if sum(self._width(c) for c in cols if c not in hidden) <= room:
                break
        for c in cols:
            if header.isSectionHidden(c) != (c in hidden):
                header.setSectionHidden(c, c in hidden)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 - Qt API
        if event.type() == QEvent.Type.Resize:
            self.apply()
        return False

"""Every letter whole: İ, Ö, Ñ and descenders drawn without a clipped dot or tail.

Fusion (and the styles derived from it) draws a tab that is not selected two pixels lower and clips its label
to the tab: the dot of "İ" and the dots of "Ö" were cut off, so "İtirazlar" read "Itirazlar" and "Ödüller"
"Odüller", which are other letters in Turkish. The style used by the window keeps every tab's label where a
selected tab has it (the selected tab still stands out by its frame and colour)."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleOption, QWidget


class WholeLettersStyle(QProxyStyle):
    """The platform's style, with tab labels that are never shifted into their clip."""

    def pixelMetric(
        self, metric: QStyle.PixelMetric, option: QStyleOption | None = None, widget: QWidget | None = None
    ) -> int:
        if metric == QStyle.PixelMetric.PM_TabBarTabShiftVertical:
            return 0
        return super().pixelMetric(metric, option, widget)


def use_whole_letters(app: QApplication) -> None:
    """Give the application the style that keeps letters whole (once; later calls change nothing)."""
    if isinstance(app.style(), WholeLettersStyle):
        return
    app.setStyle(WholeLettersStyle(app.style().name()))

"""Finding clipped letters: a label drawn by a widget must have as many rows of ink as the same text drawn
freely in the same font. A dot of İ or Ö cut off by a clip loses its rows (two or three pixels at 100 %)."""

from __future__ import annotations

from collections.abc import Iterator

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QFont, QImage, QPainter
from PySide6.QtWidgets import QHeaderView, QTabBar, QWidget

INK = 110  # a pixel darker than this is the text's ink (frames and tab backgrounds are lighter)


def ink_rows(image: QImage, rect: QRect) -> tuple[int, int] | None:
    """The first and last row of ``rect`` holding ink, or None."""
    rows = [
        y
        for y in range(max(rect.top(), 0), min(rect.bottom() + 1, image.height()))
        if any(
            image.pixelColor(x, y).lightness() < INK
            for x in range(max(rect.left(), 0), min(rect.right() + 1, image.width()))
        )
    ]
    return (rows[0], rows[-1]) if rows else None


def free_ink_height(text: str, font: QFont, scale: float) -> int:
    """Rows of ink of ``text`` drawn unclipped, black on white, at the screen's scale."""
    image = QImage(int(60 * scale + 40 * len(text) * scale), int(120 * scale), QImage.Format.Format_RGB32)
    image.setDevicePixelRatio(scale)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(font)
    painter.setPen(QColor("black"))
    painter.drawText(QRect(20, 0, int(image.width() / scale) - 40, 120), Qt.AlignmentFlag.AlignCenter, text)
    painter.end()
    found = ink_rows(image, QRect(0, 0, image.width(), image.height()))
    return 0 if found is None else found[1] - found[0] + 1


def labels(widget: QWidget) -> Iterator[tuple[str, QWidget, QRect, QFont]]:
    """Every tab and header label shown in ``widget``: (text, the widget drawing it, its rect, its font)."""
    for bar in widget.findChildren(QTabBar):
        if not bar.isVisible():
            continue
        for i in range(bar.count()):
            text = bar.tabText(i).replace("&&", "\0").replace("&", "").replace("\0", "&")
            if text.strip() and bar.tabSizeHint(i).width() <= bar.tabRect(i).width():
                yield text, bar, bar.tabRect(i), bar.font()
    for header in widget.findChildren(QHeaderView):
        if (
            not header.isVisible()
            or header.orientation() != Qt.Orientation.Horizontal
            or header.model() is None
        ):
            continue
        metrics = header.fontMetrics()
        for i in range(header.count()):
            if header.isSectionHidden(i) or header.sectionSize(i) <= 0:
                continue
            text = header.model().headerData(i, Qt.Orientation.Horizontal, Qt.ItemDataRole.DisplayRole)
            if not isinstance(text, str) or not text.strip() or "\n" in text:
                continue
            rect = QRect(header.sectionViewportPosition(i), 0, header.sectionSize(i), header.height())
            if metrics.horizontalAdvance(text) + 12 > rect.width():
                continue  # elided: another text is drawn
            yield text, header, rect, header.font()


def clipped(widget: QWidget) -> list[str]:
    """The labels inside ``widget`` drawn with fewer rows of ink than their text has."""
    found: list[str] = []
    shots: dict[int, QImage] = {}
    for text, owner, rect, font in labels(widget):
        image = shots.get(id(owner))
        if image is None:
            image = owner.grab().toImage()
            shots[id(owner)] = image
        scale = image.devicePixelRatio()
        scaled = QRect(
            int(rect.left() * scale),
            int(rect.top() * scale),
            int(rect.width() * scale),
            int(rect.height() * scale),
        )
        drawn = ink_rows(image, scaled)
        want = free_ink_height(text, font, scale)
        have = 0 if drawn is None else drawn[1] - drawn[0] + 1
        if have + 1 < want:
            found.append(f"{type(owner).__name__} {text!r}: {have} of {want} rows of ink")
    return found

"""The projector window: a second top-level window for the hall's screen.

It shows one page at a time (:mod:`clubdesk.ui.publishing.projector.pages`) in large type, light on dark, and
moves to the next page every few seconds. Readable from 8 m: a name's line is at least 1/40 of the window's
height (the font's pixel size is computed from the height, :func:`name_pixels`). It reads its data again when
the desk's data changes (``DeskState.dataChanged``, which the club server's live refresh also fires,
``ui/shell/live_refresh.py``) and when the database's change mark moves (other desks and processes on a file).
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QEvent, QRect, Qt, QTimer, Signal
from PySide6.QtGui import (
    QCloseEvent,
    QColor,
    QFont,
    QFontMetrics,
    QKeyEvent,
    QPainter,
    QResizeEvent,
    QShowEvent,
)
from PySide6.QtWidgets import QVBoxLayout, QWidget

from clubdesk.i18n import _
from clubdesk.services import night, publishing
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.publishing.projector.pages import Page, build_pages, countdown_page
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.bracket_view import BracketView

BACKGROUND = QColor("#0f172a")
BAND = QColor("#1e293b")
STRIPE = QColor("#16213a")
TEXT = QColor("#f8fafc")
MUTED = QColor("#cbd5e1")
HEADING = QColor("#93c5fd")
ACCENT = QColor("#fde68a")

HEADER_SHARE = 0.12  # of the height: the title band
FOOTER_SHARE = 0.07  # the page number, the clock and the announcement line
ROW_SPACING = 1.3  # a row's height in lines of the name font
POLL_MS = 2000  # how often the change mark is read
DEFAULT_SECONDS = 12


def name_pixels(height: int) -> int:
    """The names' font size in pixels: a line of it is about 1/22 of the window's height, well above the
    1/40 that reads from 8 m."""
    return max(10, round(height / 26))


def _font(pixels: int, bold: bool = False) -> QFont:
    font = QFont()
    font.setPixelSize(max(8, pixels))
    font.setBold(bold)
    return font


@dataclass(frozen=True)
class Drawn:
    rect: QRect
    text: str
    font: QFont
    color: QColor
    align: Qt.AlignmentFlag


class Board(QWidget):
    """Paints one page; ``texts()`` is every string it draws (what the hall can read)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("projectorBoard")
        self.setAutoFillBackground(False)
        self.page: Page | None = None
        self.event_name = ""
        self.footer = ""  # the announcement line under every other page
        self.clock = ""
        self.items: list[Drawn] = []
        self.stripes: list[QRect] = []
        self.bracket = BracketView(self)
        self.bracket.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.bracket.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.bracket.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.bracket.hide()

    # -------------------------------------------------------------------- geometry
    def name_font(self) -> QFont:
        return _font(name_pixels(self.height()))

    def body_rect(self) -> QRect:
        h, w = self.height(), self.width()
        top = round(h * HEADER_SHARE)
        bottom = h - round(h * FOOTER_SHARE)
        margin = round(w * 0.03)
        return QRect(margin, top + round(h * 0.015), w - 2 * margin, bottom - top - round(h * 0.03))

    def rows_per_page(self) -> int:
        """How many rows fit under the column headings."""
        body = self.body_rect()
        line = QFontMetrics(self.name_font()).height()
        head = QFontMetrics(self._head_font()).height() * 1.4
        return max(1, int((body.height() - head) // (line * ROW_SPACING)))

    def _head_font(self) -> QFont:
        return _font(round(self.height() / 34), bold=True)

    # -------------------------------------------------------------------- content
    def show_page(self, page: Page, event_name: str, footer: str, clock: str) -> None:
        self.page, self.event_name, self.footer, self.clock = page, event_name, footer, clock
        self._layout()
        self.update()

    def texts(self) -> list[str]:
        out = [d.text for d in self.items]
        if self.bracket.isVisible() or (
            self.page is not None and self.page.kind == "bracket" and not self.page.columns
        ):
            for box in self.bracket.boxes.values():
                out.extend(box.texts)
        return out

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        self._layout()

    def _layout(self) -> None:
        self.items, self.stripes = [], []
        page = self.page
        if page is None:
            return
        w, h = self.width(), self.height()
        margin = round(w * 0.03)
        header_h = round(h * HEADER_SHARE)
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        right = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        center = Qt.AlignmentFlag.AlignCenter
        title_font = _font(round(h / 17), bold=True)
        small = _font(round(h / 34))
        self._text(QRect(margin, 0, round(w * 0.62), header_h), page.title, title_font, TEXT, left)
        self._text(
            QRect(round(w * 0.62) + margin, 0, round(w * 0.38) - 2 * margin, header_h),
            self.event_name,
            small,
            MUTED,
            right,
        )
        foot = QRect(margin, h - round(h * FOOTER_SHARE), w - 2 * margin, round(h * FOOTER_SHARE))
        self._text(
            QRect(foot.left(), foot.top(), round(foot.width() * 0.15), foot.height()),
            self.clock,
            small,
            MUTED,
            left,
        )
        if page.count > 1:
            pages = _("page {n} of {m}").format(n=page.number, m=page.count)
            self._text(
                QRect(
                    foot.right() - round(foot.width() * 0.2),
                    foot.top(),
                    round(foot.width() * 0.2),
                    foot.height(),
                ),
                pages,
                small,
                MUTED,
                right,
            )
        if self.footer and page.kind != "announcement":
            self._text(
                QRect(
                    foot.left() + round(foot.width() * 0.15),
                    foot.top(),
                    round(foot.width() * 0.65),
                    foot.height(),
                ),
                self.footer.replace("\n", " · "),
                small,
                ACCENT,
                center,
            )
        body = self.body_rect()
        tree = page.kind == "bracket" and not page.empty and not page.columns  # else a round's rows
        self.bracket.setVisible(tree)
        if tree:
            self.bracket.setGeometry(body)
            self.bracket.fit()
            return
        if page.lines:
            self._lines(page, body)
            return
        self._table(page, body)

    def _lines(self, page: Page, body: QRect) -> None:
        """Large centred lines: every other line of the countdown is its time left, larger."""
        big = _font(round(self.height() / 13), bold=True)
        normal = _font(round(self.height() / 20))
        fonts = [big if page.kind == "countdown" and k % 2 == 1 else normal for k in range(len(page.lines))]
        heights = [QFontMetrics(f).height() * 1.5 for f in fonts]
        y = body.top() + max(0.0, (body.height() - sum(heights)) / 2)
        for line, font, lh in zip(page.lines, fonts, heights, strict=True):
            color = ACCENT if font is big or page.kind == "announcement" else TEXT
            if page.empty:
                color = MUTED
            rect = QRect(body.left(), round(y), body.width(), round(lh))
            self._text(rect, line, font, color, Qt.AlignmentFlag.AlignCenter)
            y += lh

    def _table(self, page: Page, body: QRect) -> None:
        head_font = self._head_font()
        name_font = self.name_font()
        head_h = round(QFontMetrics(head_font).height() * 1.4)
        row_h = round(QFontMetrics(name_font).height() * ROW_SPACING)
        pad = round(QFontMetrics(name_font).averageCharWidth() * 0.6)
        xs: list[tuple[int, int]] = []
        x = float(body.left())
        for col in page.columns:
            width = body.width() * col.weight
            xs.append((round(x), round(width)))
            x += width
        aligns = {
            "l": Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter,
            "c": Qt.AlignmentFlag.AlignCenter,
            "r": Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter,
        }
        for col, (cx, cw) in zip(page.columns, xs, strict=True):
            rect = QRect(cx + pad, body.top(), cw - 2 * pad, head_h)
            self._text(rect, col.title, head_font, HEADING, aligns[col.align])
        y = body.top() + head_h
        for k, row in enumerate(page.rows):
            if k % 2 == 0:
                self.stripes.append(QRect(body.left(), y, body.width(), row_h))
            for col, (cx, cw), cell in zip(page.columns, xs, row, strict=False):
                color = ACCENT if col.title == _("Result") else TEXT
                rect = QRect(cx + pad, y, cw - 2 * pad, row_h)
                self._text(
                    rect,
                    cell,
                    name_font if col.name else _font(name_font.pixelSize(), True),
                    color,
                    aligns[col.align],
                )
            y += row_h

    def _text(self, rect: QRect, text: str, font: QFont, color: QColor, align: Qt.AlignmentFlag) -> None:
        if not text:
            return
        shown = QFontMetrics(font).elidedText(text, Qt.TextElideMode.ElideRight, max(1, rect.width()))
        self.items.append(Drawn(rect, shown, font, color, align))

    def paintEvent(self, _event: object) -> None:  # noqa: N802 - Qt API
        p = QPainter(self)
        p.fillRect(self.rect(), BACKGROUND)
        p.fillRect(QRect(0, 0, self.width(), round(self.height() * HEADER_SHARE)), BAND)
        for stripe in self.stripes:
            p.fillRect(stripe, STRIPE)
        for d in self.items:
            p.setFont(d.font)
            p.setPen(d.color)
            p.drawText(d.rect, int(d.align), d.text)
        p.end()


class ProjectorWindow(QWidget):
    """The hall's screen. ``only`` None cycles every kind of page; a kind shows just that (on demand)."""

    pageChanged = Signal()

    def __init__(self, state: DeskState, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.state = state
        self.setObjectName("projectorWindow")
        self.setWindowTitle(_("ClubDesk projector"))
        self.board = Board(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.board)
        self.event_id: int | None = None
        self.only: str | None = None
        self.data: publishing.HallData = publishing.empty()
        self.pages: list[Page] = []
        self.index = 0
        self._mark = -1
        self._per_page = 0
        self.cycle = QTimer(self)
        self.cycle.setInterval(DEFAULT_SECONDS * 1000)
        self.cycle.timeout.connect(self.next_page)
        self.cycle.start()
        self.poll = QTimer(self)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self._poll)
        self.poll.start()
        self.tick = QTimer(self)  # the clock and the countdown
        self.tick.setInterval(1000)
        self.tick.timeout.connect(self._tick)
        self.tick.start()
        self._soon = QTimer(self)
        self._soon.setSingleShot(True)
        self._soon.setInterval(150)
        self._soon.timeout.connect(self.reload)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        self.resize(1280, 720)

    # -------------------------------------------------------------------- what to show
    def set_event(self, event_id: int | None) -> None:
        self.event_id = event_id
        self.index = 0
        self.reload()

    def set_only(self, kind: str | None) -> None:
        self.only = kind
        self.index = 0
        self._paginate()

    def set_seconds(self, seconds: int) -> None:
        self.cycle.setInterval(max(1, seconds) * 1000)
        if self.cycle.isActive():
            self.cycle.start()

    def reload(self) -> None:
        """Read the hall data again (public fields only, rule T14) and show it on the same page."""
        try:
            self._mark = publishing.change_mark(self.state.db)
            self.data = publishing.hall_data(self.state.db, self.event_id)
        except ServiceError as exc:
            self.data = publishing.empty(self.event_id, "", exc.message)
        self._paginate()

    def _data_changed(self, _what: str) -> None:
        if self.isVisible():  # a closed projector reads nothing
            self._soon.start()

    def _changes(self, changes: Changes, _origin: object) -> None:
        if self.isVisible() and not changes.nothing:  # pairings, results and standings are all shown
            self._soon.start()

    def _poll(self) -> None:
        try:
            mark = publishing.change_mark(self.state.db)
        except Exception:  # noqa: BLE001 - the database busy or away: try again at the next poll
            return
        if mark != self._mark:
            self.reload()

    def _paginate(self) -> None:
        current = self.pages[self.index] if 0 <= self.index < len(self.pages) else None
        self._per_page = self.board.rows_per_page()
        self.pages = build_pages(self.data, self._per_page, night.local_now(), self.only)
        self.index = 0
        if current is not None:  # stay on the same kind and page number where it still exists
            for k, p in enumerate(self.pages):
                if p.kind == current.kind and p.number == min(current.number, p.count):
                    self.index = k
                    break
        self._show()

    def _show(self, bracket: bool = True) -> None:
        page = self.pages[self.index] if self.pages else None
        if page is None:
            return
        if (
            bracket
            and page.kind == "bracket"
            and not page.empty
            and not page.columns
            and self.data.bracket is not None
        ):
            self.board.bracket.set_bracket(self.data.bracket, self.data.bracket_names)
        footer = self.data.announcement if page.kind != "announcement" else ""
        self.board.show_page(page, self.data.event_name, footer, night.local_now().strftime("%H:%M"))
        self.pageChanged.emit()

    def next_page(self) -> None:
        if self.pages:
            self.index = (self.index + 1) % len(self.pages)
            self._show()

    def previous_page(self) -> None:
        if self.pages:
            self.index = (self.index - 1) % len(self.pages)
            self._show()

    def show_index(self, index: int) -> None:
        self.index = index % max(1, len(self.pages))
        self._show()

    def current_page(self) -> Page | None:
        return self.pages[self.index] if 0 <= self.index < len(self.pages) else None

    def _tick(self) -> None:
        page = self.current_page()
        if page is None:
            return
        if page.kind == "countdown" and not page.empty:
            self.pages[self.index] = countdown_page(self.data, night.local_now())
            self._show(bracket=False)
        elif self.board.clock != night.local_now().strftime("%H:%M"):
            self._show(bracket=False)

    # -------------------------------------------------------------------- window
    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt API
        super().resizeEvent(event)
        if self.board.rows_per_page() != self._per_page:
            self._paginate()

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 - Qt API
        """On the hall's screen: Right/Space next page, Left previous, Escape leaves full screen."""
        if event.key() in (Qt.Key.Key_Right, Qt.Key.Key_Space, Qt.Key.Key_PageDown):
            self.next_page()
        elif event.key() in (Qt.Key.Key_Left, Qt.Key.Key_PageUp):
            self.previous_page()
        elif event.key() == Qt.Key.Key_Escape and self.isFullScreen():
            self.showNormal()
        else:
            super().keyPressEvent(event)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt API
        super().showEvent(event)
        for timer in (self.cycle, self.poll, self.tick):
            if not timer.isActive():
                timer.start()
        self._soon.start()  # what changed while it was closed

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 - Qt API
        for timer in (self.cycle, self.poll, self.tick, self._soon):
            timer.stop()
        super().closeEvent(event)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 - Qt API
        super().changeEvent(event)
        if event.type() == QEvent.Type.LanguageChange:  # the window switched language
            self.setWindowTitle(_("ClubDesk projector"))
            self._soon.start()

"""The Ratings section: every tavla player's FIBS rating, matches, experience and provisional flag
(rule T12c) with the selected player's history as a line chart, and the player card.

The ratings are the stored ones that the services recompute after every confirmed result and every
correction (``services.night.ranking.ratings.rerate_from``); the screen reloads on ``DeskState.dataChanged``.
The player card (:class:`PlayerCardDialog`, also opened from the Members section) lists the member's events,
results, rating and, for the organiser and the referee only, his incidents; it prints without a phone or an
e-mail (rule T14).

Keyboard: F5 reloads; Enter on a row opens the player card.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QStackedWidget,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk.collation import sort_string
from clubdesk.i18n import _, ngettext
from clubdesk.services import publishing
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.shell.printing import ReportRunner
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.rating_chart import RatingChart
from clubdesk.ui.widgets.tables import PlainRowsModel

SORT_ROLE = Qt.ItemDataRole.UserRole + 1


class Col:
    def __init__(self, title: str, value: Any, sort: Any = None, right: bool = False) -> None:
        self.title = title
        self.value = value
        self.sort = sort or value
        self.right = right


class Rows(PlainRowsModel[Col]):
    def cell(self, row: Any, col: Col, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return col.value(row)
        if role == SORT_ROLE:
            return col.sort(row)
        if role == Qt.ItemDataRole.TextAlignmentRole and col.right:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None


def _view(model: Rows, name: str, sortable: bool = False) -> tuple[QTableView, QSortFilterProxyModel]:
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    view = QTableView()
    view.setObjectName(name)
    view.setModel(proxy)
    view.setSortingEnabled(sortable)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    view.horizontalHeader().setStretchLastSection(True)
    return view, proxy


def rating_columns() -> list[Col]:
    return [
        Col(_("Name"), lambda p: p.name, lambda p: sort_string(p.name)),
        Col(_("Number"), lambda p: p.number),
        Col(_("Club"), lambda p: p.club, lambda p: sort_string(p.club)),
        Col(_("Rating"), lambda p: f"{p.rating:.1f}", lambda p: p.rating, right=True),
        # rule T12c: the matches rated here, as many as the chart's points and the history's rows
        Col(_("Rated matches"), lambda p: str(p.rated), lambda p: p.rated, right=True),
        Col(_("Experience"), lambda p: str(p.experience), lambda p: p.experience, right=True),
        Col(
            _("Status"),
            lambda p: _("provisional") if p.provisional else _("established"),
            lambda p: int(p.provisional),
        ),
    ]


def history_columns() -> list[Col]:
    return [
        Col(_("Opponent"), lambda r: r.opponent),
        Col(_("Result"), lambda r: _("won") if r.won else _("lost")),
        Col(_("Rating"), lambda r: f"{r.after:.1f}", right=True),
        Col(_("Rating change"), lambda r: f"{r.after - r.before:+.1f}", right=True),
    ]


class RatingsSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.ratings: list[publishing.PlayerRating] = []
        title = QLabel(_("Ratings"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.hint = QLabel()
        self.hint.setObjectName("ratingsHint")
        self.hint.setWordWrap(True)
        self.model = Rows(rating_columns())
        self.table, self.proxy = _view(self.model, "ratings", sortable=True)
        self.table.horizontalHeader().setStretchLastSection(False)
        self.table.horizontalHeader().setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        self.table.setWordWrap(False)
        self.table.sortByColumn(3, Qt.SortOrder.DescendingOrder)  # best rating first
        self.table.doubleClicked.connect(lambda _i: self.open_card())
        self.player = QLabel()
        self.player.setObjectName("ratingPlayer")
        self.player.setStyleSheet("font-weight: 600;")
        self.player.setWordWrap(True)
        self.chart = RatingChart()
        self.history_model = Rows(history_columns())
        self.history, _hp = _view(self.history_model, "ratingHistory")
        self.history.setWordWrap(False)
        self.history.horizontalHeader().setStretchLastSection(False)
        self.history.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.card_button = QPushButton(_("Player &card…"))
        self.card_button.setObjectName("playerCard")
        self.card_button.clicked.connect(self.open_card)
        side = QWidget()
        sv = QVBoxLayout(side)
        sv.setContentsMargins(0, 0, 0, 0)
        sv.addWidget(self.player)
        sv.addWidget(self.chart, 2)
        sv.addWidget(self.history, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.card_button)
        sv.addLayout(buttons)
        split = QSplitter()
        split.setChildrenCollapsible(False)
        split.addWidget(self.table)
        split.addWidget(side)
        split.setStretchFactor(0, 2)
        split.setStretchFactor(1, 1)
        split.setSizes([760, 390])
        self.empty = QLabel()
        self.empty.setObjectName("ratingsEmpty")
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.empty.setStyleSheet("font-size: 12pt;")
        self.stack = QStackedWidget()
        self.stack.addWidget(split)
        self.stack.addWidget(self.empty)
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.hint)
        layout.addWidget(self.stack, 1)
        self.table.selectionModel().currentRowChanged.connect(lambda cur, _prev: self._show_player())
        for key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            sc = QShortcut(QKeySequence(key), self.table)
            sc.setContext(Qt.ShortcutContext.WidgetShortcut)
            sc.activated.connect(self.open_card)
        QShortcut(QKeySequence("F5"), self, self.reload)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        self.reload()

    def _data_changed(self, section: str) -> None:
        # rule T12c: a confirmed result or a correction re-rates; a member's name or club may change too
        if section in (
            "rounds",
            "results",
            "standings",
            "discipline",
            "members",
            "events",
            "desk",
            "ratings",  # a background re-rating is done
            "all",
            "",
        ):
            self.reload()

    def _changes(self, changes: Changes, _origin: object) -> None:
        # rule T12c: a result that counts, or counted, re-rates
        if changes.standings:
            self.reload()

    def reload(self) -> None:
        keep = self.selected_number()
        self.ratings = publishing.tavla_ratings(self.state.db)
        self.model.set_rows(self.ratings)
        if not self.ratings:
            self.hint.setText("")
            self.empty.setText(
                _(
                    "No tavla players yet: create a tavla event in Events and register its players at "
                    "the Desk. Ratings appear after the first confirmed tavla match."
                )
            )
            self.stack.setCurrentWidget(self.empty)
            self._show_player()
            return
        self.stack.setCurrentIndex(0)
        if not any(p.rated for p in self.ratings):
            self.hint.setText(
                _(
                    "No tavla results yet: ratings appear after the first confirmed tavla match. "
                    "Until then each player shows the rating of the register (1500 for a newcomer)."
                )
            )
        else:
            self.hint.setText(
                _(
                    "FIBS ratings (rule T12c), recomputed after every confirmed result and correction. "
                    "Provisional: fewer than 30 rated matches."
                )
            )
        row = 0
        if keep is not None:
            row = next((k for k, p in enumerate(self.ratings) if p.number == keep), 0)
        src = self.model.index(row, 0)
        self.table.setCurrentIndex(self.proxy.mapFromSource(src))
        self._show_player()

    def selected(self) -> publishing.PlayerRating | None:
        idx = self.table.currentIndex()
        if not idx.isValid() or not self.ratings:
            return None
        row = self.proxy.mapToSource(idx).row()
        return self.model.rows[row] if 0 <= row < len(self.model.rows) else None

    def selected_number(self) -> str | None:
        p = self.selected()
        return p.number if p is not None else None

    def select_number(self, number: str) -> None:
        for k, p in enumerate(self.model.rows):
            if p.number == number:
                self.table.setCurrentIndex(self.proxy.mapFromSource(self.model.index(k, 0)))
                return

    def _show_player(self) -> None:
        p = self.selected()
        self.card_button.setEnabled(p is not None)
        if p is None:
            self.player.setText("")
            self.chart.set_history(None, [], _("Select a player."))
            self.history_model.set_rows([])
            return
        points = publishing.rating_points(self.state.db, p.number)
        self.player.setText(rating_line(p, len(points)))
        self.chart.set_history(
            points[0].before if points else None,
            [x.after for x in points],
            _("No rated match yet for {name}: the chart starts with the first confirmed tavla match.").format(
                name=p.name
            ),
        )
        self.history_model.set_rows(list(reversed(points)))

    def open_card(self) -> None:
        number = self.selected_number()
        if number is not None:
            open_player_card(self.state, number, self)


# ------------------------------------------------------------------------------------------ player card
def event_columns() -> list[Col]:
    return [
        Col(_("Date"), lambda e: e.date.isoformat() if e.date else ""),
        Col(_("Event"), lambda e: e.event),
        Col(_("Game"), lambda e: e.game),
        Col(_("Place"), lambda e: e.place),
        Col(_("Result"), lambda e: e.result),
        Col(_("Season points"), lambda e: e.season_points, right=True),
        Col(_("Rating"), lambda e: e.rating, right=True),
    ]


def result_columns() -> list[Col]:
    return [
        Col(_("Event"), lambda m: m.event),
        Col(_("Round"), lambda m: str(m.round), right=True),
        Col(_("Table"), lambda m: str(m.table), right=True),
        Col(_("Opponent"), lambda m: m.opponent),
        Col(_("Side"), lambda m: m.side),
        Col(_("Score"), lambda m: m.score),
        Col(_("Result"), lambda m: m.result),
        Col(_("Rating"), lambda m: m.rating, right=True),
    ]


def incident_columns() -> list[Col]:
    return [
        Col(_("Event"), lambda i: i.event),
        Col(_("Round"), lambda i: i.round, right=True),
        Col(_("Table"), lambda i: i.table, right=True),
        Col(_("Incident"), lambda i: i.kind),
        Col(_("Decision"), lambda i: i.decision),
        Col(_("Notes"), lambda i: i.text),
    ]


def rating_line(p: publishing.PlayerRating, rated: int) -> str:
    """The player's rating with the count of its chart's points (rule T12c); matches the register counted
    before ClubDesk (they decide the newcomer boost, not the chart) are named apart."""
    line = ngettext(
        "{name}: {rating} after {n} rated match", "{name}: {rating} after {n} rated matches", rated
    ).format(name=p.name, rating=f"{p.rating:.1f}", n=rated)
    earlier = p.matches - rated
    if earlier > 0:
        line += " " + ngettext(
            "(and {n} match before ClubDesk)", "(and {n} matches before ClubDesk)", earlier
        ).format(n=earlier)
    return line


class PlayerCardDialog(QDialog):
    """A member's card: events, results, rating and (organiser and referee only) incidents; printable."""

    def __init__(self, state: DeskState, number: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.number = number
        self.card = publishing.player_card(state.db, number, state.actor)
        c = self.card
        self.setWindowTitle(_("Player card: {name}").format(name=c.name))
        self.setObjectName("playerCardDialog")
        points = publishing.rating_points(state.db, number)
        facts = QGridLayout()
        status = _("provisional (first 30 matches)") if c.provisional else _("established")
        pairs = (
            (_("Member number"), c.number),
            (_("Club"), c.club),
            (_("City"), c.city),
            (_("Rating"), c.rating),
            (_("Rated matches"), str(len(points))),  # rule T12c: the chart's points
            (_("Experience"), str(c.experience)),
            (_("Rating status"), status),
        )
        for k, (label, value) in enumerate(pairs):
            facts.addWidget(QLabel(f"<b>{label}</b>"), k // 4, (k % 4) * 2)
            v = QLabel(value)
            v.setObjectName(f"fact{k}")
            facts.addWidget(v, k // 4, (k % 4) * 2 + 1)
        name = QLabel(c.name)
        name.setStyleSheet("font-size: 15pt; font-weight: 600;")
        self.tabs = QTabWidget()
        self.events_model = Rows(event_columns())
        self.events_model.set_rows(c.events)
        self.events_view, _p1 = _view(self.events_model, "cardEvents")
        self.results_model = Rows(result_columns())
        self.results_model.set_rows(c.results)
        self.results_view, _p2 = _view(self.results_model, "cardResults")
        for view, wide in ((self.events_view, 1), (self.results_view, 3)):  # the names take the spare width
            view.horizontalHeader().setStretchLastSection(False)
            view.horizontalHeader().setSectionResizeMode(wide, QHeaderView.ResizeMode.Stretch)
        self.tabs.addTab(
            self._or_empty(
                self.events_view,
                bool(c.events),
                _("No event played yet: the card fills in from the first confirmed result."),
            ),
            _("Events"),
        )
        self.tabs.addTab(
            self._or_empty(self.results_view, bool(c.results), _("No result yet.")), _("Results")
        )
        self.chart = RatingChart()
        self.chart.set_history(
            points[0].before if points else None,
            [x.after for x in points],
            _("No tavla results yet: ratings appear after the first confirmed tavla match."),
        )
        self.tabs.addTab(self.chart, _("Rating history"))
        self.incidents_view: QTableView | None = None
        if c.incidents_shown:  # organiser and referee only (services.kernel.permissions "incidents.view")
            self.incidents_model = Rows(incident_columns())
            self.incidents_model.set_rows(c.incidents)
            self.incidents_view, _p3 = _view(self.incidents_model, "cardIncidents")
            self.tabs.addTab(
                self._or_empty(self.incidents_view, bool(c.incidents), _("No incident recorded.")),
                _("Incidents"),
            )
        note = QLabel(
            _("The printed card has no phone or e-mail; incidents are printed for the organiser only.")
            if c.incidents_shown
            else _("The printed card has no phone or e-mail.")
        )
        note.setWordWrap(True)
        self.save_button = QPushButton(_("Save as PDF…"))
        self.save_button.setObjectName("cardSave")
        self.print_button = QPushButton(_("Print…"))
        close = QPushButton(_("Close"))
        close.clicked.connect(self.accept)
        self.save_button.clicked.connect(self.save_pdf)
        self.print_button.clicked.connect(self.print_card)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.progress = QProgressBar()
        self.progress.setVisible(False)
        row = QHBoxLayout()
        row.addWidget(note, 1)
        for b in (self.save_button, self.print_button, close):
            row.addWidget(b)
        layout = QVBoxLayout(self)
        layout.addWidget(name)
        layout.addLayout(facts)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.message)
        layout.addLayout(row)
        self.runner = ReportRunner(
            state.db, self, self.progress, self.message, (self.save_button, self.print_button)
        )
        self.resize(900, 560)

    @staticmethod
    def _or_empty(view: QWidget, has_rows: bool, text: str) -> QWidget:
        if has_rows:
            return view
        label = QLabel(text)
        label.setWordWrap(True)
        label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        return label

    def request(self) -> publishing.ReportRequest:
        return publishing.ReportRequest(
            kind=publishing.PLAYER_CARD, event_id=0, member=self.number, viewer=self.state.actor
        )

    def save_pdf(self, path: str | None = None) -> None:
        self.runner.save_as(self, self.request(), path, name=f"player-card-{self.number}.pdf")

    def print_card(self) -> None:
        self.runner.print(self.request())


def open_player_card(state: DeskState, number: str, parent: QWidget | None = None) -> PlayerCardDialog | None:
    """Open the member's card (from the Ratings and the Members sections); None when he is unknown."""
    try:
        dialog = PlayerCardDialog(state, number, parent)
    except ServiceError as exc:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.warning(parent, _("Player card"), exc.message)
        return None
    dialog.setModal(False)
    dialog.show()
    return dialog

"""The Standings section: live standings of an event with its tie-break columns and, per tie, the
explanation (tooltip on the row and the side panel); the bracket tree for elimination formats. Refreshed
whenever a result changes (``DeskState.dataChanged``).

Keyboard: Ctrl+F5 or F5 refresh; the table is sortable; the selected row's explanation shows on the right.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QSortFilterProxyModel, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QSplitter,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import events, night
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.ranking.standings_model import COL_NAME, SORT_ROLE, StandingsModel, lines_from_service
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.bracket_view import BracketView
from clubdesk.ui.widgets.event_choice import EventChoice

ELIMINATION = ("single-elimination", "double-elimination")


def bracket_data(state: DeskState, event_id: int) -> tuple[dict[str, Any], dict[str, str]] | None:
    """The event's bracket with its confirmed results (``Bracket.to_data()``) and entrant names, from
    ``services.night.ranking.standings.bracket_data`` (the screens never open a database session)."""
    return night.bracket_data(state.db, event_id)


class StandingsSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.events: list[events.EventInfo] = []
        self.event_box = EventChoice(state, "event")  # the window's event in use
        self.title = QLabel()
        self.title.setObjectName("standingsTitle")
        self.title.setStyleSheet("font-size: 14pt; font-weight: 700;")
        self.model = StandingsModel()
        self.proxy = QSortFilterProxyModel()
        self.proxy.setSourceModel(self.model)
        self.proxy.setSortRole(SORT_ROLE)
        self.view = QTableView()
        self.view.setObjectName("standings")
        self.view.setModel(self.proxy)
        self.view.setSortingEnabled(True)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().setVisible(False)
        self.view.setAlternatingRowColors(True)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_NAME, QHeaderView.ResizeMode.Stretch)
        self.explain = QLabel()
        self.explain.setObjectName("explanation")
        self.explain.setWordWrap(True)
        self.explain.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.explain.setMinimumWidth(260)
        self.all_explanations = QLabel()
        self.all_explanations.setObjectName("allExplanations")
        self.all_explanations.setWordWrap(True)
        self.all_explanations.setAlignment(Qt.AlignmentFlag.AlignTop)
        side = QWidget()
        sv = QVBoxLayout(side)
        sv.addWidget(QLabel(_("<b>Why this place</b>")))
        sv.addWidget(self.explain)
        sv.addWidget(QLabel(_("<b>Every tie, explained</b>")))
        sv.addWidget(self.all_explanations, 1)
        split = QSplitter()
        split.addWidget(self.view)
        split.addWidget(side)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        self.bracket = BracketView()
        self.tabs = QTabWidget()
        self.tabs.addTab(split, _("Standings"))
        self.tabs.addTab(self.bracket, _("Bracket"))
        from clubdesk.ui.ranking.prizes_panel import PrizesPanel

        self.prizes = PrizesPanel(state)  # rule T13e
        self.tabs.addTab(self.prizes, _("Prizes"))
        from clubdesk.ui.ranking.crosstable_panel import CrossTablePanel

        self.crosstable = CrossTablePanel(state)  # the round-by-round grid
        self.tabs.addTab(self.crosstable, _("Cross-table"))
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Event")))
        top.addWidget(self.event_box, 1)
        # standings, bracket, season to the chat
        from clubdesk.ui.publishing.share_dialog import share_button

        top.addWidget(share_button(state, self, self._share_target))
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.title)
        layout.addWidget(self.tabs, 1)
        self.event_box.currentIndexChanged.connect(lambda _i: self.refresh())
        self.view.selectionModel().currentRowChanged.connect(
            lambda cur, _prev: self._show_explanation(cur.row())
        )
        QShortcut(QKeySequence("F5"), self, self.refresh)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        self.reload_events()

    def _share_target(self) -> tuple[int | None, int | None, str]:
        kind = (
            ("standings", "bracket", "prizes")[self.tabs.currentIndex()]
            if self.tabs.currentIndex() < 3
            else ""
        )
        if self.tabs.currentWidget() is self.crosstable:
            kind = "crosstable"
        return (self.event_box.currentData(), None, kind or "standings")

    def reload_events(self) -> None:
        """The club's events in the shared order, on the window's event in use."""
        self.event_box.reload()
        self.events = self.event_box.events
        self.refresh()

    def select_event(self, event_id: int) -> None:
        if self.event_box.currentData() == event_id or not self.event_box.select(event_id):
            self.refresh()

    def _data_changed(self, section: str) -> None:
        if section in ("events",):
            self.reload_events()
        elif section in ("rounds", "results", "standings", "discipline"):
            self.refresh()

    def _changes(self, changes: Changes, _origin: object) -> None:
        """A night's change (``DeskState.announce``): the event list when an event's state moved, else
        the event shown when its standings, cross-table or prizes may read differently."""
        if changes.event:
            self.reload_events()
        elif (changes.standings or changes.money) and changes.event_id == self.event_box.currentData():
            self.refresh()

    def refresh(self) -> None:
        event_id = self.event_box.currentData()
        ev = next((e for e in self.events if e.id == event_id), None)
        if ev is None:
            self.model.set_standings([], [])
            self.title.setText(_("No event yet."))
            self.prizes.show_event(None)
            self.crosstable.show_event(None)
            return
        self.prizes.show_event(ev.id)
        self.crosstable.show_event(ev.id)
        try:
            st = night.event_standings(self.state.db, ev.id)
        except ServiceError as exc:
            self.title.setText(exc.message)
            return
        self.model.set_standings(lines_from_service(st), st.codes)
        self.view.sortByColumn(-1, Qt.SortOrder.AscendingOrder)
        self.title.setText(
            (
                _("{name}: final standings")
                if st.finished
                else _("{name}: standings after the confirmed results")
            ).format(name=ev.name)
        )
        self.all_explanations.setText("\n".join(st.explanations) or _("No ties."))
        elimination = ev.format in ELIMINATION
        self.tabs.setTabVisible(1, elimination)
        if elimination:
            data = bracket_data(self.state, ev.id)
            if data is not None:
                self.bracket.set_bracket(data[0], data[1])
        self._show_explanation(self.view.currentIndex().row())

    def _show_explanation(self, proxy_row: int) -> None:
        if proxy_row < 0:
            self.explain.setText(_("Select a row."))
            return
        src = self.proxy.mapToSource(self.proxy.index(proxy_row, 0)).row()
        line = self.model.lines[src]
        self.explain.setText(
            line.explanation or _("{name} is not tied with a neighbour.").format(name=line.name)
        )

"""The Season section (rules T12d, T4g): pick a season; its events with their class and coefficient; the
season ranking (best N of M, shared places averaged: the season engine through
``services.publishing.season_screen``); the Super Final invitation list with each finalist's starting lives;
"Print season" (the season PDF of services.publishing). Each part says what to do first when it has nothing to
show.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels
from clubdesk.i18n import _
from clubdesk.reports import data as report_data
from clubdesk.services import events as events_service
from clubdesk.services import publishing
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.shell.printing import JobResult, ReportRunner
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.widgets.fit import fit_combos
from clubdesk.ui.widgets.rows import Column, RowsModel
from clubdesk.ui.widgets.tables import row_table


def _coefficient(c: int | None) -> str:
    return "—" if c is None else f"×{c / 100:g}"


def _event_cell(k: int) -> Callable[[report_data.SeasonRowData], str]:
    """The k-th event's cell of a ranking row: its points, "(12)" when not counted, "" when not played."""
    return lambda r: r.events[k] if k < len(r.events) else ""


class SeasonSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.overview: publishing.SeasonOverview | None = None
        self.season_box = QComboBox()
        self.season_box.setObjectName("season")
        self.title = QLabel()
        self.title.setObjectName("seasonTitle")
        self.title.setStyleSheet("font-size: 14pt; font-weight: 700;")
        self.empty = QLabel("")
        self.empty.setObjectName("seasonEmpty")
        self.empty.setWordWrap(True)
        self.events_model = RowsModel(
            [
                Column(_("No."), self._event_number, True),
                Column(_("Event"), lambda e: e.name),
                Column(_("Date"), lambda e: e.starts_on.isoformat() if e.starts_on else ""),
                Column(_("Status"), lambda e: labels.event_status_label(e.status)),
                Column(_("Class"), lambda e: labels.class_label(e.coefficient_class) or "—"),
                Column(_("Coefficient"), lambda e: _coefficient(e.coefficient), True),
            ]
        )
        self.events = row_table(self.events_model, "seasonEvents")
        self.events.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.ranking_model = RowsModel([])
        self.ranking = row_table(self.ranking_model, "seasonRanking")
        self.ranking_note = QLabel("")
        self.ranking_note.setObjectName("seasonNote")
        self.ranking_note.setWordWrap(True)
        self.finalists_model = RowsModel(
            [
                Column(_("Rank"), lambda f: f.rank, True),
                Column(_("Name"), lambda f: f.name),
                Column(_("Points"), lambda f: f.points_text, True),
                Column(_("Starting lives"), lambda f: f.lives, True),
            ]
        )
        self.finalists = row_table(self.finalists_model, "superFinal")
        self.finalists.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.finalists_note = QLabel("")
        self.finalists_note.setObjectName("superFinalNote")
        self.finalists_note.setWordWrap(True)
        self.print_button = QPushButton(_("Print season"))
        self.print_button.setObjectName("printSeason")
        self.print_button.clicked.connect(self.print_season)
        self.save_button = QPushButton(_("Save as PDF…"))
        self.save_button.setObjectName("saveSeasonPdf")
        self.save_button.clicked.connect(lambda: self.save_pdf())
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(120)
        self.progress.setVisible(False)
        self.message = QLabel("")
        self.message.setObjectName("seasonMessage")
        self.runner = ReportRunner(
            state.db, self, self.progress, self.message, [self.print_button, self.save_button]
        )
        self.last_result: JobResult | None = None
        self.runner.done.connect(self._done)
        self.runner.busy_changed.connect(self.progress.setVisible)

        top = QHBoxLayout()
        top.addWidget(QLabel(_("Season")))
        top.addWidget(self.season_box, 1)
        top.addWidget(self.print_button)
        top.addWidget(self.save_button)
        top.addWidget(self.progress)
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(QLabel(_("<b>Ranking</b>")))
        lv.addWidget(self.ranking_note)
        lv.addWidget(self.ranking, 1)
        right = QWidget()
        rv = QVBoxLayout(right)
        rv.setContentsMargins(0, 0, 0, 0)
        rv.addWidget(QLabel(_("<b>Events of the season</b>")))
        rv.addWidget(self.events, 2)
        rv.addWidget(QLabel(_("<b>Super Final</b>")))
        rv.addWidget(self.finalists_note)
        rv.addWidget(self.finalists, 3)
        split = QSplitter()
        split.addWidget(left)
        split.addWidget(right)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 2)
        split.setSizes([640, 460])
        self.body = split
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.title)
        layout.addWidget(self.message)
        layout.addWidget(self.empty)
        layout.addWidget(split, 1)
        self.season_box.currentIndexChanged.connect(lambda _i: self.refresh())
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        state.eventChanged.connect(self._follow)
        fit_combos(self)
        self.reload()

    def _event_number(self, e: publishing.SeasonEventLine) -> str:
        """The event's column in the ranking ("Event 2"), for the events that have ended."""
        if self.overview is None:
            return ""
        ended = [x.id for x in self.overview.events if x.finished]
        return str(ended.index(e.id) + 1) if e.id in ended else ""

    def _data_changed(self, section: str) -> None:
        if section in ("events", "rounds", "results", "standings", "discipline", "prizes"):
            self.reload()

    def _changes(self, changes: Changes, _origin: object) -> None:
        # season points follow an event's standings and its end (places T12a, points T12d, prizes T13)
        if changes.standings or changes.event or changes.money:
            self.reload()

    def reload(self) -> None:
        current = self.season_box.currentData()
        self.season_box.blockSignals(True)
        self.season_box.clear()
        for name in publishing.seasons(self.state.db):
            self.season_box.addItem(name, name)
        if current is None:  # first opening: the season of the window's event in use
            current = self._season_in_use()
        if current is not None and self.season_box.findData(current) >= 0:
            self.season_box.setCurrentIndex(self.season_box.findData(current))
        self.season_box.blockSignals(False)
        self.refresh()

    def _season_in_use(self) -> str | None:
        event_id = self.state.event_in_use
        if event_id is None:
            return None
        try:
            return events_service.get_event(self.state.db, event_id).season or None
        except ServiceError:
            return None

    def _follow(self, _event_id: object = None) -> None:
        """The window's event in use chosen elsewhere: its season is shown (when it has one), with the
        event's line selected; a hidden screen follows when shown."""
        if not self.isVisible():
            return
        season = self._season_in_use()
        if season is not None and season != self.season_box.currentData():
            self.select_season(season)
        self._mark_event_in_use()

    def _mark_event_in_use(self) -> None:
        rows = self.overview.events if self.overview is not None else []
        row = next((i for i, e in enumerate(rows) if e.id == self.state.event_in_use), None)
        if row is not None:
            self.events.selectRow(row)
        else:
            self.events.clearSelection()

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        super().showEvent(event)
        self._follow()

    def select_season(self, season: str) -> None:
        self.season_box.setCurrentIndex(self.season_box.findData(season))

    def refresh(self) -> None:
        season = self.season_box.currentData()
        self.overview = None
        if season is None:
            self._show_empty(
                _(
                    "No event belongs to a season yet. Give events a season (and a class) in "
                    "Events › Night settings; their results add up here once they end."
                )
            )
            return
        try:
            self.overview = ov = publishing.season_overview(self.state.db, str(season))
        except ServiceError as exc:
            self._show_empty(exc.message)
            return
        self.body.setVisible(True)
        for b in (self.print_button, self.save_button):
            b.setEnabled(not self.runner.busy)
        d = ov.data
        self.title.setText(_("Season {season}").format(season=ov.season))
        self.events_model.set_rows(ov.events)
        self._mark_event_in_use()
        columns = [
            Column(_("Rank"), lambda r: r.rank, True),
            Column(_("Name"), lambda r: r.name),
            Column(_("Club"), lambda r: r.club),
            Column(_("Points"), lambda r: r.points_text or r.points, True),
        ]
        for k, _name in enumerate(d.event_columns):  # "Event 1": its number in the events list
            columns.append(
                Column(
                    _("Event {n}").format(n=k + 1),
                    _event_cell(k),
                    True,
                )
            )
        columns.append(Column(_("Note"), lambda r: r.note))
        self.ranking_model = RowsModel(columns)
        self.ranking.setModel(self.ranking_model)
        self.ranking_model.set_rows(d.rows)
        self.ranking.horizontalHeader().setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)
        self.finalists_model.set_rows(ov.finalists)
        notes: list[str] = []
        if not ov.has_scale:
            notes.append(
                _(
                    "No season scale yet: set the base points by place and the coefficient of each class "
                    "in Events › Night settings (or night-config --season-scale); until then no event "
                    "earns season points."
                )
            )
        if not d.rows:
            notes.append(
                _("No event of this season has ended yet: the ranking appears when the first one ends.")
            )
        else:
            how = (
                _("Best {n} of {m} results count; a result in brackets is not counted.").format(
                    n=d.best_of, m=d.events_total
                )
                if d.best_of
                else _("Every result counts ({m} events).").format(m=d.events_total)
            )
            notes.append(how + " " + _("Players sharing a place get the average of its points (T12d)."))
        self.ranking_note.setText(" ".join(notes))
        self.finalists_note.setText(
            _(
                "The top {n} are invited (players without points are not) and start the final "
                "with these lives (T4g)."
            ).format(n=d.super_final)
            if ov.finalists
            else _(
                "Nobody to invite yet: the Super Final list is the top of the ranking once events have ended."
            )
        )
        self.empty.setText("")
        self.empty.setVisible(False)

    def _show_empty(self, text: str) -> None:
        self.title.setText(_("Season"))
        self.empty.setText(text)
        self.empty.setVisible(True)
        self.body.setVisible(False)
        self.events_model.set_rows([])
        self.ranking_model.set_rows([])
        self.finalists_model.set_rows([])
        for b in (self.print_button, self.save_button):
            b.setEnabled(False)

    # ------------------------------------------------------------------------------------------ printing
    def _request(self) -> publishing.ReportRequest | None:
        if self.overview is None:
            return None
        return publishing.ReportRequest(kind="season", event_id=self.overview.reference_event)

    def print_season(self) -> None:
        req = self._request()
        if req is not None:
            self.runner.print(req)

    def save_pdf(self, path: str | None = None) -> None:
        req = self._request()
        if req is not None:
            self.runner.save_as(self, req, path)

    def _done(self, result: JobResult) -> None:
        self.last_result = result

"""The Rounds section: the round's tables with their state, table-by-table score entry (``table_panel``),
the table call with its countdown (``table_call``) and one-action forfeits, the tables' phones, and the
pairing wizard.

Keyboard: Ctrl+P pair the next round (wizard), Ctrl+T (or a QR scanner) to the table field — type a table
number or scan ``CLUBDESK:TABLE:<event>:<round>:<table>`` (or, while table entry on phones is on, the
sheet's table address ``http://…/t/<token>``) and Enter opens the table; Ctrl+L back to the
tables list (Enter opens the selected table); in a table: see ``table_panel``.

Nothing stale: the table panel names its event and round and closes when the event or round changes; each
table opened keeps its panel for the session, so undo survives switching tables.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import events as events_service
from clubdesk.services import night
from clubdesk.services import phones as phones_service
from clubdesk.services.kernel import Changes, ServiceError
from clubdesk.ui.night.entry_params import family_of, night_settings
from clubdesk.ui.night.table_call import call_due_at, call_line
from clubdesk.ui.night.table_panel import TablePanel
from clubdesk.ui.night.table_phones import RefereeCallButton, answer_call, phones_of, table_phone
from clubdesk.ui.night.table_query import parse_table_query, parse_table_url
from clubdesk.ui.night.tables_model import (
    COL_A,
    COL_APPROVED,
    COL_PHONES,
    FILTERS,
    TABLE_ROLE,
    StateFilter,
    TablesModel,
    tables_in_state,
)
from clubdesk.ui.night.tables_view import tables_view
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.event_choice import EventChoice
from clubdesk.ui.widgets.fit import DropColumns, FitHeightLayout, fit_combo, fit_combos


class RoundsSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.initials: dict[tuple[int, int, int], str] = {}
        self.events: list[events_service.EventInfo] = []
        self.round: night.RoundView | None = None
        self.panel: TablePanel | None = None
        # every table opened this session keeps its panel, so undo survives switching tables
        self.panels: dict[tuple[int, int, int], TablePanel] = {}
        self._split_set = False

        self.event_box = EventChoice(state, "event")  # the window's event in use
        self.round_box = QComboBox()
        self.round_box.setObjectName("round")
        self.filter_box = QComboBox()
        self.filter_box.setObjectName("filter")
        for code, label in FILTERS:
            self.filter_box.addItem(_(label), code)
        self.table_field = QLineEdit()
        self.table_field.setObjectName("tableField")
        self.table_field.setPlaceholderText(_("table number or scan the sheet's QR (Ctrl+T)"))
        self.table_field.returnPressed.connect(self.open_from_field)
        self.pair_button = QPushButton(_("Pair next round… (Ctrl+P)"))
        self.pair_button.setObjectName("pairButton")
        self.pair_button.clicked.connect(self.open_wizard)
        # rule T10: the referee takes back a published round nobody has started
        self.unpublish_button = QPushButton(_("Unpublish round…"))
        self.unpublish_button.setObjectName("unpublishButton")
        self.unpublish_button.clicked.connect(self._ask_unpublish)
        self.call_label = QLabel()
        self.call_label.setObjectName("callLabel")
        self.call_label.setWordWrap(True)
        self.call_label.setStyleSheet("font-size: 12pt; font-weight: 600;")
        # a table that called the referee from a phone, until the desk says he came
        self.calling: list[int] = []
        self.referee_button = RefereeCallButton()
        self.referee_button.clicked.connect(self.answer_referee_call)
        self.counts = QLabel()
        self.counts.setObjectName("counts")
        self.info = QLabel()
        self.info.setObjectName("roundInfo")
        self.info.setStyleSheet(themed("color: #b00020;"))

        self.model = TablesModel()
        self.proxy = StateFilter()
        self.proxy.setSourceModel(self.model)
        self.view = tables_view(self.proxy)
        self.view.activated.connect(self._activated)
        # a narrow list (a table open beside it on a laptop) drops the approvals first: the panel shows them;
        # then the phones' state, which the State column sums up
        self.drop = DropColumns(self.view, COL_A, [COL_APPROVED, COL_PHONES], min_stretch=110)
        self.drop.off = {COL_PHONES}  # shown while table entry on phones is on, or once a phone was used

        # two rows that fit 1366 pixels in every language: what is shown (event, round, filter) and the
        # table call; then what is done (open a table, pair, unpublish, share, answer a referee call)
        top = QHBoxLayout()
        top.addWidget(QLabel(_("Event")))
        top.addWidget(self.event_box, 2)
        top.addWidget(QLabel(_("Round")))
        top.addWidget(self.round_box)
        top.addWidget(QLabel(_("Show")))
        top.addWidget(self.filter_box)
        top.addWidget(self.call_label, 3)
        from clubdesk.ui.publishing.share_dialog import share_button  # the round's pairings to the chat

        second = QHBoxLayout()
        second.addWidget(self.table_field, 1)
        second.addWidget(self.referee_button)
        second.addWidget(self.pair_button)
        second.addWidget(self.unpublish_button)
        second.addWidget(share_button(state, self, self._share_target))
        left = QWidget()
        lv = QVBoxLayout(left)
        lv.setContentsMargins(0, 0, 0, 0)
        lv.addWidget(self.counts)
        lv.addWidget(self.view, 1)
        self.right = QWidget()
        self.right_layout = QVBoxLayout(self.right)
        self.right_layout.setContentsMargins(0, 0, 0, 0)
        self.placeholder = QLabel(_("Open a table: type its number or scan its sheet, then Enter."))
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setStyleSheet(themed("color: #6b7280;"))
        self.right_layout.addWidget(self.placeholder)
        splitter = QSplitter()
        splitter.setObjectName("roundsSplitter")
        splitter.addWidget(left)
        splitter.addWidget(self.right)
        splitter.setChildrenCollapsible(False)
        # the tables list needs room for two names, score, state and approvals: about 62 % at first
        left.setMinimumWidth(300)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([740, 450])
        self.splitter = splitter
        layout = FitHeightLayout(self)
        layout.addLayout(top)
        layout.addLayout(second)
        layout.addWidget(self.info)
        layout.addWidget(splitter, 1)

        fit_combo(self.event_box, 24)
        fit_combo(self.round_box, 3)  # a round number
        fit_combos(self)
        QShortcut(QKeySequence("Ctrl+T"), self, self._focus_table_field)
        QShortcut(QKeySequence("Ctrl+L"), self, self.view.setFocus)
        QShortcut(QKeySequence("Ctrl+P"), self, self.open_wizard)
        self.event_box.currentIndexChanged.connect(self._event_changed)
        self.round_box.currentIndexChanged.connect(lambda _i: self.load_round())
        self.filter_box.currentIndexChanged.connect(
            lambda _i: self.proxy.set_state(str(self.filter_box.currentData() or ""))
        )
        self.timer = QTimer(self)
        self.timer.timeout.connect(self._tick)
        self.timer.start(1000)
        state.dataChanged.connect(self._data_changed)
        state.changed.connect(self._changes)
        self.reload_events()

    def _share_target(self) -> tuple[int | None, int | None, str]:
        ev = self.current_event()
        r = self.round_box.currentData()
        return (ev.id if ev is not None else None, int(r) if r is not None else None, "pairings")

    # ------------------------------------------------------------------ loading
    def current_event(self) -> events_service.EventInfo | None:
        return self.event_box.current_event()

    def reload_events(self) -> None:
        """The club's events in the shared order, on the window's event in use."""
        self.event_box.reload()
        self.events = self.event_box.events
        self._event_changed()

    def select_event(self, event_id: int) -> None:
        self.event_box.select(event_id)

    def close_table(self) -> None:
        """No table open: the panel of another event or round never stays on screen."""
        if self.panel is not None:
            self.panel.setVisible(False)
            self.panel = None
        self.placeholder.setVisible(True)

    def _event_changed(self, *_args: object) -> None:
        ev = self.current_event()
        self.round_box.blockSignals(True)
        self.round_box.clear()
        latest = None
        if ev is not None:
            try:
                latest = night.get_round(self.state.db, ev.id)
            except ServiceError:
                latest = None
        if latest is not None:
            for r in range(1, latest.round + 1):
                self.round_box.addItem(str(r), r)
            self.round_box.setCurrentIndex(self.round_box.count() - 1)
        self.round_box.blockSignals(False)
        self.load_round()

    def load_round(self) -> None:
        ev = self.current_event()
        r = self.round_box.currentData()
        if self.panel is not None and (ev is None or self.panel.key[:2] != (ev.id, r)):
            self.close_table()
        self.round = None
        if ev is None or r is None:
            self.model.set_rows([])
            self.info.setText(_("No round yet: pair round 1 (Ctrl+P).") if ev is not None else "")
            self.counts.setText("")
            self._tick()
            return
        try:
            self.round = night.get_round(self.state.db, ev.id, int(r))
        except ServiceError as exc:
            self.info.setText(exc.message)
            return
        self.info.setText(
            _("Round {r} is only proposed: publish it in the wizard (Ctrl+P).").format(r=r)
            if self.round.status == "proposed"
            else ""
        )
        phones = phones_of(self.state.db, ev.id, int(r))
        self.calling = sorted(t for t, st in phones.items() if getattr(st, "referee_called", False))
        self._show_calls()
        self.drop.off = set() if phones else {COL_PHONES}
        self.model.set_rows(self.round.tables, phones, games=family_of(ev) == "tavla")
        self._show_counts()
        self._tick()

    def _show_counts(self) -> None:
        if self.round is None:
            return
        counts: dict[str, int] = {}
        for t in self.round.tables:
            counts[t.status] = counts.get(t.status, 0) + 1
        self.counts.setText(
            _("Round {r}: ").format(r=self.round.round)
            + ", ".join(tables_in_state(s, n) for s, n in sorted(counts.items(), key=lambda x: -x[1]))
        )

    def _changes(self, changes: Changes, origin: object) -> None:
        """A change's typed result (``DeskState.announce``): each table it names in the round shown is read
        once, or taken as its own panel has just read it, and only its row, the counts and the call line
        follow; the round is not read again. A change to the round itself (no tables named) reloads it,
        unless this section made it."""
        ev, rv = self.current_event(), self.round
        if ev is None or rv is None or changes.event_id != ev.id:
            return
        if changes.round_no != rv.round or not changes.tables:
            if origin is not self and (changes.round_no in (None, rv.round) or changes.rounds):
                self.load_round()
            return
        shown = {t.table: t for t in rv.tables}
        for number in sorted(changes.tables & shown.keys()):
            panel = self.panels.get((ev.id, rv.round, number))
            if panel is not None and panel is origin:
                table = panel.table
            else:
                try:
                    table = night.get_table(self.state.db, ev.id, rv.round, number)
                except ServiceError:
                    continue
                if panel is not None:
                    panel.follow(table)
            shown[number] = table
            phone = table_phone(self.state.db, ev.id, rv.round, number) if self.model.phones else None
            self.model.set_table(table, phone)
        self.round = replace(rv, tables=tuple(shown[t.table] for t in rv.tables))
        self.calling = sorted(t for t, st in self.model.phones.items() if st.referee_called)
        self._show_calls()
        self._show_counts()
        self._tick()

    def _show_calls(self) -> None:
        self.referee_button.show_calls(self.calling, self.panel.key[2] if self.panel is not None else None)

    def answer_referee_call(self) -> bool:
        """The referee came to the table that called him from a phone: the call is marked answered."""
        ev, table = self.current_event(), self.referee_button.table
        if ev is None or table is None or self.round is None:
            return False
        try:
            answer_call(self.state.db, self.state.actor, ev.id, self.round.round, table)
        except ServiceError as exc:
            self.info.setText(exc.message)
            return False
        self.state.announce(Changes(ev.id, self.round.round, frozenset({table})), self)
        return True

    def _data_changed(self, section: str) -> None:
        if section in ("events", "desk"):
            self.reload_events()
        elif section in ("rounds", "discipline", "discipline-section"):
            # another desk's hand (live refresh says "rounds"), a penalty or a decision can change the
            # open table: its state and sheet follow, from the round read once here
            self.load_round()
            if self.panel is not None and self.round is not None:
                table = next((t for t in self.round.tables if t.table == self.panel.key[2]), None)
                if table is not None:
                    self.panel.follow(table)

    # ------------------------------------------------------------------ the table call (T3b)
    def call_due_at(self) -> Any:
        """When absent sides can be forfeited (rules G15, T3b; see ``table_call``)."""
        return call_due_at(self.round, self._call_minutes)

    def _call_minutes(self) -> int:
        ev = self.current_event()
        return int(night_settings(self.state, ev.id).get("call_minutes", 10)) if ev else 10

    def _tick(self) -> None:
        text, style = call_line(self.round, self.call_due_at(), night.local_now())
        self.call_label.setText(text)
        if style:
            self.call_label.setStyleSheet(themed(style))

    # ------------------------------------------------------------------ opening a table
    def focus_first(self) -> None:
        """When the section opens: the open table's form, else the table field."""
        if self.panel is not None:
            self.panel.focus_first()
        else:
            self._focus_table_field()

    def _focus_table_field(self) -> None:
        self.table_field.setFocus()
        self.table_field.selectAll()

    def open_from_field(self) -> None:
        parsed = parse_table_query(self.table_field.text())
        token = parse_table_url(self.table_field.text()) if parsed is None else None
        if token is not None:  # the sheet's QR carries the table's address while table entry is on
            ref = phones_service.table_for_token(self.state.db, token)
            if ref is None:
                self.info.setText(_("That table address is not one of this club's tables."))
                return
            parsed = (ref.event_id, ref.round_no, ref.table_no)
        if parsed is None:
            self.info.setText(_("Type a table number or scan a table's QR code."))
            return
        event_id, round_no, table_no = parsed
        if event_id is not None and (self.current_event() is None or self.current_event().id != event_id):  # type: ignore[union-attr]
            if self.event_box.findData(event_id) < 0:
                self.info.setText(_("That sheet belongs to an event that is not here."))
                return
            self.select_event(event_id)
        if round_no is not None:
            i = self.round_box.findData(round_no)
            if i < 0:
                self.info.setText(_("Round {r} has not been paired.").format(r=round_no))
                return
            self.round_box.setCurrentIndex(i)
        self.table_field.clear()
        self.open_table(table_no)

    def _activated(self, index: QModelIndex) -> None:
        table = self.proxy.data(index, TABLE_ROLE)
        if table is not None:
            self.open_table(int(table))

    def open_for_entry(self, initials: str) -> TablePanel | None:
        """The round's first table with two sides, opened with the entry form showing (``initials`` given
        when the table asks for them); None when the round has no such table. The desk card's keys, the
        guide's pictures and the fit checks open a table this way."""
        if self.round is None:
            return None
        table = next((t for t in self.round.tables if t.sides[1] is not None), None)
        panel = self.open_table(table.table) if table is not None else None
        if panel is not None and panel.form is None:
            panel.initials.setText(initials)
            panel._initials_given()
        return panel

    def open_table(self, table_no: int) -> TablePanel | None:
        ev = self.current_event()
        if ev is None or self.round is None:
            self.info.setText(_("No round yet: pair round 1 (Ctrl+P)."))
            return None
        table = next((t for t in self.round.tables if t.table == table_no), None)
        if table is None:
            self.info.setText(_("Round {r} has no table {t}.").format(r=self.round.round, t=table_no))
            return None
        self.info.setText("")
        key = (ev.id, self.round.round, table_no)
        if self.panel is not None and self.panel.key != key:
            self.panel.setVisible(False)
        self.placeholder.setVisible(False)
        panel = self.panels.get(key)
        if panel is None:
            panel = TablePanel(self.state, ev, self.round.round, table, self.initials)
            self.panels[key] = panel
            self.right_layout.addWidget(panel)
        else:
            panel.reopen(table)
        panel.setVisible(True)
        if self.panel is None and not self._split_set:
            # the first table opened: the entry form gets the larger share, the list keeps its names
            total = sum(self.splitter.sizes())
            self.splitter.setSizes([int(total * 0.4), total - int(total * 0.4)])
            self._split_set = True
        self.panel = panel
        self._show_calls()
        self.panel.focus_first()
        for row in range(self.proxy.rowCount()):
            if self.proxy.data(self.proxy.index(row, 0), TABLE_ROLE) == table_no:
                self.view.selectRow(row)
        return self.panel

    # ------------------------------------------------------------------ wizard
    def _ask_unpublish(self) -> None:
        reason, ok = QInputDialog.getText(
            self, _("Unpublish round"), _("Referee: why is the latest round taken back (rule T10)?")
        )
        if ok:
            self.unpublish(reason)

    def unpublish(self, reason: str) -> bool:
        """Rule T10: the latest published round back to proposed (referee, reason; refused once started)."""
        ev = self.current_event()
        if ev is None:
            return False
        try:
            taken_back = night.unpublish_round(self.state.db, self.state.actor, ev.id, reason)
        except ServiceError as exc:
            self.info.setText(exc.message)
            return False
        self._event_changed()
        self.state.announce(taken_back.changes, self)
        self.info.setText(
            _("Round {r} is proposed again; the earlier round is unlocked.").format(r=taken_back.round.round)
        )
        return True

    def open_wizard(self) -> None:
        ev = self.current_event()
        if ev is None:
            QMessageBox.information(self, _("Pairing"), _("Create an event first."))
            return
        from clubdesk.ui.night.pairing_wizard import PairingWizard

        wizard = PairingWizard(self.state, ev.id, self)
        wizard.exec()
        self._event_changed()

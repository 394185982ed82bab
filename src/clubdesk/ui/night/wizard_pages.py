"""The pairing wizard's pages before publishing: attendance, the proposed pairing with its seed, the preview
with each pair's explanation and manual swaps checked live by ``verify_pairing``, and the table assignment.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWizardPage,
)

from clubdesk import labels
from clubdesk.i18n import _, ngettext
from clubdesk.services import desk, night
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.night.wizard_host import WizardHost
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.shell.workers import run_in_pool
from clubdesk.ui.widgets.bracket_view import BracketView
from clubdesk.ui.widgets.forms import EnterActs
from clubdesk.ui.widgets.name_field import NameField

ELIMINATION = ("single-elimination", "double-elimination")


def read_only_item(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


class AttendancePage(QWizardPage):
    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Attendance"))
        self.setSubTitle(
            _(
                "Who is here: check in late arrivals; withdraw who has left. "
                "Only checked-in entrants are paired (T3a)."
            )
        )
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("attendance")
        self.table.setHorizontalHeaderLabels([_("Entrant"), _("Status"), _("Checked in"), _("Bye requested")])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        self.checkin = NameField(
            lambda text: desk.entrant_choices(wizard.state.db, wizard.event_id, text)
        )  # a late arrival by name (accent-insensitive), or code, member number, phone, QR
        self.checkin.setObjectName("checkin")
        self.checkin.setPlaceholderText(
            _("late arrival: name, check-in code, member number, phone or QR, then Enter")
        )
        # Enter checks in and stays on this page (the wizard's Next needs its own Enter on an empty field)
        EnterActs(self.checkin, self.do_checkin, lambda: bool(self.checkin.text().strip()))
        self.checkin.picked.connect(lambda _label: self.do_checkin())  # Enter on the name offered: checked in
        self.withdraw_button = QPushButton(_("Withdraw selected (Del)"))
        self.withdraw_button.clicked.connect(self.do_withdraw)
        self.bye_button = QPushButton(_("Bye requested / cancel (Ctrl+B)"))
        self.bye_button.setObjectName("requestBye")
        self.bye_button.setToolTip(
            _("The selected entrant sits out the next round and gets a requested bye (T4e, T4g, league)")
        )
        self.bye_button.clicked.connect(self.toggle_bye)
        self.bye_button.setVisible(wizard.ev_info.format in night.BYE_FORMATS)
        self.summary = QLabel()
        self.summary.setObjectName("attendanceSummary")
        self.stale = QLabel()
        self.stale.setObjectName("staleProposal")
        self.stale.setWordWrap(True)
        self.stale.setStyleSheet("font-weight: 600;")
        self.stale.setVisible(False)
        self.message = QLabel()
        self.message.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(_("Event: {name}").format(name=wizard.ev_info.name)))
        layout.addWidget(self.checkin)
        layout.addWidget(self.table, 1)
        row = QHBoxLayout()
        row.addWidget(self.summary, 1)
        row.addWidget(self.bye_button)
        row.addWidget(self.withdraw_button)
        layout.addLayout(row)
        layout.addWidget(self.stale)
        layout.addWidget(self.message)
        QShortcut(QKeySequence(Qt.Key.Key_Delete), self.table, self.do_withdraw)
        QShortcut(QKeySequence("Ctrl+B"), self, self.toggle_bye)
        self.rows: list[desk.EntrantRow] = []
        self.byes: dict[int, int] = {}

    def initializePage(self) -> None:  # noqa: N802
        self.reload()
        self.checkin.setFocus()

    def reload(self) -> None:
        self.rows = desk.entrants(self.w.state.db, self.w.event_id, include_withdrawn=False)
        self.byes = night.requested_byes(self.w.state.db, self.w.event_id)
        self.table.setRowCount(len(self.rows))
        present = 0
        for i, e in enumerate(self.rows):
            here = e.checked_in_at is not None and e.status == "registered"
            bye = self.byes.get(e.entrant)
            self.table.setItem(i, 3, read_only_item(_("round {r}").format(r=bye) if bye else ""))
            present += here and bye is None
            self.table.setItem(i, 0, read_only_item(e.name))
            self.table.setItem(i, 1, read_only_item(labels.entrant_status_label(e.status)))
            item = read_only_item(_("yes") if here else _("no"))
            item.setForeground(Qt.GlobalColor.darkGreen if here else Qt.GlobalColor.darkRed)
            self.table.setItem(i, 2, item)
        self.present = present
        self.summary.setText(
            ngettext(
                "{n} entrant checked in will be paired.", "{n} entrants checked in will be paired.", present
            ).format(n=present)
        )
        stale = self.w.stale()
        self.stale.setVisible(stale)
        if stale and self.w.proposed is not None:
            self.stale.setText(
                _(
                    "The attendance changed after round {r} was proposed: the proposal no longer holds and "
                    "is paired again on the next page."
                ).format(r=self.w.proposed.round)
            )
        self.completeChanged.emit()

    def isComplete(self) -> bool:  # noqa: N802
        return getattr(self, "present", 0) >= 2 or self.w.proposed is not None

    def do_checkin(self) -> None:
        text = self.checkin.value()
        if not text:
            return
        try:
            ci = desk.checkin(self.w.state.db, self.w.state.actor, self.w.event_id, text)
            self.message.setText(ci.message or _("{name} checked in.").format(name=ci.name))
        except ServiceError as exc:
            self.message.setText(exc.message)
            if exc.code == "checkin-ambiguous":  # the name typed stays, its entrants offered to choose
                self.checkin.setText(text)
                self.checkin.offer(exc.params["choices"])
                return
        self.checkin.clear()
        self.reload()
        self.w.state.dataChanged.emit("desk")

    def toggle_bye(self) -> None:
        """Record (or cancel) the selected entrant's requested bye for the next round."""
        row = self.table.currentRow()
        if not 0 <= row < len(self.rows) or not self.bye_button.isVisible():
            return
        e = self.rows[row]
        cancel = e.entrant in self.byes
        try:
            night.request_bye(self.w.state.db, self.w.state.actor, self.w.event_id, e.entrant, cancel=cancel)
            self.message.setText(
                (
                    _("{name}: bye request cancelled.")
                    if cancel
                    else _("{name} sits out the next round (bye).")
                ).format(name=e.name)
            )
        except ServiceError as exc:
            self.message.setText(exc.message)
        self.reload()
        self.table.selectRow(row)

    def do_withdraw(self) -> None:
        row = self.table.currentRow()
        if not 0 <= row < len(self.rows):
            return
        e = self.rows[row]
        try:
            if self.w.latest_round() > 0:
                withdrawal = night.withdraw_from_play(
                    self.w.state.db,
                    self.w.state.actor,
                    self.w.event_id,
                    e.entrant,
                    _("withdrawn at the desk"),
                )
                self.w.state.announce(withdrawal.changes, self)
            else:
                desk.withdraw(self.w.state.db, self.w.state.actor, self.w.event_id, e.entrant)
            self.message.setText(_("{name} withdrawn.").format(name=e.name))
        except ServiceError as exc:
            self.message.setText(exc.message)
        self.reload()


class ProposalPage(QWizardPage):
    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Proposed pairing"))
        self.setSubTitle(
            _("The system draws the round from a seed (T4a): the same seed gives the same pairing.")
        )
        self.seed = QSpinBox()
        self.seed.setObjectName("seed")
        self.seed.setRange(0, 2_000_000_000)
        self.seed.setSpecialValueText(_("automatic"))
        self.pair_button = QPushButton(_("Pair again with this seed (Ctrl+R)"))
        self.pair_button.setObjectName("pairAgain")
        self.pair_button.clicked.connect(self.repair)
        self.progress = QProgressBar()
        self.progress.setObjectName("progress")
        self.progress.setRange(0, 0)
        self.progress.setVisible(False)
        self.seed_label = QLabel()
        self.seed_label.setObjectName("seedUsed")
        self.seed_label.setStyleSheet("font-size: 12pt; font-weight: 600;")
        self.message = QLabel()
        self.message.setObjectName("proposalMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(themed("color: #b00020;"))
        self.busy = False
        # the pairing itself: each table, its sides by name and why they meet
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("proposalTables")
        self.table.setHorizontalHeaderLabels([_("Table"), _("Side A"), _("Side B"), _("Why")])
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setWordWrap(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.notes = QLabel()
        self.notes.setObjectName("proposalNotes")
        self.notes.setWordWrap(True)
        form = QFormLayout()
        form.addRow(_("Seed"), self.seed)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.pair_button)
        layout.addWidget(self.progress)
        layout.addWidget(self.seed_label)
        layout.addWidget(self.message)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.notes)
        QShortcut(QKeySequence("Ctrl+R"), self, self.repair)
        # a seed typed and Enter pairs again with it, and stays on this page
        EnterActs(
            self.seed,
            self.repair,
            lambda: (
                self.seed.value() != 0
                and (self.w.proposed is None or self.seed.value() != self.w.proposed.seed)
            ),
        )

    def initializePage(self) -> None:  # noqa: N802
        if self.w.proposed is None:
            self.start(None, discard=False)
        elif self.w.stale():  # the attendance changed: the old proposal is thrown away and paired again
            self.start(self.seed.value() or None, discard=True)
        else:
            self.show_round()

    def repair(self) -> None:
        self.start(self.seed.value() or None, discard=self.w.proposed is not None)

    def start(self, seed: int | None, *, discard: bool) -> None:
        if self.busy:
            return
        self.busy = True
        self.progress.setVisible(True)
        self.message.setText("")
        self.completeChanged.emit()
        db, actor, ev = self.w.state.db, self.w.state.actor, self.w.event_id

        def work() -> night.RoundView:
            if discard:
                night.discard_round(db, actor, ev)
            return night.propose_round(db, actor, ev, seed)

        run_in_pool(work, on_done=self._done, on_error=self._failed)

    def _done(self, rv: night.RoundView) -> None:
        self.busy = False
        self.progress.setVisible(False)
        self.w.set_proposed(rv)
        self.show_round()
        self.completeChanged.emit()

    def _failed(self, exc: BaseException) -> None:
        self.busy = False
        self.progress.setVisible(False)
        self.message.setText(getattr(exc, "message", None) or str(exc))
        if self.w.proposed is not None:
            made_for = self.w.proposed_for  # still the attendance the kept proposal was made for
            try:
                self.w.set_proposed(night.get_round(self.w.state.db, self.w.event_id))
                self.w.proposed_for = made_for
            except ServiceError:
                self.w.proposed = None
        self.completeChanged.emit()

    def show_round(self) -> None:
        rv = self.w.proposed
        if rv is None:
            return
        self.seed_label.setText(
            ngettext(
                "Round {r}: {n} table, seed {seed}", "Round {r}: {n} tables, seed {seed}", len(rv.tables)
            ).format(r=rv.round, n=len(rv.tables), seed=rv.seed)
        )
        summary = night.proposal_summary(rv)
        self.table.setRowCount(len(summary.tables))
        for row, t in enumerate(summary.tables):
            side_b = t.sides[1] if t.sides[1] is not None else _("— bye —")
            for col, text in enumerate((str(t.table), t.sides[0], side_b, t.reason)):
                item = read_only_item(text)
                item.setToolTip(text)
                self.table.setItem(row, col, item)
        self.table.resizeRowsToContents()
        self.notes.setText("\n".join(summary.notes))
        self.notes.setVisible(bool(summary.notes))

    def isComplete(self) -> bool:  # noqa: N802
        return not self.busy and self.w.proposed is not None


class PreviewPage(QWizardPage):
    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Preview"))
        self.setSubTitle(
            _("Each pair and why; select two sides and press Ctrl+W to swap them. Broken rules show below.")
        )
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("pairs")
        self.table.setHorizontalHeaderLabels([_("Table"), _("Side A"), _("Side B")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.explanations = QLabel()
        self.explanations.setObjectName("explanations")
        self.explanations.setWordWrap(True)
        self.warnings = QLabel()
        self.warnings.setObjectName("warnings")
        self.warnings.setWordWrap(True)
        self.warnings.setStyleSheet(themed("color: #b00020; font-weight: 600;"))
        self.bracket = BracketView()
        self.bracket.setMinimumHeight(220)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 2)
        layout.addWidget(self.bracket, 3)
        layout.addWidget(self.warnings)
        layout.addWidget(self.explanations)
        QShortcut(QKeySequence("Ctrl+W"), self, self.swap_selected)

    def initializePage(self) -> None:  # noqa: N802
        self.fill()
        elimination = self.w.ev_info.format in ELIMINATION
        self.bracket.setVisible(elimination)
        if elimination:
            from clubdesk.ui.ranking.standings_view import bracket_data

            data = bracket_data(self.w.state, self.w.event_id)
            if data is not None:
                self.bracket.set_bracket(data[0], data[1])
        self.table.setFocus()

    def fill(self) -> None:
        pairs = self.w.pairs
        self.table.setRowCount(len(pairs))
        for i, (a, b) in enumerate(pairs):
            self.table.setItem(i, 0, read_only_item(str(i + 1)))
            self.table.setItem(i, 1, read_only_item(self.w.name(a)))
            self.table.setItem(i, 2, read_only_item(self.w.name(b) if b is not None else _("— bye —")))
        self.explanations.setText("\n".join(self.w.explanations()))
        self.check()

    def check(self) -> list[str]:
        problems = self.w.verify()
        self.warnings.setText("\n".join(problems) if problems else "")
        return problems

    def swap_selected(self) -> bool:
        cells = [(i.row(), i.column()) for i in self.table.selectedIndexes() if i.column() in (1, 2)]
        if len(cells) != 2:
            self.warnings.setText(_("Select exactly two sides to swap."))
            return False
        self.w.swap(cells[0], cells[1])
        self.fill()
        return True


class TablesPage(QWizardPage):
    def __init__(self, wizard: WizardHost) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Tables"))
        self.setSubTitle(
            _("Top tables first. For an entrant who needs a fixed table, select the pair and type the table.")
        )
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("tablesOrder")
        self.table.setHorizontalHeaderLabels([_("Table"), _("Side A"), _("Side B")])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.fixed = QSpinBox()
        self.fixed.setObjectName("fixedTable")
        self.fixed.setMinimum(1)
        self.fix_button = QPushButton(_("Move the selected pair to this table"))
        self.fix_button.clicked.connect(self.move_selected)
        EnterActs(self.fixed, self.move_selected)  # Enter moves the pair, and stays on this page
        row = QHBoxLayout()
        row.addWidget(QLabel(_("Fixed table")))
        row.addWidget(self.fixed)
        row.addWidget(self.fix_button)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table, 1)
        layout.addLayout(row)

    def initializePage(self) -> None:  # noqa: N802
        self.fill()

    def fill(self) -> None:
        pairs = self.w.pairs
        self.fixed.setMaximum(max(1, len(pairs)))
        self.table.setRowCount(len(pairs))
        for i, (a, b) in enumerate(pairs):
            self.table.setItem(i, 0, read_only_item(str(i + 1)))
            self.table.setItem(i, 1, read_only_item(self.w.name(a)))
            self.table.setItem(i, 2, read_only_item(self.w.name(b) if b is not None else _("— bye —")))

    def move_selected(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            return
        self.w.move_pair(row, self.fixed.value() - 1)
        self.fill()
        self.table.selectRow(self.fixed.value() - 1)

"""The pairing wizard (issue 12): attendance → the proposed pairing with its seed → preview with each pair's
explanation and manual swaps checked live by ``verify_pairing`` → table assignment (top tables first, a fixed
table for an entrant who needs one) → publish with the table call time → print the pairings and all score
sheets of the round, or save them as PDF (the Reports screen's worker and printing, ``ui/shell/printing.py``).

Everything goes through the night services; pairing a large field runs in a QThreadPool worker with a busy
progress bar, so the window never freezes. Keyboard: Enter / Alt+N next, Alt+B back; on the attendance page
type a check-in code, member number, phone or scan a receipt's QR and Enter; Ctrl+R pairs again with the seed
shown; Ctrl+W swaps the two selected sides; on the tables page type a table number for the selected pair;
Alt+P publishes; after it Alt+R prints the pairings, Alt+S all score sheets, Alt+A / Alt+H save them as PDF.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from PySide6.QtCore import QDateTime, Qt
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDateTimeEdit,
    QFileDialog,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
    QWizard,
    QWizardPage,
)

from clubdesk.i18n import _, ngettext
from clubdesk.pairing import Entrant, verify_pairing
from clubdesk.services import desk as desk_service
from clubdesk.services import events as events_service
from clubdesk.services import explain as explain_service
from clubdesk.services import lookup
from clubdesk.services import reports as report_service
from clubdesk.services import rounds as R
from clubdesk.services import standings as ST
from clubdesk.services.base import ServiceError
from clubdesk.ui.shell.printing import ReportRunner, suggested_name
from clubdesk.ui.shell.shortcuts import leave_tables_by_tab
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.shell.workers import run_in_pool
from clubdesk.ui.widgets.bracket_view import BracketView
from clubdesk.ui.widgets.forms import EnterActs
from clubdesk.ui.widgets.name_field import NameField

ELIMINATION = ("single-elimination", "double-elimination")
Pair = tuple[int, int | None]
# who is here and who asked for a bye: a proposal is for one attendance only
Attendance = frozenset[tuple[int, bool, int | None]]


def _ro_item(text: str) -> QTableWidgetItem:
    item = QTableWidgetItem(text)
    item.setFlags(item.flags() & ~Qt.ItemFlag.ItemIsEditable)
    return item


def history_entrants(state: DeskState, event_id: int, before_round: int, ids: list[int]) -> list[Entrant]:
    """The pairing engine's view of the field (opponents met, byes, points) from the published rounds."""
    opponents: dict[int, set[str]] = {e: set() for e in ids}
    byes: dict[int, int] = dict.fromkeys(ids, 0)
    for r in range(1, before_round):
        try:
            rv = R.get_round(state.db, event_id, r)
        except ServiceError:
            continue
        for t in rv.tables:
            a, b = t.sides
            if b is None:
                byes[a] = byes.get(a, 0) + 1
            else:
                opponents.setdefault(a, set()).add(str(b))
                opponents.setdefault(b, set()).add(str(a))
    points: dict[int, int] = {}
    try:
        for row in ST.event_standings(state.db, event_id).rows:
            points[int(row.entrant)] = int(round(float(row.points) * 2))
    except ServiceError:
        pass
    return [
        Entrant(
            str(e), score=points.get(e, 0), opponents=frozenset(opponents.get(e, set())), byes=byes.get(e, 0)
        )
        for e in ids
    ]


class AttendancePage(QWizardPage):
    def __init__(self, wizard: PairingWizard) -> None:
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
            lambda text: lookup.entrant_choices(wizard.state.db, wizard.event_id, text)
        )  # a late arrival by name (accent-insensitive), or code, member number, phone, QR
        self.checkin.setObjectName("checkin")
        self.checkin.setPlaceholderText(
            _("late arrival: name, check-in code, member number, phone or QR, then Enter")
        )
        # Enter checks in and stays on this page (the wizard's Next needs its own Enter on an empty field)
        EnterActs(self.checkin, self.do_checkin, lambda: bool(self.checkin.text().strip()))
        self.withdraw_button = QPushButton(_("Withdraw selected (Del)"))
        self.withdraw_button.clicked.connect(self.do_withdraw)
        self.bye_button = QPushButton(_("Bye requested / cancel (Ctrl+B)"))
        self.bye_button.setObjectName("requestBye")
        self.bye_button.setToolTip(
            _("The selected entrant sits out the next round and gets a requested bye (T4e, T4g, league)")
        )
        self.bye_button.clicked.connect(self.toggle_bye)
        self.bye_button.setVisible(wizard.ev_info.format in R.BYE_FORMATS)
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
        self.rows: list[desk_service.EntrantRow] = []
        self.byes: dict[int, int] = {}

    def initializePage(self) -> None:  # noqa: N802
        self.reload()
        self.checkin.setFocus()

    def reload(self) -> None:
        self.rows = desk_service.entrants(self.w.state.db, self.w.event_id, include_withdrawn=False)
        self.byes = R.requested_byes(self.w.state.db, self.w.event_id)
        self.table.setRowCount(len(self.rows))
        present = 0
        for i, e in enumerate(self.rows):
            here = e.checked_in_at is not None and e.status == "registered"
            bye = self.byes.get(e.entrant)
            self.table.setItem(i, 3, _ro_item(_("round {r}").format(r=bye) if bye else ""))
            present += here and bye is None
            self.table.setItem(i, 0, _ro_item(e.name))
            self.table.setItem(i, 1, _ro_item(e.status))
            item = _ro_item(_("yes") if here else _("no"))
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
            ci = desk_service.checkin(self.w.state.db, self.w.state.actor, self.w.event_id, text)
            self.message.setText(ci.message or _("{name} checked in.").format(name=ci.name))
        except ServiceError as exc:
            self.message.setText(exc.message)
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
            R.request_bye(self.w.state.db, self.w.state.actor, self.w.event_id, e.entrant, cancel=cancel)
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
                R.withdraw_from_play(
                    self.w.state.db,
                    self.w.state.actor,
                    self.w.event_id,
                    e.entrant,
                    _("withdrawn at the desk"),
                )
            else:
                desk_service.withdraw(self.w.state.db, self.w.state.actor, self.w.event_id, e.entrant)
            self.message.setText(_("{name} withdrawn.").format(name=e.name))
        except ServiceError as exc:
            self.message.setText(exc.message)
        self.reload()


class ProposalPage(QWizardPage):
    def __init__(self, wizard: PairingWizard) -> None:
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
        form = QFormLayout()
        form.addRow(_("Seed"), self.seed)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.pair_button)
        layout.addWidget(self.progress)
        layout.addWidget(self.seed_label)
        layout.addWidget(self.message)
        layout.addStretch(1)
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

        def work() -> R.RoundView:
            if discard:
                R.discard_round(db, actor, ev)
            return R.propose_round(db, actor, ev, seed)

        run_in_pool(work, on_done=self._done, on_error=self._failed)

    def _done(self, rv: R.RoundView) -> None:
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
                self.w.set_proposed(R.get_round(self.w.state.db, self.w.event_id))
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

    def isComplete(self) -> bool:  # noqa: N802
        return not self.busy and self.w.proposed is not None


class PreviewPage(QWizardPage):
    def __init__(self, wizard: PairingWizard) -> None:
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
            self.table.setItem(i, 0, _ro_item(str(i + 1)))
            self.table.setItem(i, 1, _ro_item(self.w.name(a)))
            self.table.setItem(i, 2, _ro_item(self.w.name(b) if b is not None else _("— bye —")))
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
    def __init__(self, wizard: PairingWizard) -> None:
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
            self.table.setItem(i, 0, _ro_item(str(i + 1)))
            self.table.setItem(i, 1, _ro_item(self.w.name(a)))
            self.table.setItem(i, 2, _ro_item(self.w.name(b) if b is not None else _("— bye —")))

    def move_selected(self) -> None:
        row = self.table.currentRow()
        if row < 0:
            return
        self.w.move_pair(row, self.fixed.value() - 1)
        self.fill()
        self.table.selectRow(self.fixed.value() - 1)


class PublishPage(QWizardPage):
    def __init__(self, wizard: PairingWizard) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Publish"))
        self.setSubTitle(
            _("The round becomes official; the earlier round's confirmed results are locked (T10).")
        )
        self.call_at = QDateTimeEdit(QDateTime.currentDateTime())
        self.call_at.setObjectName("callAt")
        self.call_at.setDisplayFormat("yyyy-MM-dd HH:mm")
        # rule G15: the match start, besides the call (gaple: present 10 minutes before it)
        self.has_start = QCheckBox(_("Matches start at (G15)"))
        self.has_start.setObjectName("hasStart")
        self.start_at = QDateTimeEdit(QDateTime.currentDateTime())
        self.start_at.setObjectName("startAt")
        self.start_at.setDisplayFormat("yyyy-MM-dd HH:mm")
        self.start_at.setEnabled(False)
        self.has_start.toggled.connect(self.start_at.setEnabled)
        self.reason = QLineEdit()
        self.reason.setObjectName("forceReason")
        self.reason.setPlaceholderText(_("only to force a rematch: the referee's reason"))
        self.summary = QLabel()
        self.summary.setWordWrap(True)
        self.message = QLabel()
        self.message.setObjectName("publishMessage")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(themed("color: #b00020;"))
        form = QFormLayout()
        form.addRow(_("Table call at (T3b)"), self.call_at)
        form.addRow(self.has_start, self.start_at)
        form.addRow(_("Referee's reason"), self.reason)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.summary)
        layout.addWidget(self.message)
        layout.addStretch(1)
        # publishing cannot be undone: no way back from the print page
        self.setCommitPage(True)
        self.setButtonText(QWizard.WizardButton.CommitButton, _("&Publish"))

    def initializePage(self) -> None:  # noqa: N802
        # the table call defaults to now (when this page opens), not to when the wizard opened
        self.call_at.setDateTime(QDateTime.currentDateTime())
        rv = self.w.proposed
        n = len(rv.tables) if rv else 0
        self.summary.setText(
            ngettext(
                "Round {r}: {n} table. Publish makes it official.",
                "Round {r}: {n} tables. Publish makes it official.",
                n,
            ).format(r=rv.round if rv else "?", n=n)
        )

    def validatePage(self) -> bool:  # noqa: N802
        if self.w.stale():
            self.message.setText(
                _("The attendance changed after this round was proposed: go back and pair it again.")
            )
            return False
        when = self.call_at.dateTime().toPython()  # a naive local time, as typed
        assert isinstance(when, datetime)
        start = self.start_at.dateTime().toPython() if self.has_start.isChecked() else None
        assert start is None or isinstance(start, datetime)
        ok, message = self.w.publish(when, start)
        self.message.setText(message)
        return ok


class PrintPage(QWizardPage):
    """After publishing: print the pairings for the notice board and all score sheets of the round for the
    tables, or save either as PDF; built in a worker with a progress bar (``ui/shell/printing.py``)."""

    def __init__(self, wizard: PairingWizard) -> None:
        super().__init__()
        self.w = wizard
        self.setTitle(_("Print"))
        self.print_pairings_button = QPushButton(_("Print pai&rings"))
        self.print_pairings_button.setObjectName("printPairings")
        self.print_sheets_button = QPushButton()
        self.print_sheets_button.setObjectName("printScoreSheets")
        self.save_pairings_button = QPushButton(_("S&ave pairings as PDF…"))
        self.save_pairings_button.setObjectName("savePairingsPdf")
        self.save_sheets_button = QPushButton(_("Save score s&heets as PDF…"))
        self.save_sheets_button.setObjectName("saveScoreSheetsPdf")
        self.print_pairings_button.clicked.connect(lambda: self.print_report("pairings"))
        self.print_sheets_button.clicked.connect(lambda: self.print_report("score-sheets"))
        self.save_pairings_button.clicked.connect(lambda: self.save_pdf("pairings"))
        self.save_sheets_button.clicked.connect(lambda: self.save_pdf("score-sheets"))
        self.progress = QProgressBar()
        self.progress.setObjectName("printProgress")
        self.progress.setRange(0, 100)
        self.progress.setValue(0)
        self.message = QLabel()
        self.message.setObjectName("printMessage")
        self.message.setWordWrap(True)
        buttons = (
            self.print_pairings_button,
            self.print_sheets_button,
            self.save_pairings_button,
            self.save_sheets_button,
        )
        grid = QGridLayout()  # one row a document: print it, or save it
        for k, b in enumerate(buttons):
            b.setAutoDefault(False)  # Enter stays with Finish unless a button has the focus
            grid.addWidget(b, k % 2, k // 2)
        grid.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(grid)
        layout.addWidget(self.progress)
        layout.addWidget(self.message)
        layout.addStretch(1)
        self.runner = ReportRunner(wizard.state.db, self, self.progress, self.message, buttons)
        self.runner.busy_changed.connect(lambda _busy: self.completeChanged.emit())
        self.setFinalPage(True)

    def round_no(self) -> int:
        rv = self.w.published
        return rv.round if rv is not None else 0

    def initializePage(self) -> None:  # noqa: N802
        r = self.round_no()
        self.setSubTitle(
            _("Round {r} is published. Print the pairings for the notice board and the score sheets.").format(
                r=r
            )
        )
        self.print_sheets_button.setText(_("Print all &score sheets of round {r}").format(r=r))
        self.print_pairings_button.setFocus()

    def isComplete(self) -> bool:  # noqa: N802
        return not self.runner.busy  # Finish waits for the document being built

    def request(self, kind: str) -> report_service.ReportRequest:
        """All tables of the published round; the app's language, A4 (the Reports screen offers the rest)."""
        return report_service.ReportRequest(kind=kind, event_id=self.w.event_id, round=self.round_no())

    def print_report(self, kind: str) -> None:
        self.runner.print(self.request(kind))

    def save_pdf(self, kind: str) -> None:
        req = self.request(kind)
        path, _filter = QFileDialog.getSaveFileName(
            self, _("Save as PDF"), suggested_name(req), _("PDF files (*.pdf)")
        )
        self.runner.save(req, path)


class PairingWizard(QWizard):
    def __init__(self, state: DeskState, event_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pairingWizard")
        self.state = state
        self.event_id = event_id
        self.ev_info = events_service.get_event(state.db, event_id)
        self.setWindowTitle(_("Pair a round: {name}").format(name=self.ev_info.name))
        self.names: dict[int, str] = {}
        self.proposed: R.RoundView | None = None
        self.pairs: list[Pair] = []
        self.original: list[Pair] = []
        self.fixed: dict[int, int] = {}  # entrant -> the table he needs
        self.requested: list[int] = []  # entrants with a requested bye this round
        self.published: R.RoundView | None = None
        self.proposed_for: Attendance | None = None  # the attendance the proposal was made for
        try:
            latest = R.get_round(state.db, event_id)
            if latest.status == "proposed":
                self.set_proposed(latest)
        except ServiceError:
            pass
        self.attendance = AttendancePage(self)
        self.proposal = ProposalPage(self)
        self.preview = PreviewPage(self)
        self.tables = TablesPage(self)
        self.publish_page = PublishPage(self)
        self.print_page = PrintPage(self)
        pages = (
            self.attendance,
            self.proposal,
            self.preview,
            self.tables,
            self.publish_page,
            self.print_page,
        )
        for page in pages:
            self.addPage(page)
        leave_tables_by_tab(self)  # Tab goes on from a table to the next field
        # the round is published by then: the print page closes with Finish only
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.resize(900, 640)

    # ------------------------------------------------------------------ state
    def latest_round(self) -> int:
        try:
            return R.get_round(self.state.db, self.event_id).round
        except ServiceError:
            return 0

    def name(self, entrant: int | None) -> str:
        if entrant is None:
            return _("bye")
        return self.names.get(entrant, str(entrant))

    def attendance_now(self) -> Attendance:
        """Who is here now (checked in and registered) and who asked for a bye: a proposal holds for this."""
        rows = desk_service.entrants(self.state.db, self.event_id, include_withdrawn=False)
        byes = R.requested_byes(self.state.db, self.event_id)
        return frozenset(
            (e.entrant, e.checked_in_at is not None and e.status == "registered", byes.get(e.entrant))
            for e in rows
        )

    def stale(self) -> bool:
        """The proposal was made for another attendance (a late check-in, a withdrawal, a bye request)."""
        return self.proposed is not None and self.proposed_for != self.attendance_now()

    def set_proposed(self, rv: R.RoundView) -> None:
        self.proposed = rv
        self.proposed_for = self.attendance_now()
        for t in rv.tables:
            self.names[t.sides[0]] = t.names[0]
            if t.sides[1] is not None:
                self.names[t.sides[1]] = t.names[1] or str(t.sides[1])
        # requested byes are not part of the pairing (they sit out), so swaps and checks leave them alone
        self.pairs = [(t.sides[0], t.sides[1]) for t in rv.tables if t.kind in ("played", "bye")]
        self.requested = [t.sides[0] for t in rv.tables if t.kind not in ("played", "bye")]
        self.original = list(self.pairs)
        self.fixed = {}

    def verify(self) -> list[str]:
        """Every rule the current pairing breaks (live, after manual swaps)."""
        if self.proposed is None or self.ev_info.format in ELIMINATION:
            return []
        ids = [e for p in self.pairs for e in p if e is not None]
        field = history_entrants(self.state, self.event_id, self.proposed.round, ids)
        pairs = [(str(a), None if b is None else str(b)) for a, b in self.pairs]
        problems = verify_pairing(field, pairs)
        for e in field:
            problems = [p.replace(e.id, self.name(int(e.id))) for p in problems]
        return problems

    def swap(self, first: tuple[int, int], second: tuple[int, int]) -> None:
        pairs = [list(p) for p in self.pairs]
        (r1, c1), (r2, c2) = first, second
        pairs[r1][c1 - 1], pairs[r2][c2 - 1] = pairs[r2][c2 - 1], pairs[r1][c1 - 1]
        self.pairs = [(int(p[0]), p[1]) if p[0] is not None else (int(p[1]), None) for p in pairs]  # type: ignore[arg-type]

    def move_pair(self, row: int, table_index: int) -> None:
        if 0 <= row < len(self.pairs) and 0 <= table_index < len(self.pairs):
            self.pairs[row], self.pairs[table_index] = self.pairs[table_index], self.pairs[row]
            if self.pairs[table_index][1] is not None:  # a bye has no table to keep
                self.fixed[self.pairs[table_index][0]] = table_index + 1

    def explanations(self) -> list[str]:
        """Each pair and why, in names; after a swap by hand, worked out again for the pairs as they are."""
        rv = self.proposed
        if rv is None:
            return []
        if not self.changed():
            return list(rv.explanations)
        extra = list(rv.explanations[len(self.original) :])  # e.g. the requested byes of the round
        try:
            lines = explain_service.explain_pairing(self.state.db, self.event_id, self.pairs)
        except ServiceError:
            lines = None
        if lines is None:
            return [_("Changed by hand: the lines below explain the proposal as drawn."), *rv.explanations]
        return [*lines, *extra]

    def changed(self) -> bool:
        return self.pairs != self.original or bool(self.fixed)

    def publish(self, call_at: datetime, start_at: datetime | None = None) -> tuple[bool, str]:
        """Publish the proposed round, with the manual swaps and fixed tables stored first (refused, with the
        broken rule, when an edit breaks a hard rule)."""
        if self.changed():
            try:
                self.set_proposed(
                    R.set_tables(
                        self.state.db,
                        self.state.actor,
                        self.event_id,
                        list(self.pairs),
                        fixed_tables=dict(self.fixed),
                        force_reason=self.publish_page.reason.text(),
                    )
                )
            except ServiceError as exc:
                return False, exc.message
        try:
            # the call time is stored as the local wall-clock time the secretary typed (services/rounds.py),
            # the time the forfeit check (T3b) compares with
            local = call_at.astimezone().replace(tzinfo=None) if call_at.tzinfo else call_at
            start = start_at.astimezone().replace(tzinfo=None) if start_at and start_at.tzinfo else start_at
            self.published = R.publish_round(
                self.state.db, self.state.actor, self.event_id, call_at=local, start_at=start
            )
        except ServiceError as exc:
            return False, exc.message
        self.state.dataChanged.emit("rounds")
        return True, ""

    def pages_data(self) -> dict[str, Any]:
        return {"pairs": list(self.pairs), "proposed": self.proposed}

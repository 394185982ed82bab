"""What is decided at a table besides its score: each side's approval (rules G13, E6, T8c), the referee's
approval or a dispute, the forfeit of an absent side (rules T3b, G15, T9a) and a notice of lateness (G15).

The widget sits in the table panel (its host) and acts through the host's ``run``: one service call, its
refusal or success said in the host's message line, and the table shown as stored afterwards."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QFormLayout,
    QHBoxLayout,
    QInputDialog,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import events as events_service
from clubdesk.services import night
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.text import side_label
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.fit import elided

FORFEIT_NAME_CHARS = 18  # a side's name on its forfeit button, cut in the middle past this
FORFEIT_MIN_CHARS = 5  # ... and shorter still while the button's words do not fit its width
FORFEIT_WIDTH = 260  # pixels: both forfeit buttons side by side under the table at 1366×768


class TableHost(Protocol):
    """The table panel as the decisions see it."""

    state: DeskState
    ev: events_service.EventInfo
    round_no: int
    table: night.TableView
    message: QLabel

    def actor(self) -> Actor: ...

    def run(self, fn: Callable[[], Any], done: str) -> bool: ...


class TableDecisions(QWidget):
    """The approvals of both sides (with the domino-es scorer and counter chosen among each side's
    players), the referee's buttons, the forfeits and the notice of lateness of one table."""

    def __init__(self, host: TableHost) -> None:
        super().__init__()
        self.host = host
        table = host.table
        # each side by its letter and whole name: two teams named alike stay apart (A · …, B · …)
        a, b = side_label("A", str(table.names[0])), side_label("B", str(table.names[1] or _("bye")))
        # approvals (G13, E6, T8c)
        self.approve_a = QLineEdit()
        self.approve_a.setObjectName("approveA")
        self.approve_b = QLineEdit()
        self.approve_b.setObjectName("approveB")
        for w, side in ((self.approve_a, 0), (self.approve_b, 1)):
            w.setPlaceholderText(_("initials, Enter"))
            w.setMaximumWidth(120)
            w.returnPressed.connect(lambda side=side: self.approve(side))
        self.referee_ok = QPushButton(_("Referee appro&ves"))
        self.referee_ok.setObjectName("refereeApprove")
        self.referee_ok.clicked.connect(lambda: self.referee(True))
        self.dispute = QPushButton(_("Mark disp&uted"))
        self.dispute.setObjectName("refereeDispute")
        self.dispute.clicked.connect(lambda: self.referee(False))
        self.forfeit_a = QPushButton()
        self.forfeit_a.setObjectName("forfeitA")
        self._forfeit_text(self.forfeit_a, "A", str(table.names[0]))
        self.forfeit_a.clicked.connect(lambda: self.forfeit(0))
        self.forfeit_b = QPushButton()
        self.forfeit_b.setObjectName("forfeitB")
        self._forfeit_text(self.forfeit_b, "B", str(table.names[1] or _("bye")))
        self.forfeit_b.clicked.connect(lambda: self.forfeit(1))
        # rule G15: a notice of lateness suspends the automatic walkover; the referee decides
        self.late_button = QPushButton(_("Notice of lateness…"))
        self.late_button.setObjectName("lateNotice")
        self.late_button.clicked.connect(self._ask_late_notice)
        approvals = QFormLayout()
        approvals.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)  # long pair names: label above
        # rule E6 (domino-es): the home pair's scorer and the rival pair's counter are players of each
        # side, chosen from its players; their names are the approvals (no operator's name written)
        self.scorer_box: QComboBox | None = None
        self.counter_box: QComboBox | None = None
        if self._names_scorers():
            self.scorer_box, self.counter_box = self._player_boxes()
            approvals.addRow(_("Scorer (anotador), {side}:").format(side=a), self.scorer_box)
            approvals.addRow(_("Counter (recuento), {side}:").format(side=b), self.counter_box)
        approvals.addRow(_("{side} approves (Alt+A):").format(side=a), self.approve_a)
        approvals.addRow(_("{side} approves (Alt+B):").format(side=b), self.approve_b)
        # the referee's three buttons in one row, the two forfeits in the next: all in view during entry
        referee_row = QHBoxLayout()
        forfeit_row = QHBoxLayout()
        for btn, row in (
            (self.referee_ok, referee_row),
            (self.dispute, referee_row),
            (self.late_button, referee_row),
            (self.forfeit_a, forfeit_row),
            (self.forfeit_b, forfeit_row),
        ):
            btn.setAutoDefault(False)
            row.addWidget(btn)
        referee_row.addStretch(1)
        forfeit_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)
        approvals.setVerticalSpacing(4)
        layout.addLayout(approvals)
        layout.addLayout(referee_row)
        layout.addLayout(forfeit_row)

    @staticmethod
    def _forfeit_text(button: QPushButton, letter: str, name: str) -> None:
        """The side's name cut in the middle so that what the button does stays readable; whole in the
        tooltip."""
        metrics = button.fontMetrics()
        chars = FORFEIT_NAME_CHARS
        text = _("{side} absent: forfeit").format(side=side_label(letter, name, chars))
        # a long action (es "ausente: incomparecencia") shortens the name, never the action itself
        while metrics.horizontalAdvance(text) > FORFEIT_WIDTH and chars > FORFEIT_MIN_CHARS:
            chars -= 1
            text = _("{side} absent: forfeit").format(side=side_label(letter, name, chars))
        elided(button, text, FORFEIT_WIDTH)
        whole = _("{side} absent: forfeit").format(side=side_label(letter, name))
        button.setToolTip(whole if whole != button.text() else "")

    def add_shortcuts(self, window: QWidget) -> None:
        """Alt+A and Alt+B to the sides' approvals, anywhere in ``window`` (the table panel)."""
        QShortcut(QKeySequence("Alt+A"), window, self.approve_a.setFocus)
        QShortcut(QKeySequence("Alt+B"), window, self.approve_b.setFocus)

    def show_table(self, t: night.TableView) -> None:
        """A confirmed table takes no more approvals; the names already given are shown."""
        confirmed = t.status == "confirmed"
        self.approve_a.setEnabled(not confirmed)
        self.approve_b.setEnabled(not confirmed)
        if t.scorer:
            self.approve_a.setText(t.scorer)
        if t.counter:
            self.approve_b.setText(t.counter)

    def _names_scorers(self) -> bool:
        h = self.host
        try:
            return h.table.sides[1] is not None and night.names_scorers(h.state.db, h.ev.id)
        except ServiceError:
            return False

    def _player_boxes(self) -> tuple[QComboBox, QComboBox]:
        """One list of players per side (rule E6), preselected with the ones already named."""
        h = self.host
        try:
            sides = night.side_players(h.state.db, h.ev.id, h.round_no, h.table.table)
        except ServiceError:
            sides = ((), ())
        boxes = []
        for k, players in enumerate(sides):
            box = QComboBox()
            box.setObjectName("scorerMember" if k == 0 else "counterMember")
            box.addItem(_("(choose a player)"), "")
            for number, name in players:
                box.addItem(f"{name} ({number})", number)
            boxes.append(box)
        return boxes[0], boxes[1]

    def _refuse(self, text: str) -> bool:
        self.host.message.setStyleSheet(themed("color: #b00020; font-weight: 600;"))
        self.host.message.setText(text)
        return False

    def approve(self, side: int) -> bool:
        h = self.host
        field = self.approve_a if side == 0 else self.approve_b
        initials = field.text().strip()
        box = self.scorer_box if side == 0 else self.counter_box
        member = str(box.currentData() or "") if box is not None else ""
        if box is not None and not member:
            return self._refuse(
                _("Choose the scorer of the home pair.")
                if side == 0
                else _("Choose the counter of the rival pair.")
            )
        who = box.currentText().rsplit(" (", 1)[0] if box is not None and member else initials
        return h.run(
            lambda: night.approve(
                h.state.db,
                h.actor(),
                night.TableId(h.ev.id, h.round_no, h.table.table),
                side,
                initials,
                member=member or None,
                seen_version=h.table.version or None,
            ),
            _("Approved by {who}.").format(who=who),
        )

    def referee(self, approve: bool) -> bool:
        h = self.host
        return h.run(
            lambda: night.referee_decision(
                h.state.db,
                h.actor(),
                h.ev.id,
                h.round_no,
                h.table.table,
                approve=approve,
                expected_version=h.table.version or None,
            ),
            _("Referee approved the result.") if approve else _("Marked disputed."),
        )

    def forfeit(self, absent_side: int) -> bool:
        # rules T3b, G15, T9a: one action after the table call's waiting time
        h = self.host
        ok = h.run(
            lambda: night.forfeit(
                h.state.db,
                h.actor(),
                h.ev.id,
                h.round_no,
                h.table.table,
                absent_side,
                expected_version=h.table.version or None,
            ),
            _("Forfeit recorded."),
        )
        if not ok and "G15" in h.message.text() and h.actor().role.value == "referee":
            # a notice of lateness was given: the referee decides, with a reason
            reason, given = QInputDialog.getText(
                self, _("Notice of lateness"), _("Referee: the walkover anyway? Write the reason:")
            )
            if given and reason.strip():
                return self.decide_late(True, reason)
        return ok

    def _ask_late_notice(self) -> None:
        choices = [
            side_label("A", str(self.host.table.names[0])),
            side_label("B", str(self.host.table.names[1] or "")),
        ]
        side, ok = QInputDialog.getItem(
            self, _("Notice of lateness"), _("Which side will be late?"), choices, 0, False
        )
        if not ok:
            return
        who, ok = QInputDialog.getText(self, _("Notice of lateness"), _("Who gave the notice?"))
        if ok:
            self.late_notice(choices.index(side), who)  # by its letter: two sides may share a name

    def late_notice(self, side: int, given_by: str) -> bool:
        h = self.host
        return h.run(
            lambda: night.late_notice(
                h.state.db, h.actor(), h.ev.id, h.round_no, h.table.table, side, given_by
            ),
            _("Notice of lateness recorded: no automatic walkover, the referee decides (G15)."),
        )

    def decide_late(self, walkover: bool, reason: str) -> bool:
        h = self.host
        return h.run(
            lambda: night.decide_late_notice(
                h.state.db,
                h.actor(),
                h.ev.id,
                h.round_no,
                h.table.table,
                walkover=walkover,
                reason=reason,
                expected_version=h.table.version or None,  # a walkover changes the final score
            ),
            _("Referee's decision recorded (G15)."),
        )

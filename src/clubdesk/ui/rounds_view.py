"""The Rounds section: the round's tables with their state, table-by-table score entry, confirmation,
the table call with its countdown and one-action forfeits, and the pairing wizard.

Keyboard: Ctrl+P pair the next round (wizard), Ctrl+T (or a QR scanner) to the table field — type a table
number or scan ``CLUBDESK:TABLE:<event>:<round>:<table>`` (or, while table entry on phones is on, the
sheet's table address ``http://…/t/<token>``) and Enter opens the table; Ctrl+L back to the
tables list (Enter opens the selected table); in a table: the scorer's initials once (the last ones given
are offered, selected: Enter keeps them), then the entry form (see ``clubdesk.ui.score_entry``); Ctrl+1/Ctrl+2
are the window's, so side approvals are Alt+A and Alt+B; Ctrl+I opens the incident form for the table.

Nothing stale: the table panel names its event and round and closes when the event or round changes; each
table opened keeps its panel for the session, so undo survives switching tables.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta
from typing import Any

from PySide6.QtCore import QModelIndex, Qt, QTimer
from PySide6.QtGui import QKeySequence, QShortcut, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QGridLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QPushButton,
    QSplitter,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from clubdesk import labels as L
from clubdesk.games import replay
from clubdesk.i18n import _, ngettext
from clubdesk.services import desk, events, night, phones
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.storage import DatabaseError
from clubdesk.ui.models.tables_model import (
    COL_A,
    COL_APPROVED,
    COL_B,
    COL_PHONES,
    COL_STATE,
    FILTERS,
    TABLE_ROLE,
    StateFilter,
    TablesModel,
    state_label,
)
from clubdesk.ui.score_entry import EntryChange, FinalScoreForm, SheetEntryForm, entry_form_for
from clubdesk.ui.state import DeskState
from clubdesk.ui.theme import themed
from clubdesk.ui.widgets.fit import DropColumns, elided, fit_combo, fit_combos
from clubdesk.ui.widgets.name_field import NameField

QR_PREFIX = "CLUBDESK:TABLE:"
TOKEN_PATH = "/t/"  # issue 27: a table's address on the phones, http://<desk>:<port>/t/<token>


def parse_table_url(text: str) -> str | None:
    """The token of a table's address as the sheet's QR carries it while table entry is on
    (``http://192.168.1.20:8080/t/<token>``, a trailing slash or query allowed); None when it is not one."""
    from urllib.parse import urlsplit

    text = text.strip()
    if not text.lower().startswith(("http://", "https://")):
        return None
    try:
        path = urlsplit(text).path
    except ValueError:
        return None
    if not path.startswith(TOKEN_PATH):
        return None
    token = path[len(TOKEN_PATH) :].strip("/")
    if not token or "/" in token or not all(c.isalnum() or c in "-_" for c in token):
        return None
    return token


def parse_table_query(text: str) -> tuple[int | None, int | None, int] | None:
    """A typed table number, or a score sheet's QR payload ``CLUBDESK:TABLE:<event>:<round>:<table>``:
    (event or None, round or None, table); None when it is neither."""
    text = text.strip()
    if text.upper().startswith(QR_PREFIX):
        parts = text[len(QR_PREFIX) :].split(":")
        if len(parts) == 3 and all(p.strip().isdigit() for p in parts):
            return int(parts[0]), int(parts[1]), int(parts[2])
        return None
    if text.isdigit():
        return None, None, int(text)
    return None


def night_settings(state: DeskState, event_id: int) -> dict[str, Any]:
    """The event night's settings as ``night-config`` wrote them (result mode, call minutes, ...)."""
    try:
        return night.night_settings(state.db, event_id)
    except ServiceError:
        return {"result_mode": "entries", "call_minutes": 10}


def form_params(event: events.EventInfo, match_length: int | None) -> dict[str, Any]:
    params: dict[str, Any] = dict(event.overrides or {})
    if event.target:
        params.setdefault("target", event.target)
    if match_length:
        params["match_length"] = match_length
    return params


def sheet_score(result: dict[str, Any]) -> tuple[int, int]:
    """A sheet's match score as the services count it: tavla points, dominoes games won."""
    if "score" in result:
        return int(result["score"][0]), int(result["score"][1])
    won = result.get("games_won", [0, 0])
    return int(won[0]), int(won[1])


class CorrectionDialog(QDialog):
    """The correction preview (issue 11): what the change would do downstream, and the reason for it."""

    def __init__(self, lines: list[str], locked: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(_("Correct a confirmed result"))
        self.text = QLabel("\n".join(lines) or _("This correction changes nothing downstream."))
        self.text.setObjectName("previewText")
        self.text.setWordWrap(True)
        self.reason = QLineEdit()
        self.reason.setObjectName("reason")
        self.reason.setPlaceholderText(
            _("reason (required: the round is locked, rule T10)") if locked else _("reason")
        )
        self.error = QLabel()
        self.error.setStyleSheet(themed("color: #b00020;"))
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(QLabel(_("Before it is saved, this correction would change:")))
        layout.addWidget(self.text)
        form = QFormLayout()
        form.addRow(_("Reason"), self.reason)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.reason.setFocus()

    def accept(self) -> None:
        if not self.reason.text().strip():
            self.error.setText(_("Write the reason for the correction."))
            return
        super().accept()


def preview_lines(pv: Any, names: dict[int, str]) -> list[str]:
    lines: list[str] = []
    if pv.winner_changes:
        lines.append(_("The winner of this table changes."))
    for e, (a, b) in pv.places.items():
        lines.append(_("{name}: place {a} → {b}").format(name=names.get(e, str(e)), a=a, b=b))
    for e, changes in pv.tiebreaks.items():
        for code, (a, b) in changes.items():
            lines.append(_("{name}: {code} {a} → {b}").format(name=names.get(e, str(e)), code=code, a=a, b=b))
    for number, (a, b) in pv.ratings.items():
        lines.append(_("rating of member {n}: {a:.1f} → {b:.1f}").format(n=number, a=a, b=b))
    for text in pv.published_pairings:
        lines.append(_("already published: {t}").format(t=text))
    return lines


class SubstituteDialog(QDialog):
    """A substitute takes the seat of the player he replaces (rules E7b, E20): both asked for by name."""

    def __init__(self, panel: TablePanel) -> None:
        super().__init__(panel)
        self.panel = panel
        self.setWindowTitle(_("Substitute a player (E7b)"))
        db = panel.state.db
        seated = set(panel.seated_numbers())
        self.side = QComboBox()
        self.side.setObjectName("substituteSide")
        for k, name in enumerate(panel.table.names):
            self.side.addItem(name or _("bye"), k)
        self.out = NameField(lambda text: [c for c in desk.member_choices(db, text) if c.key in seated])
        self.out.setObjectName("substituteOut")
        self.out.setPlaceholderText(_("the player leaving: name or number"))
        self.into = NameField(lambda text: desk.member_choices(db, text))
        self.into.setObjectName("substituteIn")
        self.into.setPlaceholderText(_("the substitute: name or number"))
        self.reason = QLineEdit()
        self.reason.setObjectName("substituteReason")
        self.error = QLabel()
        self.error.setWordWrap(True)
        self.error.setStyleSheet(themed("color: #b00020;"))
        form = QFormLayout()
        form.addRow(_("Side"), self.side)
        form.addRow(_("Leaves"), self.out)
        form.addRow(_("Comes in"), self.into)
        form.addRow(_("Reason"), self.reason)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.out.setFocus()

    def accept(self) -> None:
        p = self.panel
        try:
            night.substitute(
                p.state.db,
                p.actor(),
                p.ev.id,
                p.round_no,
                p.table.table,
                p.game_no,
                int(self.side.currentData()),
                self.out.value(),
                self.into.value(),
                self.reason.text().strip(),
            )
        except ServiceError as exc:
            self.error.setText(exc.message)
            return
        super().accept()


class TablePanel(QWidget):
    """One table: the scorer's initials (asked once), the entry form, approvals, forfeits."""

    def __init__(
        self,
        state: DeskState,
        event: events.EventInfo,
        round_no: int,
        table: night.TableView,
        initials: dict[tuple[int, int, int], str],
        on_changed: Callable[[], None],
        call_due: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__()
        self.setObjectName("tablePanel")
        self.state = state
        self.ev = event
        self.round_no = round_no
        self.table = table
        self.initials_cache = initials
        self.on_changed = on_changed
        self.call_due = call_due
        self.reason: str | None = None
        self.form: SheetEntryForm | FinalScoreForm | None = None
        self.game_no = 1  # the game of a domino-es team encounter being entered (E7b)
        self.game_box: QComboBox | None = None
        self.seats_label: QLabel | None = None
        key = (event.id, round_no, table.table)
        self.key = key
        a, b = table.names[0], table.names[1] or _("bye")
        self.header = QLabel(_("Table {t}: {a} – {b}").format(t=table.table, a=a, b=b))
        self.header.setObjectName("tableHeader")
        self.header.setStyleSheet("font-size: 15pt; font-weight: 700;")
        self.header.setWordWrap(True)
        # the panel names its event and round, so a table is never taken for another event's
        self.event_label = QLabel(_("{event} · round {r}").format(event=event.name, r=round_no))
        self.event_label.setObjectName("tableEvent")
        self.event_label.setWordWrap(True)
        self.status = QLabel()
        self.status.setObjectName("tableStatus")
        self.status.setWordWrap(True)
        self.initials = QLineEdit()
        self.initials.setObjectName("scorerInitials")
        self.initials.setMaximumWidth(120)
        self.initials.setPlaceholderText(_("initials"))
        self.initials.returnPressed.connect(self._initials_given)
        if key not in initials and initials:
            # the last initials given this session, selected: Enter keeps them, typing replaces them
            self.initials.setText(list(initials.values())[-1])
            self.initials.selectAll()
        self.initials_row = QWidget()
        row = QHBoxLayout(self.initials_row)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(QLabel(_("Scorer's initials (once per table), then Enter:")))
        row.addWidget(self.initials)
        row.addStretch(1)
        self.form_box = QVBoxLayout()
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
        elided(self.forfeit_a, _("{side} absent: forfeit").format(side=a), 240)
        self.forfeit_a.clicked.connect(lambda: self.forfeit(0))
        self.forfeit_b = QPushButton()
        self.forfeit_b.setObjectName("forfeitB")
        elided(self.forfeit_b, _("{side} absent: forfeit").format(side=b), 240)
        self.forfeit_b.clicked.connect(lambda: self.forfeit(1))
        # rule G15 (issue 19): a notice of lateness suspends the automatic walkover; the referee decides
        self.late_button = QPushButton(_("Notice of lateness…"))
        self.late_button.setObjectName("lateNotice")
        self.late_button.clicked.connect(self._ask_late_notice)
        self.message = QLabel()
        self.message.setObjectName("tableMessage")
        self.message.setWordWrap(True)
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
        buttons = QGridLayout()  # two a row: the pair names in the forfeit buttons are long
        for k, btn in enumerate(
            (self.referee_ok, self.dispute, self.forfeit_a, self.forfeit_b, self.late_button)
        ):
            btn.setAutoDefault(False)
            buttons.addWidget(btn, k // 2, k % 2)
        buttons.setColumnStretch(2, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(self.event_label)
        layout.addWidget(self.header)
        layout.addWidget(self.status)
        layout.addWidget(self.initials_row)
        layout.addLayout(self.form_box, 1)
        layout.addLayout(approvals)
        layout.addLayout(buttons)
        layout.addWidget(self.message)
        QShortcut(QKeySequence("Alt+A"), self, self.approve_a.setFocus)
        QShortcut(QKeySequence("Alt+B"), self, self.approve_b.setFocus)
        QShortcut(QKeySequence("Ctrl+I"), self, self.open_incident)
        self._update_status()
        if key in initials:
            self._build_form()

    def focus_first(self) -> None:
        """The scorer's initials when not given yet for this table, else the entry form."""
        if self.form is not None:
            self.form.first_input().setFocus()
        else:
            self.initials.setFocus()
            self.initials.selectAll()

    def follow_store(self) -> None:
        """After a change made elsewhere (a penalty, a referee's decision): the table's state, and the sheet
        built again only when its stored entries differ from the form's (what is being typed is kept)."""
        if not self._refresh_table():
            return
        self._update_status()
        if isinstance(self.form, SheetEntryForm):
            games = night.table_entries(self.state.db, self.ev.id, self.round_no, self.table.table)
            if [dict(e) for e in games.get(self.game_no, [])] != self.form.entries:
                self._build_form()

    def reopen(self, table: night.TableView) -> None:
        """The table opened again this session: its state reloaded, the form kept (with its undo history)
        while the sheet is as the form left it, else built again from the stored entries; whatever was
        half-typed is cleared, so nothing left over is saved by the next Enter."""
        self.table = table
        self._refresh_table()  # the list may be older than this desk's last save (issue 25's version)
        self._update_status()
        self.message.setText("")
        form = self.form
        if isinstance(form, SheetEntryForm):
            games = night.table_entries(self.state.db, self.ev.id, self.round_no, table.table)
            if [dict(e) for e in games.get(self.game_no, [])] != form.entries:
                self._build_form()
            else:
                form.cancel_correction()
                form.disarm()
                form.clear_inputs()
                form.check_every_change = table.status == "confirmed" or table.locked
        elif form is not None:
            self._build_form()

    # ------------------------------------------------------------------ helpers
    def actor(self) -> Actor:
        """Who acts: the desk's actor, with the table scorer's initials when given."""
        who = self.initials_cache.get(self.key)
        base = self.state.actor
        return Actor(f"{base.name} ({who})" if who else base.name, base.role)

    def _update_status(self) -> None:
        t = self.table
        text = _("State: {s}").format(s=state_label(t.status))
        if t.status != "waiting":
            text += "  ·  " + _("score {a}–{b}").format(a=t.score[0], b=t.score[1])
        if t.locked:
            text += "  ·  " + _("locked (T10): changes need a reason")
        self.status.setText(text)
        confirmed = t.status == "confirmed"
        self.approve_a.setEnabled(not confirmed)
        self.approve_b.setEnabled(not confirmed)
        if t.scorer:
            self.approve_a.setText(t.scorer)
        if t.counter:
            self.approve_b.setText(t.counter)

    def _refresh_table(self) -> bool:
        """This table as stored now (its state and the version the next change is checked against);
        False when its round cannot be read (the table is left as shown)."""
        try:
            rv = night.get_round(self.state.db, self.ev.id, self.round_no)
        except ServiceError:
            return False
        for t in rv.tables:
            if t.table == self.table.table:
                self.table = t
        return True

    def reload(self) -> None:
        if not self._refresh_table():
            return
        self._update_status()
        if isinstance(self.form, SheetEntryForm):
            self.form.check_every_change = self.table.status == "confirmed" or self.table.locked
        self.on_changed()

    def _saved(self) -> None:
        """After a hand or score is stored: this table, the list, and every screen that shows results."""
        self.reload()
        self.state.dataChanged.emit("rounds")

    def _initials_given(self) -> None:
        text = self.initials.text().strip()
        if not text:
            return
        self.initials_cache.pop(self.key, None)
        self.initials_cache[self.key] = text  # last given is last: the next table offers it
        self._build_form()

    def _clear_form_box(self) -> None:
        while self.form_box.count():
            item = self.form_box.takeAt(0)
            w = item.widget() if item is not None else None
            if w is not None:
                w.setParent(None)
                w.deleteLater()
        self.game_box = None
        self.seats_label = None

    def _encounter_row(self, games_in_encounter: int) -> None:
        """Game selector and the seats of the chosen game of a team encounter (E7, E7b)."""
        box = QComboBox()
        box.setObjectName("encounterGame")
        for g in range(1, games_in_encounter + 1):
            box.addItem(_("Game {g}").format(g=g), g)
        box.setCurrentIndex(self.game_no - 1)
        box.currentIndexChanged.connect(lambda i: self.select_game(i + 1))
        seats = QLabel()
        seats.setObjectName("encounterSeats")
        seats.setWordWrap(True)
        try:
            order = night.encounter_seats(
                self.state.db, self.ev.id, self.round_no, self.table.table, self.game_no
            )
            named = self._seat_names() or order  # the players by name, not by member number
            text = _("Seats 1–4: {s}").format(s=", ".join(named)) if order else ""
            if self.game_no > 1 and order:
                text += "  ·  " + _("the pair that lost game 1 has swapped seats (E7b)")
        except ServiceError as exc:
            text = exc.message
        seats.setText(text)
        row = QWidget()
        lay = QHBoxLayout(row)
        lay.setContentsMargins(0, 0, 0, 0)
        lay.addWidget(QLabel(_("Encounter game (Alt+G):")))
        lay.addWidget(box)
        lay.addWidget(seats, 1)
        sub = QPushButton(_("Substitute… (Ctrl+U)"))
        sub.setObjectName("substitute")
        sub.setAutoDefault(False)
        sub.clicked.connect(self.open_substitute)
        lay.addWidget(sub)
        QShortcut(QKeySequence("Ctrl+U"), row, self.open_substitute)
        self.form_box.addWidget(row)
        self.game_box, self.seats_label = box, seats
        QShortcut(QKeySequence("Alt+G"), row, box.setFocus)

    def _seat_names(self) -> list[str] | None:
        """The players at seats 1–4 of this table (and game of an encounter), when it seats four."""
        try:
            db, ev, r, t = self.state.db, self.ev.id, self.round_no, self.table.table
            return night.seat_names(db, ev, r, t, self.game_no)
        except ServiceError:
            return None

    def seated_numbers(self) -> list[str]:
        """The member numbers at this table's seats in the game being entered (E7, E7b)."""
        try:
            return night.encounter_seats(
                self.state.db, self.ev.id, self.round_no, self.table.table, self.game_no
            )
        except ServiceError:
            return []

    def open_substitute(self) -> bool:
        """The substitution form; after it the seats are shown again with the substitute in his seat."""
        dialog = SubstituteDialog(self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        self.message.setText(_("Substitution recorded: the substitute takes the seat (E7b)."))
        self._build_form()
        self.state.dataChanged.emit("rounds")
        return True

    def select_game(self, game_no: int) -> None:
        """Enter another game of the encounter (game 2 after game 1, E7b)."""
        if game_no != self.game_no:
            self.game_no = game_no
            self._build_form()

    def _build_form(self) -> None:
        self.initials_row.setVisible(False)
        self._clear_form_box()
        t = self.table
        names = (t.names[0], t.names[1] or _("bye"))
        settings = night_settings(self.state, self.ev.id)
        encounter = int(settings.get("encounter_games", 0) or 0) if self.ev.ruleset == "domino-es" else 0
        if encounter > 0 and settings.get("result_mode") != "score":
            self._encounter_row(encounter)
        if settings.get("result_mode") == "score":
            stored = t.score if t.status != "waiting" else (0, 0)  # a correction starts from the stored score
            form: SheetEntryForm | FinalScoreForm = FinalScoreForm(self._save_score, names, stored, t.points)
        else:
            games = night.table_entries(self.state.db, self.ev.id, self.round_no, t.table)
            entries = games.get(self.game_no, [])
            form = entry_form_for(
                self.ev.ruleset,
                entries,
                form_params(self.ev, t.match_length),
                save=self._save_change,
                side_names=names,
                seat_names=self._seat_names(),  # each seat shows its player (gaple, domino-es)
                confirm_correction=self._check_correction,
                parent=self,
            )
            form.check_every_change = t.status == "confirmed" or t.locked
        self.form = form
        self.form_box.addWidget(form)
        fit_combos(self)
        form.show()  # at once, not when the event loop next runs: the focus goes into it now
        form.first_input().setFocus()

    # ------------------------------------------------------------------ saving (through the services)
    def _override(self) -> str | None:
        return self.reason if self.table.locked else None

    @contextmanager
    def _another_desk(self) -> Iterator[None]:
        """Issue 25: a table another desk changed meanwhile is refused (who, when) and shown as it is now;
        a club server that cannot be reached refuses the entry visibly (nothing is silently lost)."""
        try:
            yield
        except DatabaseError as exc:
            raise ServiceError(exc.code, str(exc)) from exc
        except ServiceError as exc:
            if exc.code == "changed-elsewhere":
                text = exc.message
                QTimer.singleShot(0, lambda: self._shown_as_now(text))
            raise

    def _shown_as_now(self, text: str) -> None:
        self.reload()
        self._build_form()
        self.message.setText(text)

    def _save_change(self, change: EntryChange) -> None:
        db, ev, r, t = self.state.db, self.ev.id, self.round_no, self.table.table
        correcting = self.table.status == "confirmed" or self.table.locked
        g = self.game_no
        seen = self.table.version or None  # the version this screen shows (issue 25)
        with self._another_desk():
            if change.action == "append" and not correcting:  # hands are append-only: never a conflict
                night.add_entry(db, self.actor(), ev, r, t, dict(change.entry or {}), game_no=g)
            elif change.action == "delete" and change.index == len(change.entries) and not correcting:
                night.undo_last_entry(db, self.actor(), ev, r, t, game_no=g, expected_version=seen)
            else:
                others = {k: v for k, v in night.table_entries(db, ev, r, t).items() if k != g}
                night.replace_entries(
                    db,
                    self.actor(),
                    ev,
                    r,
                    t,
                    {**others, g: [dict(e) for e in change.entries]},
                    reason=self.reason,
                    override=self._override(),
                    expected_version=seen,
                )
        self._refresh_table()  # this desk's own change: the version it shows moves on at once (issue 25)
        self.reason = None
        self.message.setText("")
        QTimer.singleShot(0, self._saved)

    def _save_score(self, score: tuple[int, int], points: tuple[int, int] | None) -> None:
        if self.table.status == "confirmed" and not self._check_score_correction(score, points):
            raise ServiceError("cancelled", _("Correction cancelled."))
        with self._another_desk():
            night.set_score(
                self.state.db,
                self.actor(),
                self.ev.id,
                self.round_no,
                self.table.table,
                score,
                points,
                reason=self.reason,
                override=self._override(),
                expected_version=self.table.version or None,
            )
        self.reason = None
        QTimer.singleShot(0, self._saved)

    def _check_correction(self, entries: list[dict[str, Any]]) -> bool:
        """Before a confirmed result changes: the correction preview, and the reason."""
        if self.table.status != "confirmed" and not self.table.locked:
            return True
        params = form_params(self.ev, self.table.match_length)
        score = sheet_score(replay(self.ev.ruleset, entries, params))
        return self._check_score_correction(score, None)

    def _check_score_correction(self, score: tuple[int, int], points: tuple[int, int] | None) -> bool:
        try:
            pv = night.correction_preview(
                self.state.db, self.ev.id, self.round_no, self.table.table, score, points
            )
            names = {self.table.sides[0]: self.table.names[0]}
            if self.table.sides[1] is not None:
                names[self.table.sides[1]] = self.table.names[1] or ""
            lines = preview_lines(pv, names)
        except ServiceError as exc:
            lines = [exc.message]
        dialog = CorrectionDialog(lines, self.table.locked, self)
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        self.reason = dialog.reason.text().strip()
        return True

    # ------------------------------------------------------------------ approvals, referee, forfeit
    def _run(self, fn: Callable[[], Any], done: str) -> bool:
        try:
            with self._another_desk():
                fn()
        except ServiceError as exc:
            self.message.setStyleSheet(themed("color: #b00020; font-weight: 600;"))
            self.message.setText(exc.message)
            return False
        self.message.setStyleSheet(themed("color: #14532d;"))
        self.message.setText(done)
        self.reload()
        self.state.dataChanged.emit("rounds")
        return True

    def _names_scorers(self) -> bool:
        try:
            return self.table.sides[1] is not None and night.names_scorers(self.state.db, self.ev.id)
        except ServiceError:
            return False

    def _player_boxes(self) -> tuple[QComboBox, QComboBox]:
        """One list of players per side (rule E6), preselected with the ones already named."""
        try:
            sides = night.side_players(self.state.db, self.ev.id, self.round_no, self.table.table)
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

    def approve(self, side: int) -> bool:
        field = self.approve_a if side == 0 else self.approve_b
        initials = field.text().strip()
        box = self.scorer_box if side == 0 else self.counter_box
        member = str(box.currentData() or "") if box is not None else ""
        if box is not None and not member:
            self.message.setStyleSheet(themed("color: #b00020; font-weight: 600;"))
            self.message.setText(
                _("Choose the scorer of the home pair.")
                if side == 0
                else _("Choose the counter of the rival pair.")
            )
            return False
        who = box.currentText().rsplit(" (", 1)[0] if box is not None and member else initials
        return self._run(
            lambda: night.confirm(
                self.state.db,
                self.actor(),
                self.ev.id,
                self.round_no,
                self.table.table,
                side,
                initials,
                member=member or None,
                expected_version=self.table.version or None,
            ),
            _("Approved by {who}.").format(who=who),
        )

    def referee(self, approve: bool) -> bool:
        return self._run(
            lambda: night.referee_decision(
                self.state.db,
                self.actor(),
                self.ev.id,
                self.round_no,
                self.table.table,
                approve=approve,
                expected_version=self.table.version or None,
            ),
            _("Referee approved the result.") if approve else _("Marked disputed."),
        )

    def forfeit(self, absent_side: int) -> bool:
        # rules T3b, G15, T9a: one action after the table call's waiting time
        ok = self._run(
            lambda: night.forfeit(
                self.state.db,
                self.actor(),
                self.ev.id,
                self.round_no,
                self.table.table,
                absent_side,
                expected_version=self.table.version or None,
            ),
            _("Forfeit recorded."),
        )
        if not ok and "G15" in self.message.text() and self.actor().role.value == "referee":
            # a notice of lateness was given: the referee decides, with a reason
            from PySide6.QtWidgets import QInputDialog

            reason, given = QInputDialog.getText(
                self, _("Notice of lateness"), _("Referee: the walkover anyway? Write the reason:")
            )
            if given and reason.strip():
                return self.decide_late(True, reason)
        return ok

    def _ask_late_notice(self) -> None:
        from PySide6.QtWidgets import QInputDialog

        a, b = self.table.names[0], self.table.names[1] or ""
        side, ok = QInputDialog.getItem(
            self, _("Notice of lateness"), _("Which side will be late?"), [a, b], 0, False
        )
        if not ok:
            return
        who, ok = QInputDialog.getText(self, _("Notice of lateness"), _("Who gave the notice?"))
        if ok:
            self.late_notice(0 if side == a else 1, who)

    def late_notice(self, side: int, given_by: str) -> bool:
        return self._run(
            lambda: night.late_notice(
                self.state.db, self.actor(), self.ev.id, self.round_no, self.table.table, side, given_by
            ),
            _("Notice of lateness recorded: no automatic walkover, the referee decides (G15)."),
        )

    def decide_late(self, walkover: bool, reason: str) -> bool:
        return self._run(
            lambda: night.decide_late_notice(
                self.state.db,
                self.actor(),
                self.ev.id,
                self.round_no,
                self.table.table,
                walkover=walkover,
                reason=reason,
            ),
            _("Referee's decision recorded (G15)."),
        )

    def open_incident(self) -> None:
        try:
            module = importlib.import_module("clubdesk.ui.discipline_view")
        except ModuleNotFoundError:
            self.message.setText(_("The incident form is not available."))
            return
        opener = getattr(module, "open_incident_dialog", None)
        if opener is None:
            self.message.setText(_("The incident form is not available."))
            return
        opener(self.state, self.ev.id, self.round_no, self.table.table, self)


class RoundsSection(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.initials: dict[tuple[int, int, int], str] = {}
        self.events: list[events.EventInfo] = []
        self.round: night.RoundView | None = None
        self.panel: TablePanel | None = None
        # every table opened this session keeps its panel, so undo survives switching tables
        self.panels: dict[tuple[int, int, int], TablePanel] = {}
        self._split_set = False

        self.event_box = QComboBox()
        self.event_box.setObjectName("event")
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
        # rule T10 (issue 19): the referee takes back a published round nobody has started
        self.unpublish_button = QPushButton(_("Unpublish round…"))
        self.unpublish_button.setObjectName("unpublishButton")
        self.unpublish_button.clicked.connect(self._ask_unpublish)
        self.call_label = QLabel()
        self.call_label.setObjectName("callLabel")
        self.call_label.setWordWrap(True)
        self.call_label.setStyleSheet("font-size: 12pt; font-weight: 600;")
        # issue 27: a table that called the referee from a phone, until the desk says he came
        self.calling: list[int] = []
        self.referee_button = QPushButton()
        self.referee_button.setObjectName("refereeCallButton")
        self.referee_button.setStyleSheet(themed("color: #7f1d1d; font-weight: 600;"))
        self.referee_button.setVisible(False)
        self.referee_button.clicked.connect(self.answer_referee_call)
        self.counts = QLabel()
        self.counts.setObjectName("counts")
        self.info = QLabel()
        self.info.setObjectName("roundInfo")
        self.info.setStyleSheet(themed("color: #b00020;"))

        self.model = TablesModel()
        self.proxy = StateFilter()
        self.proxy.setSourceModel(self.model)
        self.view = QTableView()
        self.view.setObjectName("tables")
        self.view.setModel(self.proxy)
        self.view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.view.verticalHeader().setVisible(False)
        self.view.verticalHeader().setDefaultSectionSize(30)
        header = self.view.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(COL_A, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(COL_B, QHeaderView.ResizeMode.Stretch)
        header.setMinimumSectionSize(48)
        header.setMaximumSectionSize(150)  # approvals and states elide (tooltip): the names keep the room
        # names get the room; the number, score and approval columns stay as wide as their contents
        self.view.setColumnWidth(COL_STATE, 150)
        self.view.setWordWrap(False)
        self.view.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.view.activated.connect(self._activated)
        # a narrow list (a table open beside it on a laptop) drops the approvals first: the panel shows them;
        # then the phones' state (issue 27), which the State column sums up
        self.drop = DropColumns(self.view, COL_A, [COL_APPROVED, COL_PHONES], min_stretch=110)
        self.drop.off = {COL_PHONES}  # shown while table entry on phones is on, or once a phone was used

        top = QHBoxLayout()
        top.addWidget(QLabel(_("Event")))
        top.addWidget(self.event_box, 1)
        top.addWidget(QLabel(_("Round")))
        top.addWidget(self.round_box)
        top.addWidget(QLabel(_("Show")))
        top.addWidget(self.filter_box)
        top.addWidget(self.pair_button)
        top.addWidget(self.unpublish_button)
        from clubdesk.ui.share_dialog import share_button  # issue 28: the round's pairings to the chat

        top.addWidget(share_button(state, self, self._share_target))
        second = QHBoxLayout()
        second.addWidget(self.table_field, 2)
        second.addWidget(self.call_label, 3)
        second.addWidget(self.referee_button)
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
        layout = QVBoxLayout(self)
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
        self.reload_events()

    def _share_target(self) -> tuple[int | None, int | None, str]:
        ev = self.current_event()
        r = self.round_box.currentData()
        return (ev.id if ev is not None else None, int(r) if r is not None else None, "pairings")

    # ------------------------------------------------------------------ loading
    def current_event(self) -> events.EventInfo | None:
        i = self.event_box.currentIndex()
        return self.events[i] if 0 <= i < len(self.events) else None

    def reload_events(self) -> None:
        current = self.current_event()
        self.events = events.list_events(self.state.db, include_finished=True)
        self.event_box.blockSignals(True)
        self.event_box.clear()
        for ev in self.events:
            self.event_box.addItem(
                f"{ev.name} ({L.ruleset_label(ev.ruleset)}, {L.format_label(ev.format)})", ev.id
            )
        if current is not None:
            self.event_box.setCurrentIndex(max(0, self.event_box.findData(current.id)))
        else:  # first opening: the event in use at the desk, else the running one with the latest round
            first = self.state.event_in_use
            if first is None or self.event_box.findData(first) < 0:
                first = night.default_event(self.state.db)
            self.event_box.setCurrentIndex(max(0, self.event_box.findData(first)))
        self.event_box.blockSignals(False)
        self._event_changed()

    def select_event(self, event_id: int) -> None:
        self.event_box.setCurrentIndex(self.event_box.findData(event_id))

    def close_table(self) -> None:
        """No table open: the panel of another event or round never stays on screen."""
        if self.panel is not None:
            self.panel.setVisible(False)
            self.panel = None
        self.placeholder.setVisible(True)

    def showEvent(self, event: QShowEvent) -> None:  # noqa: N802 - Qt's name
        """Shown again: the event another section chose meanwhile is the one shown here too."""
        super().showEvent(event)
        wanted, current = self.state.event_in_use, self.current_event()
        if (
            wanted is not None
            and (current is None or current.id != wanted)
            and self.event_box.findData(wanted) >= 0
        ):
            self.select_event(wanted)

    def _event_changed(self, *_args: object) -> None:
        ev = self.current_event()
        if ev is not None:
            self.state.use_event(ev.id)
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
        phones = self._phones(ev.id, int(r))
        self.calling = sorted(t for t, st in phones.items() if getattr(st, "referee_called", False))
        self._show_calls()
        self.drop.off = set() if phones else {COL_PHONES}
        self.model.set_rows(self.round.tables, phones, games=self._family(ev) == "tavla")
        counts: dict[str, int] = {}
        for t in self.round.tables:
            counts[t.status] = counts.get(t.status, 0) + 1
        self.counts.setText(
            _("Round {r}: ").format(r=r)
            + ", ".join(f"{n} {state_label(s)}" for s, n in sorted(counts.items(), key=lambda x: -x[1]))
        )
        self._tick()

    def _calling_table(self) -> int | None:
        """The table whose referee call the button answers: the open table's, else the first calling."""
        if not self.calling:
            return None
        if self.panel is not None and self.panel.key[2] in self.calling:
            return self.panel.key[2]
        return self.calling[0]

    def _show_calls(self) -> None:
        table = self._calling_table()
        self.referee_button.setVisible(table is not None)
        if table is not None:
            self.referee_button.setText(_("Referee call of table {t} answered").format(t=table))
            self.referee_button.setToolTip(
                ngettext(
                    "Called the referee from a phone: table {tables}",
                    "Called the referee from a phone: tables {tables}",
                    len(self.calling),
                ).format(tables=", ".join(str(t) for t in self.calling))
            )

    def answer_referee_call(self) -> bool:
        """The referee came to the table that called him from a phone: the call is marked answered."""
        from clubdesk.services.kernel import ServiceError

        ev, table = self.current_event(), self._calling_table()
        if ev is None or table is None or self.round is None:
            return False
        try:
            for call in phones.referee_calls(self.state.db, ev.id, open_only=True):
                if call.round_no == self.round.round and call.table_no == table:
                    phones.handle_referee_call(self.state.db, self.state.actor, call.id)
        except ServiceError as exc:
            self.info.setText(exc.message)
            return False
        self.state.dataChanged.emit("rounds")
        return True

    def _family(self, ev: events.EventInfo) -> str:
        from clubdesk.competition import formats

        try:
            return str(formats.ruleset_params(ev.ruleset, dict(ev.overrides or {}))[0])
        except (ServiceError, ValueError, KeyError):
            return ""

    def _phones(self, event_id: int, round_no: int) -> dict[int, Any]:
        """Each table's state on the phones (issue 27) while table entry is on, or once a table used them
        (confirmed at the table, a referee call); {} otherwise (the State column says it all then)."""
        from clubdesk.services.kernel import ServiceError

        try:
            status = phones.table_status(self.state.db, event_id, round_no)
            used = any(st.referee_called or st.state == "confirmed_at_table" for st in status.values())
            return dict(status) if used or phones.base_url(self.state.db) else {}
        except (ServiceError, DatabaseError):
            return {}

    def _data_changed(self, section: str) -> None:
        if section in ("events", "desk"):
            self.reload_events()
        elif section in ("rounds", "discipline", "discipline-section"):
            # another desk's hand (live refresh says "rounds", issue 25), a penalty or a decision can
            # change the open table: its sheet follows (found in the two-window check on the club server)
            self.load_round()
            if self.panel is not None:
                self.panel.follow_store()

    # ------------------------------------------------------------------ the table call (T3b)
    def call_due_at(self) -> Any:
        """When absent sides can be forfeited: the services' deadline (rule G15: the night's minutes
        before the match start; rule T3b: after the table call, as the ruleset says)."""
        if self.round is None or self.round.call_at is None:
            return None
        due = getattr(self.round, "forfeit_due", None)
        if due is not None:
            return due
        ev = self.current_event()
        minutes = int(night_settings(self.state, ev.id).get("call_minutes", 10)) if ev else 10
        return self.round.call_at + timedelta(minutes=minutes)

    def _deadline_note(self) -> str:
        """Rule G15 says the deadline is before the start: show the start and the deadline."""
        rv = self.round
        if rv is None or getattr(rv, "forfeit_rule", "") != "G15" or rv.forfeit_due is None:
            return ""
        start = rv.start_at or rv.call_at
        return " · " + _("start {s}, present by {d} (G15)").format(
            s=start.strftime("%H:%M"), d=rv.forfeit_due.strftime("%H:%M")
        )

    def _tick(self) -> None:
        due = self.call_due_at()
        if due is None or self.round is None or self.round.call_at is None:
            self.call_label.setText("")
            return
        waiting = [t for t in self.round.tables if t.status == "waiting"]
        called = self.round.call_at.strftime("%H:%M")
        # the call time is a local wall-clock time (services/rounds.py), like the forfeit check (T3b)
        left = due - night.local_now()
        if not waiting:
            self.call_label.setText(_("Tables called at {t}").format(t=called))
            self.call_label.setStyleSheet(themed("font-size: 12pt; font-weight: 600; color: #14532d;"))
        elif left.total_seconds() > 0:
            secs = int(left.total_seconds())
            self.call_label.setText(
                _("Called {t} · forfeit of absent sides in {m:02d}:{s:02d}").format(
                    t=called, m=secs // 60, s=secs % 60
                )
                + self._deadline_note()
            )
            self.call_label.setStyleSheet(themed("font-size: 12pt; font-weight: 600; color: #1e3a8a;"))
        else:
            self.call_label.setText(
                ngettext(
                    "Called {t} · time is up: {n} table waiting can be forfeited",
                    "Called {t} · time is up: {n} tables waiting can be forfeited",
                    len(waiting),
                ).format(t=called, n=len(waiting))
            )
            self.call_label.setStyleSheet(themed("font-size: 12pt; font-weight: 700; color: #b00020;"))

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
        if token is not None:  # issue 27: the sheet's QR carries the table's address while table entry is on
            from clubdesk.services import phones

            ref = phones.table_for_token(self.state.db, token)
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
            panel = TablePanel(self.state, ev, self.round.round, table, self.initials, self.load_round)
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
        from PySide6.QtWidgets import QInputDialog

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
            rv = night.unpublish_round(self.state.db, self.state.actor, ev.id, reason)
        except ServiceError as exc:
            self.info.setText(exc.message)
            return False
        self.state.dataChanged.emit("rounds")
        self._event_changed()
        self.info.setText(_("Round {r} is proposed again; the earlier round is unlocked.").format(r=rv.round))
        return True

    def open_wizard(self) -> None:
        ev = self.current_event()
        if ev is None:
            QMessageBox.information(self, _("Pairing"), _("Create an event first."))
            return
        from clubdesk.ui.pairing_wizard import PairingWizard

        wizard = PairingWizard(self.state, ev.id, self)
        wizard.exec()
        self._event_changed()

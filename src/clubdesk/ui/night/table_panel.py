"""One table of the Rounds screen: the scorer's initials (asked once per table), the entry form (see
``clubdesk.ui.night.score_entry``), the table's state, and its decisions (``table_decisions``).

Keyboard: the scorer's initials once (the last ones given are offered, selected: Enter keeps them), then the
entry form; Alt+A and Alt+B to the sides' approvals (Ctrl+1/Ctrl+2 are the window's), Alt+G to the game of a
team encounter, Ctrl+U a substitution, Ctrl+I the incident form for the table.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from PySide6.QtCore import QTimer
from PySide6.QtGui import QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from clubdesk.games import replay
from clubdesk.i18n import _
from clubdesk.services import events as events_service
from clubdesk.services import night
from clubdesk.services.kernel import Actor, Changes, ServiceError
from clubdesk.storage import DatabaseError
from clubdesk.ui.night.dialogs import CorrectionDialog, SubstituteDialog, preview_lines
from clubdesk.ui.night.entry_params import form_params, night_settings, sheet_score
from clubdesk.ui.night.score_entry import EntryChange, FinalScoreForm, SheetEntryForm, entry_form_for
from clubdesk.ui.night.table_decisions import TableDecisions
from clubdesk.ui.night.tables_model import state_label
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.fit import fit_combos


class TablePanel(QWidget):
    """One table: the scorer's initials (asked once), the entry form, approvals, forfeits."""

    def __init__(
        self,
        state: DeskState,
        event: events_service.EventInfo,
        round_no: int,
        table: night.TableView,
        initials: dict[tuple[int, int, int], str],
        call_due: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__()
        self.setObjectName("tablePanel")
        self.state = state
        self.ev = event
        self.round_no = round_no
        self.table = table
        self.initials_cache = initials
        self.call_due = call_due
        self.reason: str | None = None
        self.form: SheetEntryForm | FinalScoreForm | None = None
        self.game_no = 1  # the game of a domino-es team encounter being entered (E7b)
        self.game_box: QComboBox | None = None
        self.seats_label: QLabel | None = None
        self.substitution: night.SeatsResult | None = None  # the last one made here, for its changes
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
        self.message = QLabel()
        self.message.setObjectName("tableMessage")
        self.message.setWordWrap(True)
        self.decisions = TableDecisions(self)  # approvals, referee, forfeits, lateness (G13, E6, T8c, G15)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(4)  # a team table's rows all fit 720 logical pixels (1920×1080 at 150 %)
        layout.addWidget(self.header)
        # the event and the table's state share a line: the rows below are what the scorer needs in view
        about = QHBoxLayout()
        about.addWidget(self.status)
        about.addStretch(1)
        about.addWidget(self.event_label)
        layout.addLayout(about)
        layout.addWidget(self.initials_row)
        layout.addLayout(self.form_box, 1)
        layout.addWidget(self.decisions)
        layout.addWidget(self.message)
        self.decisions.add_shortcuts(self)
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

    def follow(self, table: night.TableView) -> None:
        """After a change made elsewhere (another desk's hand, a penalty, a referee's decision), ``table`` as
        the section has just read it: the table's state, and the sheet built again only when its stored
        entries differ from the form's (what is being typed is kept)."""
        self.table = table
        self._show_table()
        if isinstance(self.form, SheetEntryForm):
            games = night.table_entries(self.state.db, self.ev.id, self.round_no, self.table.table)
            if [dict(e) for e in games.get(self.game_no, [])] != self.form.entries:
                self._build_form()

    def reopen(self, table: night.TableView) -> None:
        """The table opened again this session: its state reloaded, the form kept (with its undo history)
        while the sheet is as the form left it, else built again from the stored entries; whatever was
        half-typed is cleared, so nothing left over is saved by the next Enter."""
        self.table = table
        self._read_table()  # the list may be older than another desk's last change (its version)
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
        self.decisions.show_table(t)

    def _read_table(self) -> bool:
        """This table as stored now, read alone (its state and the version the next change is checked
        against); False when it cannot be read (the table is left as shown)."""
        try:
            self.table = night.get_table(self.state.db, self.ev.id, self.round_no, self.table.table)
        except ServiceError:
            return False
        return True

    def _show_table(self) -> None:
        self._update_status()
        if isinstance(self.form, SheetEntryForm):
            self.form.check_every_change = self.table.status == "confirmed" or self.table.locked

    def _changes_of(self, result: object) -> Changes:
        """What a use case changed at this table: the typed value it returns (its ``changes``), else (the
        table as another desk left it, read again) this table with its sheet, approvals and the standings."""
        changes = getattr(result, "changes", None)
        if isinstance(changes, Changes):
            return changes
        return Changes(
            self.ev.id,
            self.round_no,
            frozenset({self.table.table}),
            entries=True,
            approvals=True,
            standings=True,
        )

    def changed(self, result: object, *, later: bool = False) -> None:
        """After this desk's change to this table (``result``: what its use case returned): the table read
        once, so the version the next change is checked against moves on at once; then the panel shows it
        and every screen follows the typed changes (the list's row from this panel's reading, no second
        read). ``later``: the showing and telling wait until the entry form's own slot has returned."""
        self._read_table()
        changes = self._changes_of(result)

        def tell() -> None:
            self._show_table()
            self.state.announce(changes, self)

        if later:
            QTimer.singleShot(0, tell)
        else:
            tell()

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
        dialog = SubstituteDialog(
            self.state.db, self.table.names, self.seated_numbers(), self._substitute, self
        )
        if dialog.exec() != QDialog.DialogCode.Accepted:
            return False
        self.message.setText(_("Substitution recorded: the substitute takes the seat (E7b)."))
        self._build_form()
        self.changed(self.substitution)
        return True

    def _substitute(self, side: int, leaving: str, coming: str, reason: str) -> None:
        self.substitution = night.substitute(
            self.state.db,
            self.actor(),
            self.ev.id,
            self.round_no,
            self.table.table,
            self.game_no,
            side,
            leaving,
            coming,
            reason,
        )

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
        """A table another desk changed meanwhile is refused (who, when) and shown as it is now;
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
        """Another desk's change refused this one: the table as it is now, here and in the list."""
        if self._read_table():
            self._show_table()
            self.state.announce(self._changes_of(None), self)
        self._build_form()
        self.message.setText(text)

    def _save_change(self, change: EntryChange) -> None:
        """One use case whatever the change: the service chooses add, undo or correction from the table."""
        seen = self.table.version or None  # the version this screen shows: another desk's change is refused
        with self._another_desk():
            result = night.save_hand_change(
                self.state.db,
                self.actor(),
                night.TableId(self.ev.id, self.round_no, self.table.table),
                game_no=self.game_no,
                action=change.action,
                index=change.index,
                entry=None if change.entry is None else dict(change.entry),
                entries=[dict(e) for e in change.entries],
                seen_version=seen,
                reason=self.reason,
                override=self._override(),
            )
        self.reason = None
        self.message.setText("")
        self.changed(result, later=True)

    def _save_score(self, score: tuple[int, int], points: tuple[int, int] | None) -> None:
        if self.table.status == "confirmed" and not self._check_score_correction(score, points):
            raise ServiceError("cancelled", _("Correction cancelled."))
        with self._another_desk():
            result = night.set_score(
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
        self.changed(result, later=True)

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

    # ------------------------------------------------------------------ decisions (table_decisions)
    def run(self, fn: Callable[[], Any], done: str) -> bool:
        """One decision through the services: refused, its reason in the message line; done, ``done``
        there and the table shown as stored."""
        try:
            with self._another_desk():
                result = fn()
        except ServiceError as exc:
            self.message.setStyleSheet(themed("color: #b00020; font-weight: 600;"))
            self.message.setText(exc.message)
            return False
        self.message.setStyleSheet(themed("color: #14532d;"))
        self.message.setText(done)
        self.changed(result)
        return True

    def open_incident(self) -> None:
        try:
            module = importlib.import_module("clubdesk.ui.discipline.incident_form")
        except ModuleNotFoundError:
            self.message.setText(_("The incident form is not available."))
            return
        opener = getattr(module, "open_incident_dialog", None)
        if opener is None:
            self.message.setText(_("The incident form is not available."))
            return
        opener(self.state, self.ev.id, self.round_no, self.table.table, self)

"""The pairing wizard: attendance → the proposed pairing with its seed → preview with each pair's
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

from PySide6.QtWidgets import (
    QWidget,
    QWizard,
)

from clubdesk.i18n import _
from clubdesk.pairing import Entrant, verify_pairing
from clubdesk.services import desk as desk_service
from clubdesk.services import events as events_service
from clubdesk.services import night
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.night.wizard_host import Attendance, Pair
from clubdesk.ui.night.wizard_pages import ELIMINATION, AttendancePage, PreviewPage, ProposalPage, TablesPage
from clubdesk.ui.night.wizard_print import PrintPage, PublishPage
from clubdesk.ui.shell.shortcuts import leave_tables_by_tab
from clubdesk.ui.shell.state import DeskState


def history_entrants(state: DeskState, event_id: int, before_round: int, ids: list[int]) -> list[Entrant]:
    """The pairing engine's view of the field (opponents met, byes, points) from the published rounds."""
    opponents: dict[int, set[str]] = {e: set() for e in ids}
    byes: dict[int, int] = dict.fromkeys(ids, 0)
    for r in range(1, before_round):
        try:
            rv = night.get_round(state.db, event_id, r)
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
        for row in night.event_standings(state.db, event_id).rows:
            points[int(row.entrant)] = int(round(float(row.points) * 2))
    except ServiceError:
        pass
    return [
        Entrant(
            str(e), score=points.get(e, 0), opponents=frozenset(opponents.get(e, set())), byes=byes.get(e, 0)
        )
        for e in ids
    ]


class PairingWizard(QWizard):
    def __init__(self, state: DeskState, event_id: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("pairingWizard")
        self.state = state
        self.event_id = event_id
        self.ev_info = events_service.get_event(state.db, event_id)
        self.setWindowTitle(_("Pair a round: {name}").format(name=self.ev_info.name))
        self.names: dict[int, str] = {}
        self.proposed: night.RoundView | None = None
        self.pairs: list[Pair] = []
        self.original: list[Pair] = []
        self.fixed: dict[int, int] = {}  # entrant -> the table he needs
        self.requested: list[int] = []  # entrants with a requested bye this round
        self.published: night.RoundView | None = None
        self.proposed_for: Attendance | None = None  # the attendance the proposal was made for
        try:
            latest = night.get_round(state.db, event_id)
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
            return night.get_round(self.state.db, self.event_id).round
        except ServiceError:
            return 0

    def name(self, entrant: int | None) -> str:
        if entrant is None:
            return _("bye")
        return self.names.get(entrant, str(entrant))

    def attendance_now(self) -> Attendance:
        """Who is here now (checked in and registered) and who asked for a bye: a proposal holds for this."""
        rows = desk_service.entrants(self.state.db, self.event_id, include_withdrawn=False)
        byes = night.requested_byes(self.state.db, self.event_id)
        return frozenset(
            (e.entrant, e.checked_in_at is not None and e.status == "registered", byes.get(e.entrant))
            for e in rows
        )

    def stale(self) -> bool:
        """The proposal was made for another attendance (a late check-in, a withdrawal, a bye request)."""
        return self.proposed is not None and self.proposed_for != self.attendance_now()

    def set_proposed(self, rv: night.RoundView) -> None:
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
            lines = night.explain_pairing(self.state.db, self.event_id, self.pairs)
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
                    night.set_tables(
                        self.state.db,
                        self.state.actor,
                        self.event_id,
                        list(self.pairs),
                        fixed_tables=dict(self.fixed),
                        force_reason=self.publish_page.reason.text(),
                    ).round
                )
            except ServiceError as exc:
                return False, exc.message
        try:
            # the call time is stored as the local wall-clock time the secretary typed
            # (services/night/play/rounds.py), the time the forfeit check (T3b) compares with
            local = call_at.astimezone().replace(tzinfo=None) if call_at.tzinfo else call_at
            start = start_at.astimezone().replace(tzinfo=None) if start_at and start_at.tzinfo else start_at
            published = night.publish_round(
                self.state.db, self.state.actor, self.event_id, call_at=local, start_at=start
            )
        except ServiceError as exc:
            return False, exc.message
        self.published = published.round
        self.state.announce(published.changes, self)
        return True, ""

    def pages_data(self) -> dict[str, Any]:
        return {"pairs": list(self.pairs), "proposed": self.proposed}

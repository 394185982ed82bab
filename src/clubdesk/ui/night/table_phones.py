"""The tables on the players' phones, as the Rounds screen shows them: each table's state there (not
started, in play with its hands, awaiting confirmation, confirmed at the table, entered at the desk) and the
referee calls made from a phone, until the desk says the referee came."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QPushButton

from clubdesk.i18n import _, ngettext
from clubdesk.services import phones
from clubdesk.services.kernel import Actor, ServiceError
from clubdesk.storage import Database, DatabaseError
from clubdesk.ui.shell.theme import themed


def phones_of(db: Database, event_id: int, round_no: int) -> dict[int, Any]:
    """Each table's state on the phones while table entry is on, or once a table used them (confirmed at
    the table, a referee call); {} otherwise (the State column says it all then)."""
    try:
        status = phones.table_status(db, event_id, round_no)
        used = any(st.referee_called or st.state == "confirmed_at_table" for st in status.values())
        return dict(status) if used or phones.base_url(db) else {}
    except (ServiceError, DatabaseError):
        return {}


def table_phone(db: Database, event_id: int, round_no: int, table_no: int) -> Any | None:
    """One table's state on the phones (a screen following that table alone); None when unknown."""
    try:
        return phones.table_status(db, event_id, round_no, table_no).get(table_no)
    except (ServiceError, DatabaseError):
        return None


def answer_call(db: Database, actor: Actor, event_id: int, round_no: int, table_no: int) -> None:
    """The referee came to the table that called him from a phone: its open calls are marked answered."""
    for call in phones.referee_calls(db, event_id, open_only=True):
        if call.round_no == round_no and call.table_no == table_no:
            phones.handle_referee_call(db, actor, call.id)


class RefereeCallButton(QPushButton):
    """Shown while a table of the round has called the referee from a phone; says which table it answers:
    the open table's call, else the first table calling."""

    def __init__(self) -> None:
        super().__init__()
        self.setObjectName("refereeCallButton")
        self.setStyleSheet(themed("color: #7f1d1d; font-weight: 600;"))
        self.setVisible(False)
        self.calling: list[int] = []
        self.table: int | None = None  # the table whose call the button answers

    def show_calls(self, calling: list[int], open_table: int | None) -> None:
        self.calling = calling
        if not calling:
            self.table = None
        else:
            self.table = open_table if open_table in calling else calling[0]
        self.setVisible(self.table is not None)
        if self.table is not None:
            self.setText(_("Referee call of table {t} answered").format(t=self.table))
            self.setToolTip(
                ngettext(
                    "Called the referee from a phone: table {tables}",
                    "Called the referee from a phone: tables {tables}",
                    len(calling),
                ).format(tables=", ".join(str(t) for t in calling))
            )

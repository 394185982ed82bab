"""The desk's, the register's and the money's faces give the names the screens and the command line use."""

from __future__ import annotations

from clubdesk.services import desk, members, money


def test_the_faces_give_the_desk_register_and_money_use_cases() -> None:
    for name in ("register", "checkin", "entrants", "outbox", "withdraw"):
        assert callable(getattr(desk, name)), name
    for name in ("pay", "refund", "cash_box"):
        assert callable(getattr(money, name)), name
    for name in ("create_member", "import_members", "export_csv", "merge_members", "preview_import"):
        assert callable(getattr(members, name)), name

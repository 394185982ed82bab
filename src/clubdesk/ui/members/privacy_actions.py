"""The members' privacy rights at the desk: a copy of everything held about a member, his erasure (after a
confirmation naming what goes and what stays) and clearing the contact data of members long inactive."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from clubdesk.i18n import _, ngettext
from clubdesk.services import members as ms
from clubdesk.services import publishing
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState


def export_personal(parent: QWidget, state: DeskState, number: str, folder: str | None = None) -> str | None:
    """Write member-NUMBER.json and .pdf into a folder the user picks; the message shown, or None."""
    folder = folder or QFileDialog.getExistingDirectory(parent, _("Everything held about a member"))
    if not folder:
        return None
    try:
        done = publishing.export_personal(state.db, state.actor, number, Path(folder))
    except ServiceError as exc:
        QMessageBox.warning(parent, _("Everything held about a member"), exc.message)
        return None
    return _("Everything held about member {number} is in {json} and {pdf}.").format(
        number=done.number, json=done.json_path, pdf=done.pdf_path
    )


def erase_question(member: ms.MemberInfo) -> str:
    return _(
        "Erase {name} ({number})? He will be named {anonymous}; his phone, e-mail, city, birth year, licence "
        "and notes are wiped and cannot be brought back. His results, standings and ratings stay."
    ).format(name=member.name, number=member.number, anonymous=ms.anonymous_name(member.number))


def erase(parent: QWidget, state: DeskState, member: ms.MemberInfo, *, confirmed: bool = False) -> str | None:
    """Erase ``member`` once the user confirms; the message shown, or None when nothing was done."""
    if not confirmed:
        answer = QMessageBox.question(
            parent,
            _("Erase member"),
            erase_question(member),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            QMessageBox.StandardButton.No,
        )
        if answer != QMessageBox.StandardButton.Yes:
            return None
    try:
        done = ms.erase_member(state.db, state.actor, member.number)
    except ServiceError as exc:
        QMessageBox.warning(parent, _("Erase member"), exc.message)
        return None
    return _("Member {number} is erased: now named {name}; results, standings and ratings are kept.").format(
        number=done.number, name=done.name
    )


def clear_inactive(
    parent: QWidget, state: DeskState, years: int | None = None, *, confirmed: bool = False
) -> str | None:
    """Ask for the years, show who would be cleared, clear after a confirmation; the message shown."""
    if years is None:
        years, ok = QInputDialog.getInt(
            parent,
            _("Clear inactive members' contacts"),
            _("Clear the phone, e-mail, birth year and notes of members inactive for at least (years):"),
            5,
            1,
            100,
        )
        if not ok:
            return None
    try:
        seen = ms.clear_inactive(state.db, state.actor, years, dry_run=True)
        if not seen.numbers:
            return _("No member has been inactive that long with contact data kept.")
        n = len(seen.numbers)
        question = ngettext(
            "Clear the contact data of {n} member ({numbers})? Names, clubs and results stay.",
            "Clear the contact data of {n} members ({numbers})? Names, clubs and results stay.",
            n,
        ).format(n=n, numbers=", ".join(seen.numbers))
        if not confirmed:
            answer = QMessageBox.question(parent, _("Clear inactive members' contacts"), question)
            if answer != QMessageBox.StandardButton.Yes:
                return None
        done = ms.clear_inactive(state.db, state.actor, years)
    except ServiceError as exc:
        QMessageBox.warning(parent, _("Clear inactive members' contacts"), exc.message)
        return None
    n = len(done.numbers)
    return ngettext(
        "Cleared the contact data of {n} member: {numbers}.",
        "Cleared the contact data of {n} members: {numbers}.",
        n,
    ).format(n=n, numbers=", ".join(done.numbers))

"""The table's dialogs: the preview of a correction to a confirmed result with its reason (rule T10 when the
round is locked), and a substitution asked for by name (rules E7b, E20)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import desk
from clubdesk.services.kernel import ServiceError
from clubdesk.storage import Database
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.name_field import NameField


class CorrectionDialog(QDialog):
    """The correction preview: what the change would do downstream, and the reason for it."""

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


# the substitution as the table saves it: (side, member leaving, member coming in, reason); a refusal
# is a ServiceError, shown in the dialog
Substitute = Callable[[int, str, str, str], None]


class SubstituteDialog(QDialog):
    """A substitute takes the seat of the player he replaces (rules E7b, E20): both asked for by name.
    ``names``: the table's two sides; ``seated``: the member numbers at its seats (the one leaving is one
    of them)."""

    def __init__(
        self,
        db: Database,
        names: Sequence[str | None],
        seated: Sequence[str],
        save: Substitute,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.save = save
        self.setWindowTitle(_("Substitute a player (E7b)"))
        at_table = set(seated)
        self.side = QComboBox()
        self.side.setObjectName("substituteSide")
        for k, name in enumerate(names):
            self.side.addItem(name or _("bye"), k)
        self.out = NameField(lambda text: [c for c in desk.member_choices(db, text) if c.key in at_table])
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
        try:
            self.save(
                int(self.side.currentData()), self.out.value(), self.into.value(), self.reason.text().strip()
            )
        except ServiceError as exc:
            self.error.setText(exc.message)
            return
        super().accept()

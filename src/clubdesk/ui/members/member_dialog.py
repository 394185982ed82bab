"""The member dialog, and CSV import with a preview."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _, ngettext
from clubdesk.services import members as ms
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.forms import FieldWithError


class MemberDialog(QDialog):
    """Add or edit a member. Errors are shown next to their field; nothing is saved until all is right."""

    def __init__(
        self, state: DeskState, member: ms.MemberInfo | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.member = member
        self.saved: ms.MemberInfo | None = None
        self.setWindowTitle(_("Edit member") if member else _("New member"))
        self.name = QLineEdit()
        self.name.setObjectName("name")
        self.number = QLineEdit()
        self.number.setObjectName("number")
        self.number.setPlaceholderText(_("next free number"))
        # rule E15: the federation licence number, printed on the match act (a field of its own)
        self.licence = QLineEdit()
        self.licence.setObjectName("licence")
        self.licence.setPlaceholderText(_("federation licence, if any"))
        self.club = QComboBox()
        self.club.setObjectName("club")
        self.club.setEditable(True)
        self.club.addItem("")
        for club in ms.list_clubs(state.db):
            self.club.addItem(club.name)
        self.city = QLineEdit()
        self.gender = QComboBox()
        self.gender.setProperty("translatable", True)
        for code, label in (("", _("not given")), ("f", _("female")), ("m", _("male"))):
            self.gender.addItem(label, code)
        self.birth_year = QSpinBox()
        self.birth_year.setRange(1899, 2100)
        self.birth_year.setSpecialValueText(_("not given"))
        self.birth_year.setValue(1899)
        self.rating = QDoubleSpinBox()
        self.rating.setRange(0, 5000)
        self.rating.setDecimals(1)
        self.rating.setValue(ms.DEFAULT_RATING)
        self.experience = QSpinBox()
        self.experience.setRange(0, 100000)
        self.phone = QLineEdit()
        self.phone.setObjectName("phone")
        self.email = QLineEdit()
        self.email.setObjectName("email")
        self.notes = QPlainTextEdit()
        self.notes.setFixedHeight(60)
        self.notes.setTabChangesFocus(True)
        # his consent for public outputs: share images, the site, the hall and the projector
        self.public_name = QComboBox()
        self.public_name.setObjectName("publicName")
        self.public_name.setProperty("translatable", True)
        for code, label in (("full", _("full name")), ("initials", _("initials and club only"))):
            self.public_name.addItem(label, code)
        self.active = QCheckBox(_("Active member"))
        self.active.setChecked(True)
        self.fields: dict[str, FieldWithError] = {
            "name": FieldWithError(self.name),
            "number": FieldWithError(self.number),
            "licence": FieldWithError(self.licence),
            "club": FieldWithError(self.club),
            "city": FieldWithError(self.city),
            "gender": FieldWithError(self.gender),
            "birth_year": FieldWithError(self.birth_year),
            "rating": FieldWithError(self.rating),
            "rating_experience": FieldWithError(self.experience),
            "phone": FieldWithError(self.phone),
            "email": FieldWithError(self.email),
            "notes": FieldWithError(self.notes),
            "public_name": FieldWithError(self.public_name),
        }
        form = QFormLayout()
        labels = {
            "name": _("&Name"),
            "number": _("Member n&umber"),
            "licence": _("Federation &licence"),
            "club": _("&Club"),
            "city": _("Cit&y"),
            "gender": _("&Gender"),
            "birth_year": _("&Birth year"),
            "rating": _("&Rating"),
            "rating_experience": _("Rated matches"),
            "phone": _("&Phone"),
            "email": _("&E-mail"),
            "notes": _("Notes"),
            "public_name": _("Name &in public"),
        }
        for key, widget in self.fields.items():
            caption = QLabel(labels[key])
            caption.setBuddy(widget.field)
            form.addRow(caption, widget)
        form.addRow("", self.active)
        privacy = QLabel(_("Phone and e-mail are for the organiser only; they never appear in public lists."))
        privacy.setWordWrap(True)
        privacy.setStyleSheet(themed("color: #666;"))
        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        self.buttons.button(QDialogButtonBox.StandardButton.Save).setText(_("Save"))
        self.buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(_("Cancel"))
        self.buttons.accepted.connect(self.save)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(privacy)
        layout.addWidget(self.buttons)
        if member is not None:
            self._fill(member)
        self.name.setFocus()

    def _fill(self, m: ms.MemberInfo) -> None:
        self.name.setText(m.name)
        self.number.setText(m.number)
        self.licence.setText(m.licence)
        self.club.setCurrentText(m.club)
        self.city.setText(m.city)
        self.gender.setCurrentIndex(max(0, self.gender.findData(m.gender)))
        self.birth_year.setValue(m.birth_year or 1899)
        self.rating.setValue(m.rating)
        self.experience.setValue(m.rating_experience)
        self.phone.setText(m.phone)
        self.email.setText(m.email)
        self.notes.setPlainText(m.notes)
        self.active.setChecked(m.active)
        self.public_name.setCurrentIndex(max(0, self.public_name.findData(m.public_name)))

    def data(self) -> ms.MemberData:
        year = self.birth_year.value()
        return ms.MemberData(
            name=self.name.text(),
            number=self.number.text(),
            club=self.club.currentText(),
            city=self.city.text(),
            gender=str(self.gender.currentData() or ""),
            birth_year=None if year == 1899 else year,
            rating=self.rating.value(),
            rating_experience=self.experience.value(),
            phone=self.phone.text(),
            email=self.email.text(),
            notes=self.notes.toPlainText(),
            active=self.active.isChecked(),
            licence=self.licence.text(),
            public_name=str(self.public_name.currentData() or "full"),
        )

    def save(self) -> bool:
        for field in self.fields.values():
            field.set_error(None)
        data = self.data()
        errors = ms.field_errors(data, current_number=None if self.member is None else self.member.number)
        try:
            if errors:
                raise ServiceError("invalid", next(iter(errors.values())), fields=errors)
            if self.member is None:
                self.saved = ms.create_member(self.state.db, self.state.actor, data)
            else:
                self.saved = ms.update_member(self.state.db, self.state.actor, self.member.number, data)
        except ServiceError as exc:
            fields = exc.params.get("fields") or {"name": exc.message}
            for key, message in fields.items():
                self.fields.get(key, self.fields["name"]).set_error(message)
            first = next(iter(fields))
            self.fields.get(first, self.fields["name"]).field.setFocus()
            return False
        self.accept()
        return True


class ImportDialog(QDialog):
    """What an import would add and every bad line; Import is possible only when there is no bad line."""

    def __init__(self, state: DeskState, path: Path, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.state = state
        self.path = path
        self.imported = 0
        self.setWindowTitle(_("Import members"))
        self.resize(760, 520)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setObjectName("importSummary")
        self.additions = QTableWidget(0, 5)
        self.additions.setObjectName("additions")
        self.additions.setHorizontalHeaderLabels([_("Number"), _("Name"), _("Club"), _("City"), _("Rating")])
        self.additions.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.additions.verticalHeader().setVisible(False)
        self.additions.horizontalHeader().setStretchLastSection(True)
        self.bad_lines = QListWidget()
        self.bad_lines.setObjectName("badLines")
        self.bad_lines.setStyleSheet(themed("color: #b00020;"))
        self.import_button = QPushButton(_("&Import"))
        self.import_button.setObjectName("importButton")
        self.import_button.clicked.connect(self.do_import)
        cancel = QPushButton(_("Cancel"))
        cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.import_button)
        buttons.addWidget(cancel)
        layout = QVBoxLayout(self)
        layout.addWidget(self.summary)
        layout.addWidget(QLabel(_("Members to add")))
        layout.addWidget(self.additions, 3)
        layout.addWidget(QLabel(_("Bad lines (nothing is imported while there is one)")))
        layout.addWidget(self.bad_lines, 2)
        layout.addLayout(buttons)
        self.preview: ms.ImportPreview | None = None
        self.refresh()

    def refresh(self) -> None:
        try:
            self.preview = ms.preview_import(self.state.db, self.path)
        except ServiceError as exc:
            self.preview = None
            self.summary.setText(exc.message)
            self.import_button.setEnabled(False)
            return
        p = self.preview
        self.additions.setRowCount(len(p.additions))
        for r, d in enumerate(p.additions):
            rating = f"{d.rating:.0f}" if d.rating is not None else f"{ms.DEFAULT_RATING:.0f}"
            for c, value in enumerate((d.number, d.name, d.club, d.city, rating)):
                self.additions.setItem(r, c, QTableWidgetItem(value))
        self.additions.resizeColumnsToContents()
        self.bad_lines.clear()
        for bad in p.bad_lines:
            self.bad_lines.addItem(str(bad))
        parts = [
            _("File: {file} ({encoding}).").format(file=self.path.name, encoding=p.encoding or "?"),
            ngettext("{n} member to add.", "{n} members to add.", len(p.additions)).format(
                n=len(p.additions)
            ),
        ]
        if p.new_clubs:
            parts.append(_("New clubs: {clubs}.").format(clubs=", ".join(p.new_clubs)))
        if p.bad_lines:
            n = len({b.line for b in p.bad_lines})
            parts.append(
                ngettext(
                    "{n} bad line: fix the file and try again; nothing will be imported.",
                    "{n} bad lines: fix the file and try again; nothing will be imported.",
                    n,
                ).format(n=n)
            )
        self.summary.setText(" ".join(parts))
        self.import_button.setEnabled(p.ok)

    def do_import(self) -> bool:
        try:
            preview = ms.import_members(self.state.db, self.state.actor, self.path)
        except ServiceError as exc:
            self.summary.setText(exc.message)
            self.refresh()
            return False
        self.imported = len(preview.additions)
        self.accept()
        return True

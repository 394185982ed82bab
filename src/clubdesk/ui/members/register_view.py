"""Members and clubs: the register table (searchable, sortable), the member dialog, CSV import with a preview,
export, merging two records side by side (rule T2a), and the clubs list.

Keyboard: Ctrl+F search, Ctrl+N new member, Enter edit, Del deactivate, Ctrl+I import, Ctrl+E export,
Ctrl+M merge the selected records. The table shows number, name, club, city and rating (rule T14: phone and
e-mail only appear in the member dialog and the organiser's export).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFileDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QListWidget,
    QMessageBox,
    QPlainTextEdit,
    QPushButton,
    QSpinBox,
    QTableView,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from clubdesk.collation import sort_string
from clubdesk.i18n import _, ngettext
from clubdesk.services import members as ms
from clubdesk.services.base import ServiceError
from clubdesk.services.text import fold
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed
from clubdesk.ui.widgets.forms import FieldWithError
from clubdesk.ui.widgets.tables import PlainRowsModel

SORT_ROLE = Qt.ItemDataRole.UserRole + 1


# --------------------------------------------------------------------------- table models


@dataclass(frozen=True)
class Column:
    title: str
    value: Any  # callable(row) -> display value
    sort: Any  # callable(row) -> sort key


class RowsModel(PlainRowsModel[Column]):
    """A thin table model over a list of plain frozen dataclasses."""

    def cell(self, row: Any, col: Column, role: int) -> Any:
        if role == Qt.ItemDataRole.DisplayRole:
            return col.value(row)
        if role == SORT_ROLE:
            return col.sort(row)
        if role == Qt.ItemDataRole.TextAlignmentRole and isinstance(col.sort(row), float):
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.ForegroundRole and getattr(row, "active", True) is False:
            from clubdesk.ui.shell.theme import color

            return color("#888888")
        return None


def _number_key(number: str) -> str:
    """Numeric numbers first, in numeric order; then the others alphabetically."""
    return "0" + number.zfill(40) if number.isdigit() else "1" + fold(number)


NAME_COLUMN, RATING_COLUMN = 1, 4  # in member_columns()


def member_columns() -> list[Column]:
    # rule T14: no phone, no e-mail in the table
    return [
        Column(_("Number"), lambda m: m.number, lambda m: _number_key(m.number)),
        # sorted in the language's alphabet (Turkish C < Ç, ı < i; Spanish n < ñ)
        Column(_("Name"), lambda m: m.name, lambda m: sort_string(m.name)),
        Column(_("Club"), lambda m: m.club, lambda m: sort_string(m.club)),
        Column(_("City"), lambda m: m.city, lambda m: sort_string(m.city)),
        Column(_("Rating"), lambda m: f"{m.rating:.0f}", lambda m: float(m.rating)),
        Column(_("Active"), lambda m: _("yes") if m.active else _("no"), lambda m: int(m.active)),
    ]


def _table(model: QAbstractTableModel) -> tuple[QTableView, QSortFilterProxyModel]:
    proxy = QSortFilterProxyModel()
    proxy.setSourceModel(model)
    proxy.setSortRole(SORT_ROLE)
    view = QTableView()
    view.setModel(proxy)
    view.setSortingEnabled(True)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.setAlternatingRowColors(True)
    view.verticalHeader().setVisible(False)
    view.horizontalHeader().setStretchLastSection(True)
    view.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
    return view, proxy


# --------------------------------------------------------------------------- member dialog


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
        )

    def save(self) -> bool:
        for field in self.fields.values():
            field.set_error(None)
        data = self.data()
        errors = ms.field_errors(data)
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


# --------------------------------------------------------------------------- import dialog


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


class RegisterModel(RowsModel):
    """The register a page at a time (issue 22): the first page of a search, and the next one each time
    the view scrolls to the end (Qt's canFetchMore / fetchMore), read with the keyset of the last row."""

    def __init__(self, columns: list[Column], db: Any, page: int = ms.PAGE) -> None:
        super().__init__(columns)
        self.db = db
        self.page = page
        self.search = ""
        self.include_inactive = False
        self.more = False
        self.after: tuple[bytes, str] | None = None

    def load(self, search: str, include_inactive: bool) -> None:
        self.search, self.include_inactive = search, include_inactive
        first = self._read(None)
        self.set_rows(first.rows)
        self.more, self.after = first.more, first.after

    def data(self, index: Any, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role == SORT_ROLE and index.isValid() and index.column() == NAME_COLUMN:
            # the pages come in the language's alphabet (the stored keys): a row's place is its name's order,
            # and the collation table need not load to sort what SQL sorted (issue 22)
            return index.row()
        if role == Qt.ItemDataRole.TextAlignmentRole:  # without computing every column's sort key to know
            if index.isValid() and index.column() == RATING_COLUMN:
                return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            return None
        return super().data(index, role)

    def _read(self, after: tuple[bytes, str] | None) -> ms.MemberPage:
        return ms.member_page(
            self.db, self.search, include_inactive=self.include_inactive, limit=self.page, after=after
        )

    def canFetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> bool:  # noqa: B008, N802
        return not parent.isValid() and self.more

    def fetchMore(self, parent: QModelIndex | QPersistentModelIndex = QModelIndex()) -> None:  # noqa: B008, N802
        if parent.isValid() or not self.more:
            return
        nxt = self._read(self.after)
        self.more, self.after = nxt.more, nxt.after
        if nxt.rows:
            start = len(self.rows)
            self.beginInsertRows(QModelIndex(), start, start + len(nxt.rows) - 1)
            self.rows.extend(nxt.rows)
            self.endInsertRows()

    def fetch_all(self) -> None:
        while self.more:
            self.fetchMore()


# --------------------------------------------------------------------------- merge dialog


class MergeDialog(QDialog):
    """Two records side by side, with the result of merging and each one's history (rule T2a)."""

    def __init__(
        self, state: DeskState, keep: str = "", drop: str = "", parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.merged: ms.MergeResult | None = None
        self.setWindowTitle(_("Merge two members"))
        self.resize(780, 520)
        self.keep = QComboBox()
        self.drop = QComboBox()
        for combo in (self.keep, self.drop):
            combo.setEditable(True)
            combo.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
            for m in ms.list_members(state.db, include_inactive=True):
                combo.addItem(f"{m.number} · {m.name}", m.number)
        self.keep.setObjectName("keep")
        self.drop.setObjectName("drop")
        self._select(self.keep, keep)
        self._select(self.drop, drop)
        swap = QPushButton(_("S&wap"))
        swap.clicked.connect(self.swap)
        top = QFormLayout()
        top.addRow(_("&Keep"), self.keep)
        top.addRow(_("&Duplicate to merge away"), self.drop)
        self.table = QTableWidget(0, 3)
        self.table.setObjectName("sideBySide")
        self.table.setHorizontalHeaderLabels(
            [_("Kept record"), _("Record merged away"), _("After the merge")]
        )
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
        self.message = QLabel("")
        self.message.setWordWrap(True)
        self.message.setStyleSheet(themed("color: #b00020;"))
        self.merge_button = QPushButton(_("&Merge"))
        self.merge_button.setObjectName("mergeButton")
        self.merge_button.clicked.connect(self.do_merge)
        cancel = QPushButton(_("Cancel"))
        cancel.clicked.connect(self.reject)
        buttons = QHBoxLayout()
        buttons.addWidget(swap)
        buttons.addStretch(1)
        buttons.addWidget(self.merge_button)
        buttons.addWidget(cancel)
        note = QLabel(
            _(
                "All history of the record merged away moves to the kept one; that record stays, inactive, "
                "marked as merged. This is written to the audit log."
            )
        )
        note.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        layout.addWidget(note)
        layout.addWidget(self.message)
        layout.addLayout(buttons)
        self.keep.currentIndexChanged.connect(self.refresh)
        self.drop.currentIndexChanged.connect(self.refresh)
        self.refresh()

    @staticmethod
    def _select(combo: QComboBox, number: str) -> None:
        i = combo.findData(number)
        if i >= 0:
            combo.setCurrentIndex(i)

    def swap(self) -> None:
        k, d = self.keep.currentIndex(), self.drop.currentIndex()
        self.keep.blockSignals(True)
        self.keep.setCurrentIndex(d)
        self.keep.blockSignals(False)
        self.drop.setCurrentIndex(k)
        self.refresh()

    def refresh(self) -> None:
        self.message.setText("")
        self.table.setRowCount(0)
        try:
            p = ms.merge_preview(self.state.db, str(self.keep.currentData()), str(self.drop.currentData()))
        except ServiceError as exc:
            self.message.setText(exc.message)
            self.merge_button.setEnabled(False)
            return
        self.merge_button.setEnabled(True)

        def year(v: int | None) -> str:
            return "" if v is None else str(v)

        rows: list[tuple[str, str, str, str]] = [
            (_("Number"), p.keep.number, p.drop.number, p.keep.number),
            (_("Name"), p.keep.name, p.drop.name, p.result.name),
            (_("Licence"), p.keep.licence, p.drop.licence, p.result.licence),
            (_("Club"), p.keep.club, p.drop.club, p.result.club),
            (_("City"), p.keep.city, p.drop.city, p.result.city),
            (_("Gender"), p.keep.gender, p.drop.gender, p.result.gender),
            (_("Birth year"), year(p.keep.birth_year), year(p.drop.birth_year), year(p.result.birth_year)),
            (_("Rating"), f"{p.keep.rating:.0f}", f"{p.drop.rating:.0f}", f"{p.result.rating or 0:.0f}"),
            (
                _("Rated matches"),
                str(p.keep.rating_experience),
                str(p.drop.rating_experience),
                str(p.result.rating_experience),
            ),
            (_("Phone"), p.keep.phone, p.drop.phone, p.result.phone),
            (_("E-mail"), p.keep.email, p.drop.email, p.result.email),
        ]
        for key, k, d in p.history:
            table = key.split(".")[0]
            label = _("Records merged into it") if key == "members.merged_into_id" else _("History: {table}")
            rows.append((label.format(table=table), str(k), str(d), str(k + d)))
        self.table.setRowCount(len(rows))
        self.table.setVerticalHeaderLabels([r[0] for r in rows])
        for r, (_label, *values) in enumerate(rows):
            for c, value in enumerate(values):
                self.table.setItem(r, c, QTableWidgetItem(value))

    def do_merge(self) -> bool:
        try:
            self.merged = ms.merge_members(
                self.state.db, self.state.actor, str(self.keep.currentData()), str(self.drop.currentData())
            )
        except ServiceError as exc:
            self.message.setText(exc.message)
            return False
        self.accept()
        return True


# --------------------------------------------------------------------------- clubs


class ClubDialog(QDialog):
    def __init__(
        self, state: DeskState, club: ms.ClubInfo | None = None, parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.state = state
        self.club = club
        self.setWindowTitle(_("Edit club") if club else _("New club"))
        self.name = QLineEdit(club.name if club else "")
        self.city = QLineEdit(club.city if club else "")
        self.name_field = FieldWithError(self.name)
        form = QFormLayout()
        form.addRow(_("&Name"), self.name_field)
        form.addRow(_("Cit&y"), self.city)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.button(QDialogButtonBox.StandardButton.Save).setText(_("Save"))
        buttons.button(QDialogButtonBox.StandardButton.Cancel).setText(_("Cancel"))
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(buttons)

    def save(self) -> bool:
        try:
            ms.save_club(
                self.state.db,
                self.state.actor,
                self.name.text(),
                self.city.text(),
                club_id=self.club.id if self.club else None,
            )
        except ServiceError as exc:
            self.name_field.set_error(exc.message)
            return False
        self.accept()
        return True


class ClubsPanel(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.model = RowsModel(
            [
                Column(_("Club"), lambda c: c.name, lambda c: sort_string(c.name)),
                Column(_("City"), lambda c: c.city, lambda c: sort_string(c.city)),
                Column(_("Active members"), lambda c: str(c.members), lambda c: c.members),
            ]
        )
        self.view, self.proxy = _table(self.model)
        self.view.setObjectName("clubsTable")
        self.view.doubleClicked.connect(lambda _i: self.edit())
        add = QPushButton(_("New club"))
        add.clicked.connect(self.add)
        edit = QPushButton(_("Edit club"))
        edit.clicked.connect(self.edit)
        row = QHBoxLayout()
        row.addWidget(add)
        row.addWidget(edit)
        row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.view)
        self.stale = True
        self.reload()

    def reload(self) -> None:
        """The clubs, read when the tab is shown (issue 22: the register's tab opens first, without sorting
        the clubs in the language's alphabet, which loads the collation table)."""
        self.stale = True
        if self.isVisible():
            self._load()

    def _load(self) -> None:
        self.stale = False
        self.model.set_rows(ms.list_clubs(self.state.db))
        self.view.resizeColumnsToContents()

    def showEvent(self, event: Any) -> None:  # noqa: N802 - Qt API
        if self.stale:
            self._load()
        super().showEvent(event)

    def selected(self) -> ms.ClubInfo | None:
        rows = self.view.selectionModel().selectedRows()
        if not rows:
            return None
        club: ms.ClubInfo = self.model.rows[self.proxy.mapToSource(rows[0]).row()]
        return club

    def add(self) -> None:
        if ClubDialog(self.state, None, self).exec():
            self.state.dataChanged.emit("members")

    def edit(self) -> None:
        club = self.selected()
        if club is not None and ClubDialog(self.state, club, self).exec():
            self.state.dataChanged.emit("members")


# --------------------------------------------------------------------------- the section


class MembersPanel(QWidget):
    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        self.search = QLineEdit()
        self.search.setObjectName("search")
        self.search.setPlaceholderText(_("Search by number, name, club or city (accents and case ignored)"))
        self.search.setClearButtonEnabled(True)
        self.search.textChanged.connect(self.reload)
        self.show_inactive = QCheckBox(_("Show inactive"))
        self.show_inactive.toggled.connect(self.reload)
        self.model = RegisterModel(member_columns(), state.db)
        self.view, self.proxy = _table(self.model)
        self.view.setObjectName("membersTable")
        self.view.verticalHeader().setDefaultSectionSize(26)
        self.view.doubleClicked.connect(lambda _i: self.edit())
        self.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
        # the pages come in name order; another order is the whole register's, so all of it is read
        self.view.horizontalHeader().sortIndicatorChanged.connect(lambda *_a: self._whole_if_sorted())
        self.count = QLabel("")
        self.count.setObjectName("memberCount")
        self.model.rowsInserted.connect(lambda *_a: self._show_count())
        # issue 22: counting every match reads the register; done once the typing pauses
        self.count_timer = QTimer(self)
        self.count_timer.setSingleShot(True)
        self.count_timer.setInterval(250)
        self.count_timer.timeout.connect(self._count_all)
        self.total: int | None = None
        # a tool bar folds the buttons that do not fit into its extension menu, so the window can stay narrow
        self.toolbar = QToolBar()
        self.toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
        specs = (
            (_("&New member"), self.add, "addAction"),
            (_("&Edit"), self.edit, "editAction"),
            (_("&Deactivate"), self.deactivate, "deactivateAction"),
            (_("&Import CSV…"), self.import_csv, "importAction"),
            (_("E&xport CSV…"), self.export_csv, "exportAction"),
            (_("&Merge…"), self.merge, "mergeAction"),
            (_("Player &card…"), self.player_card, "playerCardAction"),  # issue 21
        )
        for text, slot, name in specs:
            action = QAction(text, self)
            action.setObjectName(name)
            action.triggered.connect(lambda _checked=False, slot=slot: slot())
            self.toolbar.addAction(action)
        top = QHBoxLayout()
        top.addWidget(self.search, 1)
        top.addWidget(self.show_inactive)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.toolbar)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.count)
        for keys, slot in (
            (QKeySequence.StandardKey.Find, self.search.setFocus),
            (QKeySequence.StandardKey.New, self.add),
            ("Ctrl+I", self.import_csv),
            ("Ctrl+E", self.export_csv),
            ("Ctrl+M", self.merge),
        ):
            shortcut = QShortcut(QKeySequence(keys), self)
            shortcut.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            shortcut.activated.connect(slot)
        for key, slot in (
            (Qt.Key.Key_Return, self.edit),
            (Qt.Key.Key_Enter, self.edit),
            (Qt.Key.Key_Delete, self.deactivate),
        ):
            shortcut = QShortcut(QKeySequence(key), self.view)
            shortcut.setContext(Qt.ShortcutContext.WidgetShortcut)
            shortcut.activated.connect(slot)
        self.reload()

    def reload(self) -> None:
        """The first page of the search (issue 22: a page per keystroke, the rest as the view scrolls)."""
        self.total = None
        self.model.load(self.search.text(), self.show_inactive.isChecked())
        self._whole_if_sorted()
        self.view.resizeColumnsToContents()
        header = self.view.horizontalHeader()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Stretch)  # the name takes the spare width
        self._show_count()
        if self.model.more:
            self.count_timer.start()
        else:
            self.count_timer.stop()

    def _whole_if_sorted(self) -> None:
        header = self.view.horizontalHeader()
        if (header.sortIndicatorSection(), header.sortIndicatorOrder()) != (1, Qt.SortOrder.AscendingOrder):
            self.model.fetch_all()

    def _count_all(self) -> None:
        self.total = ms.count_matching(
            self.state.db, self.search.text(), include_inactive=self.show_inactive.isChecked()
        )
        self._show_count()

    def _show_count(self) -> None:
        shown = len(self.model.rows)
        if not self.model.more:
            self.total = shown
        if self.total is not None:
            n = self.total
            text = ngettext("{n} member", "{n} members", n).format(n=n)
            if shown < n:
                text = ngettext("{n} member ({shown} shown)", "{n} members ({shown} shown)", n).format(
                    n=n, shown=shown
                )
        else:
            text = ngettext("{shown} member shown, more below", "{shown} members shown, more below", shown)
            text = text.format(shown=shown)
        self.count.setText(text)

    def selected(self) -> list[ms.MemberInfo]:
        rows = sorted(self.view.selectionModel().selectedRows(), key=lambda i: i.row())
        return [self.model.rows[self.proxy.mapToSource(i).row()] for i in rows]

    def _changed(self) -> None:
        self.state.dataChanged.emit("members")

    def add(self) -> None:
        dialog = MemberDialog(self.state, None, self)
        if dialog.exec():
            self._changed()

    def edit(self) -> None:
        chosen = self.selected()
        if not chosen:
            return
        member = ms.get_member(self.state.db, chosen[0].number, follow_merged=False)
        if MemberDialog(self.state, member, self).exec():
            self._changed()

    def deactivate(self) -> None:
        chosen = [m for m in self.selected() if m.active]
        if not chosen:
            return
        names = ", ".join(m.name for m in chosen)
        answer = QMessageBox.question(self, _("Deactivate"), _("Deactivate {names}?").format(names=names))
        if answer != QMessageBox.StandardButton.Yes:
            return
        for m in chosen:
            ms.deactivate_member(self.state.db, self.state.actor, m.number)
        self._changed()

    def import_csv(self, path: str | None = None) -> None:
        if not path:
            path, _filter = QFileDialog.getOpenFileName(
                self, _("Import members"), "", _("CSV files (*.csv *.txt)")
            )
        if not path:
            return
        if ImportDialog(self.state, Path(path), self).exec():
            self._changed()

    def export_csv(self, path: str | None = None) -> None:
        if not path:
            path, _filter = QFileDialog.getSaveFileName(
                self, _("Export members"), "members.csv", _("CSV files (*.csv)")
            )
        if not path:
            return
        try:
            n = ms.export_csv(self.state.db, self.state.actor, Path(path))
        except ServiceError as exc:
            QMessageBox.warning(self, _("Export members"), exc.message)
            return
        self.count.setText(
            ngettext("Exported {n} member to {file}.", "Exported {n} members to {file}.", n).format(
                n=n, file=path
            )
        )

    def player_card(self) -> None:
        """Issue 21: the selected member's card (events, results, rating; incidents for the organiser)."""
        chosen = self.selected()
        if chosen:
            from clubdesk.ui.ranking.players_view import open_player_card

            open_player_card(self.state, chosen[0].number, self)

    def merge(self) -> None:
        chosen = self.selected()
        keep = chosen[0].number if chosen else ""
        drop = chosen[1].number if len(chosen) > 1 else ""
        if MergeDialog(self.state, keep, drop, self).exec():
            self._changed()


class MembersSection(QWidget):
    """The Members section: a tab with the register and a tab with the clubs."""

    def __init__(self, state: DeskState) -> None:
        super().__init__()
        self.state = state
        title = QLabel(_("Members"))
        title.setStyleSheet("font-size: 16pt; font-weight: 600;")
        self.members = MembersPanel(state)
        self.clubs = ClubsPanel(state)
        self.tabs = QTabWidget()
        self.tabs.addTab(self.members, _("Register"))
        self.tabs.addTab(self.clubs, _("Clubs"))
        layout = QVBoxLayout(self)
        layout.addWidget(title)
        layout.addWidget(self.tabs, 1)
        state.dataChanged.connect(self._on_data_changed)

    def _on_data_changed(self, section: str) -> None:
        if section in ("members", "all"):
            self.members.reload()
            self.clubs.reload()

"""Members and clubs: the register table (searchable, sortable), the member dialog, CSV import with a preview,
export, merging two records side by side (rule T2a), and the clubs list.

Keyboard: Ctrl+F search, Ctrl+N new member, Enter edit, Del deactivate, Ctrl+I import, Ctrl+E export,
Ctrl+M merge the selected records. The table shows number, name, club, city and rating (rule T14: phone and
e-mail only appear in the member dialog and the organiser's export).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import (
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    QTimer,
)
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QMessageBox,
    QTabWidget,
    QToolBar,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _, ngettext
from clubdesk.services import members as ms
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.members import privacy_actions
from clubdesk.ui.members.clubs_panel import ClubsPanel
from clubdesk.ui.members.columns import SORT_ROLE, Column, RowsModel, member_columns, sortable_table
from clubdesk.ui.members.member_dialog import ImportDialog, MemberDialog
from clubdesk.ui.members.merge_dialog import MergeDialog
from clubdesk.ui.shell.state import DeskState

NAME_COLUMN, RATING_COLUMN = 1, 4  # in member_columns()


class RegisterModel(RowsModel):
    """The register a page at a time: the first page of a search, and the next one each time
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
            # and the collation table need not load to sort what SQL sorted
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
        self.view, self.proxy = sortable_table(self.model)
        self.view.setObjectName("membersTable")
        self.view.verticalHeader().setDefaultSectionSize(26)
        self.view.doubleClicked.connect(lambda _i: self.edit())
        self.view.sortByColumn(1, Qt.SortOrder.AscendingOrder)
        # the pages come in name order; another order is the whole register's, so all of it is read
        self.view.horizontalHeader().sortIndicatorChanged.connect(lambda *_a: self._whole_if_sorted())
        self.count = QLabel("")
        self.count.setObjectName("memberCount")
        self.model.rowsInserted.connect(lambda *_a: self._show_count())
        # counting every match reads the register; done once the typing pauses
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
            (_("Player &card…"), self.player_card, "playerCardAction"),
            # the members' privacy rights (GDPR, KVKK, UU PDP 2022)
            (_("Personal da&ta…"), self.personal_data, "personalDataAction"),
            (_("E&rase…"), self.erase, "eraseAction"),
            (_("Clear inactive contacts…"), self.clear_inactive, "clearInactiveAction"),
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
        """The first page of the search (a page per keystroke, the rest as the view scrolls)."""
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
        """The selected member's card (events, results, rating; incidents for the organiser)."""
        chosen = self.selected()
        if chosen:
            from clubdesk.ui.ranking.players_view import open_player_card

            open_player_card(self.state, chosen[0].number, self)

    def personal_data(self, folder: str | None = None) -> None:
        chosen = self.selected()
        if chosen and (said := privacy_actions.export_personal(self, self.state, chosen[0].number, folder)):
            self.count.setText(said)

    def erase(self, confirmed: bool = False) -> None:
        chosen = self.selected()
        if chosen and (said := privacy_actions.erase(self, self.state, chosen[0], confirmed=confirmed)):
            self._changed()
            self.count.setText(said)

    def clear_inactive(self, years: int | None = None, confirmed: bool = False) -> None:
        if said := privacy_actions.clear_inactive(self, self.state, years, confirmed=confirmed):
            self._changed()
            self.count.setText(said)

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

"""Merging two member records side by side (rule T2a)."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QDialog,
    QFormLayout,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from clubdesk.i18n import _
from clubdesk.services import members as ms
from clubdesk.services.kernel import ServiceError
from clubdesk.ui.shell.state import DeskState
from clubdesk.ui.shell.theme import themed


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
